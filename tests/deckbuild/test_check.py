"""`ggpbridge check` on deck-building game files: the bundled ones are clean, a bad setting is
an error at its line and column, as `simulate` would report it."""
from __future__ import annotations

import json

from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main


def test_the_bundled_deckbuilding_games_check_clean():
    files = sorted(str(p) for p in GAMES.glob("*.dbk"))
    assert len(files) >= 4
    out = CliRunner().invoke(main, ["check", "--json", *files])
    assert out.exit_code == 0, out.output
    assert [r["errors"] for r in json.loads(out.output)] == [0] * len(files)


def test_a_bad_setting_is_an_error_at_its_position(tmp_path):
    bad = tmp_path / "bad.dbk"
    bad.write_text('game = "golomb"\n[set]\nstacks = 3\nstackz = 2\n', encoding="utf-8")
    out = CliRunner().invoke(main, ["check", "--json", str(bad)])
    assert out.exit_code == 1
    (d,) = json.loads(out.output)[0]["diagnostics"]
    assert (d["line"], d["col"]) == (4, 1) and "stackz" in d["message"]


def test_broken_toml_is_an_error_at_its_position(tmp_path):
    bad = tmp_path / "bad.dbk"
    bad.write_text('game = "rpn"\n[set\n', encoding="utf-8")
    out = CliRunner().invoke(main, ["check", str(bad)])
    assert out.exit_code == 1 and "bad.dbk:2:" in out.output and "Traceback" not in out.output


def test_a_bad_set_names_the_file(tmp_path):
    out = CliRunner().invoke(main, ["simulate", str(GAMES / "rpn_small.dbk"), "-n", "1", "--set", "foo=1"])
    assert out.exit_code != 0 and "rpn_small.dbk: error: --set: unknown setting 'foo'" in out.output
    assert "<input>" not in out.output and "Traceback" not in out.output


def test_a_dbk_that_is_not_utf8_is_an_error_at_the_bad_byte(tmp_path):
    # before: a UnicodeDecodeError traceback from check and simulate
    bad = tmp_path / "bad.dbk"
    bad.write_bytes(b'game = "golomb"\n\xff\n')
    for args in (["check", str(bad)], ["simulate", str(bad), "-n", "1"]):
        out = CliRunner().invoke(main, args)
        assert out.exit_code != 0 and "Traceback" not in out.output, args
        assert "bad.dbk:2:1: error: not UTF-8 text: byte 0xff" in out.output, args
