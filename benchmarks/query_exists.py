"""Benchmark: constraint queries (`query GAME exists --where`) per question and engine.

Run: python benchmarks/query_exists.py [--game games/agram2_c3.rcy] [--engines explicit,asp]
                                       [--set HANDSIZE=3] [--timeout S]

Default: Agram for 2 players with 3 cards each (games/agram2_c3.rcy), a fixed list of
designer's questions, each asked of each engine. One line per question and engine:
verdict, wall seconds, CPU seconds of this process (clingo solves in it too), and the
engine's figures (states of the explicit search; steps grounded and solves of clingo).
"""
from __future__ import annotations

from pathlib import Path

from _clock import Clock, parser
from ggpbridge.cli.common import parse_sets
from ggpbridge.query.run import run_query

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = (
    "at end wins(player0)",
    "over before size(game GATHERED) == 6",
    "at end wins(player1) and always sto(player1 WON) == 0",
    "eventually sto(player1 WON) == 1 and at end wins(player0)",
    "at end wins(player0) and eventually (size(player1 vloc PLAYED) == 1 and size(player0 vloc PLAYED) == 0)",
    "at step 9 size(player0 HAND) == 1",
)


def main() -> None:
    """Parse the arguments and print the table."""
    p = parser(__doc__)
    p.add_argument("--game", type=Path, default=ROOT / "games" / "agram2_c3.rcy")
    p.add_argument("--engines", default="explicit,asp", help="comma-separated: explicit, asp")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds per question and engine (default 600)")
    args = p.parse_args()
    overrides = parse_sets(args.sets)
    total = Clock()
    print(f"game {args.game.name}, overrides {overrides or 'none'}")
    print(f"{'engine':9} {'verdict':8} {'seconds':>8} {'cpu s':>7} {'figures':28} question")
    for cond in QUESTIONS:
        for engine in args.engines.split(","):
            clock = Clock()
            (a,) = run_query(str(args.game), "exists", engine=engine, where=cond, overrides=overrides,
                             timeout=args.timeout)
            s = a.stats
            figures = (f"states {s.get('states')}" if engine == "explicit"
                       else f"steps {s.get('steps_grounded')}, solves {s.get('solves')}")
            print(f"{engine:9} {a.verdict:8} {clock.wall:8.2f} {clock.cpu:7.2f} {figures:28} {cond}"
                  + (f"   ({a.limit})" if a.limit else ""), flush=True)
    print(f"total: {total}")


if __name__ == "__main__":
    main()
