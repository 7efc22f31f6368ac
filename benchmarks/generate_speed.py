"""Benchmark: games generated, mutated and checked per second (issue #35), per language.

For each language, N games are derived and printed ("generate"), then each is checked the
way `ggpbridge check` does ("check": parse, the front-end's checker, RECYCLE's checker on
the IR); then N mutants of a bundled game are made and checked; then (RECYCLE) A ability
mutants of War, whose making includes their own check and 16 trial plays each (issue #36).
Prints the rates and the CPU time; every output is expected to check without error (the
count is printed).

Run: python benchmarks/generate_speed.py [-n 500] [--abilities 50] [--seed 0]
"""
from __future__ import annotations


from _clock import Clock, parser, timed
from ggpbridge.generate import ability_mutants, errors_in, generate, mutants
from pathlib import Path

GAMES = Path(__file__).resolve().parents[1] / "games"
PARENTS = {"gcardgame": GAMES / "uno.gcg", "recycle": GAMES / "war.rcy"}


def _rate(k: int, seconds: float) -> str:
    return f"{k / seconds:,.0f}/s" if seconds > 0 else "-"


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("-n", type=int, default=500, help="games per language and per step (default 500)")
    ap.add_argument("--abilities", type=int, default=50, help="ability mutants of War (default 50; 0: none)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    clock = Clock()
    for lang in ("gcardgame", "recycle"):
        steps = [("generate", lambda: list(generate(lang, args.n, args.seed))),
                 (f"mutate {PARENTS[lang].name}", lambda: list(mutants(PARENTS[lang], args.n, args.seed)))]
        if lang == "recycle" and args.abilities:
            steps.append((f"ability {PARENTS[lang].name}",
                          lambda: list(ability_mutants(PARENTS[lang], args.abilities, args.seed))))
        for step, made in steps:
            games, c_make, _ = timed(made)
            bad, c_check, _ = timed(lambda: sum(bool(errors_in(m.name, m.text)) for m in games))
            lines = sum(m.text.count("\n") for m in games) / len(games)
            print(f"{lang:9} {step:18} {len(games)} games ({lines:.0f} lines each): made {_rate(len(games), c_make)} "
                  f"CPU ({c_make:.2f} s), checked {_rate(len(games), c_check)} CPU ({c_check:.2f} s), "
                  f"made+checked {_rate(len(games), c_make + c_check)}; with errors: {bad}")
    print(f"total: {clock}")


if __name__ == "__main__":
    main()
