"""The facts of the query issue, proved by both engines (explicit search and clingo on the translation).

2-player Agram with 2 cards runs in CI (a few minutes of clingo); Agram with 3 cards and
War with 6 cards take the asp engine several minutes each: GGPBRIDGE_SLOW_TESTS=1 adds them.
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
slow = pytest.mark.skipif(not SLOW, reason="minutes of clingo; set GGPBRIDGE_SLOW_TESTS=1")
AGRAM = [pytest.param("agram2_c2.rcy"), pytest.param("agram2_c3.rcy", marks=slow)]


def both(game: str, question: str, role=None):
    explicit, asp = run_query(str(GAMES / game), question, role, engine="both", timeout=900)
    assert (explicit.engine, asp.engine) == ("explicit", "asp")
    return explicit, asp


@pytest.mark.parametrize("game", AGRAM)
@pytest.mark.parametrize("question", ["terminates", "playable"])
def test_two_player_agram_always_ends_and_never_strands_a_player_on_both_engines(game, question):
    explicit, asp = both(game, question)
    assert explicit.verdict == YES and asp.verdict == YES, (explicit.method, asp.method, asp.limit)


@pytest.mark.parametrize("game", AGRAM)
@pytest.mark.parametrize("seat", [0, 1])
def test_each_seat_of_two_player_agram_can_win_on_both_engines(game, seat):
    explicit, asp = both(game, "winnable", seat)
    assert explicit.verdict == YES and asp.verdict == YES, (explicit.method, asp.method, asp.limit)
    # the asp engine's winning play, replayed on the translation, ends with that seat on top
    replayed = replay_gdl(load_description(GAMES / game, decks=False), asp.witness)
    assert replayed.confirmed, replayed.message


@slow
@pytest.mark.parametrize("game, verdict", [("war_n6_winner.rcy", NO),    # winner's card first: no cycle
                                           ("war_n6_loser.rcy", YES),    # loser's card first: cycles at n = 6
                                           ("war_n6_seat.rcy", YES)])    # seat order: cycles
def test_war_with_six_cards_cycles_as_the_return_order_says_on_both_engines(game, verdict):
    explicit, asp = both(game, "cycle")
    assert explicit.verdict == verdict and asp.verdict == verdict, (explicit.method, asp.method, asp.limit)
