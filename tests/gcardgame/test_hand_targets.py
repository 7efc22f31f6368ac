"""A hand as the place a card goes to or comes from: one part of it, a refusal by the checker,
or the translator's refusal at the construct's line:col."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from ggpbridge import ir
from ggpbridge.cli import main
from ggpbridge.gcardgame import parse_text, to_recycle

HEAD = "players 2\ntables 1\nstage 0\n  com deal ALL 3\n"


def _game(rule: str, tmp_path):
    path = tmp_path / "g.gcg"
    path.write_text(HEAD + f"  {rule}\n  unconditional done\n")
    return path


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("face, part", [("up", ("vloc", "UP")), ("down", ("iloc", "HAND"))])
def test_puin_onto_a_hand_goes_to_the_part_its_face_names(face, part):
    game = to_recycle(parse_text(HEAD + f"  unconditional puin H1*1 λ {face}\n", "g.gcg")).game
    dests = [m.dst.source for m in game.walk() if isinstance(m, ir.Move) and isinstance(m.dst, ir.CardAt)
             and m.dst.pos.line == 5]
    assert dests and all(isinstance(d, ir.Location) and (d.vis, d.name.value) == part for d in dests)


def test_puin_onto_a_hand_plays_and_translates(tmp_path):
    path = _game("unconditional puin H1*1 λ up", tmp_path)
    r = _run("simulate", path, "-n", 20, "--json")
    assert r.exit_code == 0 and '"errors": 0' in r.output, r.output
    assert _run("translate", path, "--to", "gdl2", "-o", tmp_path / "g.kif").exit_code == 0


@pytest.mark.slow
def test_puin_onto_a_hand_agrees_in_lockstep(tmp_path):
    r = _run("crosscheck", _game("unconditional puin H1*1 λ up", tmp_path), "-n", 1)
    assert r.exit_code == 0 and "1 of 1 playouts agree" in r.output, r.output


def test_playit_onto_a_hand_is_refused_with_its_position(tmp_path):
    r = _run("check", _game("show > H1 playit", tmp_path))
    assert r.exit_code != 0 and "g.gcg:5:10: error: 'playit'" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("rule, col", [("unconditional pifr H1*1 up", 22), ("unconditional puin H1*1 > down", 22)])
def test_the_translator_names_a_card_of_a_hand_at_its_position(rule, col, tmp_path):
    path = _game(rule, tmp_path)
    r = _run("translate", path, "--to", "gdl2", "-o", tmp_path / "g.kif")
    assert r.exit_code != 0 and f"g.gcg:5:{col}: unsupported: a card of (union" in r.output, r.output
    assert "Traceback" not in r.output
