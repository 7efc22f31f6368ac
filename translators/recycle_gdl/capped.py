"""Fitted storages that no integer table can hold: capped at the game's own bounds.

`--fit` sizes the integers to what random plays wrote, and a translation normally widens its
tables to every fitted value. CardStock's Poker (Poker5.rcy, Poker.gdl) scores a hand with
two pairs by `(+ (* (- POINTS 13) 13) ...)` once per card of each pair, so the product
compounds: 58 distinct POINTS in 200 plays, but up to 259,554 in 20 plays and 762,308,392 in
200. No table spans that, not even in digits (wide.py: four facts a number). A storage whose
fitted values span `CAP_FROM` numbers or more therefore does not widen the tables: its
`int_room` is the game's static bounds, and a play that writes beyond them ends as `overflow`
(about one in ten of Poker's plays), as any play beyond a fitted table does.

With a capped storage every `set` of a computed value (not only one through the tables'
arithmetic, offtables.py) ends the play as `overflow` when its value is missing.
Nothing changes for any game whose fitted storages stay under CAP_FROM.
"""
from __future__ import annotations

# Numbers from which a fitted storage is capped: wide digits cost about 4 facts a number, and
# Hearts' 11,434 already took 4.8 GB fitted (README); the next largest fitted range in the
# corpus is Caterpillar's count times 100, a few thousand.
CAP_FROM = 100_000


def capped_keys(ints: dict) -> frozenset:
    """The storages (by name) whose fitted range (lo, hi) spans CAP_FROM numbers or more."""
    return frozenset(k for k, (lo, hi) in ints.items() if max(hi, 0) - min(lo, 0) + 1 >= CAP_FROM)
