"""Benchmark: `query GAME forced-win ROLE` with hidden information, the bounds and their cost.

Run: python benchmarks/forced_win.py [--quick] [--timeout S]

One line per game and role: the verdict, the lower and upper bounds on the probability of
winning under best play (docs/solve.md, forced-win), their gap, CFR+'s iterations, and wall
and CPU seconds of the whole answer (trees built from the simulator included). Two seats:
Kuhn and Leduc (the value argued in tests/solve/test_forced_bounds.py: 1/2 and 3/5); three
seats: the test games hide3 and pool3 (values 1/2 and 1/2, the coalition's 1/2 and 1/3) and
Agram dealt two cards each. --quick leaves out Leduc and Agram.
"""
from __future__ import annotations

from pathlib import Path

from _clock import Clock, parser
from ggpbridge.query.run import run_query

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "solve" / "data"
CASES = (   # (game, overrides, role, known value or None, quick)
    (ROOT / "games" / "kuhn_poker.rcy", {}, 0, 1 / 2, True),
    (ROOT / "games" / "kuhn_poker.rcy", {}, 1, 1 / 2, True),
    (ROOT / "games" / "leduc_poker.rcy", {}, 0, 3 / 5, False),
    (DATA / "hide3.rcy", {"SAMEOK": 1}, 0, 1 / 2, True),
    (DATA / "pool3.rcy", {}, 0, 1 / 2, True),
    (ROOT / "games" / "agram2_c3.rcy", {"NUMP": 3, "HANDSIZE": 2}, 0, None, False),
    (ROOT / "games" / "agram2_c3.rcy", {"NUMP": 3, "HANDSIZE": 2}, 1, None, False),
)


def main() -> None:
    """Parse the arguments and print the table."""
    p = parser(__doc__)
    p.add_argument("--quick", action="store_true", help="leave out Leduc and Agram")
    p.add_argument("--timeout", type=float, default=None, help="seconds of CFR+ per answer (default: none)")
    args = p.parse_args()
    total = Clock()
    print(f"{'game':34} {'role':>4} {'verdict':7} {'lower':>7} {'upper':>7} {'gap':>7} {'known':>6} "
          f"{'iters':>6} {'wall s':>7} {'cpu s':>6}")
    for game, sets, role, known, quick in CASES:
        if args.quick and not quick:
            continue
        clock = Clock()
        (a,) = run_query(str(game), "forced-win", role, overrides=sets, timeout=args.timeout)
        wall, cpu = clock.wall, clock.cpu
        lo, hi = a.stats.get("win_probability_lower"), a.stats.get("win_probability_upper")
        name = game.name + "".join(f" {k}={v}" for k, v in sets.items())
        gap = f"{hi - lo:7.4f}" if lo is not None else f"{'':7}"
        print(f"{name:34} {role:>4} {a.verdict:7} {_f(lo):>7} {_f(hi):>7} "
              f"{gap} {_f(known):>6} {a.stats.get('cfr_iterations', '-'):>6} "
              f"{wall:7.2f} {cpu:6.2f}")
    print(f"total: {total}")


def _f(x) -> str:
    return "-" if x is None else f"{x:.4f}"


if __name__ == "__main__":
    main()
