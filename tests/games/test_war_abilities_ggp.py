"""War with ability cards, shrunk with `--set`, played by our GGP players over HTTP (`match --set`)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main

sys.path.insert(0, str(Path(__file__).parents[1] / "ggp"))
from ggp_helpers import PlayerProcess  # noqa: E402  (tests/ggp is not on the path of this folder)

SMALL = ["--set", "RANKS=3", "--set", "SUITS=1", "--set", "GAIN=0", "--set", "FORTUNE=0", "--set", "AMBUSH=0"]


@pytest.mark.slow
def test_a_match_between_an_http_mc_player_and_a_builtin_one(tmp_path):
    kif, record = tmp_path / "war_underdog3.kif", tmp_path / "match.json"
    r = CliRunner().invoke(main, ["translate", str(GAMES / "war_abilities.rcy"), "--to", "gdl2", *SMALL, "-o", str(kif)])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["validate", str(kif)])
    assert r.exit_code == 0 and "0 errors" in r.output, r.output
    player = PlayerProcess("mc")
    try:
        r = CliRunner().invoke(main, ["match", str(GAMES / "war_abilities.rcy"), *SMALL,
                                      "--player", f"player0={player.url}", "--player", "player1=builtin:mc",
                                      "--seed", "2", "--startclock", "10", "--playclock", "1", "-o", str(record)])
    finally:
        player.stop()
    assert r.exit_code == 0, r.output
    rec = json.loads(record.read_text())
    assert rec["errors"] == [] and not rec["aborted"]
    # a finished War has one winner: the loser holds no standard card, the winner all the rest
    assert sorted((rec["goals"]["player0"], rec["goals"]["player1"])) == [0, 100]
    # every battle both players turn a card, a forced move, shown as the option's action
    col = {role: rec["roles"].index(role) for role in ("player0", "player1")}
    for role, k in col.items():
        turned = [shown[k] for row, shown in zip(rec["moves"], rec["moves_shown"]) if row[k] != "noop"]
        assert turned and all(t.startswith("(move (top ((current player) iloc HAND))") for t in turned), role


@pytest.mark.slow   # 2 s of CPU, but the players' grounding at START takes 7-20 s wall on a loaded machine
def test_match_set_reaches_the_translation(tmp_path):
    # one card in all: the deal gives it to player 1, player 0 has run out before any battle
    record = tmp_path / "match.json"
    sets = ["--set", "RANKS=1", "--set", "SUITS=1", "--set", "GAIN=0", "--set", "FORTUNE=0", "--set", "AMBUSH=0",
            "--set", "UNDERDOG=0"]
    r = CliRunner().invoke(main, ["match", str(GAMES / "war_abilities.rcy"), *sets, "--player", "player0=builtin:random",
                                  "--player", "player1=builtin:random", "--seed", "1", "-o", str(record)])
    assert r.exit_code == 0, r.output
    rec = json.loads(record.read_text())
    assert (rec["goals"]["player0"], rec["goals"]["player1"]) == (0, 100)
    assert all(row[rec["roles"].index("player0")] == "noop" for row in rec["moves"])
