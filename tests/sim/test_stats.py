"""Playtest statistics (ggpbridge.sim.stats): what each figure of `simulate` adds up, checked on
games folded in by hand (the figures are known exactly) and on a game that always ties."""
from __future__ import annotations

import math

import pytest

from ggpbridge.recycle import parse_text
from ggpbridge.sim import compile_loaded, simulate
from ggpbridge.sim.playout import CYCLE, ERROR, FINISHED, UNFINISHED, Decision, Result
from ggpbridge.sim.stats import Stats

# each player takes one card of two: both hold one at the end, a tie every game
ALWAYS_TIED = """(game
  (setup
    (create players 2)
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO)))))
  (stage player
    (end (== (size (game iloc STOCK)) 0))
    (choice
      ((move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))
  (scoring max (size ((current player) iloc HAND))))
"""


def finished(seed, scores, winners, ranks, decisions=(), steps=0):
    return Result(seed, FINISHED, list(scores), list(winners), list(ranks), list(decisions), steps)


def fold(*results, players=2) -> dict:
    st = Stats(players)
    for r in results:
        st.add(r)
    return st.report()


def test_a_tie_splits_the_win_between_the_tied_players():
    rep = fold(finished(0, [3, 3, 1], [0, 1], [1.5, 1.5, 3]),
               finished(1, [0, 2, 2], [1, 2], [3, 1.5, 1.5]),
               finished(2, [5, 0, 0], [0], [1, 2.5, 2.5]),
               finished(3, [1, 1, 1], [0, 1, 2], [2, 2, 2]), players=3)
    shares = [s["win_share"] for s in rep["seats"]]
    # seat 0: half of game 0, all of game 2, a third of game 3; over 4 games
    assert shares == pytest.approx([(0.5 + 1 + 1 / 3) / 4, (0.5 + 0.5 + 1 / 3) / 4, (0.5 + 1 / 3) / 4])
    assert sum(shares) == pytest.approx(1.0)   # one win per finished game, however it is split


def test_a_game_that_always_ties_gives_each_seat_half_a_win():
    rep = simulate(compile_loaded(parse_text(ALWAYS_TIED)), 20, seed=0).report()
    assert rep["finished"] == 20
    assert [s["win_share"] for s in rep["seats"]] == [0.5, 0.5]
    assert [s["mean_rank"] for s in rep["seats"]] == [1.5, 1.5]
    assert [s["mean_score"] for s in rep["seats"]] == [1.0, 1.0]
