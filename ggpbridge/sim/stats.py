"""Playtest statistics, aggregated as games stream in (memory does not grow with their number).

Every sum is exact (integers, halves, and win shares counted per tie size), so statistics
gathered in parts and merged in seed order (`Stats.merge`, a cluster's chunks) are identical to
those gathered in one run, whatever the parts.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from .playout import CYCLE, ERROR, FINISHED, UNFINISHED, Result


Z95 = 1.959964   # the standard normal's 97.5% quantile: a two-sided 95% interval


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a win share: `wins` of `n` games, at confidence z (95%).

    With p = wins/n it is (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n). Ties split a win
    1/k, so `wins` may be fractional; the same formula is used with it. A game's share then
    lies in [0, 1] with mean p, so its variance is at most p(1-p), the variance of a win/loss
    game the formula assumes: with ties the interval is, if anything, too wide (conservative).
    None when there is no game.
    """
    if n <= 0:
        return None
    p, z2 = wins / n, z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(p * (1 - p), 0.0) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class _Mean:
    # integer sums while the values are integers (scores, steps): exact at any size, so the
    # sum does not depend on the order games are added in; ranks are halves, exact in floats
    n: int = 0
    total: float = 0
    sq: float = 0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.sq += x * x

    def merge(self, other: "_Mean") -> None:
        self.n += other.n
        self.total += other.total
        self.sq += other.sq

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else float("nan")

    @property
    def sd(self) -> float:
        if self.n < 2:
            return 0.0
        return math.sqrt(max(self.sq / self.n - self.mean ** 2, 0.0) * self.n / (self.n - 1))


@dataclass
class Stats:
    """Aggregates of many games of one game."""

    players: int
    games: int = 0
    status: Counter = field(default_factory=Counter)
    wins: list = field(default_factory=list)   # per seat: tie size k -> games it won with k-1 others
    score: list = field(default_factory=list)
    rank: list = field(default_factory=list)
    choices: _Mean = field(default_factory=_Mean)
    steps: _Mean = field(default_factory=_Mean)
    choice_hist: Counter = field(default_factory=Counter)
    step_hist: Counter = field(default_factory=Counter)
    seat_n: list = field(default_factory=list)
    seat_sum: list = field(default_factory=list)
    where_options: dict = field(default_factory=dict)
    forced: int = 0
    decisions: int = 0
    errors: list = field(default_factory=list)   # (seed, message), the first few
    runaway_seeds: dict = field(default_factory=dict)
    seconds: float = 0.0
    engine: str = "reference"
    # a front-end's own per-play counts (Program.count): labels, and the crash limit on one
    tally_labels: list = field(default_factory=list)
    tally_limit: tuple | None = None
    sole_wins: list = field(default_factory=list)   # per seat, among the plays that did not crash
    draws: int = 0                                   # plays not crashed with more than one best score
    crashes: Counter = field(default_factory=Counter)   # cause -> plays
    tally_means: dict = field(default_factory=dict)     # label -> _Mean over the plays not crashed

    def __post_init__(self):
        n = self.players
        self.sole_wins = [0] * n
        self.tally_means = {k: _Mean() for k in self.tally_labels}
        self.wins = [Counter() for _ in range(n)]
        self.score = [_Mean() for _ in range(n)]
        self.rank = [_Mean() for _ in range(n)]
        self.seat_n = [0] * n
        self.seat_sum = [0] * n

    def add(self, r: Result) -> None:
        """Fold one game in."""
        self.games += 1
        self.status[r.status] += 1
        self._add_outcome(r)
        if r.status == ERROR:
            if len(self.errors) < 10:
                self.errors.append((r.seed, r.error))
            return
        if r.status in (CYCLE, UNFINISHED):
            seeds = self.runaway_seeds.setdefault(r.status, [])
            if len(seeds) < 10:  # a few seeds to reproduce with; the counts are in `status`
                seeds.append(r.seed)
            return
        k = len(r.winners)
        for p in r.winners:
            self.wins[p][k] += 1
        for p in range(self.players):
            self.score[p].add(r.scores[p])
            self.rank[p].add(r.ranks[p])
        nd = len(r.decisions)
        self.choices.add(nd)
        self.steps.add(r.steps)
        self.choice_hist[nd] += 1
        self.step_hist[r.steps] += 1
        self.decisions += nd
        seat_n, seat_sum, where = self.seat_n, self.seat_sum, self.where_options
        for player, options, choice, iterations in r.decisions:
            seat_n[player] += 1
            seat_sum[player] += options
            if options == 1:
                self.forced += 1
            if choice is None:  # the fast path does not say where a decision stood
                continue
            m = where.get((choice, iterations))
            if m is None:
                m = where[(choice, iterations)] = _Mean()
            m.add(options)

    def _add_outcome(self, r: Result) -> None:
        """Table 5's view of a play: a crash by its cause, else a sole winner or a draw."""
        cause = crash_cause(r, self.tally_limit)
        if cause is not None:
            self.crashes[cause] += 1
            return
        if len(r.winners) == 1:
            self.sole_wins[r.winners[0]] += 1
        else:
            self.draws += 1
        for k, m in self.tally_means.items():
            if k in r.tallies:
                m.add(r.tallies[k])

    def outcomes(self, own_unit: bool = False) -> dict | None:
        """Table 5's columns (wins per seat, draws, crashes by cause, mean turns), or None
        when the game has no tallies. Wins, draws and crashes add up to the plays.

        With `own_unit`, a game without tallies (RECYCLE, GDL) gets the columns too, its
        length in the simulator's own unit: choices per play (forced ones included), with no
        limit but the step cap."""
        if not self.tally_labels and not own_unit:
            return None
        unit, bound = self.tally_limit if self.tally_limit else (None, None)
        mean = {k: _num(m.mean) for k, m in self.tally_means.items()}
        if not self.tally_labels:
            # `choices` holds the finished plays, which are the uncrashed ones without a limit
            mean = {"choices": _num(self.choices.mean) if self.choices.n else None}
        return {"won": list(self.sole_wins), "draws": self.draws, "crashed": sum(self.crashes.values()),
                "crashes": dict(self.crashes.most_common()), "mean": mean,
                "limit": {"unit": unit, "bound": bound}}

    @property
    def win_share(self) -> list[float]:
        """Each seat's games won, a win tied among k seats counting 1/k (summed exactly)."""
        return [float(sum(Fraction(c, k) for k, c in w.items())) for w in self.wins]

    def merge(self, other: "Stats") -> None:
        """Fold in the statistics of other games, played with later seeds: the result is what adding
        those games one by one after these would give (the first few errors and runaway seeds too)."""
        self.games += other.games
        self.status.update(other.status)
        for mine, theirs in zip(self.wins, other.wins):
            mine.update(theirs)
        for mine, theirs in ((self.score, other.score), (self.rank, other.rank)):
            for a, b in zip(mine, theirs):
                a.merge(b)
        self.choices.merge(other.choices)
        self.steps.merge(other.steps)
        self.choice_hist.update(other.choice_hist)
        self.step_hist.update(other.step_hist)
        self.seat_n = [a + b for a, b in zip(self.seat_n, other.seat_n)]
        self.seat_sum = [a + b for a, b in zip(self.seat_sum, other.seat_sum)]
        for key, m in other.where_options.items():
            self.where_options.setdefault(key, _Mean()).merge(m)
        self.forced += other.forced
        self.decisions += other.decisions
        self.errors.extend(other.errors[:10 - len(self.errors)])
        for status, seeds in other.runaway_seeds.items():
            mine = self.runaway_seeds.setdefault(status, [])
            mine.extend(seeds[:10 - len(mine)])
        self.sole_wins = [a + b for a, b in zip(self.sole_wins, other.sole_wins)]
        self.draws += other.draws
        self.crashes.update(other.crashes)
        for k, m in other.tally_means.items():
            self.tally_means.setdefault(k, _Mean()).merge(m)

    def report(self) -> dict:
        """A JSON-ready summary."""
        fin = self.status[FINISHED]
        win_share = self.win_share
        return {
            "games": self.games,
            "finished": fin,
            "cycles": self.status[CYCLE],
            "unfinished": self.status[UNFINISHED],
            "errors": self.status[ERROR],
            "error_examples": [{"seed": s, "error": e} for s, e in self.errors],
            "runaway_seeds": self.runaway_seeds,
            "seats": [{
                "seat": p,
                "win_share": win_share[p] / fin if fin else None,
                "win_interval": [_num(x) for x in wilson(win_share[p], fin)] if fin else None,
                "mean_score": _num(self.score[p].mean),
                "mean_rank": _num(self.rank[p].mean),
                "mean_options": _num(self.seat_sum[p] / self.seat_n[p]) if self.seat_n[p] else None,
            } for p in range(self.players)],
            "choices_per_game": {"mean": _num(self.choices.mean), "sd": _num(self.choices.sd),
                                 "distribution": dict(sorted(self.choice_hist.items()))},
            "steps_per_game": {"mean": _num(self.steps.mean), "sd": _num(self.steps.sd),
                               **quantiles(self.step_hist)},
            "branching": {
                "mean_options": _num(sum(self.seat_sum) / self.decisions) if self.decisions else None,
                "forced_share": self.forced / self.decisions if self.decisions else None,
                "by_stage_iteration": [
                    {"choice": ch, "iterations": list(it), "decisions": m.n, "mean_options": _num(m.mean)}
                    for (ch, it), m in sorted(self.where_options.items())],
            },
            **({"outcomes": self.outcomes()} if self.tally_labels else {}),
            "engine": self.engine,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
        }


def crash_cause(r: Result, limit: tuple | None) -> str | None:
    """Why a play counts as crashed (Table 5: not finished within the limit, or an action
    that makes no sense), or None. The limit comes first: a play past it would have been
    stopped before anything later went wrong."""
    if limit is not None:
        unit, bound = limit
        if r.tallies.get(unit, 0) > bound:
            return f"over {bound} {unit}"
    if r.status in (CYCLE, UNFINISHED):
        return "never ends (a stage that cannot end)" if r.status == CYCLE else "step cap reached"
    if r.status == ERROR:
        return "game error: " + _error_cause(r.error or "")
    return None


def _error_cause(message: str) -> str:
    """A game error's message without its source excerpt: its first line, which names the
    rule's file:line:col and what went wrong, so that plays failing alike group together."""
    first = message.splitlines()[0] if message else "unknown"
    return re.sub(r"\bplayer \d+", "a player", first)   # the same error of any seat is one cause


def quantiles(hist: Counter) -> dict:
    """Minimum, quartiles and maximum of a histogram."""
    if not hist:
        return {"min": None, "q1": None, "median": None, "q3": None, "max": None}
    keys = sorted(hist)
    total = sum(hist.values())
    out, seen, marks = {}, 0, [("q1", 0.25), ("median", 0.5), ("q3", 0.75)]
    for k in keys:
        seen += hist[k]
        while marks and seen >= marks[0][1] * total:
            out[marks.pop(0)[0]] = k
    return {"min": keys[0], **out, "max": keys[-1]}


def _num(x):
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(x, 4)
