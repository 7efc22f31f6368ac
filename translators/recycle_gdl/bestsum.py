"""The translation of ir.BestSum (docs/gcardgame.md decision 15) as a small static table.

A best sum reads the location's sum in the low map (L, the ordinary `points_sum`) and the
number k of its cards whose high score is larger (a filtered count). When every such card is
raised by the same d (Blackjack's ace: 1 or 10, d = 9), the best total is a function of
(L, k) alone:

    L + min(k, (bound - L) // d) d   when L <= bound, else L

so one fact per (L, k) — L over the sums the low map can reach, k up to the cards that have
two values — gives it: `(best_sum LOW HIGH BOUND L K V)`. A few thousand facts, where a second
running sum in the high map and a comparison of it with the bound would ground over every
pair of numbers.
"""
from __future__ import annotations

from ggpbridge.sim.ops import best_sum

from .exprs import unsupported
from .terms import const, f, rule


def common_raise(point_sets, low, high, node) -> tuple[int, int]:
    """(d, k): the one raise of the two-valued cards and how many cards have it, from the
    maps' literal awards; an unsupported-construct error when the maps are set more than once,
    at run time, or raise cards by different amounts."""
    sets = {key: [(base, dyn) for _, k, base, dyn in point_sets if k == key] for key in (low, high)}
    for key, got in sets.items():
        if len(got) != 1 or got[0][1]:
            raise unsupported(f"a best sum over the point map {key} set {len(got)} times or with awards "
                              f"computed at run time: its raises are not known statically", node)
    lo, hi = sets[low][0][0], sets[high][0][0]
    raises = {h - x for x, h in zip(lo, hi) if h != x}
    if len(raises) > 1 or any(r < 0 for r in raises):
        raise unsupported(f"a best sum whose cards are raised by different amounts {sorted(raises)}: only "
                          f"one common raise is translated", node)
    if not raises:
        return 0, 0
    d = raises.pop()
    return d, sum(1 for x, h in zip(lo, hi) if h - x == d)


def best(low_sum: int, k: int, d: int, bound: int) -> int:
    """The best total of cards whose low sum is low_sum, k of them raisable by d: the simulator's
    ops.best_sum (the formula above) over one card of low_sum and k cards of 0 or d."""
    return best_sum([low_sum] + [0] * k, [low_sum] + [d] * k, bound)


def facts(low, high, bound: int, d: int, kmax: int, sums: range) -> list:
    """`(best_sum LOW HIGH BOUND L K V)` for every low sum L in `sums` and k = 0..kmax."""
    return [rule(f("best_sum", low, high, const(bound), const(s), const(k), const(best(s, k, d, bound))))
            for s in sums for k in range(kmax + 1)]
