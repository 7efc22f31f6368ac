"""Cards compared where either side may be none (issue #38's review): the top or bottom card of an
empty location or filter, directly, through `actual` or held by a `let`. The simulator compares CardStock's references as Python values, so
none == none holds and none differs from every card (`ggpbridge.sim.exprs.x_Compare`); the
translation matches it for each pair (exprs.py: `_lone_end`, `both_may_be_none`)."""
from __future__ import annotations

import pytest

from ggpbridge.crosscheck import crosscheck
from ggpbridge.recycle import parse_file, parse_text
from ggpbridge.sim.machine import Program
from ggpbridge.sim.stepwise import Decision, StepMachine, Terminal

from conftest import ROOT

GAME = ROOT / "tests" / "translate" / "data" / "empty_ends.rcy"

# the deck S holds one card of each R in {A, B}: its top and bottom differ, no card has R = Z
NONE_F = "(top (filter (game iloc S) 'X (== (cardatt R 'X) Z)))"
PAIRS = [   # (left, right, equal?) in the order of their bits
    ("(top (game iloc S))", "(top (filter (game iloc S) 'X (!= (cardatt R 'X) Z)))", True),   # one card
    ("(top (game iloc S))", "(bottom (game iloc S))", False),                                    # two cards
    ("(top (game iloc S))", NONE_F, False),                                                      # card, none
    ("(top (game vloc E))", "(bottom (filter (game iloc S) 'X (== (cardatt R 'X) A)))", False),  # none, card
    (NONE_F, "(top (game vloc E))", True),                                                       # none, none
]


def _pairs_game(op: str):
    """Each pair compared by OP adds its bit to (game sto N); then one decision, where the
    lockstep compares the states."""
    tests = " ".join(f"(({op} {a} {b}) (inc (game sto N) {2 ** k}))" for k, (a, b, _) in enumerate(PAIRS))
    return parse_text("(game (setup (create players 2) (create deck (game iloc S) (deck (R (A, B)))))"
                      f" (do ({tests}))"
                      " (stage player (end (== (game sto D) 1)) (choice ((inc (game sto D) 1))))"
                      " (scoring max (game sto N)))", f"pairs{op}.rcy")


def _final_n(loaded) -> int:
    m = StepMachine(Program(loaded.game))
    s = m.initial_state()
    while not isinstance(m.node(s), Terminal):
        assert isinstance(m.node(s), Decision)
        s = m.next_state(s, 0)
    return m.node(s).scores[0]


@pytest.mark.parametrize("op", ["==", "!="])
def test_card_and_none_compare_as_the_simulator_does_for_all_four_pairs(op):
    loaded = _pairs_game(op)
    holds = [eq == (op == "==") for _, _, eq in PAIRS]
    assert _final_n(loaded) == sum(2 ** k for k, h in enumerate(holds) if h)
    rep = crosscheck(loaded, 1, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 1 and rep.decisions == 1, rep.as_dict()


def test_tops_of_locations_and_filters_emptied_and_filled_in_play_agree_with_the_simulator():
    # six comparisons of two piles, their filters and an empty location, == and != each,
    # after every move of random plays: each side is none at some moves and a card at others
    rep = crosscheck(parse_file(GAME), 20, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 20 and rep.rule_errors == [], rep.as_dict()


def test_a_card_held_by_a_let_or_through_actual_compares_as_none_when_its_location_was_empty():
    # let_none.rcy (ours): `let` of a top and `actual` of a top, each side none at some moves
    rep = crosscheck(parse_file(ROOT / "tests" / "translate" / "data" / "let_none.rcy"), 10, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 10, rep.as_dict()
