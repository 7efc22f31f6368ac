"""Ground program size and ClingoMachine speed with and without body projection, in one run.

    python benchmarks/asp_projection.py FILE.kif... [--playouts N] [--rounds R]

For each description (KIF, or RECYCLE translated on the fly) and each mode ("off":
`ClingoMachine(desc, project=False)`, "on": the default, see ggpbridge/gdl/asp_project.py),
on the whole program (`specialize=False`): specialized programs would solve in Controls of
their own, leave the whole one's solver statistics empty, and mix their gain into this one's:

- rules      the ground rules the machine keeps (facts that no rule reads left out,
             see ggpbridge/gdl/ground.py): the rules the solver works on;
- vars/cons  the solver's variables and constraints (`statistics['problem']['generator']`);
- steps/s    GDL transitions per second over N random playouts (seeds 0..N-1, the same
             in both modes, cache_size=1 so that every state costs a solve, as in
             benchmarks/engines_speed.py), by the wall clock and by this process's CPU
             time (clingo solves in the calling thread); the best of R rounds, the modes
             alternating, since a shared machine's load changes from second to second.
"""
from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from ggpbridge.gdl.machine import ClingoMachine, playout
from ggpbridge.translate import load_description


def rate(machine: ClingoMachine, playouts: int) -> tuple[int, float, float]:
    """Transitions, wall-clock seconds and CPU seconds of `playouts` random playouts."""
    steps, t0, c0 = 0, time.perf_counter(), time.process_time()
    for seed in range(playouts):
        steps += len(playout(machine, random.Random(seed), max_steps=20_000).moves)
    return steps, time.perf_counter() - t0, time.process_time() - c0


def main() -> None:
    """Print the table for the files on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--playouts", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"{'game':18} {'mode':4} {'setup s':>7} {'rules':>7} {'vars':>6} {'cons':>7} "
          f"{'steps':>6} {'steps/s':>8} {'cpu':>8}")
    for path in args.files:
        desc = load_description(path)
        machines, setup = {}, {}
        for mode in ("off", "on"):
            t0 = time.perf_counter()
            machines[mode] = ClingoMachine(desc, cache_size=1, project=mode == "on", specialize=False)
            setup[mode] = time.perf_counter() - t0
        best = {mode: 0.0 for mode in machines}
        best_cpu = dict(best)
        steps = {}
        for _ in range(args.rounds):
            for mode, machine in machines.items():
                steps[mode], seconds, cpu = rate(machine, args.playouts)
                best[mode] = max(best[mode], steps[mode] / seconds)
                best_cpu[mode] = max(best_cpu[mode], steps[mode] / cpu)
        for mode, machine in machines.items():
            s = machine.sizes()
            print(f"{path.stem:18} {mode:4} {setup[mode]:7.2f} {s['rules']:7d} "
                  f"{s['vars']:6d} {s['constraints']:7d} {steps[mode]:6d} {best[mode]:8.1f} {best_cpu[mode]:8.1f}", flush=True)


if __name__ == "__main__":
    main()
