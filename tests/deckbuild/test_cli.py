"""`simulate` on a deck-building game file (.dbk), as a user runs it."""
from __future__ import annotations

import json

from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_simulate_a_dbk_reports_seats_and_the_issues_figures():
    r = run("simulate", str(GAMES / "golomb.dbk"), "-n", "6", "--seed", "2", "--json")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.stdout)
    assert rep["games"] == rep["finished"] == 6
    assert abs(sum(s["win_share"] for s in rep["seats"]) - 1) < 1e-9
    fig = rep["deckbuilding"]
    assert fig["turns_per_game"]["mean"] >= 1 and 0 <= fig["hands_that_buy_nothing"] <= 1
    again = json.loads(run("simulate", str(GAMES / "golomb.dbk"), "-n", "6", "--seed", "2", "--json").stdout)
    assert again["seats"] == rep["seats"]   # seeded: the same plays


def test_the_table_defines_a_step_once_as_the_machine_counts_it():
    # before: the RECYCLE simulator's legend (a stage-level statement run, ...) and then the
    # machine's (a joint move), two contradicting definitions of one "steps per game"
    r = run("simulate", str(GAMES / "golomb_small.dbk"), "-n", "2")
    assert r.exit_code == 0, r.output
    assert r.output.count("a step is one") == 1
    assert "a step is one joint move of the game machine" in r.output and "stage-level" not in r.output


def test_set_switches_change_the_game():
    short = json.loads(run("simulate", str(GAMES / "rpn.dbk"), "-n", "5", "--set", "turns=3", "--json").stdout)
    assert short["deckbuilding"]["turns_per_game"]["mean"] <= 3


def test_bad_settings_are_positioned_errors(tmp_path):
    bad = tmp_path / "bad.dbk"
    bad.write_text('game = "rpn"\n[set]\nstacks = 3\ncolck = 13\n', encoding="utf-8")
    r = run("simulate", str(bad), "-n", "1")
    assert r.exit_code == 2 and f"{bad}:4:1" in r.output and "colck" in r.output and "Traceback" not in r.output
    r = run("simulate", str(GAMES / "rpn.dbk"), "-n", "1", "--set", "clock=7")
    assert r.exit_code == 2 and "clock=7" in r.output and "Traceback" not in r.output
    broken = tmp_path / "broken.dbk"
    broken.write_text('game = "rpn"\n[set\n', encoding="utf-8")
    r = run("simulate", str(broken), "-n", "1")
    assert r.exit_code == 2 and f"{broken}:2:" in r.output and "Traceback" not in r.output
    r = run("simulate", str(GAMES / "rpn.dbk"), "-n", "1", "--players", "policy:nowhere.json")
    assert r.exit_code == 2 and "nowhere.json" in r.output and "Traceback" not in r.output


def test_the_shared_searching_players_play_a_dbk():
    args = ("simulate", str(GAMES / "golomb_small.dbk"), "-n", "3", "--seed", "1", "--json")
    for spec in ("pipmc:4,random", "mcts:20,ismcts:20"):
        r = run(*args, "--players", spec)
        assert r.exit_code == 0, r.output
        rep = json.loads(r.stdout)
        assert rep["finished"] == 3 and rep == json.loads(run(*args, "--players", spec).stdout) | {
            k: rep[k] for k in ("seconds", "games_per_second") if k in rep}   # seeded: the same games


def test_commands_built_on_the_ir_refuse_a_dbk_clearly():
    r = run("info", str(GAMES / "rpn.dbk"))
    assert r.exit_code == 2 and "deck-building game module" in r.output and "Traceback" not in r.output


def test_show_plays_the_game_simulate_numbers_seed():
    for players in ("random", "pipmc:2,random"):
        r = run("show", str(GAMES / "golomb_small.dbk"), "--seed", "3", "--players", players, "--json")
        assert r.exit_code == 0, r.output
        view = json.loads(r.stdout)
        sim = json.loads(run("simulate", str(GAMES / "golomb_small.dbk"), "--seed", "3", "-n", "1",
                             "--players", players, "--json").stdout)
        assert view["status"] == "finished" and view["decisions"] > 0
        assert view["end"]["scores"] == [s["mean_score"] for s in sim["seats"]]
        decisions = [s for s in view["steps"] if s["kind"] == "decision"]
        assert all(0 <= s["chosen"] < len(s["options"]) for s in decisions)
        assert any(o.startswith("buy ") and " with " in o for s in decisions for o in s["options"])
    text = run("show", str(GAMES / "golomb_small.dbk"), "--seed", "3").output
    assert "player 0 sees: hand" in text and "end (" in text
    r = run("show", str(GAMES / "golomb_small.dbk"), "--html", "x.html")
    assert r.exit_code == 2 and "deck-building" in r.output and "Traceback" not in r.output


def test_solve_refuses_a_dbk_saying_why():
    r = run("solve", str(GAMES / "golomb_small.dbk"))
    assert r.exit_code == 2 and "information sets" in r.output and "query" in r.output
    assert "Traceback" not in r.output


def test_report_plays_a_dbk_on_its_machine_with_simulates_games():
    game = str(GAMES / "golomb_small.dbk")
    r = run("report", game, "-n", "12", "--seed", "4", "--pipmc-games", "2", "--potential-games", "2", "--json")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.stdout)
    sim = json.loads(run("simulate", game, "-n", "12", "--seed", "4", "--json").stdout)
    # the main games are simulate's games of the same seeds: the same win shares
    assert [s["win_share"] for s in rep["summary"]["seats"]] == [s["win_share"] for s in sim["seats"]]
    assert rep["summary"]["finished"] == 12 and rep["pipmc"]["games"] == 2
    assert {c["choice"] for c in rep["summary"]["branching"]["by_choice"]} <= {"act", "discard", "bank"}
    mc = rep["pipmc"]["meaningful_choices"]
    assert 0 < mc["decisions"] and 0 <= mc["meaningful"] <= mc["decisions"]
    assert [x["games"] for x in rep["strategy_potential"]] == [2, 2]
    assert rep["summary"]["lead"]["games"] == 12   # the machine's scores give every game a curve
    r = run("report", game, "--json", "--workers", "2")
    assert r.exit_code == 2 and "this machine only" in r.output and "Traceback" not in r.output
