"""How `ggpbridge validate` scales with the size of a description: generated facts, each with
the same warning (a function of no arguments), read and checked at sizes that double.

    python benchmarks/validate_large.py [N ...]        (default: 25000 50000 100000 200000)

Prints, per size, the CPU seconds of reading the KIF and of the checks, and per fact in
microseconds: a column that stays flat is linear time. Then the whole command on the largest
size in a process of its own (wall, CPU, lines printed: one for the repeated warning).
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from _clock import Clock, parser, timed
from ggpbridge.gdl.kif import read_kif
from ggpbridge.gdl.validate import validate


def write_facts(path: Path, n: int) -> None:
    """A description of n facts `(p (a) i)` and the rules every game needs."""
    head = "(role r)\n(init (s 1))\n(<= (legal r noop) (true (s 1)))\n(goal r 100)\n(<= terminal (true (s 1)))\n"
    path.write_text(head + "".join(f"(p (a) {i})\n" for i in range(n)), encoding="utf-8")


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("sizes", nargs="*", type=int, default=[25_000, 50_000, 100_000, 200_000], metavar="N")
    sizes = ap.parse_args().sizes
    total = Clock()
    print(f"{'facts':>8} {'read cpu s':>10} {'check cpu s':>11} {'read us/fact':>12} {'check us/fact':>13}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "facts.kif"
        for n in sizes:
            write_facts(path, n)
            desc, read, _ = timed(lambda: read_kif(path))
            _, checked, _ = timed(lambda: validate(desc))
            print(f"{n:>8} {read:10.2f} {checked:11.2f} {1e6 * read / n:12.1f} {1e6 * checked / n:13.1f}",
                  flush=True)
        write_facts(path, max(sizes))
        clock = Clock()
        out = subprocess.run([sys.executable, "-m", "ggpbridge.cli", "validate", str(path)],
                             capture_output=True, text=True)
        print(f"ggpbridge validate, {max(sizes)} facts: {clock}; {len(out.stdout.splitlines())} lines printed, "
              f"exit status {out.returncode}")
    print(f"total: {total}")


if __name__ == "__main__":
    main()
