"""A file that cannot be written loses no result: `match -o` is checked before playing, and the
goals and `query`'s answers are printed whatever happens to the file."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ggpbridge.cli import main
from ggpbridge.cli import match as match_cli

ROOT = Path(__file__).resolve().parents[1]
MONTY = str(ROOT / "examples" / "gdl" / "montyhall.kif")
KUHN = str(ROOT / "games" / "kuhn_poker.rcy")
MATCH = ["match", MONTY, "--player", "candidate=builtin:legal", "--seed", "3", "--playclock", "1"]


@pytest.mark.parametrize("option", ["-o", "--transcript"])
def test_match_refuses_an_unwritable_output_before_playing(tmp_path, monkeypatch, option):
    def never(self):
        raise AssertionError("the match was played")
    monkeypatch.setattr(match_cli.Match, "run", never)
    path = tmp_path / "missing" / "record.json"
    result = CliRunner().invoke(main, MATCH + [option, str(path)])
    assert result.exit_code == 2, result.output
    assert str(path) in result.output and "cannot be written" in result.output
    assert not (tmp_path / "missing").exists()


def test_match_prints_the_goals_when_the_record_cannot_be_written(tmp_path, monkeypatch):
    folder = tmp_path / "out"
    folder.mkdir()
    played = match_cli.Match.run

    def run_then_lose_the_folder(self):
        record = played(self)
        folder.rmdir()   # the folder goes away during the match
        return record
    monkeypatch.setattr(match_cli.Match, "run", run_then_lose_the_folder)
    result = CliRunner().invoke(main, MATCH + ["-o", str(folder / "record.json")])
    assert result.exit_code == 2, result.output
    assert "goals: candidate " in result.output
    assert str(folder / "record.json") in result.output
    assert result.output.index("goals:") < result.output.index("record.json")


def test_an_existing_output_is_not_touched_by_the_check(tmp_path):
    out = tmp_path / "record.json"
    result = CliRunner().invoke(main, MATCH + ["-o", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["steps"] == 4


def test_query_refuses_an_unwritable_witness_before_searching(tmp_path):
    path = tmp_path / "missing" / "w.json"
    result = CliRunner().invoke(main, ["query", KUHN, "winnable", "0", "--witness", str(path)])
    assert result.exit_code == 2, result.output
    assert str(path) in result.output and "cannot be written" in result.output


@pytest.mark.parametrize("as_json", [False, True])
def test_query_prints_its_answer_when_the_witness_cannot_be_written(tmp_path, monkeypatch, as_json):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kuhn_poker-winnable-0.witness.json").mkdir()   # the default witness path is taken
    result = CliRunner().invoke(main, ["query", KUHN, "winnable", "0"] + (["--json"] if as_json else []))
    assert result.exit_code == 2, result.output
    if as_json:
        data = json.loads(result.stdout)
        assert data["answers"][0]["verdict"] == "yes" and data["witness_file"] is None
        assert "kuhn_poker-winnable-0.witness.json" in data["witness_error"]
    else:
        assert "winnable 0? yes" in result.output
        assert "witness not written: " in result.output


def test_translate_refuses_an_unwritable_output_before_translating(tmp_path, monkeypatch):
    from ggpbridge.cli import translate as translate_cli

    def never(*args, **kwargs):
        raise AssertionError("the game was translated")
    monkeypatch.setattr(translate_cli, "load_description", never)
    path = tmp_path / "missing" / "game.kif"
    result = CliRunner().invoke(main, ["translate", KUHN, "--fit", "200", "-o", str(path)])
    assert result.exit_code == 2, result.output
    assert str(path) in result.output and "cannot be written" in result.output
