"""Benchmark: requests/s and memory of the GGP player process on loopback; prints the figures.

Run: python benchmarks/ggp_load.py [MATCHES]   (default 100)

Starts `ggpbridge serve-player --strategy random` (a separate process) and measures
- sequential INFO requests (one connection each, as GGP managers do);
- 20 concurrent clients sending INFO;
- whole tic-tac-toe matches (GDL) between that player and a second player process,
  with the player's resident memory (VmRSS) after the first 10 and after all matches.
Each phase prints its wall time, the CPU time of this process (the clients, the manager) and
that of the player processes (from /proc): the machines here are shared.
"""
from __future__ import annotations

import http.client
import os
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlsplit

from _clock import Clock, parser
from ggpbridge.gdl.machine import ClingoMachine
from ggpbridge.ggp.manager import Match, load_game

ROOT = Path(__file__).resolve().parents[1]


def start_player(seed: int) -> tuple[subprocess.Popen, str]:
    """A player process and its URL."""
    proc = subprocess.Popen([sys.executable, "-m", "ggpbridge.cli", "serve-player", "--port", "0",
                             "--seed", str(seed)], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    return proc, proc.stdout.readline().split()[-1]


def post(url: str, body: str) -> str:
    """One POST, the reply body."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.request("POST", "/", body=body.encode(), headers={"Content-Type": "text/acl"})
        return conn.getresponse().read().decode()
    finally:
        conn.close()


def rss_mib(pid: int) -> float:
    """Resident memory of a process in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def proc_cpu(*pids: int) -> float:
    """CPU seconds (user + system) that running processes have used so far."""
    total = 0.0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")   # utime, stime
    return total


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("matches", nargs="?", type=int, default=100, help="tic-tac-toe matches (default 100)")
    matches = ap.parse_args().matches
    total = Clock()
    proc, url = start_player(1)
    other, other_url = start_player(2)
    players = (proc.pid, other.pid)

    def cpu_since(clock: Clock, before: float) -> str:
        return f"{clock.cpu:.2f} s CPU here, {proc_cpu(*players) - before:.2f} s CPU in the players"
    try:
        print(f"player pid {proc.pid} at {url}; RSS at start {rss_mib(proc.pid):.1f} MiB")
        n = 2000
        clock, before = Clock(), proc_cpu(*players)
        for _ in range(n):
            post(url, "(info)")
        seconds = clock.wall
        print(f"sequential INFO: {n} requests in {seconds:.2f} s = {n / seconds:,.0f} requests/s "
              f"({cpu_since(clock, before)})")

        clients, each = 20, 100
        gate = threading.Barrier(clients)

        def client():
            gate.wait()
            for _ in range(each):
                post(url, "(info)")

        threads = [threading.Thread(target=client) for _ in range(clients)]
        clock, before = Clock(), proc_cpu(*players)
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        seconds = clock.wall
        print(f"{clients} concurrent clients: {clients * each} requests in {seconds:.2f} s = "
              f"{clients * each / seconds:,.0f} requests/s ({cpu_since(clock, before)})")

        desc, gdl = load_game(ROOT / "examples" / "gdl" / "tictactoe.kif")
        machine = ClingoMachine(desc)
        requests, after10 = 0, None
        clock, before = Clock(), proc_cpu(*players)
        for i in range(matches):
            record = Match(desc, {"xplayer": url, "oplayer": other_url}, gdl=gdl, seed=i, machine=machine,
                           playclock=2, startclock=2, match_id=f"bench{i}").run()
            assert not record["errors"], record["errors"]
            requests += 2 * (record["steps"] + 2)
            if i == 9:
                after10 = rss_mib(proc.pid)
        seconds = clock.wall
        print(f"tic-tac-toe matches: {matches} in {seconds:.2f} s = {matches / seconds:.1f} matches/s, "
              f"{requests / seconds:,.0f} requests/s over both players ({cpu_since(clock, before)})")
        print((f"player RSS after 10 matches {after10:.1f} MiB, " if after10 is not None else "player RSS ")
              + f"after {matches}: {rss_mib(proc.pid):.1f} MiB")
    finally:
        for p in (proc, other):
            p.terminate()
            p.wait()
    print(f"total: {total}")


if __name__ == "__main__":
    main()
