"""Absurd declared values (`--set NUMP=99999999999999999999`) are clear errors naming the
setting, for every command that compiles a game; never an allocation without end.

The commands run in subprocesses with a memory cap and a timeout, so that a regression
fails instead of exhausting the machine.
"""
from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from conftest import GAMES
from ggpbridge.sim.limits import MAX_CARDS, MAX_PLAYERS, MAX_VALUE

HUGE = "99999999999999999999"

# the setup copies one deck 'COPIES times
COPIES = """(game
  (declare 2 'COPIES)
  (setup
    (create players 2)
    (repeat 'COPIES (create deck (game iloc STOCK) (deck (RANK (ONE, TWO)) (SUIT (RED, BLUE))))))
  (stage player
    (end (== (size (game iloc STOCK)) 0))
    (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))
  (scoring max (size ((current player) iloc HAND))))
"""


def _cap_memory():
    resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))


def cli(*args):
    return subprocess.run([sys.executable, "-m", "ggpbridge.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=120, preexec_fn=_cap_memory)


@pytest.mark.parametrize("command", [["simulate", "-n", "1"], ["translate", "--to", "gdl2"],
                                     ["query", "terminates"], ["playout", "--engine", "sim", "-n", "1"]])
def test_a_player_count_beyond_the_limit_names_the_setting(command):
    r = cli(command[0], GAMES / "pairs.rcy", *command[1:], "--set", f"NUMP={HUGE}")
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"--set NUMP={HUGE}" in r.stderr and f"at most {MAX_PLAYERS}" in r.stderr
    assert "Traceback" not in r.stderr


def test_a_repeat_count_beyond_the_limit_names_the_setting():
    r = cli("simulate", GAMES / "agram.rcy", "-n", "1", "--set", f"HANDSIZE={MAX_VALUE + 1}")
    assert r.returncode == 2 and f"--set HANDSIZE={MAX_VALUE + 1}" in r.stderr and str(MAX_VALUE) in r.stderr
    assert "Traceback" not in r.stderr


def test_decks_beyond_the_limit_name_the_setting(tmp_path):
    game = tmp_path / "copies.rcy"
    game.write_text(COPIES)
    assert cli("simulate", game, "-n", "2", "--set", "COPIES=3").returncode == 0
    r = cli("simulate", game, "-n", "1", "--set", f"COPIES={MAX_VALUE}")
    assert r.returncode == 2 and f"--set COPIES={MAX_VALUE}" in r.stderr and f"at most {MAX_CARDS}" in r.stderr
    assert "Traceback" not in r.stderr


def test_a_value_with_thousands_of_digits_is_a_usage_error():
    r = cli("simulate", GAMES / "pairs.rcy", "-n", "1", "--set", "NUMP=" + "9" * 5000)
    assert r.returncode == 2 and "--set" in r.stderr and "Traceback" not in r.stderr


def test_values_within_the_limits_still_play():
    from ggpbridge.recycle import parse_file
    from ggpbridge.sim import compile_loaded, simulate
    prog = compile_loaded(parse_file(GAMES / "pairs.rcy"), {"NUMP": 7})
    assert prog.lay.n == 7 and simulate(prog, 3).report()["games"] == 3
