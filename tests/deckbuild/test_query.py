"""`query --engine asp` on a small deck-building variant, through its generated GDL-II; the
winning play clingo finds is replayed on the Python machine, which must agree it is won."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.deckbuild.machine import DeckMachine
from ggpbridge.deckbuild.settings import read_dbk


def ask(*args) -> dict:
    from ggpbridge.cli import main
    r = CliRunner().invoke(main, ["query", str(GAMES / "golomb_small.dbk"), *args, "--set", "turns=2",
                                  "--engine", "asp", "--json"])
    assert r.exit_code == 0, r.output
    [answer] = json.loads(r.stdout)["answers"]
    return answer


@pytest.mark.slow
def test_small_golomb_terminates():
    assert ask("terminates")["verdict"] == "yes"


@pytest.mark.slow
def test_small_golomb_is_winnable_by_seat_0_and_the_python_machine_agrees(tmp_path):
    answer = ask("winnable", "0", "--witness", str(tmp_path / "w.json"))
    assert answer["verdict"] == "yes"
    m = DeckMachine(read_dbk(GAMES / "golomb_small.dbk", {"turns": 2}))
    state = m.initial_state()
    for step in answer["witness"]["moves"]:
        joint = {}
        for entry in step:
            by_name = {str(mv): mv for mv in m.legal_moves(state, entry["role"])}
            assert entry["move"] in by_name, (entry, sorted(by_name))
            joint[entry["role"]] = by_name[entry["move"]]
        state = m.next_state(state, joint)
    assert m.is_terminal(state) and m.goals(state)["player0"] == 100
    # and `replay` confirms the asp engine's witness of a .dbk on its translation
    from ggpbridge.cli import main
    r = CliRunner().invoke(main, ["replay", str(GAMES / "golomb_small.dbk"), str(tmp_path / "w.json")])
    assert r.exit_code == 0 and "confirmed" in r.output, r.output
