"""The size of `(run top|bottom N LOC using MAP)`: the longest run touching an end of LOC.

The simulator (`ggpbridge.sim.ops.run_sequence`) takes the largest i >= N whose top (bottom) i
cards, sorted by score, climb by exactly one (none: the empty run, size 0). Cards climb by one
exactly when their scores are all different and the highest is the lowest plus i - 1, so the
translation walks the window from the end inwards, one card a round (`win(args, I, P)`: the
I-th card from the end lies at position P), keeping its lowest and highest score and whether a
score came twice; the size is the largest i that passes, else 0 (Cribbage's pegging runs).
"""
from __future__ import annotations

from ggpbridge import ir
from ggpbridge.gdl.ast import Var

from .exprs import _number, unsupported, _what
from .terms import const, f, neg, rule, true


def run_size(comp, r: ir.RunSequence, n, env):
    """(literals, size) of `(size (run …))` (`comp`: the expression compiler)."""
    least = _number(*comp.val(r.count, env))
    if least is None or least < 1 or not isinstance(r.source, ir.Location):
        raise unsupported(f"the size of {_what(r)} (a run of one location, of a constant length of at "
                          f"least 1)", n)
    lits, l, o = comp.loc(r.source, env)
    if isinstance(l, Var):
        raise unsupported(f"the size of {_what(r)} of a location named at run time", n)
    pl, key, po = comp.points(r.points, env)
    args, dom = comp.context(env)
    own, ov = o, comp.fresh.var("o")
    if isinstance(o, Var):   # bound by `lits`, which stay with the caller: an argument of the helpers
        args, dom, own = args + [ov], dom + [f("owner_id", ov)], ov
    call = [a if a is not ov else o for a in args]
    p = {h: comp.fresh.pred("rseq_" + h) for h in ("win", "sc", "low", "high", "twice", "ok", "longer", "some", "size")}
    i, i2, j, q, q2, z, c, v, w, m = (comp.fresh.var(h) for h in "iijppzcvwm")
    R = comp.rules.append
    one = const(1)
    if r.end == "top":   # the first card is the top one, the next ones below it
        R(rule(f(p["win"], *args, one, q), *dom, *pl, f("size", l, own, z), f("isucc", q, z)))
        R(rule(f(p["win"], *args, i2, q2), f(p["win"], *args, i, q), f("isucc", i, i2), f("isucc", q2, q)))
    else:
        R(rule(f(p["win"], *args, one, const(0)), *dom, *pl, f("occupied", l, own, const(0))))
        R(rule(f(p["win"], *args, i2, q2), f(p["win"], *args, i, q), f("isucc", i, i2), f("isucc", q, q2),
               f("occupied", l, own, q2)))
    R(rule(f(p["sc"], *args, i, v), f(p["win"], *args, i, q), *pl, true(f("at", l, own, q, c)),
           f("card_points", key, po, c, v)))
    # the lowest and highest score of the first I cards, and whether a score came twice among them
    R(rule(f(p["low"], *args, one, v), f(p["sc"], *args, one, v)))
    R(rule(f(p["high"], *args, one, v), f(p["sc"], *args, one, v)))
    R(rule(f(p["low"], *args, i2, v), f(p["low"], *args, i, m), f("isucc", i, i2), f(p["sc"], *args, i2, v),
           f("less", v, m)))
    R(rule(f(p["low"], *args, i2, m), f(p["low"], *args, i, m), f("isucc", i, i2), f(p["sc"], *args, i2, v),
           f("leq", m, v)))
    R(rule(f(p["high"], *args, i2, v), f(p["high"], *args, i, m), f("isucc", i, i2), f(p["sc"], *args, i2, v),
           f("less", m, v)))
    R(rule(f(p["high"], *args, i2, m), f(p["high"], *args, i, m), f("isucc", i, i2), f(p["sc"], *args, i2, v),
           f("leq", v, m)))
    R(rule(f(p["twice"], *args, i), f(p["sc"], *args, i, v), f(p["sc"], *args, j, v), f("less", j, i)))
    R(rule(f(p["twice"], *args, i2), f(p["twice"], *args, i), f("isucc", i, i2), f(p["win"], *args, i2, q)))
    # ok(I): the first I cards climb by one (highest = lowest + I - 1), I >= N
    R(rule(f(p["ok"], *args, i), f(p["low"], *args, i, m), f(p["high"], *args, i, w), neg(f(p["twice"], *args, i)),
           f("isucc", j, i), f("plus", m, j, w), f("leq", const(least), i)))
    R(rule(f(p["longer"], *args, i), f(p["ok"], *args, i), f(p["ok"], *args, j), f("less", i, j)))
    R(rule(f(p["some"], *args), f(p["ok"], *args, i)))
    R(rule(f(p["size"], *args, i), f(p["ok"], *args, i), neg(f(p["longer"], *args, i))))
    R(rule(f(p["size"], *args, const(0)), *dom, *pl, neg(f(p["some"], *args))))
    comp.used.add("plus")
    size = comp.fresh.var("k")
    return lits + [f(p["size"], *call, size)], size
