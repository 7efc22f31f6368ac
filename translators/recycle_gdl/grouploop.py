"""`all` over the groups of a partition in an action, in the simulator's order.

Schwimmen keeps the best suit of a hand: `(all (partition SUIT HAND) 'G (let (sum 'G ...) 'S
((> 'S SCORE) (set SCORE (* 2 'S)))))`. The rounds do not commute, so they must run in the
simulator's order: groups in order of their first card (sim/ops.py). The loop walks the
attribute's values by the lowest position of a card having each, one register holding the
value; 'G is the filter of the location's cards with that value. That is exact when the body
writes nothing the partition reads (the location, the owner's cycle): the groups and their
order then stay as they were when the loop started, as the simulator's list does.
"""
from __future__ import annotations

from ggpbridge import ir
from ggpbridge.gdl.ast import Var

from . import effects
from .exprs import Binding, unsupported
from .partlets import _value_filter
from .terms import f, name, neg, rule, true


def for_groups(fl, n: ir.ForAll, values: list, lab: str, after: str, env) -> None:
    """Compile `(all (partition ATTR LOC) 'G BODY)` at `lab`, going on to `after` (`fl`: the flow);
    `values` are the attribute's values over the cards of the game (None when a card lacks it)."""
    part = n.coll
    if not (isinstance(part.attr, ir.Name) and len(part.sources) == 1 and isinstance(part.sources[0], ir.Location)
            and values and None not in values):
        raise unsupported("'all' over a partition of more than one collection, or by an attribute some card "
                          "lacks, in an action", n)
    src = part.sources[0]
    written = set().union(set(), *[effects.writes(s, held) for s, _, held in effects.statements(n.body, {})
                                   if not isinstance(s, effects._STRUCTURE)])
    if effects.meets(effects.reads(src, {}), written):
        raise unsupported("'all' over a partition whose body may change the partitioned cards", n)
    value, cards = _value_filter(part, n)
    body = effects.substitute(n.body, n.var, cards)
    if body is None:
        raise unsupported("'all' over a partition whose body rebinds a name its groups read", n)
    lits, l, o = fl.loc(src, env)
    if isinstance(l, Var) or l in fl.bags:
        raise unsupported("'all' over a partition of a location named at run time or kept without order", n)
    args, dom = fl.context(env)
    own, ov = o, fl.fresh.var("o")
    if isinstance(o, Var):   # bound by `lits` at the loop's labels: an argument of the helpers
        args, dom, own = args + [ov], dom + [f("owner_id", ov)], ov
    call = [a if a is not ov else o for a in args]
    p = {h: fl.fresh.pred(h) for h in ("has_at", "below", "first", "lower", "higher", "between", "grp")}
    i, j, k, v, w, u, x = (fl.fresh.var(h) for h in "ijkvwux")
    R = fl.rules.append
    # first(.., V, I): I is the lowest position of a card whose attribute is V
    R(rule(f(p["has_at"], *args, v, i), *dom, true(f("at", l, own, i, x)), f("card_att", x, name(part.attr.value), v)))
    R(rule(f(p["below"], *args, v, i), f(p["has_at"], *args, v, i), f(p["has_at"], *args, v, j), f("less", j, i)))
    R(rule(f(p["first"], *args, v, i), f(p["has_at"], *args, v, i), neg(f(p["below"], *args, v, i))))
    R(rule(f(p["lower"], *args, i), f(p["first"], *args, v, i), f(p["first"], *args, w, j), f("less", j, i)))
    R(rule(f(p["higher"], *args, i), f(p["first"], *args, v, i), f(p["first"], *args, w, j), f("less", i, j)))
    R(rule(f(p["between"], *args, i, j), f(p["first"], *args, v, i), f(p["first"], *args, w, j),
           f(p["first"], *args, u, k), f("less", i, k), f("less", k, j)))
    R(rule(f(p["grp"], *args), f(p["first"], *args, v, i)))
    rid = fl.reg("v", "value_any")
    start = lits + [f(p["first"], *call, w, i), neg(f(p["lower"], *call, i))]
    fl.rules.append(rule(f("var_put", rid, w), fl.at(lab), *start))
    inner, tick = fl.label(), fl.label()
    fl.goto(lab, inner, *start)
    fl.goto(lab, after, *lits, neg(f(p["grp"], *call)))
    fl.stmt(body, inner, tick, env.child(**{value.name: Binding("fluent", rid, "str")}))
    cur = [true(f("var", rid, v))] + lits + [f(p["first"], *call, v, i)]
    step = cur + [f(p["first"], *call, w, j), f("less", i, j), neg(f(p["between"], *call, i, j))]
    fl.rules.append(rule(f("var_put", rid, w), fl.at(tick), *step))
    fl.goto(tick, inner, *step)
    last = cur + [neg(f(p["higher"], *call, i))]
    fl.rules.append(rule(f("var_kill", rid), fl.at(tick), *last))
    fl.goto(tick, after, *last)
