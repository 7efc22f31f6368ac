"""A bounded loopback load test of the player process: many requests, concurrency, flat memory."""
from __future__ import annotations

import threading
import time

from ggp_helpers import EXAMPLES, PlayerProcess, post

from ggpbridge.gdl.machine import ClingoMachine
from ggpbridge.ggp.manager import Match, load_game

AVAILABLE = "((name testplayer) (status available))"


def test_1000_sequential_requests(fresh_player):
    began = time.monotonic()
    for i in range(1000):
        if i % 10 == 9:
            status, body = post(fresh_player.url, "(play x")
            assert status == 400 and "never closed" in body
        else:
            assert post(fresh_player.url, "(info)") == (200, AVAILABLE)
    assert fresh_player.alive()
    assert time.monotonic() - began < 30  # ~1 ms a request on loopback; generous for a loaded machine


def test_20_concurrent_connections(fresh_player):
    gate = threading.Barrier(20)
    failures: list = []

    def client():
        gate.wait()
        for _ in range(25):
            try:
                reply = post(fresh_player.url, "(info)", timeout=20)
                if reply != (200, AVAILABLE):
                    failures.append(reply)
            except OSError as exc:
                failures.append(exc)

    threads = [threading.Thread(target=client) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == [] and fresh_player.alive()


def test_memory_is_flat_across_100_matches(fresh_player):
    desc, gdl = load_game(EXAMPLES / "tictactoe.kif")
    machine = ClingoMachine(desc)
    rss = []
    opponent = PlayerProcess("random", seed=9)  # a second process: both ground the game once
    try:
        for n in range(100):
            record = Match(desc, {"xplayer": fresh_player.url, "oplayer": opponent.url}, gdl=gdl, seed=n,
                           playclock=2, startclock=2, machine=machine, match_id=f"load{n}").run()
            assert record["errors"] == []
            if n in (19, 99):
                rss.append(fresh_player.rss_kib())
    finally:
        opponent.stop()
    print("player RSS after 20 and 100 matches (KiB):", rss)
    # After a warm-up of 20 matches, 80 more may not grow the player by more than 4 MiB.
    assert rss[1] - rss[0] < 4096, rss
    assert post(fresh_player.url, "(info)") == (200, AVAILABLE)
