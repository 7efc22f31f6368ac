"""A GGP match of a deck-building game: the manager and its players on the generated GDL-II."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main


@pytest.mark.slow   # the players ground the description at START: seconds each on a loaded machine
def test_a_match_of_small_golomb_between_builtin_players(tmp_path):
    record = tmp_path / "match.json"
    r = CliRunner().invoke(main, ["match", str(GAMES / "golomb_small.dbk"), "--player", "player0=builtin:random",
                                  "--player", "player1=builtin:random", "--seed", "5", "--startclock", "120",
                                  "--playclock", "20", "-o", str(record)])
    assert r.exit_code == 0, r.output
    rec = json.loads(record.read_text())
    assert rec["errors"] == [] and not rec.get("aborted")
    assert 100 in (rec["goals"]["player0"], rec["goals"]["player1"])   # ties share the win; someone wins
    k = rec["roles"].index("random")
    picks = [row[k] for row in rec["moves"] if row[k] != "noop"]
    assert picks and all(p.startswith("(pick c_") for p in picks)   # chance picks cards, by name
