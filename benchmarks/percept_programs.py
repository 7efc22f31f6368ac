"""Transitions asked with and without their percepts, on one clingo machine that has the `sees` rules.

    python benchmarks/percept_programs.py [PLAYOUTS] [GAME ...]   (default 2 per game, every game)

GAME picks games/ files by the start of their name (by default: the GAMES below; hearts and
lost_cities, a few minutes a playout, only when named). Each game is translated with its tables
fitted to 200 random plays (`translate --fit 200`) and loaded with `percepts=True`, as the
lockstep and the GGP manager load it. The same seeded random playouts are played twice on
that machine: asking `sees` at every step (a specialized program with the percept rules),
then `next_state` alone (a specialized program without them, ggpbridge/gdl/machine.py
`_program_for`). Warm-up playouts make the programs of both kinds first. Printed: the
largest program of each kind (rules), transitions per second by CPU time and by the wall
clock for both, and their ratio by CPU time (the machines here are shared: compare within
a row).
"""
from __future__ import annotations

import random
import time
from pathlib import Path

from _clock import Clock, parser
from ggpbridge.gdl.machine import ClingoMachine, playout
from ggpbridge.translate import load_description

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["kuhn_poker", "agram2_c2", "agram", "blackjack", "crazy_eights"]
LONG = ["hearts", "lost_cities"]


def rates(m: ClingoMachine, n: int, percepts: bool) -> tuple[int, float, float]:
    """Transitions, CPU seconds and wall seconds of n seeded playouts."""
    steps, cpu, wall = 0, time.process_time(), time.perf_counter()
    for i in range(n):
        steps += len(playout(m, random.Random(i), max_steps=50_000, percepts=percepts).moves)
    return steps, time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("playouts", nargs="?", type=int, default=2, help="playouts per game (default 2)")
    ap.add_argument("games", nargs="*", help="games/ files by the start of their name")
    args = ap.parse_args()
    n, picked = args.playouts, args.games
    total = Clock()
    print(f"{'game':15} {'rules':>7} {'with sees':>9} {'without':>8} {'steps':>6} "
          f"{'cpu/s with':>10} {'without':>8} {'wall/s with':>11} {'without':>8} {'ratio':>6}")
    for name in GAMES + LONG:
        if not any(name.startswith(p) for p in picked) if picked else name in LONG:
            continue
        m = ClingoMachine(load_description(ROOT / "games" / f"{name}.rcy", fit=200), cache_size=1, percepts=True)
        for i in range(n):   # warm-up: the programs of both kinds these playouts meet
            for percepts in (True, False):
                playout(m, random.Random(i), max_steps=50_000, percepts=percepts)
        with_sees, without = rates(m, n, True), rates(m, n, False)
        largest = {kind: max((p.rules for (k, _), p in m._programs.items() if k == kind), default=0)
                   for kind in (True, False)}
        steps = with_sees[0]
        print(f"{name:15} {m.sizes()['rules']:7d} {largest[True]:9d} {largest[False]:8d} {steps:6d} "
              f"{steps / with_sees[1]:10.1f} {without[0] / without[1]:8.1f} {steps / with_sees[2]:11.1f} "
              f"{without[0] / without[2]:8.1f} {with_sees[1] / without[1]:6.2f}", flush=True)
    print(f"total: {total}")


if __name__ == "__main__":
    main()
