"""Who leads during a game: lead changes, how far behind the winner was, when it became clear.

All read a game's score curve x_0 .. x_T: x_t is every seat's score, by the game's own
scoring expression, in the state of decision t (before it is taken), and x_T the final
scores (docs/metrics.md). "Best" is the highest score in a `max` game and the lowest in
a `min` game. The functions take one curve and are pure; `summary` aggregates them.
"""
from __future__ import annotations


def leader(point: list, maximize: bool) -> int | None:
    """The seat with the strictly best score at one point, or None on a tie for the best."""
    best = max(point) if maximize else min(point)
    at = [p for p, s in enumerate(point) if s == best]
    return at[0] if len(at) == 1 else None


def lead_changes(curve: list, maximize: bool) -> int:
    """How often the sole leader is a different seat from the previous sole leader
    (points where the best score is tied are skipped; the first leader is no change)."""
    changes, last = 0, None
    for point in curve:
        now = leader(point, maximize)
        if now is None:
            continue
        if last is not None and now != last:
            changes += 1
        last = now
    return changes


def margin(point: list, seat: int, maximize: bool) -> float:
    """How far `seat` is ahead of the best other seat (negative: behind), in score points."""
    others = [s for p, s in enumerate(point) if p != seat]
    if not others:
        return 0.0
    return point[seat] - max(others) if maximize else min(others) - point[seat]


def drama(curve: list, winner: int, maximize: bool) -> tuple[float, float]:
    """(deepest deficit, share of points behind) of the eventual winner: the most score points
    it was behind the best other seat, 0 if never; the share of the curve's points at which it
    was strictly behind."""
    margins = [margin(p, winner, maximize) for p in curve]
    deepest = max(0.0, -min(margins))
    return deepest, sum(1 for m in margins if m < 0) / len(margins)


def decisiveness(curve: list, winner: int, maximize: bool) -> float | None:
    """1 - t*/T, with t* the first point from which the winner is the sole leader to the end
    (T the number of decisions): 1 when it led from the start, near 0 when only the last
    decision settled it. None for a game without a decision."""
    T = len(curve) - 1
    if T < 1:
        return None
    t_star = T
    for t in range(T, -1, -1):
        if leader(curve[t], maximize) != winner:
            break
        t_star = t
    return 1 - t_star / T


def profile(curve: list, winner: int, maximize: bool, bins: int = 20) -> tuple[list, list]:
    """The winner's margin and whether it is the sole leader at the fractions 0, 1/bins, .., 1
    of the game (the point nearest each fraction): a game's lead curve on a common axis."""
    T = len(curve) - 1
    marg, leads = [], []
    for i in range(bins + 1):
        point = curve[round(i * T / bins)]
        marg.append(margin(point, winner, maximize))
        leads.append(1.0 if leader(point, maximize) == winner else 0.0)
    return marg, leads
