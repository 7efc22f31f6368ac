"""What a lockstep run pays once and what every playout pays: the setup, the first playout
(which specializes the clingo machine's programs to each control value it meets) and the
next ones (which find them made). `grounding` is the clingo machine's grounding in the
playout: specialized programs, and the goal program at the first end.

    python benchmarks/lockstep_warmup.py GAME [PLAYOUTS] [--fit PLAYS] [--max-events N]

Tells how long a sweep's chunks should be: every chunk pays the setup and the first playout.
"""
from __future__ import annotations

import argparse
import time

from ggpbridge.crosscheck import Lockstep
from ggpbridge.recycle import parse_file


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("playouts", type=int, nargs="?", default=5)
    ap.add_argument("--fit", type=int, default=200)
    ap.add_argument("--max-events", type=int, default=500)
    a = ap.parse_args()
    t0 = time.perf_counter()
    lockstep = Lockstep(parse_file(a.game), fit=a.fit)
    print(f"setup (translate, fit, ground): {time.perf_counter() - t0:.1f} s")
    print(f"{'seed':>4} {'seconds':>8} {'grounding':>12} {'programs':>8}")
    for seed in range(a.playouts):
        t0, ground0 = time.perf_counter(), lockstep.gdl.ground_seconds
        lockstep.play(seed, max_events=a.max_events)
        print(f"{seed:>4} {time.perf_counter() - t0:8.1f} {lockstep.gdl.ground_seconds - ground0:12.1f} "
              f"{lockstep.gdl.sizes()['programs']:>8}", flush=True)


if __name__ == "__main__":
    main()
