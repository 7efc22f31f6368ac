"""Benchmark: memory of PropnetMachine per ground rule, on one game; prints the figures.

Run: python benchmarks/propnet_memory.py GAME [--fit N] [--playouts N]
     (GAME: a .rcy, CardStock .gdl or .kif file; default no fit, 2 playouts)

Translates the game (or reads its KIF), notes the resident memory, builds the machine
(grounding and the network of transitions), and plays random playouts without warm-up,
every query a miss (cache_size=1); the goal network is built at a playout's end.
"Peak MB" is the process's peak resident memory, "net MB" that peak less the memory
after translating, and "B/rule" net MB per ground rule of the network of transitions
(issue #38: about 1.5 KB before the rules went into flat arrays). Run big games under
`prlimit --as=...`: a MemoryError is reported with what was measured so far.
"""
from __future__ import annotations

import random
import resource
import time

from _clock import Clock, parser
from ggpbridge.gdl.machine import playout
from ggpbridge.gdl.propnet_machine import PropnetMachine
from ggpbridge.translate import load_description


def rss_mb() -> float:
    """The resident memory now, in MB (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("game", help="a .rcy, CardStock .gdl or .kif file")
    ap.add_argument("--fit", type=int, default=0, help="tables fitted to N random plays (default 0: not fitted)")
    ap.add_argument("--playouts", type=int, default=2, help="random playouts after building (default 2)")
    args = ap.parse_args()
    total = Clock()
    desc = load_description(args.game, fit=args.fit)
    base = rss_mb()
    print(f"translated: {base:.0f} MB resident, {total}", flush=True)
    start = time.process_time()
    try:
        machine = PropnetMachine(desc, cache_size=1)
    except MemoryError:
        print(f"out of memory building the machine after {time.process_time() - start:.1f} s CPU, "
              f"peak {peak_mb():.0f} MB")
        return
    setup = time.process_time() - start
    sizes = machine.sizes()
    net = peak_mb() - base
    print(f"rules {sizes['rules']:,}  atoms {sizes['atoms']:,}  loops {sizes['loops']}  setup {setup:.1f} s CPU  "
          f"peak {peak_mb():.0f} MB  net {net:.0f} MB  {net * 2**20 / max(1, sizes['rules']):.0f} B/rule", flush=True)
    transitions, start = 0, time.process_time()
    for seed in range(args.playouts):
        transitions += len(playout(machine, random.Random(seed), max_steps=20_000).moves)
    cpu = time.process_time() - start
    print(f"{args.playouts} playouts: {transitions} transitions in {cpu:.2f} s CPU "
          f"({transitions / max(cpu, 1e-9):.0f}/s, goal network included), peak {peak_mb():.0f} MB")
    print(f"total: {total}")


if __name__ == "__main__":
    main()
