"""Benchmark: the ASP query engine per game and question, in CPU and wall seconds.

Run: python benchmarks/query_asp.py [GAME ...] [--questions Q,...] [--set NAME=VALUE ...]
                                    [--timeout S] [--horizon N]
     python benchmarks/query_asp.py --war [--sizes 4,6,8] [--ranks 4,5,6,7,8] [--timeout S]

Without GAME: the KIF games of examples/gdl and tests/query/data, every question. A GAME may
be any file `ggpbridge.translate.load_description` reads (a RECYCLE game is translated to
GDL-II first, as `ggpbridge query --engine asp` does; the translation time is printed apart).
`winnable` is asked for every role but random.

`--war`: `cycle` on games/war_n{4,6,8}_winner.rcy (issue #38's targets: n = 6 under 60 s, n = 8
under 10 minutes) and on games/war_abilities.rcy with one suit, RANKS ranks and no ability or
one ability card per player (docs/war_abilities.md), the rows of its tables.

`--alone S|never`: how long a solve of cycle's unrolling runs before the graph search runs
beside it in the main thread (never: only the turns between the unrolling's times, as before
session 27), to compare the two in one run.

Each line: game, question, verdict, CPU and wall seconds of the answer, the unrolling's steps
and solves, the state graph's kept states, transitions and CPU seconds (its thread's: the
rest of the CPU is the unrolling's), and the bound that stopped an
'unknown'. CPU is this process's: on a shared machine the wall clock says as much about the
other users as about the engine.
"""
from __future__ import annotations

from pathlib import Path

from _clock import Clock, parser
from ggpbridge.gdl.asp_terms import symbol_kif
from ggpbridge.gdl.machine import _roles
from ggpbridge.query import asp_engine
from ggpbridge.query.asp_engine import answer_asp
from ggpbridge.translate import load_description

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_GAMES = (sorted((ROOT / "examples" / "gdl").glob("*.kif"))
                 + sorted((ROOT / "tests" / "query" / "data").glob("*.kif")))
QUESTIONS = ("cycle", "terminates", "always-ends", "playable", "winnable")
ABILITIES = ("GAIN", "FORTUNE", "AMBUSH", "UNDERDOG")


def war_runs(sizes, ranks) -> list[tuple[Path, str, dict]]:
    """(game, label, overrides) of --war."""
    runs = [(ROOT / "games" / f"war_n{n}_winner.rcy", f"war_n{n}_winner", {}) for n in sizes]
    for r in ranks:
        for ability in (None,) + ABILITIES:
            sets = {"RANKS": r, "SUITS": 1} | {a: int(a == ability) for a in ABILITIES}
            runs.append((ROOT / "games" / "war_abilities.rcy", f"abilities r{r} {(ability or 'plain').lower()}", sets))
    return runs


def main() -> None:
    """Parse the arguments and print the table."""
    p = parser(__doc__)
    p.add_argument("games", nargs="*", type=Path)
    p.add_argument("--questions", default=None, help="comma-separated (default: all; cycle with --war)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a RECYCLE variable")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per question (default 60)")
    p.add_argument("--horizon", type=int, default=None)
    p.add_argument("--war", action="store_true", help="cycle on War (see above)")
    p.add_argument("--alone", default=None, metavar="S|never",
                   help="cycle: seconds a solve runs before the graph search runs beside it (default "
                        f"{asp_engine._ALONE}; never: the turns alone, as before)")
    p.add_argument("--sizes", default="4,6,8", help="--war: cards of war_nN_winner (default 4,6,8)")
    p.add_argument("--ranks", default="4,5,6,7,8", help="--war: ranks of war_abilities (default 4..8; '' none)")
    args = p.parse_args()
    if args.alone is not None:
        asp_engine._ALONE = None if args.alone == "never" else float(args.alone)
    sets = {k: int(v) if v.lstrip("-").isdigit() else v for k, v in (s.split("=", 1) for s in args.set)}
    if args.war:
        ints = lambda text: [int(x) for x in text.split(",") if x.strip()]   # noqa: E731
        runs = war_runs(ints(args.sizes), ints(args.ranks))
        questions = tuple((args.questions or "cycle").split(","))
    else:
        runs = [(g, g.name, sets) for g in (args.games or DEFAULT_GAMES)]
        questions = tuple(args.questions.split(",")) if args.questions else QUESTIONS
    total = Clock()
    print(f"{'game':26} {'question':18} {'verdict':8} {'CPU s':>8} {'wall s':>8} {'steps':>5} {'solves':>6} "
          f"{'kept':>8} {'moves':>9} {'graph s':>8}  limit")
    for path, label, overrides in runs:
        clock = Clock()
        desc = load_description(path, 2, overrides or None, decks=False, fold=False)
        print(f"{label:26} {'(load/translate)':18} {'':8} {clock.cpu:8.2f} {clock.wall:8.2f}", flush=True)
        asks = [(q, None) for q in questions if q != "winnable"]
        if "winnable" in questions:
            asks += [("winnable", symbol_kif(r)) for r in _roles(desc) if symbol_kif(r) != "random"]
        for question, role in asks:
            clock = Clock()
            a = answer_asp(desc, question, role=role, horizon=args.horizon, timeout=args.timeout)
            s = a.stats
            name = question if role is None else f"{question} {role}"
            print(f"{label:26} {name:18} {a.verdict:8} {clock.cpu:8.2f} {clock.wall:8.2f} "
                  f"{s.get('steps_grounded', ''):>5} {s.get('solves', ''):>6} {s.get('graph_states_kept', ''):>8} "
                  f"{s.get('graph_transitions', ''):>9} {s.get('graph_cpu_seconds', ''):>8}  {a.limit or ''}",
                  flush=True)
    print(f"total: {total}")


if __name__ == "__main__":
    main()
