"""Benchmark: requests/s and memory of the GGP player process on loopback; prints the figures.

Run: python benchmarks/ggp_load.py [MATCHES]   (default 100)

Starts `ggpbridge serve-player --strategy random` (a separate process) and measures
- sequential INFO requests (one connection each, as GGP managers do);
- 20 concurrent clients sending INFO;
- whole tic-tac-toe matches (GDL) between that player and a second player process,
  with the player's resident memory (VmRSS) after the first 10 and after all matches.
"""
from __future__ import annotations

import http.client
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

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


def main(matches: int) -> None:
    proc, url = start_player(1)
    other, other_url = start_player(2)
    try:
        print(f"player pid {proc.pid} at {url}; RSS at start {rss_mib(proc.pid):.1f} MiB")
        n = 2000
        began = time.perf_counter()
        for _ in range(n):
            post(url, "(info)")
        seconds = time.perf_counter() - began
        print(f"sequential INFO: {n} requests in {seconds:.2f} s = {n / seconds:,.0f} requests/s")

        clients, each = 20, 100
        gate = threading.Barrier(clients)

        def client():
            gate.wait()
            for _ in range(each):
                post(url, "(info)")

        threads = [threading.Thread(target=client) for _ in range(clients)]
        began = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        seconds = time.perf_counter() - began
        print(f"{clients} concurrent clients: {clients * each} requests in {seconds:.2f} s = "
              f"{clients * each / seconds:,.0f} requests/s")

        desc, gdl = load_game(ROOT / "examples" / "gdl" / "tictactoe.kif")
        machine = ClingoMachine(desc)
        requests, after10 = 0, None
        began = time.perf_counter()
        for i in range(matches):
            record = Match(desc, {"xplayer": url, "oplayer": other_url}, gdl=gdl, seed=i, machine=machine,
                           playclock=2, startclock=2, match_id=f"bench{i}").run()
            assert not record["errors"], record["errors"]
            requests += 2 * (record["steps"] + 2)
            if i == 9:
                after10 = rss_mib(proc.pid)
        seconds = time.perf_counter() - began
        print(f"tic-tac-toe matches: {matches} in {seconds:.2f} s = {matches / seconds:.1f} matches/s, "
              f"{requests / seconds:,.0f} requests/s over both players")
        print(f"player RSS after 10 matches {after10:.1f} MiB, after {matches}: {rss_mib(proc.pid):.1f} MiB")
    finally:
        for p in (proc, other):
            p.terminate()
            p.wait()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
