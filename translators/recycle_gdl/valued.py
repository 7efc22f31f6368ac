"""Point-map awards whose value is drawn at run time: `((RANK (SEVEN)) (random 2))`.

The simulator draws each such value when the map is set (a chance event per award, in the
awards' order) and adds it to the cards the award matches. The translation keeps the value
drawn in a `parg` slot of the map and writes the award as one alternative per value it can
take, each matching when the card matches the award and the slot holds that value, so the
cards' scores stay a table of patterns of matched awards (`_points` in __init__.py). Only
awards matching literal attribute values and drawing from a range of constants are taken:
a card then matches exactly one alternative of each award it matches, which keeps the
patterns few (one per value, not one per subset of alternatives).
"""
from __future__ import annotations

from itertools import product

from ggpbridge import ir

from .folding import constant

# values of one drawn award beyond this many would make the score table grow past use
_MAX_VALUES = 32


def award_values(a, env) -> list | None:
    """The values award `a` can add when its value is `(random LO HI)` of constants and it matches
    literal attribute values only; else None."""
    v = a.value
    if not isinstance(v, ir.Random) or not all(isinstance(k, ir.Name) and isinstance(x, ir.Name) for k, x in a.conds):
        return None
    lo, hi = constant(v.lo, env), constant(v.hi, env)
    if lo is None or hi is None or hi < lo or hi - lo >= _MAX_VALUES:
        return None
    return list(range(lo, hi + 1))


def next_slot(dyn: list, conds: list) -> int:
    """The next free `parg` slot of a map, after those of the awards `dyn` and the conditions `conds`."""
    used = [c[2] for _, cs in dyn for c in cs if c[2] is not None] + [c[2] for c in conds if c[2] is not None]
    return max(used) + 1 if used else 0


def patterns(dyn: list, matches) -> list:
    """The match patterns (bit i: award i of `dyn` matches) one card can have, in increasing order.

    An alternative of a drawn award (a condition `(None, value, slot)`) can match only when the
    card has the award's attribute values (`matches(conds)`), and exactly one alternative of a
    slot does then. Without drawn awards these are all 2^len(dyn) patterns."""
    slots: dict = {}
    allowed = []
    for i, (_, conds) in enumerate(dyn):
        slot = next((c[2] for c in conds if c[0] is None), None)
        if slot is None:
            allowed.append((0, 1))
            continue
        ok = matches([c for c in conds if c[0] is not None])
        slots.setdefault(slot, (ok, []))[1].append(i)
        allowed.append((0, 1) if ok else (0,))
    out = []
    for bits in product(*reversed(allowed)):   # the most significant bit first: increasing order
        bits = bits[::-1]
        if all(sum(bits[i] for i in idx) == (1 if ok else 0) for ok, idx in slots.values()):
            out.append(sum(b << i for i, b in enumerate(bits)))
    return out
