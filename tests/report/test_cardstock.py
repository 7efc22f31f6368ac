"""CardStock's Scorer heuristics and meaningful choices on traces written out by hand."""
from __future__ import annotations

import math

import pytest

from ggpbridge.report import cardstock


def _game(winners, decisions, values, status="finished"):
    return {"status": status, "winners": winners,
            "decisions": [[p, len(v or [0]), None, []] for p, v in zip(decisions, values)], "values": values}


def test_fairness_is_a_tent_peaking_at_an_even_first_seat_share():
    assert cardstock.fairness(0.5, 2) == 1
    assert cardstock.fairness(0.25, 2) == pytest.approx(0.5)
    assert cardstock.fairness(0.75, 2) == pytest.approx(0.5)
    assert cardstock.fairness(1.0, 2) == 0
    assert cardstock.fairness(0.0, 4) == 0
    assert cardstock.fairness(0.25, 4) == 1


def test_move_scores_are_the_best_estimate_of_each_evaluated_decision_per_seat():
    g = _game([0], [0, 1, 0, 1], [[0.2, 0.3], None, [0.9, 0.1], [0.4, 0.4]])
    assert cardstock.move_scores(g, 2) == [[0.3, 0.9], [0.4]]


def test_the_heuristics_follow_cardstock_s_formulas():
    # seat 0 wins with move scores 0.3, 0.6, 0.1 then 0.9; seat 1 plays 0.5, 0.4
    g = _game([0], [0, 1, 0, 1, 0, 0],
              [[0.3, 0.1], [0.5, 0.5], [0.6, 0.2], [0.4, 0.0], [0.1, 0.1], [0.9, 0.3]])
    h = cardstock.heuristics([g], 2, 0.5)["heuristics"]
    # Drama: the winner's scores below 0.5 (0.3, 0.1), mean of sqrt(0.5 - s)
    assert h["Drama"]["value"] == pytest.approx((math.sqrt(0.2) + math.sqrt(0.4)) / 2, abs=1e-6)
    # Decisiveness: first score above 0.8 is the 4th of 4: 1 - (4 - 3) / 4
    assert h["Decisiveness"]["value"] == pytest.approx(0.75)
    # Coolness: drops 0.6 > 0.1 (seat 0) and 0.5 > 0.4 (seat 1) of 3 + 1 consecutive pairs
    assert h["Coolness"]["value"] == pytest.approx(1 - 2 / 4)
    # MeaningfulMoves: mean spread of the estimates, (0.2 + 0 + 0.4 + 0.4 + 0 + 0.6) / 6
    assert h["MeaningfulMoves"]["value"] == pytest.approx(1.6 / 6, abs=1e-6)
    assert h["Fairness"]["value"] == 1
    total = sum(v["value"] * cardstock.WEIGHTS[k] for k, v in h.items())
    assert cardstock.heuristics([g], 2, 0.5)["total"] == pytest.approx(total, abs=1e-5)


def test_undefined_heuristics_are_none_and_count_zero_in_the_total():
    out = cardstock.heuristics([], 2, None)
    assert all(h["value"] is None and h["weighted"] == 0 for h in out["heuristics"].values())
    assert out["total"] == 0


def test_a_choice_is_meaningful_when_its_options_estimates_differ():
    g = _game([0], [0, 1, 0], [[0.5, 0.5, 0.5], [1.0, 0.0], None])
    assert cardstock.meaningful([g]) == {"decisions": 2, "meaningful": 1, "share": 0.5}
