"""`all` over the groups of a partition of a union whose rounds commute (partlets.union_walk):
the lockstep on a small game of ours, on a translation broken on purpose, and the refusal of a
body that moves the groups' cards."""
from __future__ import annotations

import pytest

from ggpbridge import ir
from ggpbridge.crosscheck import crosscheck
from ggpbridge.recycle import parse_file, parse_text
from ggpbridge.translators.recycle_gdl import partlets

from test_coverage_cases import DATA, refusal

GAME = DATA / "union_pairs.rcy"


@pytest.mark.slow
def test_pairs_of_a_union_agree_with_the_simulator():
    rep = crosscheck(parse_file(GAME), 10, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 10 and rep.rule_errors == []


@pytest.mark.slow
def test_groups_of_the_wrong_cards_are_found_by_the_lockstep(monkeypatch):
    real = partlets._value_filter

    def others(part, at):   # the cards NOT of the value: a broken group
        value, cards = real(part, at)
        return value, ir.Filter(cards.coll, cards.var, ir.Not(cards.cond, pos=at.pos), pos=cards.pos)
    monkeypatch.setattr(partlets, "_value_filter", others)
    rep = crosscheck(parse_file(GAME), 10, seed=0)
    assert rep.divergence is not None and "state" in rep.divergence["what"]


def test_groups_of_a_union_whose_body_moves_cards_are_refused():
    # the walk takes the groups by value, not in the simulator's order of first cards
    text = GAME.read_text().replace("(inc ((current player) sto SCORE) 6)",
                                    "(move (top 'G) (top (game vloc PILE)))")
    error = refusal(parse_text(text, "moving_union_groups.rcy"))
    assert "partition" in error.message and error.pos.line == 14   # the `all`
