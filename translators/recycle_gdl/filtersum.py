"""`(sum (filter LOC 'X COND) using MAP)`: the scores of a location's cards that pass a filter.

Added up the positions, as `_count_filter` (exprs.py) counts them: the card at each position
that passes adds its score to the running sum. The simulator adds the passing cards in list
order; integer addition does not care, but the running sum keeps the translation's tables
to the sums a game can form. Schwimmen needs it for the sum of one rank's cards of a hand.
"""
from __future__ import annotations

from ggpbridge import ir
from ggpbridge.gdl.ast import Var

from .exprs import Binding, subst, unsupported, _what
from .terms import const, f, neg, rule, true


def filtered_sum(tr, n: ir.Sum, env):
    """(literals, total) of the sum `n` of a filtered location (`tr`: the expression compiler)."""
    c = n.cards
    pl, key, po = tr.points(n.points, env)
    if pl or isinstance(key, Var) or isinstance(po, Var):
        raise unsupported(f"the sum of {_what(c)} using a point map chosen at run time", n)
    lits, l, o = tr.loc(c.coll, env)
    if isinstance(l, Var) or l in tr.bags:
        raise unsupported(f"the sum of {_what(c)} (a location named at run time or kept without order)", n)
    x, ov, v = tr.fresh.var("x"), tr.fresh.var("o"), tr.fresh.var("v")
    ok = tr.cond(c.cond, env.child(**{c.var: Binding("logic", x, "card")}))
    args, dom = tr.context(env)
    own = o
    if isinstance(o, Var):   # the owner is bound by `lits`, which stay with the caller: an argument
        args, dom, own = args + [ov], dom + [f("owner_id", ov)], ov
        ok = subst(ok, {o: ov})
    tr.used.update({"plus", "sum"})
    tr.sum_maps.add(key)   # its total is bounded as a whole location's is
    i, i2, s, s2 = (tr.fresh.var(h) for h in "iiss")
    adds, passes, total = tr.fresh.pred("adds"), tr.fresh.pred("pass"), tr.fresh.pred("fsum")
    # adds(.., I, V): the card at position I passes and scores V; fsum(.., I, S): S below I
    tr.rules.append(rule(f(adds, *args, i, v), *dom, true(f("at", l, own, i, x)), *ok,
                         f("card_points", key, po, x, v)))
    tr.rules.append(rule(f(passes, *args, i), f(adds, *args, i, v)))
    tr.rules.append(rule(f(total, *args, const(0), const(0)), *dom))
    tr.rules.append(rule(f(total, *args, i2, s2), f(total, *args, i, s), f(adds, *args, i, v),
                         f("plus", s, v, s2), f("isucc", i, i2)))
    tr.rules.append(rule(f(total, *args, i2, s), f(total, *args, i, s), f("occupied", l, own, i),
                         neg(f(passes, *args, i)), f("isucc", i, i2)))
    out, size = tr.fresh.var("t"), tr.fresh.var("z")
    call = [a if a is not ov else o for a in args]
    return lits + [f("size", l, o, size), f(total, *call, size, out)], out
