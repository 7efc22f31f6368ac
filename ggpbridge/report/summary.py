"""The metrics of a set of games, from their traces (formulas: docs/metrics.md).

`Summary` folds traces in one at a time (a game's trace can be dropped once added) and
`result()` gives a JSON-ready dict. Win shares, fairness, lengths and branching use every
finished game; the lead metrics use the finished games whose score curve could be
recorded, and drama, decisiveness and the lead curve those of them with a single winner.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict

from ..sim.playout import FINISHED
from ..sim.stats import quantiles, wilson
from . import lead

BINS = 20   # points of the lead curve: fractions 0, 1/BINS, .., 1 of the game


class _Mean:
    __slots__ = ("n", "total", "sq")

    def __init__(self):
        self.n, self.total, self.sq = 0, 0.0, 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.sq += x * x

    def mean(self):
        return self.total / self.n if self.n else None

    def sd(self):
        if self.n < 2:
            return None
        m = self.total / self.n
        return math.sqrt(max(self.sq / self.n - m * m, 0.0) * self.n / (self.n - 1))


class Summary:
    """Aggregates of the traces of many games of one game with `seats` seats."""

    def __init__(self, seats: int, maximize: bool, labels: dict | None = None):
        self.seats, self.maximize, self.labels = seats, maximize, labels or {}
        self.status = Counter()
        self.wins = [0.0] * seats
        self.decisions, self.steps = Counter(), Counter()
        self.options, self.forced = _Mean(), 0
        self.by_choice: dict = defaultdict(_Mean)
        self.by_trick: dict = defaultdict(_Mean)
        self.curves = 0
        self.changes = Counter()
        self.deficit, self.behind, self.decisive = _Mean(), _Mean(), _Mean()
        self.trailed = 0
        self.margin = [_Mean() for _ in range(BINS + 1)]
        self.leads = [_Mean() for _ in range(BINS + 1)]

    def add(self, t: dict) -> None:
        """Fold one game's trace in."""
        self.status[t["status"]] += 1
        if t["status"] != FINISHED:
            return
        for p in t["winners"]:
            self.wins[p] += 1.0 / len(t["winners"])
        self.decisions[len(t["decisions"])] += 1
        self.steps[t["steps"]] += 1
        for player, k, choice, iters in t["decisions"]:
            self.options.add(k)
            self.forced += k == 1
            if choice is None:
                continue
            self.by_choice[choice].add(k)
            # the outermost stage's pass (a round, a trick), and the turn within it when nested
            self.by_trick[(choice, iters[0] if iters else 0, iters[1] if len(iters) > 1 else 0)].add(k)
        curve = t.get("curve")
        if curve is None:
            return
        self.curves += 1
        mx = self.maximize
        self.changes[lead.lead_changes(curve, mx)] += 1
        if len(t["winners"]) != 1 or self.seats < 2:
            return
        w = t["winners"][0]
        deepest, behind = lead.drama(curve, w, mx)
        self.deficit.add(deepest)
        self.behind.add(behind)
        self.trailed += deepest > 0
        d = lead.decisiveness(curve, w, mx)
        if d is not None:
            self.decisive.add(d)
            marg, leads = lead.profile(curve, w, mx, BINS)
            for i in range(BINS + 1):
                self.margin[i].add(marg[i])
                self.leads[i].add(leads[i])

    def result(self) -> dict:
        """The metrics as a JSON-ready dict."""
        fin = self.status[FINISHED]
        shares = [w / fin if fin else None for w in self.wins]
        known = [s for s in shares if s is not None]
        label = lambda c: self.labels.get(c, f"choice {c}")  # noqa: E731
        return {
            "games": sum(self.status.values()), "finished": fin, "status": dict(self.status),
            "seats": [{"seat": p, "win_share": _r(shares[p]),
                       "interval": [_r(x) for x in wilson(self.wins[p], fin)] if fin else None}
                      for p in range(self.seats)],
            "fairness": {"spread": _r(max(known) - min(known)) if known else None, "even_share": _r(1 / self.seats)},
            "length": {"decisions": _distribution(self.decisions), "steps": _distribution(self.steps)},
            "branching": {
                "mean_options": _r(self.options.mean()),
                "forced_share": _r(self.forced / self.options.n) if self.options.n else None,
                "by_choice": [{"choice": c, "label": label(c), "decisions": m.n, "mean_options": _r(m.mean())}
                              for c, m in sorted(self.by_choice.items())],
                "by_trick": [{"choice": c, "label": label(c), "iteration": it, "turn": turn, "decisions": m.n,
                              "mean_options": _r(m.mean())} for (c, it, turn), m in sorted(self.by_trick.items())],
            },
            "lead": {
                "games": self.curves,
                "lead_changes": {"mean": _r(_hist_mean(self.changes)), "histogram": _hist(self.changes)},
                "drama": {"games": self.deficit.n, "mean_deepest_deficit": _r(self.deficit.mean()),
                          "trailed_share": _r(self.trailed / self.deficit.n) if self.deficit.n else None,
                          "mean_behind_share": _r(self.behind.mean())},
                "decisiveness": {"games": self.decisive.n, "mean": _r(self.decisive.mean())},
                "curve": {"fraction": [i / BINS for i in range(BINS + 1)],
                          "mean_margin": [_r(m.mean()) for m in self.margin],
                          "leader_share": [_r(m.mean()) for m in self.leads]},
            },
        }


def _hist(h: Counter) -> dict:
    return {str(k): h[k] for k in sorted(h)}


def _hist_mean(h: Counter):
    total = sum(h.values())
    return sum(k * v for k, v in h.items()) / total if total else None


def _distribution(h: Counter) -> dict:
    """Mean, sd, minimum, median, maximum and the histogram of a count per game."""
    total = sum(h.values())
    if not total:
        return {"mean": None, "sd": None, "min": None, "median": None, "max": None, "histogram": {}}
    m = _Mean()
    m.n, m.total, m.sq = total, float(sum(k * v for k, v in h.items())), float(sum(k * k * v for k, v in h.items()))
    q = quantiles(h)
    return {"mean": _r(m.mean()), "sd": _r(m.sd()), "min": q["min"], "median": q["median"], "max": q["max"],
            "histogram": _hist(h)}


def _r(x):
    return None if x is None else round(x, 6)
