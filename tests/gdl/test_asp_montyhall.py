"""Monty Hall through ClingoMachine: switching wins 2/3, and the candidate sees the opened door."""
import math
import random
from fractions import Fraction
from pathlib import Path

import pytest

from ggpbridge.gdl.asp_terms import kif_symbol
from ggpbridge.gdl.kif import parse_kif
from ggpbridge.gdl.machine import ClingoMachine, playout

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "gdl"
S = kif_symbol
CANDIDATE, RANDOM = S("candidate"), S("random")
PLAYOUTS = 600


@pytest.fixture(scope="module")
def monty() -> ClingoMachine:
    return ClingoMachine(parse_kif((EXAMPLES / "montyhall.kif").read_text()))


def always(final: str):
    """A candidate policy: any door at first, then `final` (switch or stay)."""
    def policy(machine, state, role, moves, rng):
        return S(final) if S(final) in moves else rng.choice(moves)
    return policy


@pytest.mark.parametrize("final, expected", [("switch", 2 / 3), ("stay", 1 / 3)])
def test_win_rate_over_seeded_playouts(monty, final, expected):
    rng = random.Random(2024)
    wins = sum(playout(monty, rng, {CANDIDATE: always(final)}).goals[CANDIDATE] == 100
               for _ in range(PLAYOUTS))
    rate = wins / PLAYOUTS
    # Four standard errors of a binomial proportion: about 0.077 for n = 600.
    assert abs(rate - expected) <= 4 * math.sqrt(expected * (1 - expected) / PLAYOUTS), rate


@pytest.mark.parametrize("final, expected", [("switch", Fraction(2, 3)), ("stay", Fraction(1, 3))])
def test_exact_win_probability(monty, final, expected):
    """Every play weighed by the chance of random's moves (uniform) and the candidate's doors."""
    def value(state) -> Fraction:
        if monty.is_terminal(state):
            return Fraction(monty.goals(state)[CANDIDATE], 100)
        chance = monty.legal_moves(state, RANDOM)
        mine = monty.legal_moves(state, CANDIDATE)
        if S(final) in mine:
            mine = (S(final),)
        return sum((value(monty.next_state(state, {CANDIDATE: m, RANDOM: r}))
                    for m in mine for r in chance), Fraction(0)) / (len(mine) * len(chance))
    assert value(monty.initial_state()) == expected


def test_the_candidate_sees_the_opened_door_and_nothing_else(monty):
    rng = random.Random(7)
    for _ in range(40):
        play = playout(monty, rng, {CANDIDATE: always("switch")})
        assert len(play.moves) == 4
        opened = play.moves[2][RANDOM]
        assert monty.kif(opened).startswith("(open_door ")
        door = opened.arguments[0]
        assert play.percepts[2] == {CANDIDATE: {S(f"(door_opened {door})")}, RANDOM: frozenset()}
        for step in (0, 1, 3):  # hiding the car, choosing, switching: nobody sees anything
            assert play.percepts[step] == {CANDIDATE: frozenset(), RANDOM: frozenset()}
        # The opened door hides a goat and is not the candidate's.
        state = play.states[2]
        assert S(f"(car {door})") not in state and S(f"(chosen {door})") not in state


def test_sees_for_a_given_state_and_joint_move(monty):
    state = monty.initial_state()
    state = monty.next_state(state, {CANDIDATE: "noop", RANDOM: "(hide_car 2)"})
    state = monty.next_state(state, {CANDIDATE: "(choose 1)", RANDOM: "noop"})
    assert monty.legal_moves(state, RANDOM) == (S("(open_door 3)"),)
    assert monty.sees(state, {CANDIDATE: "noop", RANDOM: "(open_door 3)"}) == {
        CANDIDATE: {S("(door_opened 3)")}, RANDOM: frozenset()}
    state = monty.next_state(state, {CANDIDATE: "noop", RANDOM: "(open_door 3)"})
    final = monty.next_state(state, {CANDIDATE: "switch", RANDOM: "noop"})
    assert S("(chosen 2)") in final and monty.goals(final)[CANDIDATE] == 100
