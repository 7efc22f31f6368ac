"""Every metric of `report_data` on a tiny game whose answer is known from its rules
(tests/report/data: each file says what its games do)."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from ggpbridge.frontends import load_game
from ggpbridge.report.data import compile_game, planned_games, report_data
from ggpbridge.report.trace import Recorder, trace
from ggpbridge.sim import compile_loaded, play
from ggpbridge.sim.players import make_players

DATA = Path(__file__).parent / "data"
GAMES = Path(__file__).resolve().parents[2] / "games"


def _report(name, n=40, **kw):
    kw.setdefault("pipmc_games", 10)
    kw.setdefault("potential_games", 20)
    sets = kw.pop("sets", {})
    return report_data(str(DATA / name), "random", n, 0, sets, **kw)


def test_seat_zero_always_wins():
    r = _report("seat0_wins.rcy")
    s = r["summary"]
    assert [x["win_share"] for x in s["seats"]] == [1, 0]
    # the Wilson interval of 40 wins in 40 games: its lower end is 40 / (40 + z^2)
    assert s["seats"][0]["interval"][0] == pytest.approx(40 / (40 + 1.959964 ** 2), abs=1e-5)
    assert s["seats"][0]["interval"][1] == 1
    assert s["fairness"]["spread"] == 1
    assert s["length"]["decisions"]["histogram"] == {"4": 40}          # four turns, always
    assert s["branching"]["mean_options"] == 2
    # scores before each turn (0,0) (1,0) (2,0) (3,0), then (4,0): seat 0 leads from point 1 of 4
    assert s["lead"]["lead_changes"]["mean"] == 0
    assert s["lead"]["drama"]["mean_deepest_deficit"] == 0
    assert s["lead"]["decisiveness"]["mean"] == pytest.approx(0.75)
    # both options do the same: no choice changes anything, for PIPMC or anyone
    assert r["pipmc"]["meaningful_choices"]["share"] == 0
    assert [p["potential"] for p in r["strategy_potential"]] == [0, 0]
    h = r["pipmc"]["cardstock"]["heuristics"]
    assert h["Fairness"]["value"] == 0                   # the first seat wins everything
    assert h["MeaningfulMoves"]["value"] == 0
    assert h["Coolness"]["value"] == 1                   # move scores never drop (seat 0 always 1)
    assert h["Decisiveness"]["value"] == 0               # CardStock's: clear at the first move gives 0
    assert h["Drama"]["value"] is None                   # the winner's move score is never below 0.5


def test_a_coin_flip_is_fair_within_sampling_error():
    n = 400
    r = _report("coin_flip.rcy", n=n, pipmc_games=0, potential_games=0)
    s = r["summary"]
    bound = 3.29 * math.sqrt(0.25 / n)   # 99.9% of fair coins land this close to one half
    for x in s["seats"]:
        assert abs(x["win_share"] - 0.5) < bound
        assert x["interval"][0] < x["win_share"] < x["interval"][1]
    assert s["fairness"]["spread"] < 2 * bound
    assert sum(x["win_share"] for x in s["seats"]) == pytest.approx(1)
    assert s["length"]["decisions"]["histogram"] == {"0": n}
    assert s["branching"]["mean_options"] is None
    assert s["lead"]["decisiveness"]["games"] == 0           # no decision: undefined


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_a_game_of_fixed_length_and_known_branching(rounds):
    r = _report("fixed_length.rcy", n=20, sets={"ROUNDS": rounds}, pipmc_games=5, potential_games=5)
    s = r["summary"]
    assert s["length"]["decisions"] == {"mean": 3 * rounds, "sd": 0, "min": 3 * rounds, "median": 3 * rounds,
                                        "max": 3 * rounds, "histogram": {str(3 * rounds): 20}}
    # two options in round 1, three after; every game is a three-way tie
    by_round = {(x["iteration"], x["turn"]): x["mean_options"] for x in s["branching"]["by_trick"]}
    assert by_round == {(it, turn): (2 if it == 1 else 3) for it in range(1, rounds + 1) for turn in (1, 2, 3)}
    (stage,) = s["branching"]["by_choice"]
    assert stage["mean_options"] == pytest.approx((2 + 3 * (rounds - 1)) / rounds, abs=1e-6)
    lines = (DATA / "fixed_length.rcy").read_text().splitlines()
    assert stage["label"] == f"line {1 + next(i for i, t in enumerate(lines) if '(choice' in t)}"
    assert [x["win_share"] for x in s["seats"]] == [pytest.approx(1 / 3)] * 3
    assert s["fairness"]["spread"] == 0
    assert r["pipmc"]["cardstock"]["heuristics"]["Fairness"]["value"] == 1   # seat 0 wins its even third
    assert s["lead"]["drama"]["games"] == 0          # no single winner: nobody to measure


def test_the_winner_trails_then_overtakes():
    s = _report("comeback.rcy", n=10)["summary"]["lead"]
    # curve (0,0) (0,0) (0,2) (1,2) (1,2) (4,2) (4,2): see the game file
    assert s["lead_changes"]["histogram"] == {"1": 10}
    assert s["drama"]["mean_deepest_deficit"] == 2
    assert s["drama"]["trailed_share"] == 1
    assert s["drama"]["mean_behind_share"] == pytest.approx(3 / 7, abs=1e-6)
    assert s["decisiveness"]["mean"] == pytest.approx(1 / 6, abs=1e-6)
    assert s["curve"]["mean_margin"][0] == 0 and s["curve"]["mean_margin"][-1] == 2


def test_one_choice_decides_the_game_and_one_does_not():
    r = _report("choose_winner.rcy", n=40, pipmc_games=10, potential_games=40)
    assert r["pipmc"]["meaningful_choices"] == {"decisions": 20, "meaningful": 10, "share": 0.5}
    seat0, seat1 = r["strategy_potential"]
    # PIPMC in seat 0 always picks itself; random in seat 0 wins exactly the games it picks itself
    assert seat0["share"] == 1
    assert seat0["potential"] == pytest.approx(1 - seat0["random_share"])
    # seat 1 cannot change the outcome: with the same seeds, seat 0's random pick is the same
    assert seat1["potential"] == 0 and seat1["interval"] == [0, 0]
    # CardStock's MeaningfulMoves: spreads 1 (seat 0) and 0 (seat 1)
    assert r["pipmc"]["cardstock"]["heuristics"]["MeaningfulMoves"]["value"] == 0.5


def test_recording_a_game_does_not_change_it():
    for path in sorted(GAMES.glob("*.rcy")):
        prog = compile_loaded(load_game(str(path), None))
        for seed in range(2):
            plain = play(prog, seed, make_players("random", prog.lay.n, seed), 20_000)
            players = make_players("random", prog.lay.n, seed)
            rec = Recorder(players)
            traced = play(prog, seed, players, 20_000, observer=rec)
            assert (plain.status, plain.scores, plain.steps, plain.decisions) == \
                   (traced.status, traced.scores, traced.steps, traced.decisions), path.name
            t = trace(traced, rec)
            if t["curve"] is not None:
                assert len(t["curve"]) == len(t["decisions"]) + 1
                assert t["curve"][-1] == t["scores"]


def _interrupted_after(k: int):
    """A progress callback that interrupts the run (as Ctrl-C does) after k games."""
    done = []

    def tick(n):
        done.append(n)
        if len(done) == k:
            raise KeyboardInterrupt
    return tick


def test_an_interrupted_report_keeps_and_counts_the_games_played():
    r = _report("seat0_wins.rcy", n=40, progress=_interrupted_after(7))
    assert r["interrupted"]
    assert r["summary"]["games"] == 7 and r["summary"]["seats"][0]["win_share"] == 1
    assert r["pipmc"]["games"] == 0 and r["strategy_potential"] == []
    # before: "games" was the -n asked (40), though 7 were played; `simulate` counts the 7
    assert r["games"] == 7
    assert _report("seat0_wins.rcy", n=5, pipmc_games=0, potential_games=0)["games"] == 5


def test_an_interrupted_machine_report_counts_the_games_played():
    from conftest import GAMES
    from ggpbridge.deckbuild.machine import DeckMachine
    from ggpbridge.deckbuild.play import policies
    from ggpbridge.deckbuild.settings import read_dbk
    from ggpbridge.report.machine_data import machine_report_data
    game = str(GAMES / "golomb_small.dbk")
    r = machine_report_data(DeckMachine(read_dbk(game, {})), game, "random", 40, 0, {}, policies,
                            progress=_interrupted_after(3))
    assert r["interrupted"] and r["games"] == r["summary"]["games"] == 3


def test_the_planned_games_are_the_games_played():
    prog = compile_game(str(DATA / "fixed_length.rcy"))
    count = []
    _report("fixed_length.rcy", n=12, pipmc_games=3, potential_games=4, progress=count.append)
    assert sum(count) == planned_games(prog.lay.n, 12, 3, 4) == 12 + 3 + 2 * 4 * 3


def test_a_score_that_cannot_be_evaluated_mid_game_leaves_no_curve_and_the_game_unchanged():
    prog = compile_game(str(DATA / "late_score.rcy"))
    players = make_players("random", prog.lay.n, 0)
    rec = Recorder(players)
    t = trace(play(prog, 0, players, observer=rec), rec)
    assert t["curve"] is None
    assert (t["status"], t["scores"], len(t["decisions"])) == ("finished", [8, 4], 4)   # 4 turns of 2 and 1
    s = _report("late_score.rcy", n=10, pipmc_games=0, potential_games=0)["summary"]
    assert s["seats"][0]["win_share"] == 1 and s["lead"]["games"] == 0
