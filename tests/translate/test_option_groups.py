"""Options over the groups of runs and partitions (translators/recycle_gdl/optgroups.py): the
lockstep on a small game of ours, the same game on translations broken on purpose, and the
refusals where the rewriting would not be exact."""
from __future__ import annotations

import pytest

from ggpbridge import ir
from ggpbridge.crosscheck import crosscheck
from ggpbridge.recycle import parse_file
from ggpbridge.sim.ops import runs
from ggpbridge.translators.recycle_gdl import optgroups, runloops
from ggpbridge.translators.recycle_gdl.export import card

from test_coverage_cases import DATA, complement_groups, refusal, variant

GAME = DATA / "option_groups.rcy"


def lockstep(n: int):
    return crosscheck(parse_file(GAME), n, seed=0)


@pytest.mark.slow
def test_options_over_runs_and_sets_agree_with_the_simulator():
    rep = lockstep(6)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 6 and rep.rule_errors == [] and rep.overflowed == []


@pytest.mark.slow
def test_runs_one_card_short_are_found_by_the_lockstep(monkeypatch):
    # runs of one card fewer than the game asks for offer options the simulator does not
    real = runloops.run_relations
    monkeypatch.setattr(runloops, "run_relations", lambda flow, r, least, env, walk=True:
                        real(flow, r, least - 1, env, walk))
    rep = lockstep(6)
    assert rep.divergence is not None and "options differ" in rep.divergence["what"]


@pytest.mark.slow
def test_a_set_named_by_the_wrong_cards_is_found_by_the_lockstep(monkeypatch):
    complement_groups(monkeypatch, optgroups)
    rep = lockstep(6)
    assert rep.divergence is not None and "options differ" in rep.divergence["what"]


def test_a_run_is_named_by_its_lowest_and_highest_scoring_cards():
    # the simulator sorts a run by score: card 2 scores lowest (1), card 7 highest (3)
    scores = {7: 3, 2: 1, 9: 2, 4: 9}
    (run,) = runs(scores, 3, [7, 2, 9, 4], False)
    coll = ir.Runs("largest", ir.IntLit(3), None, None)
    assert optgroups.element_terms(coll, run, None) == [card(2), card(7)]


def _variant(old: str, new: str, name: str):
    return variant(GAME, old, new, name)


def test_an_option_reading_a_runs_order_is_refused():
    # the simulator's run is in score order, the translation's in location order
    game = _variant("(repeat all (move (top 'R) (top ((current player) vloc MELD))))",
                    "(move (top 'R) (top ((current player) vloc MELD)))", "run_top.rcy")
    error = refusal(game)
    assert "order" in error.message and error.pos.line == 19


def test_an_option_over_runs_of_a_map_with_equal_scores_is_refused():
    # two suits score alike: the simulator would list a variant of a run per card
    game = _variant("((SUIT : BLUE) 20)", "((SUIT : BLUE) 10)", "equal_scores.rcy")
    error = refusal(game)
    assert "score alike" in error.message and "SEQ" in error.message


def test_a_group_option_shows_its_cards_by_their_attributes():
    # `show` printed a group as the card numbers of a list its option's body had emptied
    from ggpbridge.moves import element_text
    from ggpbridge.sim.machine import Program
    lay = Program(parse_file(GAME).game).lay
    assert element_text(lay, [0, 1], "cards") == "[(ONE RED) (ONE BLUE)]"


@pytest.mark.slow
def test_a_card_unequal_to_the_top_of_an_empty_memory_is_found_by_the_lockstep(monkeypatch):
    # the game's discard tests a card against the top of a memory empty at first: the simulator's
    # none differs from every card; compared as two values it offered no discard at all
    from ggpbridge.translators.recycle_gdl import exprs
    monkeypatch.setattr(exprs, "_lone_end", lambda n, env: None)
    rep = lockstep(6)
    assert rep.divergence is not None and "options differ" in rep.divergence["what"]
