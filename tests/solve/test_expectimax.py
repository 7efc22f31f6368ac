"""Expectimax on perfect-information games, and the labelled relaxation of hidden ones."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from conftest import GAMES
from ggpbridge.frontends import load_game
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.stepwise import StepMachine
from ggpbridge.solve.expectimax import expectimax, win_probability

NIM = Path(__file__).parent / "data" / "nim.rcy"


def machine(path, **sets):
    return StepMachine(compile_loaded(load_game(str(path), None), sets))


@pytest.mark.parametrize("stones", range(1, 8))
def test_nim_first_player_wins_off_multiples_of_three(stones):
    r = expectimax(machine(NIM, STONES=stones))
    first_wins = stones % 3 != 0
    assert r.values == ((Fraction(1), Fraction(0)) if first_wins else (Fraction(0), Fraction(1)))
    assert r.hidden is None
    assert r.constant_sum == 1
    p, _, _ = win_probability(machine(NIM, STONES=stones), 0)
    assert p == (1 if first_wins else 0)


def test_nim_best_first_move_leaves_a_multiple_of_three():
    r = expectimax(machine(NIM, STONES=5))
    (fm,) = r.first_moves
    assert fm["best"] == 1   # take two: 3 left
    assert fm["options"][1]["values"] == (1, 0)


def test_transpositions_are_valued_once():
    r = expectimax(machine(NIM, STONES=7))
    # states: 0..7 stones left with either seat to move, less the unreachable; plays branch 2 ways
    assert r.states < r.histories
    assert r.states <= 2 * 8


def test_kuhn_relaxation_is_worth_nothing_and_labelled():
    # seeing both cards, the higher card bets and the lower folds or checks: +1 / -1, each half the deals
    r = expectimax(machine(GAMES / "kuhn_poker.rcy"))
    assert r.values == (0, 0)
    assert r.hidden is not None and "does not see" in r.hidden
    p, _, _ = win_probability(machine(GAMES / "kuhn_poker.rcy"), 0)
    assert p == Fraction(1, 2)
