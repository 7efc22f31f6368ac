"""The lead metrics on score curves written out by hand (docs/metrics.md, "Lead")."""
from __future__ import annotations

import pytest

from ggpbridge.report import lead

# seat 1 leads, then seat 0 overtakes and wins 4 to 2 (tests/report/data/comeback.rcy's curve)
COMEBACK = [[0, 0], [0, 0], [0, 2], [1, 2], [1, 2], [4, 2], [4, 2]]


def test_the_leader_is_the_sole_best_seat():
    assert lead.leader([3, 1, 2], True) == 0
    assert lead.leader([3, 1, 2], False) == 1     # a `min` game: the lowest score leads
    assert lead.leader([3, 3, 2], True) is None   # a tie for the best: nobody leads


def test_lead_changes_skip_ties_and_do_not_count_the_first_leader():
    assert lead.lead_changes(COMEBACK, True) == 1
    assert lead.lead_changes([[0, 0], [1, 0], [1, 1], [1, 2], [3, 2], [3, 3], [3, 4]], True) == 3
    # a tie between two leads of the same seat is no change
    assert lead.lead_changes([[1, 0], [1, 1], [2, 1]], True) == 0


def test_margin_is_against_the_best_other_seat_in_either_scoring_mode():
    assert lead.margin([5, 2, 4], 0, True) == 1
    assert lead.margin([5, 2, 4], 1, True) == -3
    assert lead.margin([5, 2, 4], 1, False) == 2    # lowest wins: seat 1 is 2 points ahead of seat 2


def test_drama_is_the_deepest_deficit_of_the_winner_and_the_share_of_points_behind():
    assert lead.drama(COMEBACK, 0, True) == (2, pytest.approx(3 / 7))
    assert lead.drama([[0, 0], [1, 0], [2, 0]], 0, True) == (0, 0)


def test_decisiveness_is_one_minus_the_share_of_decisions_before_the_winner_leads_for_good():
    assert lead.decisiveness(COMEBACK, 0, True) == pytest.approx(1 - 5 / 6)
    assert lead.decisiveness([[1, 0], [2, 0], [3, 0]], 0, True) == 1          # led from the start
    assert lead.decisiveness([[1, 0], [1, 2], [3, 2]], 0, True) == 0          # settled by the last decision
    assert lead.decisiveness([[3, 1]], 0, True) is None                        # no decision at all


def test_the_profile_samples_the_curve_at_fixed_fractions_of_the_game():
    marg, leads = lead.profile(COMEBACK, 0, True, bins=2)   # points 0, 3 and 6 of 0..6
    assert marg == [0, -1, 2]
    assert leads == [0.0, 0.0, 1.0]
