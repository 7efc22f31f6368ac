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
