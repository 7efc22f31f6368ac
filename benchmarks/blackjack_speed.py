"""Benchmark: Blackjack (G_cardgame, games/blackjack.gcg, the two-valued ace of the IR
extension BestSum) on the generated engine, next to RECYCLE's Agram in the same run.

Run: python benchmarks/blackjack_speed.py [N]       (default 1000 games of each)
Target (issue #33): 1,000 Blackjack games with uniformly random players in under 1 s of CPU
on one core. Prints Blackjack's and Agram's (games/agram.rcy) games per CPU second on the
generated fast path, their ratio, how the Blackjack games ended, and the CPU time.
"""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from _clock import Clock, parser
from ggpbridge.frontends import load_game
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.codegen import compile_fast

GAMES = Path(__file__).resolve().parents[1] / "games"


def play_many(prog, n: int) -> tuple[float, Counter, int]:
    """(CPU seconds, statuses, decisions) of n games of the generated engine, random players."""
    fast = compile_fast(prog)
    if fast is None:
        raise SystemExit(f"{prog.source.name}: the generated engine does not take this game")
    drng = random.Random(0)
    decisions = [0]

    def choose(p, k):
        decisions[0] += 1
        return drng.randrange(k)
    statuses = Counter()
    clock = Clock()
    for s in range(n):
        statuses[fast(random.Random(s), choose)[0]] += 1
    return clock.cpu, statuses, decisions[0]


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("n", nargs="?", type=int, default=1000, help="games of each (default 1000)")
    n = ap.parse_args().n
    total = Clock()
    setup = Clock()
    blackjack = compile_loaded(load_game(GAMES / "blackjack.gcg"))
    agram = compile_loaded(load_game(GAMES / "agram.rcy"))
    print(f"setup (read, lower, compile both games): {setup}")
    bj_cpu, bj_status, bj_dec = play_many(blackjack, n)
    ag_cpu, _, _ = play_many(agram, n)
    bj_rate, ag_rate = n / bj_cpu, n / ag_cpu
    print(f"Blackjack (games/blackjack.gcg), generated engine: {n:,} games in {bj_cpu:.3f} s CPU = "
          f"{bj_rate:,.0f} games/s   (target {n:,} games < 1 s: {'met' if bj_cpu < n / 1000 else 'MISSED'})")
    print(f"  endings: {dict(bj_status)}; {bj_dec / n:.1f} decisions with two options or more per game")
    print(f"Agram (games/agram.rcy), generated engine: {n:,} games in {ag_cpu:.3f} s CPU = {ag_rate:,.0f} games/s")
    print(f"ratio Agram / Blackjack games per second: {ag_rate / bj_rate:.1f}x")
    print(f"total: {total}   (the rates above are per second of CPU time)")


if __name__ == "__main__":
    main()
