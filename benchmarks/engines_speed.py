"""Transitions per second of the clingo machine on translated games, next to the simulator's, in one run.

    python benchmarks/engines_speed.py [PLAYOUTS] [GAME ...]    (default 2 per game, every game)

GAME picks games by the start of their name (`agram`, `war`).

Each RECYCLE game is measured twice: on the worst-case translation and on one with its
tables fitted to 200 random plays (`translate --fit 200`).

Also printed: the clingo machine's fluent externals and the ground rules of its whole
program (the cost of a solve grows with them; static facts are left out, see
ggpbridge/gdl/ground.py); then how many programs it specialized to a value of the control
fluent and the largest of them (ggpbridge/gdl/specialize.py). "whole" plays the same
playouts on the whole program (`specialize=False`), in the same run. The specialized
programs are made by warm-up playouts first; "setup s" counts grounding and specializing.

A clingo transition is one GDL step (a decision, a chance outcome or an automatic step
of the translation), with its legal-move, percept and next-state queries, no cache hits
(every state is new in a random playout). "no percepts": the same playouts without
asking `sees`, as `ggpbridge playout --engine clingo` plays them; the machine then
leaves the percept rules out of its program (ClingoMachine's `percepts`).
The simulator's figure counts its own events (decisions and chance outcomes) through
the stepwise interface; the same games take `gdl steps` transitions in the translation.
"""
from __future__ import annotations

import random
import time
from pathlib import Path

from _clock import Clock, parser
from ggpbridge.gdl.kif import parse_kif
from ggpbridge.gdl.machine import ClingoMachine, playout
from ggpbridge.playouts import random_playout
from ggpbridge.sim.gamemachine import SimMachine
from ggpbridge.recycle import parse_file
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.stepwise import StepMachine
from ggpbridge.translate import load_description

ROOT = Path(__file__).resolve().parents[1]
GAMES = [("tictactoe", ROOT / "examples/gdl/tictactoe.kif"), ("war_n8_winner", ROOT / "games" / "war_n8_winner.rcy"),
         ("kuhn_poker", ROOT / "games" / "kuhn_poker.rcy"), ("agram2_c2", ROOT / "games" / "agram2_c2.rcy"),
         ("agram (4 players)", ROOT / "games" / "agram.rcy")]


def clingo_rate(desc, n: int, percepts: bool = True, specialize: bool | None = None):
    """Setup seconds, transitions, seconds playing, program sizes and fluents."""
    m = ClingoMachine(desc, cache_size=1, percepts=percepts, specialize=specialize)
    for i in range(n):   # warm-up: every specialized program these playouts meet is made
        playout(m, random.Random(1000 + i), max_steps=20_000, percepts=percepts)
    steps, t0 = 0, time.process_time()   # CPU time: the machines here are shared
    for i in range(n):
        steps += len(playout(m, random.Random(i), max_steps=20_000, percepts=percepts).moves)
    secs = time.process_time() - t0
    return m.ground_seconds, steps, secs, m.sizes(), len(m.domain.fluents)


def sim_rate(path: Path, n: int):
    m = SimMachine(StepMachine(compile_loaded(parse_file(path))))
    events, t0 = 0, time.process_time()
    for i in range(n):
        events += random_playout(m, random.Random(i))["steps"]
    return events, time.process_time() - t0


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("playouts", nargs="?", type=int, default=2, help="playouts per game (default 2)")
    ap.add_argument("games", nargs="*", help="games by the start of their name (default: every game)")
    args = ap.parse_args()
    n, picked = args.playouts, args.games
    total = Clock()
    print(f"{'game':26} {'setup s':>7} {'fluents':>7} {'rules':>7} {'programs':>8} {'largest':>7} "
          f"{'gdl steps':>9} {'clingo steps/s':>14} {'whole':>7} {'no percepts':>11} {'sim events/s':>12}")
    for name, path in GAMES:
        if picked and not any(name.startswith(p) for p in picked):
            continue
        sim = "-"
        if path.suffix != ".kif":
            events, ssecs = sim_rate(path, max(n, 20))
            sim = f"{events / ssecs:12.0f}"
        for fit in (0,) if path.suffix == ".kif" else (0, 200):
            label = f"{name}, fit {fit}" if fit else name
            desc = parse_kif(path.read_text()) if path.suffix == ".kif" else load_description(path, fit=fit)
            try:
                setup, steps, secs, sizes, fluents = clingo_rate(desc, n)
                whole = clingo_rate(desc, n, specialize=False)
                lean = clingo_rate(desc, n, percepts=False)
            except MemoryError:
                print(f"{label:26} the clingo machine runs out of memory grounding the translation")
                continue
            print(f"{label:26} {setup:7.2f} {fluents:7d} {sizes['rules']:7d} {sizes['programs']:8d} "
                  f"{sizes['specialized_rules']:7d} {steps:9d} {steps / secs:14.1f} {whole[1] / whole[2]:7.1f} "
                  f"{lean[1] / lean[2]:11.1f} {sim:>12}", flush=True)
    print(f"total: {total}   (the rates above are per second of CPU time)")


if __name__ == "__main__":
    main()
