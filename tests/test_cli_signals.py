"""Ctrl-C (SIGINT) and SIGTERM stop a long command: it prints what it computed and exits 130 / 143.

Real signals are sent to a real process. Its stderr is a terminal (a pty), so that each command
shows its progress: the signal is sent once the progress says the work has begun."""
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[1] / "games"
WAR = str(GAMES / "war.rcy")


def _interrupt(args: list[str], ready: bytes, sig: int, cwd=None) -> tuple[int, str, str]:
    """Run `ggpbridge ARGS`, send `sig` once the pattern `ready` shows on its stderr; (status, stdout, stderr)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "ggpbridge.cli", *args], stdout=subprocess.PIPE,
                            stderr=slave, stdin=subprocess.DEVNULL, cwd=cwd)
    os.close(slave)
    seen, deadline = b"", time.monotonic() + 120
    try:
        while not re.search(ready, seen):
            assert time.monotonic() < deadline and proc.poll() is None, f"never ready: {seen[-500:]!r}"
            if select.select([master], [], [], 0.5)[0]:
                seen += os.read(master, 65536)
        time.sleep(0.3)    # well inside the work
        proc.send_signal(sig)
        out = proc.communicate(timeout=120)[0].decode()
        while select.select([master], [], [], 0.2)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:   # the terminal's other end is closed
                break
            if not chunk:
                break
            seen += chunk
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return proc.returncode, out, seen.decode(errors="replace")


@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_simulate_prints_the_games_played_and_exits_with_the_signal(sig, status):
    code, out, err = _interrupt(["simulate", WAR, "-n", "100000000"], b"playing", sig)
    assert code == status, (out, err)
    assert "[interrupted]" in out and "finished" in out
    assert f"interrupted by {signal.Signals(sig).name}" in err


def test_playout_prints_the_playouts_done_on_sigterm():
    code, out, err = _interrupt(["playout", WAR, "-n", "100000000"], rb"playouts \(sim\)", signal.SIGTERM)
    assert code == 143, (out, err)
    assert "playouts on sim" in out and "mean goal" in out


def test_crosscheck_prints_the_playouts_that_agree_on_sigterm():
    # once some playouts are done: the setup (translating, grounding) has none to print
    code, out, err = _interrupt(["crosscheck", str(GAMES / "kuhn_poker.rcy"), "-n", "1000"], rb"lockstep .* [1-9][0-9]?%", signal.SIGTERM)
    assert code == 143, (out, err)
    assert "playouts agree" in out and "stopped: interrupted after" in out


def test_conformance_prints_the_files_done_on_sigint(tmp_path):
    for name in ("war.rcy", "gops.rcy"):
        (tmp_path / name).write_bytes((GAMES / name).read_bytes())
    code, out, err = _interrupt(["conformance", str(tmp_path), "--games", "100000000"], b"conformance",
                                signal.SIGINT)
    assert code == 130, (out, err)
    assert "unexpected failures" in out


def test_query_prints_its_unknown_answer_on_sigterm(tmp_path):
    code, out, err = _interrupt(["query", str(GAMES / "hearts.rcy"), "cycle"], b"explored", signal.SIGTERM,
                                cwd=tmp_path)
    assert code == 143, (out, err)
    assert "unknown" in out and "interrupted" in out
    # the answer names the signal that stopped it (it said Ctrl-C for SIGTERM too)
    assert "stopped by: interrupted (SIGTERM)" in out and "Ctrl-C" not in out


def test_an_interrupted_search_names_what_stopped_it():
    from ggpbridge.cli.common import Terminated
    from ggpbridge.errors import interrupted_by
    assert interrupted_by(KeyboardInterrupt()) == "interrupted (Ctrl-C)"
    assert interrupted_by(Terminated()) == "interrupted (SIGTERM)"


def test_report_writes_the_page_of_the_games_played_on_sigint(tmp_path):
    page = tmp_path / "r.html"
    code, out, err = _interrupt(["report", WAR, "-n", "100000000", "-o", str(page)], b"playing", signal.SIGINT)
    assert code == 130, (out, err)
    assert "[interrupted]" in out and "wrote" in out
    assert "Interrupted" in page.read_text() and "<svg" in page.read_text()


def test_an_interrupted_report_states_the_games_played_not_the_games_asked(tmp_path):
    # before: "war.rcy: 100000000 games from seed 0 ... [interrupted]" in the summary and on the
    # page, beside "N finished"; `simulate` states the games it played
    import json
    page = tmp_path / "r.html"
    code, out, err = _interrupt(["report", WAR, "-n", "100000000", "-o", str(page)], b"playing", signal.SIGINT)
    assert code == 130, (out, err)
    stated = int(re.search(r"war\.rcy: (\d+) games from seed 0", out).group(1))
    html = page.read_text()
    data = json.loads(re.search(r'id="report-data">(.*?)</script>', html, re.S).group(1))
    assert 0 < stated == data["games"] == data["summary"]["games"] < 100000000
    assert f": {stated} games from seed 0" in html and "100000000" not in html
