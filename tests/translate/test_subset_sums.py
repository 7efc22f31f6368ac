"""`all` over subsets counting those of a given sum (translators/recycle_gdl/subsetsums.py): the
lockstep on a small game of ours, on a translation broken on purpose, past the bound on cards,
and the refusals where counting would not be exact."""
from __future__ import annotations

import pytest

from ggpbridge.crosscheck import crosscheck
from ggpbridge.recycle import parse_text
from ggpbridge.translators.recycle_gdl import subsetsums

from test_coverage_cases import DATA, agree, count_one_more, diverges, refusal, variant

GAME = DATA / "fifteens.rcy"


def _variant(old: str, new: str, name: str):
    return variant(GAME, old, new, name)


@pytest.mark.slow
def test_subsets_of_a_sum_counted_agree_with_the_simulator():
    assert agree(GAME, 10).overflowed == []


@pytest.mark.slow
def test_subsets_counted_for_the_wrong_sum_are_found_by_the_lockstep(monkeypatch):
    count_one_more(monkeypatch, subsetsums)
    diverges(GAME, 10, "state")


@pytest.mark.slow
def test_a_union_of_more_cards_than_counted_ends_the_play_as_overflow():
    # six cards in hand and the starter: seven, beyond the bound at the first turn
    text = GAME.read_text().replace("(repeat 4 ", f"(repeat {subsetsums.MOST} ").replace(
        "(SUIT (RED, BLUE))", "(SUIT (RED, BLUE, GREEN))")
    game = parse_text(text, "many_sevens.rcy")
    rep = crosscheck(game, 2, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.overflowed == [0, 1]


def test_a_subset_walk_that_moves_cards_is_refused():
    game = _variant("(inc ((current player) sto SCORE) 2)", "(move (top (game vloc START)) (top (game vloc PILE)))",
                    "moving_subsets.rcy")
    error = refusal(game)
    assert "subsets" in error.message and error.pos.line == 17


def test_subsets_counted_under_a_map_with_a_negative_score_are_refused():
    # a partial sum above the target could come back down to it
    game = _variant("((RANK : SIX) 6)", "((RANK : SIX) (- 0 6))", "negative_pips.rcy")
    error = refusal(game)
    assert "below 0" in error.message and "PIPS" in error.message


@pytest.mark.slow
def test_the_crosscheck_command_says_why_plays_ended_as_overflow(tmp_path):
    # it stopped on a KeyError for the kinds it had no words for (run variants, subsets)
    from click.testing import CliRunner
    from ggpbridge.cli import main
    from ggpbridge.crosscheck import OVERFLOW_KINDS
    from ggpbridge.cli.crosscheck import _OVERFLOW_HINTS
    assert set(OVERFLOW_KINDS.values()) <= set(_OVERFLOW_HINTS)
    path = tmp_path / "many_sevens.rcy"
    path.write_text(GAME.read_text().replace("(repeat 4 ", f"(repeat {subsetsums.MOST} ").replace(
        "(SUIT (RED, BLUE))", "(SUIT (RED, BLUE, GREEN))"))
    r = CliRunner().invoke(main, ["crosscheck", str(path), "-n", "2"])
    assert r.exit_code == 0, r.output
    assert "2 games ended as overflow" in r.output and "counted the subsets of more cards" in r.output
