"""`replay` on witnesses a user may have in hand: readable steps, and malformed or doctored files refused."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main

AGRAM = GAMES / "agram2_c2.rcy"
WAR = GAMES / "war_n4_seat.rcy"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def win_witness(tmp_path_factory):
    w = tmp_path_factory.mktemp("w") / "win.json"
    assert run("query", AGRAM, "winnable", "1", "--witness", w).exit_code == 0
    return json.loads(w.read_text())


@pytest.fixture(scope="module")
def cycle_witness(tmp_path_factory):
    w = tmp_path_factory.mktemp("w") / "cycle.json"
    assert run("query", WAR, "cycle", "--witness", w).exit_code == 0
    return json.loads(w.read_text())


def _write(tmp_path, data, name="w.json"):
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data))
    return p


def _refused(r, *words):
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and r.exception is None or isinstance(r.exception, SystemExit)
    for w in words:
        assert w in r.output, r.output


def test_witness_steps_name_cards_by_their_attributes(win_witness):
    decisions = [s for s in win_witness["steps"] if "player" in s]
    assert decisions
    # Agram's deck declares SUIT then RANK: a card is shown as (SUIT RANK), not c0
    assert all("(move (" in s["move"] and "c0" not in s["move"] for s in decisions)
    assert any("HEARTS" in s["move"] or "SPADES" in s["move"] or "CLUBS" in s["move"] or "DIAMONDS" in s["move"]
               for s in decisions)


def test_a_replayed_step_says_what_was_played(tmp_path, win_witness):
    r = run("replay", AGRAM, _write(tmp_path, win_witness))
    assert r.exit_code == 0, r.output
    played = [ln for ln in r.output.splitlines() if "player" in ln and "option" in ln]
    assert played and all("(move (" in ln for ln in played)
    assert "form 0" not in r.output


def test_a_binary_file_is_refused(tmp_path):
    p = tmp_path / "w.json"
    p.write_bytes(bytes(range(256)) * 4)
    _refused(run("replay", WAR, p), "w.json")


@pytest.mark.parametrize("steps", [[None, 5], [5], [{"player": 0}], [{"chance": "x"}], [{"chance": True}],
                                   [{"player": 0, "option": -1}], "steps"])
def test_malformed_steps_are_refused(tmp_path, cycle_witness, steps):
    _refused(run("replay", WAR, _write(tmp_path, {**cycle_witness, "steps": steps})), "step")


@pytest.mark.parametrize("change", [{"overrides": [1]}, {"question": None}, {"verdict": 3}, {"recur_from": "0"}])
def test_malformed_fields_are_refused(tmp_path, cycle_witness, change):
    _refused(run("replay", WAR, _write(tmp_path, {**cycle_witness, **change})))


def test_json_that_is_not_an_object_is_refused(tmp_path):
    _refused(run("replay", WAR, _write(tmp_path, "[1, 2]")), "witness")


def test_an_unknown_question_is_refused(tmp_path, cycle_witness):
    _refused(run("replay", WAR, _write(tmp_path, {**cycle_witness, "question": "fun"})), "fun")


def test_an_edited_verdict_is_not_confirmed(tmp_path, cycle_witness):
    assert run("replay", WAR, _write(tmp_path, cycle_witness)).exit_code == 0
    r = run("replay", WAR, _write(tmp_path, {**cycle_witness, "verdict": "no"}))
    assert r.exit_code != 0 and "confirmed:" not in r.output.replace("NOT confirmed:", "")
    assert "cycle yes" in r.output


def test_a_kind_that_says_nothing_about_the_question_is_refused(tmp_path, cycle_witness):
    _refused(run("replay", WAR, _write(tmp_path, {**cycle_witness, "question": "winnable"})), "winnable")


def test_an_asp_win_with_its_goal_edited_down_is_not_confirmed(tmp_path):
    # the play is a win for `first`; claiming it for `second` with the goal `second` got there (0)
    # must not pass for "winnable second: yes"
    game = Path(__file__).parent / "data" / "countdown.kif"
    w = tmp_path / "asp.json"
    assert run("query", game, "winnable", "first", "--engine", "asp", "--witness", w).exit_code == 0
    data = json.loads(w.read_text())
    assert run("replay", game, w).exit_code == 0
    r = run("replay", game, _write(tmp_path, {**data, "role": "second", "goal": 0}, "edited.json"))
    assert r.exit_code == 1 and "NOT confirmed" in r.output and "top goal" in r.output


def test_an_asp_witness_of_a_card_game_replays_as_the_options_taken(tmp_path):
    # War with 2 cards (as tests/query/test_explicit.py derives it): small enough for the asp engine
    text = (GAMES / "war_n4_winner.rcy").read_text()
    text = text.replace("(RANK (ONE, TWO, THREE, FOUR))", "(RANK (ONE, TWO))").replace("(repeat 2", "(repeat 1")
    game, w = tmp_path / "war_n2_winner.rcy", tmp_path / "asp.json"
    game.write_text(text)
    assert run("query", game, "winnable", "1", "--engine", "asp", "--witness", w).exit_code == 0
    r = run("replay", game, w)
    assert r.exit_code == 0, r.output
    played = [ln for ln in r.output.splitlines() if "player0:" in ln or "player1:" in ln]
    assert played and all("(move (top" in ln and "[(option" in ln for ln in played), played
