"""What a lockstep run pays once and what every playout pays: the setup, the first playout
(which specializes the clingo machine's programs to each control value it meets) and the
next ones (which find them made). `grounding` is the clingo machine's grounding in the
playout: specialized programs, and the goal program at the first end.

    python benchmarks/lockstep_warmup.py GAME [PLAYOUTS] [--fit PLAYS] [--max-events N]
                                         [--max-programs M [M ...]]

Tells how long a sweep's chunks should be: every chunk pays the setup and the first playout.
With several `--max-programs` (the most control values the clingo machine makes a program
for, `ggpbridge.gdl.machine.MAX_PROGRAMS` by default), the same playouts are measured for
each in turn, in one run: a game whose program counter has more values than M is played on
its whole program.
"""
from __future__ import annotations


from _clock import Clock, parser
from ggpbridge.crosscheck import Lockstep
from ggpbridge.gdl import machine
from ggpbridge.recycle import parse_file


def measure(game: str, playouts: int, fit: int, max_events: int) -> None:
    """Print the setup, and each playout's seconds and grounding."""
    clock = Clock()
    lockstep = Lockstep(parse_file(game), fit=fit)
    print(f"setup (translate, fit, ground): {clock}; control values: "
          f"{len(lockstep.gdl._family)} (0: the whole program answers every query)")
    print(f"{'seed':>4} {'wall s':>8} {'cpu s':>8} {'grounding':>12} {'programs':>8} {'gdl steps':>9}")
    for seed in range(playouts):
        clock, ground0 = Clock(), lockstep.gdl.ground_seconds
        steps = lockstep.play(seed, max_events=max_events)[2]
        print(f"{seed:>4} {clock.wall:8.1f} {clock.cpu:8.1f} {lockstep.gdl.ground_seconds - ground0:12.1f} "
              f"{lockstep.gdl.sizes()['programs']:>8} {steps:>9}", flush=True)


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("game")
    ap.add_argument("playouts", type=int, nargs="?", default=5)
    ap.add_argument("--fit", type=int, default=200)
    ap.add_argument("--max-events", type=int, default=500)
    ap.add_argument("--max-programs", type=int, nargs="+", default=[machine.MAX_PROGRAMS])
    a = ap.parse_args()
    for most in a.max_programs:
        print(f"-- at most {most} programs")
        machine.MAX_PROGRAMS = most
        measure(a.game, a.playouts, a.fit, a.max_events)


if __name__ == "__main__":
    main()
