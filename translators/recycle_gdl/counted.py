"""Sizes of `intersect` and `disjunction`: the cards occurring exactly so many times over the
arguments (CardStock's counted sets, `ggpbridge.sim.ops.counted`: as many times as there are
arguments for `intersect`, once for `disjunction`).

Each argument is a union of parts, each a physical location or one such location per player
(team), `(all player 'P ('P vloc TRICK))`. A physical card lies in one place, so a location holds
it at most once and a part per player at most once (its owners differ): a card's occurrences are
the parts holding it, added up. The size counts the cards, in id order, whose occurrences are the
number wanted.
"""
from __future__ import annotations

from ggpbridge import ir

from .export import card
from .exprs import Binding, unsupported, _what
from .nodes import scan_parts
from .terms import const, f, neg, rule

_CARD_NO = "card_no"   # (card_no C K): card C is the K-th card (by id): the order the count walks


def counted_size(comp, c: ir.SetOp, n, env):
    """(literals, size) of `(size (intersect|disjunction ARGS...))`."""
    # intersect: once per collection, an `(all player|team ...)` argument being one per member
    want = sum(_members(comp, a) for a in c.args) if c.op == "intersect" else 1
    parts = []
    for a in c.args:
        got = scan_parts(a)
        if got is None or not all(_single(kind, part) for kind, part in got):
            raise unsupported(f"the size of {_what(c)} (an argument other than physical locations)", n)
        parts += [part for _, part in got]
    x = comp.fresh.var("x")
    cx = env.child(**{"$x": Binding("logic", x, "card")})
    held = [comp.helper("counted_in", cx, [comp.member(p, env, x)]) for p in parts]
    args, dom = comp.context(env)
    occ = None
    for k, h in enumerate(held):   # occ(.., X, K): K of the parts up to this one hold X
        nxt, m, m2 = comp.fresh.pred("counted_occ"), comp.fresh.var("m"), comp.fresh.var("m")
        if occ is None:
            comp.rules.append(rule(f(nxt, *args, x, const(1)), *dom, f("card_id", x), h))
            comp.rules.append(rule(f(nxt, *args, x, const(0)), *dom, f("card_id", x), neg(h)))
        else:
            comp.rules.append(rule(f(nxt, *args, x, m2), f(occ, *args, x, m), h, f("isucc", m, m2)))
            comp.rules.append(rule(f(nxt, *args, x, m), f(occ, *args, x, m), neg(h)))
        occ = nxt
    _card_numbers(comp)
    cnt, i, i2, k, k2 = comp.fresh.pred("counted"), *(comp.fresh.var(h) for h in "iijj")
    ok = f(occ, *args, x, const(want))
    # cnt(.., I, K): K of the cards numbered below I occur as often as wanted
    comp.rules.append(rule(f(cnt, *args, const(0), const(0)), *dom))
    comp.rules.append(rule(f(cnt, *args, i2, k2), f(cnt, *args, i, k), f(_CARD_NO, x, i), ok,
                           f("isucc", i, i2), f("isucc", k, k2)))
    comp.rules.append(rule(f(cnt, *args, i2, k), f(cnt, *args, i, k), f(_CARD_NO, x, i), neg(ok),
                           f("isucc", i, i2)))
    total = comp.fresh.var("k")
    return [f(cnt, *args, const(len(comp.lay.cards)), total)], total


def _members(comp, a) -> int:
    """How many collections an argument of `intersect` is (sim/exprs.x_SetOp)."""
    if isinstance(a, ir.AggCards) and isinstance(a.coll, ir.AllOf):
        return comp.lay.n if a.coll.kind == "player" else len(comp.lay.teams)
    return 1


def _single(kind: str, part) -> bool:
    """Whether a part holds each card at most once: a physical location, or one per player
    (team) owned by that player (team)."""
    loc = part.body if kind == "each" else part
    if not isinstance(loc, ir.Location) or loc.vis == "mem":   # `remember` may put a card there twice
        return False
    return kind == "loc" or loc.owner == ir.Var(part.var)


def _card_numbers(comp) -> None:
    """The facts numbering the cards, once per translation."""
    if comp.card_numbers:
        return
    comp.card_numbers = True
    comp.rules.extend(rule(f(_CARD_NO, card(k), const(k))) for k in range(len(comp.lay.cards)))
