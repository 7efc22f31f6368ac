"""Metrics read off PIPMC's own estimates: meaningful choices, and CardStock's Scorer heuristics.

Both use games in which every seat is an `EvaluatingPIPMC` (trace.py): at each decision
with more than one option, the deciding seat's estimated win share of every option.
The chosen option is the best one, so the seat's "move score" there (CardStock's name)
is the largest estimate. CardStock's heuristics are computed as its Scorer computes them
(CardStock/Scoring/Heuristics in CardStock's repository), under their names and with its
weights, on these estimates; docs/metrics.md gives each formula and where ours differ.
"""
from __future__ import annotations

import math

from ..sim.playout import FINISHED

# CardStock's Scorer runs these five (the others in its Heuristics folder are commented out)
WEIGHTS = {"Fairness": 0.5, "MeaningfulMoves": 0.5, "Drama": 0.25, "Decisiveness": 0.4, "Coolness": 0.5}
DRAMA_THRESHOLD = 0.5      # CardStock's Drama: a move score below this is a bad position
DECISIVE_THRESHOLD = 0.8   # CardStock's Decisiveness: a move score above this is a won position


def meaningful(traces: list[dict]) -> dict:
    """The share of evaluated decisions (more than one option) whose options' estimates differ:
    the choice changed the outcome of at least one of the common-random-number playouts."""
    evaluated = changed = 0
    for t in traces:
        for v in t.get("values") or []:
            if v is None or len(v) < 2:
                continue
            evaluated += 1
            changed += max(v) - min(v) > 1e-9
    return {"decisions": evaluated, "meaningful": changed,
            "share": round(changed / evaluated, 6) if evaluated else None}


def move_scores(t: dict, seats: int) -> list[list[float]]:
    """Each seat's sequence of move scores in one game (the best estimate at each of its
    evaluated decisions), in the order it took them."""
    out = [[] for _ in range(seats)]
    for (player, *_), v in zip(t["decisions"], t.get("values") or []):
        if v is not None and len(v) > 1:
            out[player].append(max(v))
    return out


def fairness(first_seat_share: float | None, seats: int) -> float | None:
    """CardStock's Fairness: 1 when the first seat wins 1/seats of the games, falling linearly
    to 0 at a share of 0 and of 1."""
    if first_seat_share is None:
        return None
    fair = 1.0 / seats
    if first_seat_share <= fair:
        return first_seat_share / fair
    return (1 - first_seat_share) / (1 - fair) if fair < 1 else 1.0


def heuristics(traces: list[dict], seats: int, first_seat_share: float | None) -> dict:
    """CardStock's Scorer heuristics: each value (None where CardStock divides by zero), its
    weight, and the weighted sum (CardStock counts an undefined value as 0)."""
    spreads, drama_sum, drama_n, decisive_sum, decisive_n, drops, pairs = [], 0.0, 0, 0.0, 0, 0, 0
    for t in traces:
        for v in t.get("values") or []:
            if v is not None and len(v) > 1:
                spreads.append(max(v) - min(v))
        if t["status"] != FINISHED:
            continue
        scores = move_scores(t, seats)
        for seq in scores:
            pairs += max(len(seq) - 1, 0)
            drops += sum(1 for a, b in zip(seq, seq[1:]) if a > b)
        if len(t["winners"]) != 1:
            continue
        won = scores[t["winners"][0]]
        for s in won:
            if s < DRAMA_THRESHOLD:
                drama_sum += math.sqrt(DRAMA_THRESHOLD - s)
                drama_n += 1
        if won:
            clear = next((j for j, s in enumerate(won) if s > DECISIVE_THRESHOLD), len(won) - 1)
            decisive_sum += (len(won) - clear) / len(won)
            decisive_n += 1
    values = {
        "Fairness": fairness(first_seat_share, seats),
        "MeaningfulMoves": sum(spreads) / len(spreads) if spreads else None,
        "Drama": drama_sum / drama_n if drama_n else None,
        "Decisiveness": 1 - decisive_sum / decisive_n if decisive_n else None,
        "Coolness": 1 - drops / pairs if pairs else None,
    }
    out = {name: {"value": None if v is None else round(v, 6), "weight": WEIGHTS[name],
                  "weighted": round((v or 0.0) * WEIGHTS[name], 6)} for name, v in values.items()}
    return {"heuristics": out, "total": round(sum(h["weighted"] for h in out.values()), 6)}
