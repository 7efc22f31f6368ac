"""Every benchmark answers --help with its usage and runs nothing: they are scripts people try first."""
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = sorted((Path(__file__).resolve().parents[1] / "benchmarks").glob("[!_]*.py"))


@pytest.mark.parametrize("script", BENCHMARKS, ids=lambda p: p.name)
def test_help_prints_the_usage_and_exits_zero(script):
    result = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True,
                            timeout=120, cwd=script.parent)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith(f"usage: {script.name}"), result.stdout[:500]
    assert "Traceback" not in result.stderr
