"""`ggpbridge solve`: the report, the policy file, and the policy player that plays it."""
from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main

KUHN = str(GAMES / "kuhn_poker.rcy")
NIM = str(Path(__file__).parent / "data" / "nim.rcy")


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(scope="module")
def kuhn_policy(tmp_path_factory):
    path = tmp_path_factory.mktemp("policy") / "kuhn.json"
    r = run("solve", KUHN, "-o", str(path), "--json")
    assert r.exit_code == 0, r.output
    return path, json.loads(r.output)


def test_kuhn_report(kuhn_policy):
    _, rep = kuhn_policy
    assert rep["method"] == "cfr+" and rep["constant_sum"] == "0"
    assert abs(rep["value"][0] + 1 / 18) < 0.001 and rep["exploitability"] < 0.001
    assert rep["convergence"][-1]["exploitability"] == rep["exploitability"]
    assert rep["tree"]["information_sets"] == [6, 6]


def test_policy_file_is_readable_and_complete(kuhn_policy):
    path, _ = kuhn_policy
    doc = json.loads(path.read_text())
    assert doc["format"] == "ggpbridge-policy/1" and len(doc["information_sets"]) == 12
    for entry in doc["information_sets"]:
        assert "HAND: (" in entry["sees"]   # its own card, named
        assert sum(a["probability"] for a in entry["actions"]) == pytest.approx(1, abs=1e-5)
        for e in entry["earlier"]:
            assert e["took"]["move"]        # the earlier option, described


def _pure(doc, choose):
    """The policy with every set playing the option whose text contains choose(seat)."""
    for entry in doc["information_sets"]:
        words = choose(entry["seat"])
        hits = [a for w in words for a in entry["actions"] if w in a["move"]]
        for a in entry["actions"]:
            a["probability"] = 1.0 if a is hits[0] else 0.0
    return doc


def test_the_policy_player_plays_the_file(kuhn_policy, tmp_path):
    # the first seat always bets, the second always folds to it: every game is +1 / -1 (the
    # sets never reached get some option all the same: the first named)
    doc = _pure(json.loads(kuhn_policy[0].read_text()),
                lambda seat: ["BET", "CALL"] if seat == 0 else ["FOLD", "CHECK"])
    pure = tmp_path / "pure.json"
    pure.write_text(json.dumps(doc))
    r = run("simulate", KUHN, "-n", "50", "--players", f"policy:{pure}", "--json")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    assert rep["errors"] == 0
    assert [round(s["mean_score"], 9) for s in rep["seats"]] == [1, -1]


def test_the_equilibrium_beats_random_by_its_exact_margin(kuhn_policy):
    # the policy's exact value against a uniform opponent, from the tree, and the simulated mean
    from ggpbridge.frontends import load_game
    from ggpbridge.sim import compile_loaded
    from ggpbridge.sim.stepwise import StepMachine
    from ggpbridge.solve.cfr import CFRPlus
    from ggpbridge.solve.tree import build_tree
    path, _ = kuhn_policy
    doc = json.loads(path.read_text())
    tree = build_tree(StepMachine(compile_loaded(load_game(KUHN, None), {})))
    s = CFRPlus(tree)
    pol = s.current()   # uniform: no regrets yet
    by_view = {(e["seat"], e["sees"]): e for e in doc["information_sets"]}
    for info in tree.infosets:
        if info.seat == 0:
            for a, act in enumerate(by_view[(0, info.view)]["actions"]):
                pol[info.offset + a] = act["probability"]
    exact = s.values(pol)[0, 0]
    n = 3000
    r = run("simulate", KUHN, "-n", str(n), "--players", f"policy:{path},random", "--json")
    mean = json.loads(r.output)["seats"][0]["mean_score"]
    assert abs(mean - exact) < 4 * 1.6 / n ** 0.5   # payoffs lie in [-2, 2]: sd below 1.6


def test_a_bad_policy_file_is_refused_before_play(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    r = run("simulate", KUHN, "-n", "5", "--players", f"policy:{bad}")
    assert r.exit_code == 2 and "not a ggpbridge-policy/1 file" in r.output
    r = run("simulate", KUHN, "-n", "5", "--players", f"policy:{tmp_path / 'missing.json'}")
    assert r.exit_code == 2 and "missing.json" in r.output


def test_a_policy_for_another_game_is_an_error_of_the_play(kuhn_policy):
    r = run("simulate", NIM, "-n", "3", "--players", f"policy:{kuhn_policy[0]}", "--json")
    rep = json.loads(r.output)
    assert rep["errors"] == 3


def test_a_policy_solved_under_other_set_values_is_refused_before_play(kuhn_policy, tmp_path):
    path = kuhn_policy[0]
    said = f"policy file {path} was solved with BETSIZE=1; this game is played with BETSIZE=2"
    # in either seat: in the second, its first sets happened to match and it played on, mixing games
    for players in (f"policy:{path},random", f"random,policy:{path}"):
        r = run("simulate", KUHN, "-n", "5", "--players", players, "--set", "BETSIZE=2", "--json")
        assert r.exit_code == 2 and said in r.output and "finished" not in r.output
    r = run("report", KUHN, "-n", "5", "--players", f"policy:{path}", "--sweep", "BETSIZE=1..2", "--json")
    assert r.exit_code == 2 and said in r.output
    # where it is the game's own error (show, and any caller that plays without the command's check)
    r = run("show", KUHN, "--seed", "0", "--players", f"policy:{path}", "--set", "BETSIZE=2")
    assert said in r.output
    # the values are compared, not their spelling: a default given with --set is the same game
    same = tmp_path / "same.json"
    assert run("solve", KUHN, "--set", "BETSIZE=1", "-o", str(same), "--json").exit_code == 0
    r = run("simulate", KUHN, "-n", "5", "--players", f"policy:{same}", "--json")
    assert r.exit_code == 0 and json.loads(r.output)["errors"] == 0


def test_expectimax_report_is_exact():
    r = run("solve", NIM, "--set", "STONES=4", "--json")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    assert rep["method"] == "expectimax" and rep["exact_value"] == ["1", "0"] and rep["perfect_information"]
    assert rep["tree"]["transposition_table"] < rep["tree"]["histories"]


def test_expectimax_gives_no_policy_file(tmp_path):
    r = run("solve", NIM, "--method", "expectimax", "-o", str(tmp_path / "p.json"))
    assert r.exit_code == 2 and "expectimax gives none" in r.output


def test_a_cycle_is_a_clear_error():
    r = run("solve", str(GAMES / "war_n6_loser.rcy"))
    assert r.exit_code == 2 and "cycle" in r.output and "Traceback" not in r.output


@pytest.mark.slow
def test_ctrl_c_prints_the_value_reached():
    from test_cli_signals import _interrupt
    code, out, err = _interrupt(["solve", str(GAMES / "leduc_poker.rcy"), "--target", "0"],
                                rb"iterations: [1-9]", signal.SIGINT)
    assert code == 130
    assert "value: p0" in out and "interrupted (Ctrl-C)" in out


def test_an_unwritable_policy_file_is_refused_before_solving(tmp_path):
    r = run("solve", KUHN, "-o", str(tmp_path / "missing" / "p.json"))
    assert r.exit_code == 2 and "cannot be written" in r.output and "value: p0" not in r.output


def test_a_game_too_large_is_a_clear_error():
    r = run("solve", str(GAMES / "hearts.rcy"), "--limit-nodes", "2000")
    assert r.exit_code == 2 and "hearts.rcy: error: the game tree has more than 2000 histories" in r.output


def test_a_policy_file_without_information_sets_is_refused_not_a_traceback(tmp_path):
    bad = tmp_path / "empty.json"
    for body in ('{"format": "ggpbridge-policy/1"}', '{"format": "ggpbridge-policy/1", "information_sets": 3}'):
        bad.write_text(body)
        r = run("simulate", KUHN, "-n", "5", "--players", f"policy:{bad}")
        assert r.exit_code == 2 and "no list of information sets" in r.output and "Traceback" not in r.output
