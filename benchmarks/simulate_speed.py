"""Benchmark: simulator games per second next to a hand-written plain-Python Agram.

Run: python benchmarks/simulate_speed.py [N]       (rates per second of CPU time)
Targets (issue #3): Agram >= 10,000 games/s on one core and within 3x of hand-written;
War (52 cards, winner first) >= 1,000 games/s. Prints, in one run, the hand-written rate,
simulate() (engine + players + streaming statistics) and the generated engine alone.
"""
from __future__ import annotations

import random
import time
from pathlib import Path

from _clock import Clock, parser
from ggpbridge.recycle import parse_file
from ggpbridge.sim import compile_loaded, simulate
from ggpbridge.sim.codegen import compile_fast

GAMES = Path(__file__).resolve().parents[1] / "games"

SUITS = ("HEARTS", "DIAMONDS", "CLUBS", "SPADES")
RANKS = {"THREE": 3, "FOUR": 4, "FIVE": 5, "SIX": 6, "SEVEN": 7, "EIGHT": 8, "NINE": 9, "TEN": 10, "ACE": 14}


def agram_by_hand(rng: random.Random, players: int = 4, hand: int = 6) -> int:
    """One game of 4-player Agram with uniformly random players; returns the winner."""
    deck = [(r, s) for r in RANKS if r != "ACE" for s in SUITS] + [("ACE", s) for s in SUITS[:3]]
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(hand)] for _ in range(players)]
    leader = 0
    for _ in range(hand):
        lead_suit = None
        best, winner = -1, leader
        for k in range(players):
            p = (leader + k) % players
            h = hands[p]
            follow = [c for c in h if c[1] == lead_suit] if lead_suit else []
            options = follow or h
            card = options[rng.randrange(len(options))]
            h.remove(card)
            if lead_suit is None:
                lead_suit = card[1]
            value = RANKS[card[0]] + (100 if card[1] == lead_suit else 0)
            if value > best:
                best, winner = value, p
        leader = winner
    return leader


def rate(fn, n: int) -> float:
    """Games per second of CPU time (the machines here are shared)."""
    t = time.process_time()
    fn(n)
    return n / (time.process_time() - t)


def fast_rate(prog, n: int) -> float:
    """Games/s of the generated fast path (codegen.compile_fast) with uniformly random players."""
    fast = compile_fast(prog)
    if fast is None:
        return 0.0
    drng = random.Random(0)

    def choose(p, k):
        return drng.randrange(k)
    return rate(lambda k: [fast(random.Random(s), choose) for s in range(k)], n)


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("n", nargs="?", type=int, default=2000, help="Agram games per measure (default 2000)")
    n = ap.parse_args().n
    total = Clock()
    rng = random.Random(1)
    hand = rate(lambda k: [agram_by_hand(rng) for _ in range(k)], n)
    agram = compile_loaded(parse_file(GAMES / "agram.rcy"))
    ours = rate(lambda k: simulate(agram, k, 0), n)
    war = compile_loaded(parse_file(GAMES / "war.rcy"))
    war_rate = rate(lambda k: simulate(war, k, 0), max(n // 20, 20))
    print(f"Agram, hand-written plain Python: {hand:,.0f} games/s")
    print(f"Agram, simulate() with statistics (games/agram.rcy): {ours:,.0f} games/s   "
          f"(target 10,000: {'met' if ours >= 10_000 else 'MISSED'})")
    print(f"ratio hand-written / simulate(): {hand / ours:.1f}x   (target <= 3x: {'met' if hand / ours <= 3 else 'MISSED'})")
    print(f"War, 52 cards, winner's card first (games/war.rcy), simulate(): {war_rate:,.1f} games/s   "
          f"(target 1,000: {'met' if war_rate >= 1000 else 'MISSED'})")
    fa, fw = fast_rate(agram, n), fast_rate(war, max(n // 4, 20))
    print(f"Agram, the engine alone (generated fast path, no statistics): {fa:,.0f} games/s   "
          f"(target 10,000: {'met' if fa >= 10_000 else 'MISSED'}; hand-written / fast {hand / fa:.1f}x)")
    print(f"War, the engine alone (generated fast path, no statistics): {fw:,.1f} games/s   "
          f"(target 1,000: {'met' if fw >= 1000 else 'MISSED'})")
    print(f"total: {total}   (the rates above are per second of CPU time)")


if __name__ == "__main__":
    main()
