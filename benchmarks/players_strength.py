"""Benchmark: how strong the searching players are, against random and against PIPMC.

Run: python benchmarks/players_strength.py [--games agram=200,kuhn_poker=400,hearts=4] [--iterations 200]
Issue #34: MCTS and ISMCTS against random and against PIPMC on Agram, Kuhn poker and Hearts.
Seat 0 plays X, every other seat Y; printed per game and pairing: seat 0's win share
(ties split 1/k) with its 95% interval (normal approximation), what a seat gets when all
play alike (1/players), and the CPU and wall seconds. `mcts` sees all cards.
"""
from __future__ import annotations

import argparse
import math
from pathlib import Path

from _clock import Clock
from ggpbridge.recycle import parse_file
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.metrics import seat_shares
from ggpbridge.sim.players import describe_players

GAMES = Path(__file__).resolve().parents[1] / "games"


def pairings(it: int, playouts: int):
    pip = f"pipmc:{playouts}"
    return [(pip, "random"), (f"mcts:{it}", "random"), (f"ismcts:{it}", "random"),
            (f"mcts:{it}", pip), (f"ismcts:{it}", pip)]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default="agram=200,kuhn_poker=400,hearts=4",
                    help="GAME=N pairs, comma separated (default agram=200,kuhn_poker=400,hearts=4)")
    ap.add_argument("--iterations", type=int, default=200, help="MCTS and ISMCTS iterations (default 200)")
    ap.add_argument("--playouts", type=int, default=10, help="PIPMC's playouts per option (default 10)")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    for item in a.games.split(","):
        name, _, n = item.partition("=")
        n = int(n)
        prog = compile_loaded(parse_file(GAMES / f"{name}.rcy"))
        k = prog.lay.n
        print(f"{name} ({k} players, {n} games per pairing; a seat's share when all play alike: {1 / k:.3f})")
        for x, y in pairings(a.iterations, a.playouts):
            spec = ",".join([x] + [y] * (k - 1))
            clock = Clock()
            s = seat_shares(prog, 0, n, a.seed, spec)
            cpu, wall = clock.cpu, clock.wall
            m = sum(s) / n
            half = 1.96 * math.sqrt(sum((v - m) ** 2 for v in s) / max(n - 1, 1) / n)
            label = describe_players(f"{x},{y}").replace(",", " against ")
            print(f"  {label:<45} seat 0 {m:.3f} ± {half:.3f}   {cpu:7.1f} CPU s ({wall:.1f} s wall)")


if __name__ == "__main__":
    main()
