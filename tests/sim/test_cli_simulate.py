"""The simulate command as a user runs it."""
from __future__ import annotations

import json

from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_json_report_and_reproducibility():
    a = json.loads(run("simulate", str(GAMES / "kuhn_poker.rcy"), "-n", "50", "--seed", "3", "--json").stdout)
    b = json.loads(run("simulate", str(GAMES / "kuhn_poker.rcy"), "-n", "50", "--seed", "3", "--json").stdout)
    for k in ("seconds", "games_per_second"):
        a.pop(k), b.pop(k)
    assert a == b
    assert a["games"] == 50 and a["finished"] == 50
    assert abs(sum(s["win_share"] for s in a["seats"]) - 1) < 1e-9


def test_set_overrides_a_declared_variable():
    r = run("simulate", str(GAMES / "agram.rcy"), "-n", "20", "--set", "HANDSIZE=2", "--json")
    rep = json.loads(r.stdout)
    assert rep["choices_per_game"]["distribution"] == {"8": 20}   # 4 players x 2 tricks


def test_unknown_variable_and_bad_set_are_clean_errors():
    r = CliRunner().invoke(main, ["simulate", str(GAMES / "agram.rcy"), "--set", "NOPE=1"])
    assert r.exit_code == 2 and "declares no variable 'NOPE" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["simulate", str(GAMES / "agram.rcy"), "--set", "NOPE"])
    assert r.exit_code == 2 and "NAME=VALUE" in r.output


def test_table_output_names_runaway_seeds():
    r = run("simulate", str(GAMES / "war_n4_seat.rcy"), "-n", "60")
    assert "cycle seeds" in r.output and "wins" in r.output
