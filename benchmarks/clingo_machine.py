"""Benchmark: transitions per second of ClingoMachine on random playouts; prints the figures.

Run: python benchmarks/clingo_machine.py [PLAYOUTS] [--compare N] [--games NAME ...] [--machines M ...]
     (default 300 playouts per game; --compare 5)

"fresh" keeps only the last answer (cache_size=1), so every state of every playout
costs a clingo solve (legal moves, terminal, goals) and every transition another
(next state, percepts): the cost of the multi-shot queries themselves. "cached" is
the machine as shipped, where a state or transition seen before is a dictionary
lookup. A transition is one joint move: legal moves, sees and next_state.

Then ClingoMachine next to PropnetMachine (ggpbridge/gdl/propnet_machine.py) on translated
games (default translations: not fitted, folded) and hand-written GDL: each machine in a
process of its own, so that "peak MB" is its peak resident memory (translating included);
N warm-up playouts (ClingoMachine makes its specialized programs then), then N playouts
on other seeds, with their percepts, every query a miss (cache_size=1), timed in CPU
seconds. "setup s" is building the machine (grounding), CPU. `--compare 0` skips it.
"""
from __future__ import annotations

import random
import resource
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from _clock import Clock, parser
from ggpbridge.gdl.kif import parse_kif
from ggpbridge.gdl.machine import ClingoMachine, playout

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "gdl"
# the games of the comparison: the target (Agram, 4 players) first, the largest last
COMPARED = {"agram": ROOT / "games/agram.rcy", "tictactoe": EXAMPLES / "tictactoe.kif",
            "montyhall": EXAMPLES / "montyhall.kif", "kuhn_poker": ROOT / "games/kuhn_poker.rcy",
            "leduc_poker": ROOT / "games/leduc_poker.rcy", "war_n8_winner": ROOT / "games/war_n8_winner.rcy",
            "lost_cities": ROOT / "games/lost_cities.rcy", "whist": ROOT / "games/whist.rcy",
            "hearts": ROOT / "games/hearts.rcy"}


def bench(name: str, playouts: int, cache_size: int) -> tuple[float, int, int, float, float]:
    """Setup seconds, transitions, clingo solves, and wall and CPU seconds for the playouts."""
    desc = parse_kif((EXAMPLES / f"{name}.kif").read_text())
    clock = Clock()
    machine = ClingoMachine(desc, cache_size=cache_size)
    setup = clock.wall
    rng = random.Random(1)
    transitions = 0
    clock = Clock()
    for _ in range(playouts):
        transitions += len(playout(machine, rng).moves)
    return setup, transitions, machine.solves, clock.wall, clock.cpu


def reachable_tictactoe() -> tuple[int, Clock]:
    """Breadth-first enumeration of tic-tac-toe's states: their number and its time."""
    machine = ClingoMachine(parse_kif((EXAMPLES / "tictactoe.kif").read_text()))
    clock = Clock()
    start = machine.initial_state()
    seen, frontier = {start}, [start]
    while frontier:
        frontier = [s for state in frontier if not machine.is_terminal(state)
                    for joint in machine.joint_moves(state)
                    for s in [machine.next_state(state, joint)] if not (s in seen or seen.add(s))]
    return len(seen), clock


def compare(kind: str, path: Path, playouts: int) -> tuple:
    """In a process of its own: setup CPU seconds, transitions, CPU seconds playing them, peak RSS in MB."""
    from ggpbridge.gdl.propnet_machine import PropnetMachine
    from ggpbridge.translate import load_description
    desc = load_description(path)
    translated = time.process_time()
    machine = (PropnetMachine(desc, cache_size=1) if kind == "propnet"
               else ClingoMachine(desc, cache_size=1, percepts=True))
    setup = time.process_time() - translated
    for seed in range(playouts):
        playout(machine, random.Random(1000 + seed), max_steps=20_000)
    transitions, start = 0, time.process_time()
    for seed in range(playouts):
        transitions += len(playout(machine, random.Random(seed), max_steps=20_000).moves)
    return setup, transitions, time.process_time() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("playouts", nargs="?", type=int, default=300, help="playouts per game and mode (default 300)")
    ap.add_argument("--compare", type=int, default=5, metavar="N",
                    help="playouts per game (and as many warm-up ones) of ClingoMachine vs PropnetMachine (default 5)")
    ap.add_argument("--games", nargs="+", choices=sorted(COMPARED), default=list(COMPARED),
                    help="games of the comparison (default: all)")
    ap.add_argument("--machines", nargs="+", choices=("clingo", "propnet"), default=["clingo", "propnet"],
                    help="machines of the comparison (default: both; ClingoMachine takes hours on whist and hearts)")
    args = ap.parse_args()
    playouts = args.playouts
    total = Clock()
    if args.compare:
        print(f"{'game':<14} {'machine':<8} {'setup s':>8} {'transitions':>11} {'cpu s':>8} {'trans/s':>9} "
              f"{'peak MB':>8}   (per second of CPU)")
        for name in args.games:
            for kind in args.machines:
                # a fresh process each: its peak memory is this machine's alone
                with ProcessPoolExecutor(1) as pool:
                    try:
                        setup, transitions, cpu, peak = pool.submit(compare, kind, COMPARED[name], args.compare).result()
                    except MemoryError:
                        print(f"{name:<14} {kind:<8} out of memory", flush=True)
                        continue
                print(f"{name:<14} {kind:<8} {setup:>8.2f} {transitions:>11} {cpu:>8.2f} "
                      f"{transitions / cpu:>9.1f} {peak:>8.0f}", flush=True)
    if not playouts:
        print(f"total: {total}")
        return
    print(f"{'game':<10} {'mode':<9} {'setup s':>8} {'transitions':>11} {'solves':>7} "
          f"{'wall s':>8} {'cpu s':>8} {'trans/s':>9} {'solves/s':>9}   (per second of CPU)")
    for name in ("tictactoe", "montyhall"):
        for mode, size in (("fresh", 1), ("cached", 200_000)):
            setup, transitions, solves, wall, cpu = bench(name, playouts, size)
            print(f"{name:<10} {mode:<9} {setup:>8.3f} {transitions:>11} {solves:>7} "
                  f"{wall:>8.3f} {cpu:>8.3f} {transitions / cpu:>9.0f} {solves / cpu:>9.0f}")
    states, clock = reachable_tictactoe()
    print(f"tic-tac-toe breadth-first search: {states} states in {clock}")
    print(f"total: {total}")


if __name__ == "__main__":
    main()
