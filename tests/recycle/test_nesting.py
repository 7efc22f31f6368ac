"""A RECYCLE game nested without end is a positioned error, as a KIF file is (ggpbridge/nesting.py):
the checker, the simulator and the translator all walk expressions recursively."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from ggpbridge.cli import main
from ggpbridge.nesting import MAX_DEPTH

WAR = Path(__file__).resolve().parents[2] / "games" / "war.rcy"
SCORE = "(scoring max (size ((current player) iloc HAND))))"


def _deep(tmp_path: Path, levels: int) -> Path:
    """War, scored by its hand size plus one, `levels` times over."""
    text = WAR.read_text(encoding="utf-8")
    assert SCORE in text
    expr = "(+ " * levels + "(size ((current player) iloc HAND))" + " 1)" * levels
    path = tmp_path / f"war{levels}.rcy"
    path.write_text(text.replace(SCORE, f"(scoring max {expr}))"), encoding="utf-8")
    return path


@pytest.mark.parametrize("args", [["check"], ["simulate", "-n", "2"], ["translate"]])
def test_deep_nesting_is_a_positioned_error(tmp_path, args):
    path = _deep(tmp_path, 400)
    result = CliRunner().invoke(main, args[:1] + [str(path)] + args[1:])
    assert isinstance(result.exception, (SystemExit, type(None))), repr(result.exception)
    assert result.exit_code in (1, 2)
    line = next(n for n, ln in enumerate(path.read_text().splitlines(), 1) if "(scoring" in ln)
    assert f"{path}:{line}:" in result.output and f"nested deeper than {MAX_DEPTH}" in result.output


def test_nesting_within_the_bound_goes_through(tmp_path):
    path = _deep(tmp_path, MAX_DEPTH - 10)
    for args in (["check"], ["simulate", "-n", "2"], ["translate"]):
        result = CliRunner().invoke(main, args[:1] + [str(path)] + args[1:])
        assert result.exit_code == 0, (args, result.output[-500:], result.exception)
