"""The report pages in a real headless browser (Debian's chromium): they load without a console
message, every chart is drawn, and a screenshot is taken (kept in pytest's tmp dir).

Without chromium the tests are skipped, except under CI=true, where .ci/run installs it and
a missing browser is a failure."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from ggpbridge.cli import main

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"
PLOTS = ("win-share", "length", "branching-stage", "branching-trick", "potential", "lead")


@pytest.fixture(scope="module")
def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not on PATH: .ci/run installs it (apt-get install chromium)")
        pytest.skip("chromium is not on PATH (Debian: apt-get install chromium)")
    return path


def browse(chromium: str, page: Path, shot: Path) -> tuple[str, list[str]]:
    """Load `page` headless, save a screenshot to `shot`: the DOM after its scripts ran, and every
    console message the page produced."""
    args = [chromium, "--headless", "--disable-gpu", "--enable-logging=stderr", "--v=0",
            f"--user-data-dir={shot.parent / 'profile'}", "--window-size=1100,3000",
            f"--screenshot={shot}", "--dump-dom", page.as_uri()]
    if os.geteuid() == 0:
        args.insert(1, "--no-sandbox")   # chromium refuses to run as root with its sandbox
    done = subprocess.run(args, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, [line for line in done.stderr.splitlines() if ":CONSOLE" in line]


def _write(tmp_path: Path, *args) -> Path:
    out = tmp_path / "report.html"
    r = CliRunner().invoke(main, ["report", *map(str, args), "-o", str(out)])
    assert r.exit_code == 0, r.output
    return out


def _png(shot: Path) -> None:
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000   # an image with something drawn


@pytest.mark.slow
def test_the_report_page_loads_cleanly_with_every_chart(chromium, tmp_path):
    page = _write(tmp_path, ROOT / "games" / "agram.rcy", "-n", 40, "--pipmc-games", 3, "--potential-games", 5)
    dom, console = browse(chromium, page, tmp_path / "report.png")
    assert console == []
    assert f'data-plots="{len(PLOTS)}/{len(PLOTS)}"' in dom   # the page's script ran and counted them
    for key in PLOTS:
        assert re.search(rf'id="plot-{key}">.*?<svg', dom, re.S), key
    _png(tmp_path / "report.png")


@pytest.mark.slow
def test_the_sweep_page_loads_cleanly_with_its_chart(chromium, tmp_path):
    page = _write(tmp_path, DATA / "fixed_length.rcy", "-n", 5, "--pipmc-games", 1, "--potential-games", 1,
                  "--sweep", "ROUNDS=1..3")
    dom, console = browse(chromium, page, tmp_path / "sweep.png")
    assert console == []
    assert 'data-plots="1/1"' in dom and re.search(r'id="plot-sweep">.*?<svg', dom, re.S)
    _png(tmp_path / "sweep.png")


def test_the_check_sees_a_page_s_console_errors(chromium, tmp_path):
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><html><body><script>throw new Error("broken chart");</script></body></html>')
    _, console = browse(chromium, page, tmp_path / "bad.png")
    assert any("broken chart" in line for line in console)
