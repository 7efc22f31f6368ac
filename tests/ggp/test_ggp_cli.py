"""The commands `match`, `export` and `serve-player`, and the repository layout."""
from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner
from ggp_helpers import EXAMPLES, ROOT

from ggpbridge.cli import main
from ggpbridge.gdl.kif import parse_kif


def test_match_command_writes_record_and_transcript(tmp_path):
    out, transcript = tmp_path / "match.json", tmp_path / "messages.json"
    result = CliRunner().invoke(main, [
        "match", str(EXAMPLES / "montyhall.kif"), "--player", "candidate=builtin:legal", "--seed", "3",
        "--playclock", "1", "--match-id", "cli1", "--upper", "-o", str(out), "--transcript", str(transcript)])
    assert result.exit_code == 0, result.output
    assert "0 error(s)" in result.output and "goals: candidate " in result.output
    record = json.loads(out.read_text())
    assert record["format"] == "ggpbridge-match/1" and record["match_id"] == "cli1" and record["gdl"] == 2
    assert record["roles"] == ["candidate", "random"] and record["steps"] == 4
    assert set(record["percepts"]) == {"candidate", "random"} and record["seed"] == 3
    assert set(record["timings"]) == {"start", "turns", "stop", "total"}
    messages = json.loads(transcript.read_text())
    assert messages[1] == {"role": "candidate", "message": "(PLAY CLI1 0 NIL NIL)", "reply": "noop"}


def test_match_command_usage_errors():
    runner = CliRunner()
    result = runner.invoke(main, ["match", str(EXAMPLES / "tictactoe.kif"), "--player", "xplayer"])
    assert result.exit_code == 2 and "expected ROLE=URL" in result.output
    result = runner.invoke(main, ["match", str(EXAMPLES / "tictactoe.kif"), "--player", "zplayer=builtin:legal"])
    assert result.exit_code == 2 and "no role zplayer in tictactoe.kif; the roles are xplayer, oplayer" in result.output
    assert "Traceback" not in result.output


def test_export_writes_the_repository_layout(tmp_path):
    for game in ("tictactoe", "montyhall"):
        result = CliRunner().invoke(main, ["export", str(EXAMPLES / f"{game}.kif"), "--repo", str(tmp_path)])
        assert result.exit_code == 0, result.output
        assert result.output.strip() == str(tmp_path / game)
        metadata = json.loads((tmp_path / game / "METADATA").read_text())
        assert metadata["gameName"] == game and metadata["rulesheet"] == f"{game}.kif"
        assert metadata["gdlVersion"] == (1 if game == "tictactoe" else 2)
        rules = (tmp_path / game / f"{game}.kif").read_text()
        assert parse_kif(rules) == parse_kif((EXAMPLES / f"{game}.kif").read_text())
    assert json.loads((tmp_path / "montyhall" / "METADATA").read_text())["roleNames"] == ["candidate", "random"]
    result = CliRunner().invoke(main, ["export", str(EXAMPLES / "tictactoe.kif"), "--repo", str(tmp_path),
                                       "--key", "bad key"])
    assert result.exit_code == 2 and "a game key is" in result.output


def test_serve_player_rejects_a_bad_name_without_starting():
    result = subprocess.run([sys.executable, "-m", "ggpbridge.cli", "serve-player", "--port", "0",
                             "--name", "two words"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 2 and "a name is one word" in result.stderr


def test_export_of_translated_agram_in_both_versions(tmp_path):
    agram = ROOT / "games" / "agram2_c2.rcy"
    for gdl, key in (("2", "agram2_c2"), ("1", "agram2_c2_gdl1")):
        result = CliRunner().invoke(main, ["export", str(agram), "--repo", str(tmp_path), "--gdl", gdl])
        assert result.exit_code == 0, result.output
        metadata = json.loads((tmp_path / key / "METADATA").read_text())
        assert metadata["rulesheet"] == f"{key}.kif" and metadata["gdlVersion"] == int(gdl)
        assert metadata["roleNames"] == ["player0", "player1", "random"] and metadata["source"] == "agram2_c2.rcy"
        desc = parse_kif((tmp_path / key / f"{key}.kif").read_text())
        assert any(rule.head.name == "sees" for rule in desc.rules
                   if hasattr(rule.head, "name")) == (gdl == "2")
