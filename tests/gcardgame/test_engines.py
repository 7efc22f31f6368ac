"""The lowered games on the project's other engines, unchanged: the generated simulator
plays the closure engine's games, and the GDL-II translation validates."""
from __future__ import annotations

import pytest

from conftest import BLACKJACK_ACE_10, GAMES, TEXAS_BY_SUM, variant
from ggpbridge.gcardgame import parse_file, to_recycle
from ggpbridge.gdl.validate import is_valid, validate
from ggpbridge.sim import compile_loaded, fast_path, play_fast
from ggpbridge.sim.players import make_players
from ggpbridge.sim.playout import play
from ggpbridge.translate import translate_loaded


def uno():
    return parse_file(GAMES / "uno.gcg")


def texas_by_sum():
    return variant(*TEXAS_BY_SUM)


def blackjack_ace_10():
    return variant(*BLACKJACK_ACE_10)


def blackjack():
    return parse_file(GAMES / "blackjack.gcg")


GAMES_NOW = [uno, texas_by_sum, blackjack_ace_10, blackjack]
IDS = ["uno", "texas-by-sum", "blackjack-ace-10", "blackjack"]


@pytest.mark.parametrize("make", GAMES_NOW, ids=IDS)
def test_the_generated_simulator_plays_the_closure_engines_games(make):
    prog = compile_loaded(to_recycle(make()))
    fast = fast_path(prog)
    assert fast is not None
    for seed in range(30):
        a = play(prog, seed, make_players("random", 3, seed))
        b = play_fast(prog, fast, seed, make_players("random", 3, seed), 100_000)
        assert (b.status, b.scores, len(b.decisions)) == (a.status, a.scores, len(a.decisions)), seed


@pytest.mark.parametrize("make", GAMES_NOW, ids=IDS)
def test_the_translation_to_gdl2_validates(make):
    desc = translate_loaded(to_recycle(make()), 2)
    assert is_valid(validate(desc))
