"""Benchmark: start-up of the `ggpbridge` command; prints wall and CPU time per invocation.

Run: python benchmarks/cli_startup.py [RUNS]   (target: `ggpbridge --help` under 0.2 s of CPU)

Each case runs in a fresh interpreter (`python -m ggpbridge.cli ...`), RUNS times; the figures
are the median wall time and the median CPU time (user + system) of the child. A second line
per case lists whether clingo and networkx were loaded (`-X importtime` would distort the times,
so that is a separate run).
"""
from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path
from _clock import Clock, parser

ROOT = Path(__file__).resolve().parents[1]
CASES = [
    ("--help", ["--help"]),
    ("simulate --help", ["simulate", "--help"]),
    ("simulate war -n 1", ["simulate", str(ROOT / "games/war_n4_seat.rcy"), "-n", "1"]),
    ("translate --help", ["translate", "--help"]),
]


def _once(args) -> tuple[float, float]:
    clock = Clock()
    subprocess.run([sys.executable, "-m", "ggpbridge.cli", *args], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return clock.wall, clock.children


def _loaded(args) -> list[str]:
    code = ("import sys\nfrom ggpbridge.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n"
            "    pass\nprint(' '.join(m for m in ('clingo', 'networkx', 'lark') if m in sys.modules), file=sys.stderr)")
    r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True)
    return r.stderr.strip().splitlines()[-1:] or [""]


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("runs", nargs="?", type=int, default=5, help="runs per case; the median is printed (5)")
    runs = ap.parse_args().runs
    total = Clock()
    for label, args in CASES:
        _once(args)   # warm the byte-code cache
        walls, cpus = zip(*(_once(args) for _ in range(runs)))
        print(f"{label:22} wall {statistics.median(walls):.3f} s   cpu {statistics.median(cpus):.3f} s   "
              f"(median of {runs})   loads: {_loaded(args)[0] or '-'}")
    print(f"total: {total}")


if __name__ == "__main__":
    main()
