"""Translation time and output size (rules, bytes) per bundled game and over the CardStock corpus.

    python benchmarks/translate_size.py [--corpus DIR]

Prints one row per bundled game (GDL-II and its GDL relaxation), then corpus totals:
how many files translate to valid GDL-II, how many stop at an unsupported construct.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from _clock import Clock
from ggpbridge.errors import GgpBridgeError, UnsupportedConstructError
from ggpbridge.gdl.kif import print_kif
from ggpbridge.gdl.validate import validate
from ggpbridge.recycle import parse_file
from ggpbridge.translate import translate_loaded

ROOT = Path(__file__).resolve().parent.parent


def measure(path: Path, version: int):
    loaded = parse_file(path)
    t0 = time.perf_counter()
    desc = translate_loaded(loaded, version)
    t1 = time.perf_counter()
    text = print_kif(desc)
    t2 = time.perf_counter()
    errors = sum(1 for d in validate(desc, version) if d.severity == "error")
    return t1 - t0, t2 - t1, len(desc.rules), len(text.encode()), errors


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus" / "cardstock"))
    args = ap.parse_args()
    total = Clock()
    print(f"{'game':28} {'ver':>3} {'translate s':>11} {'print s':>8} {'rules':>7} {'bytes':>9} {'errors':>6}")
    for path in sorted(p for p in (ROOT / "games").iterdir() if p.suffix in (".rcy", ".gdl")):
        for version in (2, 1):
            try:
                tt, tp, rules, size, errors = measure(path, version)
            except UnsupportedConstructError as e:
                print(f"{path.name:28} {version:>3}  unsupported: {e.message[:50]} ({e.pos.line}:{e.pos.col})")
                break
            print(f"{path.name:28} {version:>3} {tt:11.3f} {tp:8.3f} {rules:7d} {size:9d} {errors:6d}")
    corpus = Path(args.corpus)
    files = sorted(p for sub in ("rcy", "gdl") for p in (corpus / sub).glob("*") if p.suffix in (".rcy", ".gdl"))
    if not files:
        print(f"no corpus at {corpus}", file=sys.stderr)
        print(f"total: {total}")
        return
    outcome, rules, size, secs = Counter(), 0, 0, 0.0
    for path in files:
        try:
            tt, tp, r, b, errors = measure(path, 2)
        except UnsupportedConstructError:
            outcome["unsupported"] += 1
            continue
        except GgpBridgeError:
            outcome["not loadable"] += 1
            continue
        outcome["valid" if errors == 0 else "invalid"] += 1
        rules, size, secs = rules + r, size + b, secs + tt + tp
    n = outcome["valid"] + outcome["invalid"]
    print(f"\ncorpus {corpus}: {len(files)} files; " + ", ".join(f"{k} {v}" for k, v in sorted(outcome.items())))
    if n:
        print(f"translated: {secs:.1f} s in all, {secs / n * 1000:.0f} ms, {rules // n} rules and {size // n} bytes "
              f"per file on average")
    print(f"total: {total}   (the seconds above are the wall clock's)")


if __name__ == "__main__":
    main()
