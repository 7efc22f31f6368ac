"""The facts of the query issue, proved by both engines (explicit search and clingo on the translation).

Every run (CI included) has both engines answer on small variants: 2-player Agram dealt one card
each (games/agram2_c2.rcy with HANDSIZE = 1: one trick, seconds of clingo) and War with 4 and 6
cards (cycle: the asp engine searches War's state graph, 1 to 20 s of CPU each). 2-player Agram
with 2 and 3 cards takes the asp engine minutes each (2 to 5; the explicit engine alone answers
them in about a second: tests/query/test_explicit.py), which would double CI's time: they run
with GGPBRIDGE_SLOW_TESTS=1, and are marked `slow`.
"""
from __future__ import annotations

import os

import pytest

from conftest import GAMES
from ggpbridge.query.answer import NO, YES
from ggpbridge.query.asp_engine import replay_gdl
from ggpbridge.query.run import run_query
from ggpbridge.translate import load_description

SLOW = os.environ.get("GGPBRIDGE_SLOW_TESTS") == "1"
unless_slow = pytest.mark.skipif(not SLOW, reason="minutes of clingo; runs with GGPBRIDGE_SLOW_TESTS=1")
slow = [pytest.mark.slow, unless_slow]
ONE_CARD = {"HANDSIZE": 1}
# `slow` alone: in every full run (CI too), out of the quick subset
AGRAM = [pytest.param("agram2_c2.rcy", ONE_CARD, id="agram2_c1", marks=pytest.mark.slow),
         pytest.param("agram2_c2.rcy", None, id="agram2_c2", marks=slow),
         pytest.param("agram2_c3.rcy", None, id="agram2_c3", marks=slow)]


def both(game: str, question: str, role=None, overrides=None):
    explicit, asp = run_query(str(GAMES / game), question, role, engine="both", overrides=overrides, timeout=900)
    assert (explicit.engine, asp.engine) == ("explicit", "asp")
    return explicit, asp


@pytest.mark.parametrize("game, overrides", AGRAM)
@pytest.mark.parametrize("question", ["terminates", "playable"])
def test_two_player_agram_always_ends_and_never_strands_a_player_on_both_engines(game, overrides, question):
    explicit, asp = both(game, question, overrides=overrides)
    assert explicit.verdict == YES and asp.verdict == YES, (explicit.method, asp.method, asp.limit)


@pytest.mark.parametrize("game, overrides", AGRAM)
@pytest.mark.parametrize("seat", [0, 1])
def test_each_seat_of_two_player_agram_can_win_on_both_engines(game, overrides, seat):
    explicit, asp = both(game, "winnable", seat, overrides=overrides)
    assert explicit.verdict == YES and asp.verdict == YES, (explicit.method, asp.method, asp.limit)
    # the asp engine's winning play, replayed on the translation, ends with that seat on top
    replayed = replay_gdl(load_description(GAMES / game, decks=False, overrides=overrides, fold=False), asp.witness)
    assert replayed.confirmed, replayed.message


@pytest.mark.parametrize("game, verdict", [
    pytest.param("war_n4_loser.rcy", NO, marks=pytest.mark.slow),   # at n = 4 even the loser's card first ends
    pytest.param("war_n4_seat.rcy", YES, marks=pytest.mark.slow),   # seat order: cycles
    pytest.param("war_n6_winner.rcy", NO, marks=pytest.mark.slow),    # winner's card first: no cycle
    pytest.param("war_n6_loser.rcy", YES, marks=pytest.mark.slow),    # loser's card first: cycles at n = 6
    pytest.param("war_n6_seat.rcy", YES, marks=pytest.mark.slow)])    # seat order: cycles
def test_war_cycles_as_the_return_order_says_on_both_engines(game, verdict):
    explicit, asp = both(game, "cycle")
    assert explicit.verdict == verdict and asp.verdict == verdict, (explicit.method, asp.method, asp.limit)
    if verdict == YES:   # the asp engine's lasso, replayed on the translation, repeats a state
        replayed = replay_gdl(load_description(GAMES / game, decks=False, fold=False), asp.witness)
        assert replayed.confirmed, replayed.message


@pytest.mark.slow
@unless_slow
def test_war_with_8_cards_has_no_cycle_on_both_engines():
    # issue #38: the explicit engine's 326,321 states are some 2.1 million GDL moves of the
    # translation, which the asp engine's graph search makes beside the unrolling's long solves
    # (docs/asp.md, "cycle on the state graph"); minutes of CPU, so a generous clock
    explicit, asp = run_query(str(GAMES / "war_n8_winner.rcy"), "cycle", engine="both", timeout=3600)
    assert explicit.verdict == NO and asp.verdict == NO, (asp.method, asp.limit)
    assert "depth-first search" in asp.method   # the graph answered, not the unrolling
