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


# RPN's description is larger (its redraws and banks): grounding at START took over 120 s on the
# loaded machine (3 timeouts in a match with --startclock 120), hence the long clocks
@pytest.mark.slow
def test_a_match_of_small_rpn_between_builtin_players(tmp_path):
    record = tmp_path / "match.json"
    r = CliRunner().invoke(main, ["match", str(GAMES / "rpn_small.dbk"), "--player", "player0=builtin:random",
                                  "--player", "player1=builtin:random", "--seed", "5", "--startclock", "600",
                                  "--playclock", "60", "-o", str(record)])
    assert r.exit_code == 0, r.output
    rec = json.loads(record.read_text())
    assert rec["errors"] == [] and not rec.get("aborted")
    assert 100 in (rec["goals"]["player0"], rec["goals"]["player1"])   # ties share the win; someone wins
    k = rec["roles"].index("random")
    picks = [row[k] for row in rec["moves"] if row[k] != "noop"]
    assert picks and all(p.startswith("(pick c_") for p in picks)
    # the played moves, replayed on the Python machine by their GDL names, end where the match ended
    from ggpbridge.deckbuild.machine import DeckMachine
    from ggpbridge.deckbuild.settings import read_dbk
    m = DeckMachine(read_dbk(GAMES / "rpn_small.dbk"))
    state = m.initial_state()
    for row in rec["moves"]:
        joint = {}
        for role, name in zip(rec["roles"], row):
            by_name = {str(mv): mv for mv in m.legal_moves(state, role)}
            assert name in by_name, (role, name)
            joint[role] = by_name[name]
        state = m.next_state(state, joint)
    assert m.is_terminal(state) and m.goals(state) == rec["goals"]
