"""Benchmark: transitions per second of ClingoMachine on random playouts; prints the figures.

Run: python benchmarks/clingo_machine.py [PLAYOUTS]   (default 300 per game)

"fresh" keeps only the last answer (cache_size=1), so every state of every playout
costs a clingo solve (legal moves, terminal, goals) and every transition another
(next state, percepts): the cost of the multi-shot queries themselves. "cached" is
the machine as shipped, where a state or transition seen before is a dictionary
lookup. A transition is one joint move: legal moves, sees and next_state.
"""
from __future__ import annotations

import random
from pathlib import Path

from _clock import Clock, parser
from ggpbridge.gdl.kif import parse_kif
from ggpbridge.gdl.machine import ClingoMachine, playout

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "gdl"


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


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("playouts", nargs="?", type=int, default=300, help="playouts per game and mode (default 300)")
    playouts = ap.parse_args().playouts
    total = Clock()
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
