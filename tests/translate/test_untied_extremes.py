"""Pitch's scoring (issue #38's coverage): a `let` of a filtered union its body cannot change,
bound as an alias (letalias.py), and a max and a min of it that never tie, read in place in
operands of `or` the simulator may skip (untied.py). Lock-stepped on a small game of ours."""
from __future__ import annotations

import pytest

from ggpbridge import ir
from ggpbridge.crosscheck import crosscheck
from ggpbridge.errors import UnsupportedConstructError
from ggpbridge.recycle import parse_file, parse_text
from ggpbridge.translate import translate_loaded
from ggpbridge.translators.recycle_gdl.untied import never_ties

from conftest import ROOT

GAME = ROOT / "tests" / "translate" / "data" / "untied_extremes.rcy"


def variant(old: str, new: str):
    text = GAME.read_text()
    assert old in text
    return parse_text(text.replace(old, new), "variant.rcy")


def refusal(loaded) -> UnsupportedConstructError:
    with pytest.raises(UnsupportedConstructError) as info:
        translate_loaded(loaded, 2)
    return info.value


def test_a_max_and_a_min_that_never_tie_read_in_skipped_operands_agree_with_the_simulator():
    rep = crosscheck(parse_file(GAME), 20, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 20 and rep.rule_errors == [], rep.as_dict()


def test_a_map_that_ties_two_cards_of_one_suit_is_refused_at_the_max():
    # TWO and THREE score alike: a scan of the trumps flips the simulator's coin
    error = refusal(variant("((RANK : TWO) 2)", "((RANK : TWO) 3)"))
    assert "(max 'ONLYTRUMP" in error.message and (error.pos.line, error.pos.col) == (33, 42)


def test_a_union_that_holds_every_card_twice_is_refused_at_the_max():
    # each trump is scanned twice, and meets its own score: the simulator flips a coin
    error = refusal(variant("(union (all player 'MP ('MP vloc WON)))",
                            "(union (all player 'MP ('MP vloc WON)) (all player 'MQ ('MQ vloc WON)))"))
    assert "(max 'ONLYTRUMP" in error.message and (error.pos.line, error.pos.col) == (33, 42)


def test_a_let_whose_body_moves_cards_out_of_its_collection_is_refused():
    # the copy the simulator binds would then differ from the collection read in place
    error = refusal(variant("(do ((inc ('P sto SCORE)",
                            "(do ((move (top ('P vloc WON)) (top ('P iloc HAND))) (inc ('P sto SCORE)"))
    assert error.message == "'let' of a collection" and error.pos.line == 27


def _extreme(game, kind):
    return next(x for x in game.walk() if isinstance(x, ir.Extreme) and x.kind == kind)


def test_never_ties_needs_one_value_of_the_attribute_and_distinct_scores_within_it():
    from ggpbridge.sim.machine import Program
    loaded = parse_file(GAME)
    cards = Program(loaded.game).lay.cards
    let = next(x for x in loaded.game.walk() if isinstance(x, ir.Let))
    trumps, everything = let.value, let.value.coll
    for kind in ("max", "min"):
        x = _extreme(loaded.game, kind)
        assert never_ties(x, trumps, loaded.game, cards)
        # the whole union holds cards of both suits with equal rank scores
        assert not never_ties(x, everything, loaded.game, cards)
    # a deck of two copies: equal cards always tie
    assert not never_ties(_extreme(loaded.game, "max"), trumps, loaded.game, cards + cards)


UNSET = ROOT / "tests" / "translate" / "data" / "unset_map.rcy"
SET_AFTER = "(set (game points PRECEDENCE)\n        (((SUIT : (game str TRUMP)) 20) ((RANK : TWO) 2) ((RANK : THREE) 3) ((RANK : FOUR) 4)))"


def _unset_variant(old: str, new: str):
    text = UNSET.read_text()
    assert old in text
    return parse_text(text.replace(old, new), "unset_variant.rcy")


def test_a_max_read_before_its_map_is_ever_set_is_refused():
    # unset_map.rcy sets the map after the scoring reads it: every card scores 0 there
    error = refusal(parse_file(UNSET))
    assert "(max 'ONLYTRUMP" in error.message and (error.pos.line, error.pos.col) == (28, 42)


def test_read_in_place_under_a_map_never_set_the_max_diverges_from_the_simulator(monkeypatch):
    # the proof that the map is set first, skipped: the simulator's tie coins have no match
    from ggpbridge.translators.recycle_gdl import untied
    monkeypatch.setattr(untied, "set_before", lambda x, game: True)
    rep = crosscheck(parse_file(UNSET), 3, seed=0)
    assert rep.divergence is not None and rep.playouts == 0, rep.as_dict()


def test_a_map_set_in_some_plays_only_is_refused():
    # set by the second option alone: a play where nobody takes it scores every card 0
    loaded = _unset_variant("(move 'C (top ((next player) vloc WON)))))))",
                            "(move 'C (top ((next player) vloc WON))))\n"
                            "       (any ((current player) iloc HAND) 'C (do (" + SET_AFTER +
                            " (move 'C (top ((next player) vloc WON)))))))))")
    error = refusal(loaded)
    assert "(max 'ONLYTRUMP" in error.message


def test_a_map_set_before_the_read_though_after_the_cards_are_won_agrees_with_the_simulator():
    from ggpbridge.translators.recycle_gdl.setfirst import filled_after_set, set_before
    # the set moved before the scoring: it precedes the read on every path, not the moves
    text = UNSET.read_text()
    loaded = parse_text(text.replace("\n      " + SET_AFTER, "").replace(
        "  (do\n    (\n      (all player 'P\n        (let",
        "  (do\n    (\n      " + SET_AFTER + "\n      (all player 'P\n        (let"), "set_first.rcy")
    game = loaded.game
    let = next(x for x in game.walk() if isinstance(x, ir.Let))
    x = _extreme(game, "max")
    assert set_before(x, game) and not filled_after_set(x, let.value, game)
    rep = crosscheck(loaded, 10, seed=0)
    assert rep.divergence is None and rep.playouts == 10, rep.as_dict()


def test_the_set_of_a_stage_counts_for_the_cards_its_stage_moves_not_after_the_stage():
    from ggpbridge.translators.recycle_gdl.setfirst import filled_after_set, set_before
    game = parse_file(GAME).game   # PRECEDENCE set in each pass of the stage, before its move
    let = next(x for x in game.walk() if isinstance(x, ir.Let))
    for kind in ("max", "min"):
        x = _extreme(game, kind)
        # the stage may end before its first pass: after it the map is not surely set
        assert not set_before(x, game) and filled_after_set(x, let.value, game)
    # a deck created in the scanned locations holds cards before any set
    dealt = variant("(create deck (game iloc STOCK)", "(create deck ((0 player) vloc WON)").game
    let = next(x for x in dealt.walk() if isinstance(x, ir.Let))
    assert not filled_after_set(_extreme(dealt, "max"), let.value, dealt)


def test_a_deck_created_in_the_setup_under_a_repeat_fills_the_scanned_location():
    from ggpbridge.translators.recycle_gdl.setfirst import filled_after_set
    # the deck of WON sits inside a `repeat 1`: the setup's cards are there before the map is set
    loaded = parse_file(ROOT / "tests" / "translate" / "data" / "setup_repeat_deck.rcy")
    x = _extreme(loaded.game, "max")
    assert not filled_after_set(x, x.source, loaded.game)
    error = refusal(loaded)
    assert "(max (filter (game vloc WON)" in error.message and error.pos.line == 13
