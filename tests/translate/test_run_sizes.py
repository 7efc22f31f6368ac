"""The size of `(run top|bottom N LOC using MAP)` (translators/recycle_gdl/runseq.py): the
lockstep on a small game of ours, and on a translation broken on purpose."""
from __future__ import annotations

import pytest

from ggpbridge.recycle import parse_text
from ggpbridge.sim.ops import run_sequence
from ggpbridge.translators.recycle_gdl import runseq

from test_coverage_cases import DATA, agree, count_one_more, diverges, refusal

GAME = DATA / "pile_runs.rcy"


@pytest.mark.slow
def test_run_sizes_at_both_ends_of_a_pile_agree_with_the_simulator():
    assert agree(GAME, 10).overflowed == []


@pytest.mark.slow
def test_run_sizes_that_ask_one_card_more_are_found_by_the_lockstep(monkeypatch):
    count_one_more(monkeypatch, runseq)
    diverges(GAME, 10, "state")


def test_the_pile_runs_the_game_scores_are_those_of_its_module_doc():
    # what the translation encodes: distinct scores whose highest is the lowest plus i - 1
    scores = {0: 3, 1: 5, 2: 4, 3: 4}
    assert len(run_sequence(scores, 2, [0, 1, 2], True)) == 3    # 4 5 3 from the top: 3..5
    assert len(run_sequence(scores, 2, [0, 3, 2], True)) == 0    # 4 4: a score twice at the top
    assert len(run_sequence(scores, 1, [3, 1, 2], False)) == 2   # 4 5 from the bottom, then 4 again


def test_a_run_size_of_a_computed_length_is_refused():
    text = GAME.read_text().replace("(run top 2 ", "(run top ((current player) sto LOW) ")
    error = refusal(parse_text(text, "computed_run.rcy"))
    assert "constant length" in error.message
