"""A GGP match of a deck-building game: the manager and its players on the generated GDL-II."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main


# the players ground the description at START: seconds each on a loaded machine. RPN's is
# larger (its redraws and banks): its grounding took over 120 s on the loaded machine (3
# timeouts in a match with --startclock 120), hence its long clocks
@pytest.mark.slow
@pytest.mark.parametrize("game, startclock, playclock", [("golomb_small.dbk", 120, 20), ("rpn_small.dbk", 600, 60)])
def test_a_match_between_builtin_players_ends_where_the_python_machine_does(tmp_path, game, startclock, playclock):
    record = tmp_path / "match.json"
    r = CliRunner().invoke(main, ["match", str(GAMES / game), "--player", "player0=builtin:random",
                                  "--player", "player1=builtin:random", "--seed", "5", "--startclock",
                                  str(startclock), "--playclock", str(playclock), "-o", str(record)])
    assert r.exit_code == 0, r.output
    rec = json.loads(record.read_text())
    assert rec["errors"] == [] and not rec.get("aborted")
    assert 100 in (rec["goals"]["player0"], rec["goals"]["player1"])   # ties share the win; someone wins
    k = rec["roles"].index("random")
    picks = [row[k] for row in rec["moves"] if row[k] != "noop"]
    assert picks and all(p.startswith("(pick c_") for p in picks)   # chance picks cards, by name
    # the played moves, replayed on the Python machine by their GDL names, end where the match ended
    from ggpbridge.deckbuild.machine import DeckMachine
    from ggpbridge.deckbuild.settings import read_dbk
    m = DeckMachine(read_dbk(GAMES / game))
    state = m.initial_state()
    for row in rec["moves"]:
        joint = {}
        for role, name in zip(rec["roles"], row):
            by_name = {str(mv): mv for mv in m.legal_moves(state, role)}
            assert name in by_name, (role, name)
            joint[role] = by_name[name]
        state = m.next_state(state, joint)
    assert m.is_terminal(state) and m.goals(state) == rec["goals"]
