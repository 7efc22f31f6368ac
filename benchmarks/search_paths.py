"""Benchmark: one searching player on the simulator's fast path against the same algorithm on the machine interface.

Run: python benchmarks/search_paths.py [--games 20] [--iterations 50] [--seed 0]
The searching players are written once (`ggpbridge/search/`); the simulator drives their cores
from its generated engine (`sim/mcts.py`), and any GameMachine can drive them through
`search.tree.MCTS`. This plays 4-player Agram (games/agram.rcy) with one MCTS seat (N iterations)
and three random seats both ways, SimMachine being the machine, and prints the CPU seconds of
each and their ratio: what keeping the fast path is worth (docs/deckbuilding.md, section 1).
The two do not play the same games (the fast path draws its random numbers in another order).
"""
from __future__ import annotations

import random
from pathlib import Path

from _clock import parser, timed
from ggpbridge.machine import playout
from ggpbridge.recycle import parse_file
from ggpbridge.search.tree import MCTS
from ggpbridge.sim import compile_loaded, simulate
from ggpbridge.sim.gamemachine import SimMachine
from ggpbridge.sim.stepwise import StepMachine

GAMES = Path(__file__).resolve().parents[1] / "games"


def main(argv=None):
    ap = parser(__doc__)
    ap.add_argument("--games", type=int, default=20, help="games each way (default 20)")
    ap.add_argument("--iterations", type=int, default=50, help="MCTS iterations per decision (default 50)")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    prog = compile_loaded(parse_file(GAMES / "agram.rcy"))
    spec = f"mcts:{a.iterations},random"
    simulate(prog, 1, a.seed, spec)   # build the generated engines outside the timing
    stats, cpu_fast, wall_fast = timed(lambda: simulate(prog, a.games, a.seed, spec))
    share = stats.report()["seats"][0]["win_share"]
    print(f"fast path (sim/mcts.py):       {a.games} games in {cpu_fast:.2f} CPU s ({wall_fast:.2f} s wall), "
          f"seat 0 wins {share:.3f}")
    machine = SimMachine(StepMachine(prog))

    def through_machine():
        wins = 0.0
        for s in range(a.seed, a.seed + a.games):
            goals = playout(machine, random.Random(s), {"player0": MCTS(random.Random(s), a.iterations)},
                            percepts=False).goals
            winners = [r for r, g in goals.items() if g == 100]
            wins += 1 / len(winners) if "player0" in winners else 0
        return wins / a.games
    share, cpu_m, wall_m = timed(through_machine)
    print(f"machine (search.tree.MCTS on SimMachine): {a.games} games in {cpu_m:.2f} CPU s ({wall_m:.2f} s wall), "
          f"seat 0 wins {share:.3f}")
    print(f"ratio (machine / fast path, CPU): {cpu_m / cpu_fast:.1f}x")


if __name__ == "__main__":
    main()
