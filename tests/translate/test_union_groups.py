"""`all` over the groups of a partition of a union whose rounds commute (partlets.union_walk):
the lockstep on a small game of ours, on a translation broken on purpose, and the refusal of a
body that moves the groups' cards."""
from __future__ import annotations

import pytest

from ggpbridge.recycle import parse_text
from ggpbridge.translators.recycle_gdl import partlets

from test_coverage_cases import DATA, agree, complement_groups, diverges, refusal

GAME = DATA / "union_pairs.rcy"


@pytest.mark.slow
def test_pairs_of_a_union_agree_with_the_simulator():
    agree(GAME, 10)


@pytest.mark.slow
def test_groups_of_the_wrong_cards_are_found_by_the_lockstep(monkeypatch):
    complement_groups(monkeypatch, partlets)
    diverges(GAME, 10, "state")


def test_groups_of_a_union_whose_body_moves_cards_are_refused():
    # the walk takes the groups by value, not in the simulator's order of first cards
    text = GAME.read_text().replace("(inc ((current player) sto SCORE) 6)",
                                    "(move (top 'G) (top (game vloc PILE)))")
    error = refusal(parse_text(text, "moving_union_groups.rcy"))
    assert "partition" in error.message and error.pos.line == 14   # the `all`
