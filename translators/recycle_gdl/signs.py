"""Whether a game's integers can fall below zero, for the size of the translation's number tables.

A table of n numbers costs about n² ground atoms in `plus`, `less` and every join of two
storages' values, so a negative half doubles n and quadruples them (Blackjack: 754 numbers,
4.7 million atoms, most of them negative sums no play reaches). The translation used to add
the negative half whenever the game had a `dec` or a subtraction; this module proves the two
forms G_cardgame's lowering writes non-negative, and says "may" for everything else:

* `(dec STO 'N)` inside `(any (range LO .. STO) 'N ...)` with LO >= 0, the option's only write
  to STO: a bet of at most what the stash holds;
* `A - B` where B's largest value is at most A's smallest, by intervals of literals, storages
  only ever set to literals, and division by a positive literal (`1 - STATUS // 3`).
"""
from __future__ import annotations

from ggpbridge import ir


def may_go_negative(game: ir.Game) -> bool:
    """False when no `dec` or subtraction of the game can give a value below zero."""
    literal = _literal_storages(game)
    for x in game.walk():
        if isinstance(x, ir.Arith) and x.op == "-":
            a, b = _interval(x.left, literal), _interval(x.right, literal)
            if a is None or b is None or b[1] > a[0]:
                return True
    return any(not safe for safe in _decs(game, {}))


def _decs(n, bound: dict):
    """For each `dec` below n: whether it is a bet of at most its own storage (see the module)."""
    if isinstance(n, ir.Dec):
        v = n.value
        if isinstance(v, ir.IntLit):
            yield v.value <= 0
        else:
            rng = bound.get(v.name) if isinstance(v, ir.Var) else None
            yield rng is not None and rng[0] == n.target and rng[1] is not None and rng[1] is n
        return
    if isinstance(n, ir.AnyOf) and isinstance(n.coll, ir.Range) and isinstance(n.coll.lo, ir.IntLit) \
            and n.coll.lo.value >= 0 and isinstance(n.coll.hi, ir.IntStorage):
        writes = [w for w in n.body.walk() if isinstance(w, (ir.SetInt, ir.Inc, ir.Dec)) and w.target == n.coll.hi]
        only = writes[0] if len(writes) == 1 and isinstance(writes[0], ir.Dec) else None
        inner = dict(bound)
        inner[n.var] = (n.coll.hi, only)
        for c in n.children():
            yield from _decs(c, inner if c is n.body else bound)
        return
    if isinstance(n, (ir.ForAll, ir.AnyOf, ir.Let, ir.Quantified, ir.Filter, ir.IntSum, ir.AggCards)):
        inner = {k: v for k, v in bound.items() if k != n.var}   # the name is rebound
        for c in n.children():
            yield from _decs(c, inner)
        return
    for c in n.children():
        yield from _decs(c, bound)


def _literal_storages(game: ir.Game) -> dict:
    """Storage key -> (lowest, highest) for the keys only ever set to literals (0 before that)."""
    out: dict = {}
    bad = set()
    for x in game.walk():
        if isinstance(x, (ir.SetInt, ir.Inc, ir.Dec)) and isinstance(x.target.key, ir.Name):
            key = x.target.key.value
            if isinstance(x, ir.SetInt) and isinstance(x.value, ir.IntLit):
                lo, hi = out.get(key, (0, 0))
                out[key] = (min(lo, x.value.value), max(hi, x.value.value))
            else:
                bad.add(key)
    return {k: v for k, v in out.items() if k not in bad}


def _interval(n, literal: dict):
    """(lowest, highest) value of an integer expression, or None when not known here."""
    if isinstance(n, ir.IntLit):
        return n.value, n.value
    if isinstance(n, ir.IntStorage) and isinstance(n.key, ir.Name):
        return literal.get(n.key.value)
    if isinstance(n, ir.Arith) and n.op == "//" and isinstance(n.right, ir.IntLit) and n.right.value > 0:
        a = _interval(n.left, literal)
        return None if a is None else (a[0] // n.right.value, a[1] // n.right.value)
    return None
