"""The generated GDL-II: valid, and in lockstep with the Python machine on the small variants."""
from __future__ import annotations

import pytest

from conftest import GAMES
from ggpbridge.deckbuild.gdl import describe
from ggpbridge.deckbuild.machine import DeckMachine
from ggpbridge.deckbuild.settings import read_dbk, settings
from ggpbridge.errors import UnsupportedConstructError
from ggpbridge.gdl.kif import parse_kif
from ggpbridge.gdl.machine import ClingoMachine
from ggpbridge.gdl.validate import validate
from ggpbridge.lockstep import lockstep


@pytest.mark.parametrize("game", ["rpn_small", "golomb_small"])
def test_the_small_variants_translate_to_valid_gdl2(game):
    desc = parse_kif(describe(read_dbk(GAMES / f"{game}.dbk")))
    assert [d for d in validate(desc) if d.severity == "error"] == []
    assert any(r.head.name == "sees" for r in desc.rules if hasattr(r, "head") and hasattr(r.head, "name"))


def test_random_starting_decks_are_refused_with_the_reason():
    with pytest.raises(UnsupportedConstructError, match="start=draft"):
        describe(settings("rpn", {"start": "draft", "ranks": 4}))


@pytest.mark.slow
@pytest.mark.parametrize("game", ["rpn_small", "golomb_small"])
def test_python_machine_and_clingo_agree_in_lockstep(game):
    s = read_dbk(GAMES / f"{game}.dbk")
    rep = lockstep(DeckMachine(s), ClingoMachine(parse_kif(describe(s))), 2, seed=11)
    assert rep.divergence is None and rep.plays == 2 and rep.steps > 20


@pytest.mark.slow
def test_the_lockstep_finds_a_rule_that_differs():
    """The machine plays one turn fewer than the description: the two must part at an end."""
    s = read_dbk(GAMES / "golomb_small.dbk")
    shorter = DeckMachine(settings("golomb", {"ranks": 3, "hand": 3, "stack": 2, "turns": 2}))
    rep = lockstep(shorter, ClingoMachine(parse_kif(describe(s))), 5)
    assert rep.divergence is not None
    assert rep.divergence["what"] in ("terminal", "legal moves", "goals")


@pytest.mark.parametrize("game", ["rpn", "golomb"])
def test_a_full_size_game_is_refused_at_once_with_the_table_size(game, tmp_path):
    # the paper's games (52 faces, hands of 5) would tabulate millions of hands: a clear refusal
    # naming the file, not hours of expression searches
    from click.testing import CliRunner
    from ggpbridge.cli import main
    with pytest.raises(UnsupportedConstructError, match=r"4,187,053 multisets of 52 faces"):
        describe(read_dbk(GAMES / f"{game}.dbk"))
    out = CliRunner().invoke(main, ["translate", str(GAMES / f"{game}.dbk"), "--to", "gdl2", "-o", str(tmp_path / "g.kif")])
    assert out.exit_code != 0 and f"{game}.dbk: unsupported: the table" in out.output
    assert "Traceback" not in out.output and not (tmp_path / "g.kif").exists()
