"""The parse/check/upgrade/info commands, as a user runs them."""
from __future__ import annotations

import json

from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main
from ggpbridge.ir_json import from_data
from ggpbridge.recycle import parse_file, parse_text

AGRAM = str(GAMES / "agram_paper.rcy")
OLD = str(GAMES / "agram_v03.gdl")


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_parse_json_rebuilds_the_ir():
    r = run("parse", AGRAM, "--json")
    assert r.exit_code == 0
    data = json.loads(r.output)
    assert data["dialect"] == "0.5.10" and data["game"]["node"] == "Game"
    assert from_data(data["game"]) == parse_file(AGRAM).game


def test_check_exit_status_and_messages(tmp_path):
    assert run("check", AGRAM, OLD).exit_code == 0
    bad = tmp_path / "bad.rcy"
    bad.write_text((GAMES / "agram_paper.rcy").read_text().replace("(inc ((next player) sto SCORE) 1)",
                                                                   "(inc ((next player) sto SCORE) 'X)"))
    r = run("check", AGRAM, str(bad))
    assert r.exit_code == 1
    assert f"{bad}:44:42: error: unbound variable 'X" in r.output
    assert "FAILED" in r.output and "ok" in r.output


def test_check_json_reports_each_file():
    r = run("check", OLD, "--json")
    [rep] = json.loads(r.output)
    assert rep["dialect"] == "0.3" and rep["errors"] == 0 and rep["warnings"] == 1


def test_syntax_error_is_clean_not_a_traceback(tmp_path):
    f = tmp_path / "broken.rcy"
    f.write_text("(game (setup (create players 2))\n (do ((move (top (game iloc S)))))\n (scoring max 1))")
    r = run("check", str(f))
    assert r.exit_code == 1 and "broken.rcy:2:7: error: 'move' takes 2 arguments" in r.output
    r = run("info", str(f))
    assert r.exit_code == 2 and "Traceback" not in r.output and "broken.rcy:2:7" in r.output


def test_upgrade_writes_v0510_that_reads_back(tmp_path):
    out = tmp_path / "agram_new.rcy"
    r = run("upgrade", OLD, "-o", str(out))
    assert r.exit_code == 0
    text = out.read_text()
    assert text.startswith(";; upgraded from RECYCLE v0.3") and ";;   rank -> RANK" in text
    new = parse_text(text, dialect="0.5.10")
    assert new.dialect == "0.5.10" and not new.warnings


def test_info_lists_the_game_anatomy():
    r = run("info", AGRAM, "--json")
    s = json.loads(r.output)
    assert s["players"] == 4 and s["deck_size"] == 35 and s["teams"] == [[0], [1], [2], [3]]
    locs = {(x["owner"], x["vis"], x["name"]): x["seen_by"] for x in s["locations"]}
    assert locs[("player", "iloc", "HAND")] == "the owner only"
    assert locs[("game", "iloc", "STOCK")] == "nobody"
    assert [st["depth"] for st in s["stages"]] == [0, 1]
    [choice] = s["choices"]
    assert choice["stage"] == 1 and choice["options"] == 3 and choice["any_branches"] == 3
    text = run("info", AGRAM).output
    assert "deck: 35 cards" in text and "choice points" in text


def test_missing_file_is_a_usage_error():
    r = CliRunner().invoke(main, ["check", "/no/such/file.rcy"])
    assert r.exit_code == 2 and "does not exist" in r.output


def test_a_gdl_file_is_named_as_such_where_a_recycle_game_is_read():
    kif = str(GAMES.parent / "examples" / "gdl" / "tictactoe.kif")
    # read as RECYCLE, its first `;` comment was the error
    r = CliRunner().invoke(main, ["parse", kif])
    assert r.exit_code == 2 and f"{kif}: error: a GDL (KIF) file, by its suffix .kif" in r.stderr
    assert "';'" not in r.stderr
    # check goes on with the other files, and points to the command for GDL
    r = run("check", kif, AGRAM)
    assert r.exit_code == 1 and "`ggpbridge validate` checks GDL files" in r.output
    assert f"{AGRAM}: ok" in r.output
    r = CliRunner().invoke(main, ["crosscheck", kif])
    assert r.exit_code == 2 and "--engine clingo" in r.stderr

