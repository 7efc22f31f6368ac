"""Benchmark: parse + check the whole CardStock corpus on one core; prints the figures.

Run: python benchmarks/parse_corpus.py [CORPUS_DIR]   (target: under 3 s in all)
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from _clock import Clock, parser
from ggpbridge.errors import PositionedError
from ggpbridge.recycle import parse_file
from ggpbridge.recycle.check import check
from ggpbridge.recycle.reader import _parser
from ggpbridge.recycle.dialects import DIALECTS


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("corpus", nargs="?", type=Path, default=Path(__file__).resolve().parents[2] / "shared/corpus/cardstock",
                    help="the corpus folder, with rcy/, gdl/ and broken/ (default: ../shared/corpus/cardstock)")
    root = ap.parse_args().corpus
    clock = Clock()
    files = sorted(p for sub in ("rcy", "gdl", "broken") for p in (root / sub).glob("**/*")
                   if p.suffix in (".rcy", ".gdl", ".rkt"))
    if not files:
        sys.exit(f"no corpus files under {root}")
    t0 = time.perf_counter()
    for d in DIALECTS:  # grammar construction is a one-off cost, reported apart
        _parser(d)
    t_grammar = time.perf_counter() - t0
    t_parse = t_check = 0.0
    failed = size = 0
    for f in files:
        size += f.stat().st_size
        t = time.perf_counter()
        try:
            loaded = parse_file(f)
        except PositionedError:
            failed += 1
            t_parse += time.perf_counter() - t
            continue
        t_parse += time.perf_counter() - t
        t = time.perf_counter()
        check(loaded.game, loaded.source)
        t_check += time.perf_counter() - t
    total = t_parse + t_check
    print(f"files: {len(files)} ({size / 1e6:.2f} MB), rejected with a positioned error: {failed}")
    print(f"grammar construction (once): {t_grammar:.3f} s")
    print(f"parse: {t_parse:.3f} s   check: {t_check:.3f} s   parse+check: {total:.3f} s "
          f"({size / 1e6 / total:.2f} MB/s)   target < 3 s: {'met' if total + t_grammar < 3 else 'MISSED'}")
    print(f"total: {clock}")


if __name__ == "__main__":
    main()
