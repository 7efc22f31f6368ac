"""`validate` command through click's CliRunner."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ggpbridge.cli.validate import validate

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "gdl"

GOOD = """(role a)
(init (s 1))
(<= (legal a noop) (true (s 1)))
(goal a 100)
(<= terminal (true (s 2)))
(<= (next (s 2)) (true (s 1)))
"""
UNSAFE = GOOD + "(<= (p ?x)\n    (true (s 1)))\n"


@pytest.fixture
def runner():
    return CliRunner()


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_valid_files_exit_zero(runner):
    files = [str(EXAMPLES / n) for n in ("tictactoe.kif", "montyhall.kif", "minipoker.kif")]
    result = runner.invoke(validate, files)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines == [
        f"{files[0]}: 0 errors, 0 warnings (GDL, 40 rules)",
        f"{files[1]}: 0 errors, 0 warnings (GDL-II, 44 rules)",
        f"{files[2]}: 0 errors, 0 warnings (GDL-II, 61 rules)",
    ]


def test_error_is_printed_with_line_and_rule(runner, tmp_path):
    path = write(tmp_path, "unsafe.kif", UNSAFE)
    result = runner.invoke(validate, [path])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{path}:7: error: unsafe rule: ?x must occur in a positive literal of the body "
        "(not only in the head, a negation or a distinct)",
        "    (<= (p ?x) (true (s 1)))",
        f"{path}: 1 error, 0 warnings (GDL, 7 rules)",
    ]


def test_warnings_alone_exit_zero(runner, tmp_path):
    path = write(tmp_path, "noinit.kif", GOOD.replace("(init (s 1))\n", ""))
    result = runner.invoke(validate, [path])
    assert result.exit_code == 0
    assert f"{path}: warning: no 'init' facts" in result.output
    assert result.output.endswith(f"{path}: 0 errors, 1 warning (GDL, 5 rules)\n")


def test_syntax_error_prints_position_and_caret_without_traceback(runner, tmp_path):
    path = write(tmp_path, "broken.kif", "(role a)\n(<= (legal a noop)\n    (true (s 1))\n")
    result = runner.invoke(validate, [path])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.output.splitlines() == [
        f"{path}:2:1: error: unexpected end of input: this '(' is never closed",
        "    (<= (legal a noop)",
        "    ^",
        f"{path}: 1 error, 0 warnings (not checked)",
    ]


def test_one_bad_file_among_good_ones_fails_the_run(runner, tmp_path):
    bad = write(tmp_path, "bad.kif", GOOD + "(<= (goal a 150) (true (s 2)))\n")
    good = str(EXAMPLES / "tictactoe.kif")
    result = runner.invoke(validate, [good, bad])
    assert result.exit_code == 1
    assert f"{bad}:7: error: goal value 150 is outside 0..100" in result.output
    assert f"{good}: 0 errors" in result.output


def test_missing_file_is_an_error_not_a_crash(runner, tmp_path):
    path = str(tmp_path / "absent.kif")
    result = runner.invoke(validate, [path])
    assert result.exit_code == 1
    assert result.output.startswith(f"{path}: error: cannot read the file:")


def test_no_file_is_a_usage_error(runner):
    assert runner.invoke(validate, []).exit_code == 2


def test_json_output(runner, tmp_path):
    unsafe = write(tmp_path, "unsafe.kif", UNSAFE)
    broken = write(tmp_path, "broken.kif", "(role a))\n")
    result = runner.invoke(validate, ["--json", unsafe, broken])
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["errors"] == 2
    first, second = report["files"]
    assert (first["file"], first["gdl_version"], first["rules"], first["errors"]) == (unsafe, 1, 7, 1)
    assert first["diagnostics"][0]["line"] == 7
    assert first["diagnostics"][0]["rule"] == "(<= (p ?x) (true (s 1)))"
    assert second["gdl_version"] is None
    assert second["diagnostics"] == [{
        "severity": "error", "message": "unmatched ')': no '(' is open here",
        "line": 1, "col": 9, "rule": "(role a))",
    }]


def test_json_output_for_valid_file(runner):
    result = runner.invoke(validate, ["--json", str(EXAMPLES / "montyhall.kif")])
    assert result.exit_code == 0
    (entry,) = json.loads(result.output)["files"]
    assert (entry["gdl_version"], entry["errors"], entry["diagnostics"]) == (2, 0, [])


def test_a_recycle_game_given_to_validate_is_named_as_such(runner):
    # CardStock's `.gdl` files are RECYCLE: read as KIF they fail on their first RECYCLE form
    game = str(Path(__file__).resolve().parents[2] / "games" / "war.rcy")
    result = runner.invoke(validate, [game])
    assert result.exit_code == 1
    assert f"{game} is a RECYCLE game: `ggpbridge check {game}` checks it" in result.output


def test_a_kif_syntax_error_gets_no_recycle_hint(runner, tmp_path):
    bad = write(tmp_path, "bad.gdl", GOOD + "(<= (p ?x\n")
    result = runner.invoke(validate, [bad])
    assert result.exit_code == 1 and "RECYCLE" not in result.output


def test_a_warning_repeated_over_many_rules_is_printed_once_with_its_count(runner, tmp_path):
    path = write(tmp_path, "many.kif", GOOD + "".join(f"(p (a) {i})\n" for i in range(500)))
    result = runner.invoke(validate, [path])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    warnings = [ln for ln in lines if ": warning: (a) has no arguments" in ln]
    assert warnings == [f"{path}:7: warning: (a) has no arguments; write the constant a instead"]
    assert "    and 499 more like it, at lines 8, 9, 10, 11, 12, ..." in lines
    assert len(lines) < 10
    assert lines[-1] == f"{path}: 0 errors, 500 warnings (GDL, 506 rules)"
    as_json = json.loads(runner.invoke(validate, [path, "--json"]).output)
    assert as_json["files"][0]["warnings"] == 500 == len(as_json["files"][0]["diagnostics"])
