"""Benchmark: seconds per question of the ASP query engine; prints one line per game and question.

Run: python benchmarks/query_asp.py [GAME ...] [--timeout S] [--horizon N]

Without GAME: the KIF games of examples/gdl and tests/query/data. A GAME may be any file
`ggpbridge.translate.load_description` reads (a RECYCLE game is translated to GDL-II
first; the translation time is printed apart). `winnable` is asked for every role but
random. Each line: game, question, verdict, seconds, steps grounded, solves, and the
bound that stopped an 'unknown'.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from _clock import Clock
from ggpbridge.gdl.asp_terms import symbol_kif
from ggpbridge.gdl.machine import _roles
from ggpbridge.query.asp_engine import answer_asp
from ggpbridge.translate import load_description

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_GAMES = (sorted((ROOT / "examples" / "gdl").glob("*.kif"))
                 + sorted((ROOT / "tests" / "query" / "data").glob("*.kif")))
QUESTIONS = ("cycle", "terminates", "always-ends", "playable")


def main() -> None:
    """Parse the arguments and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", type=Path)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per question (default 60)")
    parser.add_argument("--horizon", type=int, default=None)
    args = parser.parse_args()
    total = Clock()
    print(f"{'game':22} {'question':22} {'verdict':8} {'seconds':>8} {'steps':>6} {'solves':>6}  limit")
    for path in args.games or DEFAULT_GAMES:
        t0 = time.perf_counter()
        desc = load_description(path, 2)
        print(f"{path.name:22} {'(load/translate)':22} {'':8} {time.perf_counter() - t0:8.2f}")
        asks = [(q, None) for q in QUESTIONS]
        asks += [("winnable", symbol_kif(r)) for r in _roles(desc) if symbol_kif(r) != "random"]
        for question, role in asks:
            a = answer_asp(desc, question, role=role, horizon=args.horizon, timeout=args.timeout)
            label = question if role is None else f"{question} {role}"
            print(f"{path.name:22} {label:22} {a.verdict:8} {a.seconds:8.2f} {a.stats.get('steps_grounded', ''):>6} "
                  f"{a.stats.get('solves', ''):>6}  {a.limit or ''}", flush=True)
    print(f"total: {total}   (the seconds above are the wall clock's)")


if __name__ == "__main__":
    main()
