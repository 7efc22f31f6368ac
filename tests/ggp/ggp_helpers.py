"""Test helpers: a player as a separate process on 127.0.0.1, a plain HTTP client, a match
against such a player and its replay on a machine."""
from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "gdl"


class PlayerProcess:
    """`python -m ggpbridge.cli serve-player` in a child process; `url` is where it listens."""

    def __init__(self, strategy: str = "random", port: int = 0, seed: int = 1, name: str = "testplayer"):
        self.strategy, self.seed, self.name = strategy, seed, name
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ggpbridge.cli", "serve-player", "--port", str(port),
             "--strategy", strategy, "--seed", str(seed), "--name", name],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        line = self.proc.stdout.readline()
        if not line.startswith("listening on "):
            self.proc.kill()
            raise RuntimeError(f"the player did not start: {line!r} {self.proc.stderr.read()}")
        self.url = line.split()[-1]
        self.port = urlsplit(self.url).port

    def rss_kib(self) -> int:
        """Resident memory of the player process (Linux /proc)."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    def alive(self) -> bool:
        """True while the process runs."""
        return self.proc.poll() is None

    def stop(self) -> None:
        """End the process (and only it)."""
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()


def match_over_http(desc, machine, players: dict | None = None, **match_args) -> dict:
    """The record of a `Match` whose player0 is a `random` player process (seed 4), stopped
    after the match; `players` names the other seats' players, `match_args` go to `Match`."""
    from ggpbridge.ggp.manager import Match
    player = PlayerProcess("random", seed=4)
    try:
        return Match(desc, {"player0": player.url, **(players or {})}, machine=machine, **match_args).run()
    finally:
        player.stop()


def replays_legally(machine, record: dict, ends: bool = False) -> None:
    """Every joint move of the record is legal on `machine` when replayed from the start; with
    `ends`, the last state is terminal exactly when the match was not aborted."""
    from ggpbridge.gdl.asp_terms import kif_symbol
    state = machine.initial_state()
    for moves in record["moves"]:
        joint = dict(zip(machine.roles(), map(kif_symbol, moves)))
        assert all(m in machine.legal_moves(state, r) for r, m in joint.items())
        state = machine.next_state(state, joint)
    if ends:
        assert machine.is_terminal(state) == (not record["aborted"])


def post(url: str, body: str | bytes, headers: dict | None = None, method: str = "POST",
         timeout: float = 10) -> tuple[int, str]:
    """Send one request; (status, body text)."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        data = body.encode() if isinstance(body, str) else body
        conn.request(method, "/", body=data, headers={"Content-Type": "text/acl", **(headers or {})})
        response = conn.getresponse()
        return response.status, response.read().decode()
    finally:
        conn.close()


def free_port() -> int:
    """A port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
