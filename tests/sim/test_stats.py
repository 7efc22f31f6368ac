"""Playtest statistics (ggpbridge.sim.stats): what each figure of `simulate` adds up, checked on
games folded in by hand (the figures are known exactly) and on a game that always ties."""
from __future__ import annotations

import statistics

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


def test_every_figure_of_the_report_on_games_folded_by_hand():
    st = Stats(2)
    # the reference engine says where each decision stood (choice node, stage iterations)
    st.add(finished(0, [3, 1], [0], [1, 2], [Decision(0, 3, 7, (1,)), Decision(1, 1, 7, (1,)),
                                             Decision(0, 2, 8, (1, 2))], steps=10))
    st.add(finished(1, [2, 2], [0, 1], [1.5, 1.5], [Decision(0, 1, 7, (1,)), Decision(1, 4, 7, (2,))], steps=4))
    # the fast path does not (choice None): counted everywhere but by stage iteration
    st.add(finished(2, [0, 5], [1], [2, 1], [Decision(1, 6, None, ()), Decision(0, 5, None, ())], steps=7))
    st.seconds = 4.0
    rep = st.report()
    assert (rep["games"], rep["finished"], rep["cycles"], rep["unfinished"], rep["errors"]) == (3, 3, 0, 0, 0)
    # Wilson at 1.5 wins of 3 games: (0.5 + z²/6 ± z·sqrt(0.25/3 + z²/36)) / (1 + z²/3), z = 1.96
    wilson = [0.1253, 0.8747]
    assert rep["seats"] == [
        {"seat": 0, "win_share": 0.5, "win_interval": wilson, "mean_score": round(5 / 3, 4), "mean_rank": 1.5,
         "mean_options": 2.75},                                       # options 3, 2, 1, 5
        {"seat": 1, "win_share": 0.5, "win_interval": wilson, "mean_score": round(8 / 3, 4), "mean_rank": 1.5,
         "mean_options": round(11 / 3, 4)}]                           # options 1, 4, 6
    assert rep["choices_per_game"] == {"mean": round(7 / 3, 4), "sd": round(statistics.stdev([3, 2, 2]), 4),
                                       "distribution": {2: 2, 3: 1}}
    steps = rep["steps_per_game"]
    assert steps["mean"] == 7.0 and steps["sd"] == 3.0                # sample sd of 10, 4, 7
    assert (steps["min"], steps["q1"], steps["median"], steps["q3"], steps["max"]) == (4, 4, 7, 10, 10)
    assert rep["branching"]["mean_options"] == round(22 / 7, 4)       # 22 options over 7 decisions
    assert rep["branching"]["forced_share"] == pytest.approx(2 / 7)   # two decisions had one option
    assert rep["branching"]["by_stage_iteration"] == [
        {"choice": 7, "iterations": [1], "decisions": 3, "mean_options": round(5 / 3, 4)},
        {"choice": 7, "iterations": [2], "decisions": 1, "mean_options": 4.0},
        {"choice": 8, "iterations": [1, 2], "decisions": 1, "mean_options": 2.0}]
    assert rep["engine"] == "reference" and rep["seconds"] == 4.0 and rep["games_per_second"] == 0.8


def test_standard_deviations_are_of_a_sample_and_rounded():
    st = Stats(2)
    for seed, steps in enumerate([3, 5, 6]):
        st.add(finished(seed, [1, 0], [0], [1, 2], [Decision(0, 2, None, ())] * (seed + 1), steps=steps))
    rep = st.report()
    assert rep["steps_per_game"]["sd"] == round(statistics.stdev([3, 5, 6]), 4) == 1.5275
    assert rep["steps_per_game"]["mean"] == round(14 / 3, 4) == 4.6667
    assert rep["choices_per_game"]["sd"] == 1.0
    two = Stats(2)
    for seed, steps in enumerate([2, 6]):
        two.add(finished(seed, [1, 0], [0], [1, 2], steps=steps))
    assert two.report()["steps_per_game"]["sd"] == round(statistics.stdev([2, 6]), 4) == 2.8284
    one = Stats(2)
    one.add(finished(0, [1, 0], [0], [1, 2], steps=9))
    assert one.report()["steps_per_game"]["sd"] == 0.0             # one game: no spread


def test_quartiles_of_the_step_counts():
    st = Stats(2)
    for seed, steps in enumerate([8, 1, 7, 2, 6, 3, 5, 4]):
        st.add(finished(seed, [0, 1], [1], [2, 1], steps=steps))
    q = st.report()["steps_per_game"]
    # the smallest count with at least a quarter, a half, three quarters of the games at or below it
    assert (q["min"], q["q1"], q["median"], q["q3"], q["max"]) == (1, 2, 4, 6, 8)
    st.add(finished(9, [0, 1], [1], [2, 1], steps=100))
    q = st.report()["steps_per_game"]
    assert (q["min"], q["q1"], q["median"], q["q3"], q["max"]) == (1, 3, 5, 7, 100)


def test_unfinished_games_are_counted_with_a_few_seeds_and_never_scored():
    st = Stats(2)
    for seed in range(12):
        st.add(Result(seed, ERROR, error=f"rule broken {seed}"))
    for seed in range(100, 113):
        st.add(Result(seed, CYCLE, steps=50))
    for seed in range(200, 202):
        st.add(Result(seed, UNFINISHED, steps=10 ** 5))
    st.seconds = 3.0
    rep = st.report()
    assert (rep["games"], rep["finished"], rep["cycles"], rep["unfinished"], rep["errors"]) == (27, 0, 13, 2, 12)
    assert rep["error_examples"] == [{"seed": s, "error": f"rule broken {s}"} for s in range(10)]
    assert rep["runaway_seeds"] == {"cycle": list(range(100, 110)), "unfinished": [200, 201]}
    # nothing finished: no share, mean or spread to give (None, never NaN)
    assert rep["seats"] == [{"seat": p, "win_share": None, "win_interval": None, "mean_score": None,
                             "mean_rank": None, "mean_options": None} for p in (0, 1)]
    assert rep["choices_per_game"] == {"mean": None, "sd": 0.0, "distribution": {}}
    assert rep["steps_per_game"] == {"mean": None, "sd": 0.0, "min": None, "q1": None, "median": None,
                                     "q3": None, "max": None}
    assert rep["branching"] == {"mean_options": None, "forced_share": None, "by_stage_iteration": []}
    assert rep["games_per_second"] == 9.0 and rep["seconds"] == 3.0
    st.seconds = 7.0
    assert st.report()["games_per_second"] == round(27 / 7, 1) == 3.9
    st.seconds = 1.23456
    assert st.report()["seconds"] == 1.235
    assert Stats(2).report()["games_per_second"] is None          # no time measured
