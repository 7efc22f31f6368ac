"""Fitted storages that no integer table can hold: capped at the game's own bounds.

`--fit` sizes the integers to what random plays wrote, and a translation normally widens its
tables to every fitted value. CardStock's Poker (Poker5.rcy, Poker.gdl) scores a hand with
two pairs by `(+ (* (- POINTS 13) 13) ...)` once per card of each pair, so the product
compounds: 58 distinct POINTS in 200 plays, but up to 259,554 in 20 plays and 762,308,392 in
200. No table spans that, not even in digits (wide.py: four facts a number). A storage whose
fitted values span `CAP_FROM` numbers or more therefore does not widen the tables: its
`int_room` is the game's static bounds, and a play that writes beyond them ends as `overflow`
(about one in ten of Poker's plays), as any play beyond a fitted table does.

A `set` whose value leaves the tables (a sum or product with no entry) would otherwise derive
no `set_int` and leave the storage as it was, silently a different game: with a capped storage
every `set` of a computed value also ends the play as `overflow` when its value is missing.
Nothing changes for any game whose fitted storages stay under CAP_FROM.
"""
from __future__ import annotations

from ggpbridge.gdl.ast import Distinct, Not, variables

from .terms import f, neg, rule

# Numbers from which a fitted storage is capped: wide digits cost about 4 facts a number, and
# Hearts' 11,434 already took 4.8 GB fitted (README); the next largest fitted range in the
# corpus is Caterpillar's count times 100, a few thousand.
CAP_FROM = 100_000


def capped_keys(ints: dict) -> frozenset:
    """The storages (by name) whose fitted range (lo, hi) spans CAP_FROM numbers or more."""
    return frozenset(k for k, (lo, hi) in ints.items() if max(hi, 0) - min(lo, 0) + 1 >= CAP_FROM)


def missing_value(ec, env, lo: list, lv: list) -> list:
    """Literals that hold when the storage's owner (`lo`) is found but the value (`lv`) has none
    in the tables, through a helper rule appended to `ec.rules` (ec: the ExprCompiler)."""
    from .exprs import DOMAIN
    logic = {b.term: b.type for b in env.values() if b.kind == "logic"}
    if env.cur is not None:
        logic[env.cur[1]] = "player"
    bound = {v for x in lo if not isinstance(x, (Not, Distinct)) for v in variables(x)}
    seen = {v for x in lv for v in variables(x)}
    args = sorted((seen & bound) | {v for v in seen if v in logic}, key=lambda v: v.name)
    dom = [f(DOMAIN.get(logic[v], "value_any"), v) for v in args if v not in bound]
    has = f(ec.fresh.pred("set_has"), *args)
    ec.rules.append(rule(has, *dom, *lo, *lv))
    return [*lo, *dom, neg(has)]
