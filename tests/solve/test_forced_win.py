"""`query GAME forced-win ROLE`: exact verdicts, the winning probability, and the strategy witness."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main
from ggpbridge.query.run import run_query

DATA = Path(__file__).parent / "data"
NIM, NIM_HIDDEN, GUESS = str(DATA / "nim.rcy"), str(DATA / "nim_hidden.rcy"), str(DATA / "guess.rcy")


@pytest.mark.parametrize("game", [NIM, NIM_HIDDEN], ids=["public", "hidden"])
@pytest.mark.parametrize("stones", [3, 4, 5, 6])
def test_nim_is_forced_by_whoever_leaves_multiples_of_three(game, stones):
    # the hidden card plays no part: the tree's AND-OR must agree with the state search
    for role in (0, 1):
        (a,) = run_query(game, "forced-win", role, overrides={"STONES": stones})
        wins = (stones % 3 != 0) == (role == 0)
        assert a.verdict == ("yes" if wins else "no"), a.method


def test_hidden_information_is_respected():
    # seeing the card player 1 would always win (the relaxation); not seeing it, half the time
    (a,) = run_query(GUESS, "forced-win", 1)
    assert a.verdict == "no"
    assert a.stats["win_probability_lower"] == pytest.approx(0.5, abs=0.002)
    assert a.stats["win_probability_upper"] == pytest.approx(0.5, abs=0.002)
    r = CliRunner().invoke(main, ["solve", GUESS, "--method", "expectimax", "--utility", "win", "--json"])
    rep = json.loads(r.output)
    assert rep["exact_value"] == ["0", "1"] and rep["relaxation"]


def test_kuhn_cannot_be_forced():
    for role in (0, 1):
        (a,) = run_query(str(GAMES / "kuhn_poker.rcy"), "forced-win", role)
        assert a.verdict == "no" and 0.2 < a.stats["win_probability_lower"] <= a.stats["win_probability_upper"] < 0.8


def test_the_strategy_witness_replays_and_a_wrong_one_does_not(tmp_path):
    w = tmp_path / "nim.json"
    r = CliRunner().invoke(main, ["query", NIM, "forced-win", "0", "--set", "STONES=5", "--witness", str(w)])
    assert r.exit_code == 0 and "a strategy for" in r.output
    r = CliRunner().invoke(main, ["replay", NIM, str(w)])
    assert r.exit_code == 0 and "confirmed" in r.output
    doc = json.loads(w.read_text())
    first = next(e for e in doc["strategy"] if e["after"] == [])
    first["option"] = 1 - first["option"]   # take the other number first: 5 - k is no multiple of 3
    w.write_text(json.dumps(doc))
    r = CliRunner().invoke(main, ["replay", NIM, str(w)])
    assert r.exit_code == 1 and "NOT confirmed" in r.output


def test_a_strategy_into_a_dead_end_is_not_confirmed(tmp_path):
    # option 0 hands player 1 a turn with no enabled option: no play ends, so nothing is won
    game = str(DATA / "trap.rcy")
    w = tmp_path / "trap.json"
    doc = {"format": "ggpbridge-witness/1", "game": game, "overrides": {}, "question": "forced-win", "role": 0,
           "verdict": "yes", "kind": "strategy", "steps": [], "strategy": [{"after": [], "option": 0}]}
    w.write_text(json.dumps(doc))
    r = CliRunner().invoke(main, ["replay", game, str(w)])
    assert r.exit_code == 1 and "NOT confirmed" in r.output and "no enabled option" in r.output
    doc["strategy"][0]["option"] = 1   # the immediate win
    w.write_text(json.dumps(doc))
    r = CliRunner().invoke(main, ["replay", game, str(w)])
    assert r.exit_code == 0 and "confirmed" in r.output


def test_forced_win_needs_a_role_and_the_asp_engine_declines():
    r = CliRunner().invoke(main, ["query", NIM, "forced-win"])
    assert r.exit_code == 2 and "needs a ROLE" in r.output
    answers = run_query(NIM, "forced-win", 0, engine="both")
    assert [a.verdict for a in answers] == ["yes", "unknown"]
    assert "explicit engine only" in answers[1].method
