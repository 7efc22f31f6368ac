"""Benchmark: a PIPMC seat in 4-player Agram, ours against a plain hand-written Python PIPMC.

Run: python benchmarks/players_speed.py [--games 1000] [--playouts 10] [--seed 0]
Issue #34: 1,000 games of 4-player Agram (games/agram.rcy) with one PIPMC seat (N = 10,
no playouts for a forced move) and three random seats, within 5x of a plain hand-written
PIPMC on the same rules, measured in the same run. Both are timed in CPU seconds (this
process) beside wall seconds; the ratio is of CPU seconds. Also printed: seat 0's win
share under both (about 0.25 would mean no skill), so that the two are seen to play alike.
"""
from __future__ import annotations

import argparse
import random
from pathlib import Path

from _clock import Clock
from ggpbridge.recycle import parse_file
from ggpbridge.sim import compile_loaded, simulate

GAMES = Path(__file__).resolve().parents[1] / "games"
SUITS = ("HEARTS", "DIAMONDS", "CLUBS", "SPADES")
RANKS = {"THREE": 3, "FOUR": 4, "FIVE": 5, "SIX": 6, "SEVEN": 7, "EIGHT": 8, "NINE": 9, "TEN": 10, "ACE": 14}
PLAYERS, HAND = 4, 6


def legal(hand, lead_suit):
    """The cards a player may play: the led suit when it holds any, else anything."""
    follow = [c for c in hand if c[1] == lead_suit] if lead_suit else []
    return follow or hand


def play_on(hands, leader, played, rng, pick=None):
    """Play the deal to its end from a trick in progress (`played`: (player, card) so far);
    `pick(p, options)` chooses (random when None). Returns the winner of the last trick."""
    played = list(played)
    while True:
        lead_suit = played[0][1][1] if played else None
        while len(played) < PLAYERS:
            p = (leader + len(played)) % PLAYERS
            opts = legal(hands[p], lead_suit)
            card = opts[rng.randrange(len(opts)) if len(opts) > 1 else 0] if pick is None else pick(p, opts)
            hands[p].remove(card)
            if lead_suit is None:
                lead_suit = card[1]
            played.append((p, card))
        leader = max(played, key=lambda pc: RANKS[pc[1][0]] + (100 if pc[1][1] == lead_suit else 0))[0]
        played = []
        if not hands[leader]:
            return leader


def pipmc(me, hands, stock, leader, played, options, rng, n):
    """The option with the most wins over n random playouts per option, each after a fresh
    determinization: the other hands and the stock dealt anew from the cards `me` cannot see."""
    if len(options) == 1:
        return options[0]
    unseen = sorted(c for p in range(PLAYERS) if p != me for c in hands[p]) + sorted(stock)
    best, choice = -1, options[0]
    for card in options:
        wins = 0
        for _ in range(n):
            pool = unseen[:]
            rng.shuffle(pool)
            deal = [list(hands[p]) if p == me else [pool.pop() for _ in hands[p]] for p in range(PLAYERS)]
            deal[me].remove(card)
            wins += play_on(deal, leader, played + [(me, card)], rng) == me
        if wins > best:
            best, choice = wins, card
    return choice


def reference_game(seed, n):
    """One game: seat 0 hand-written PIPMC, seats 1-3 random. Returns the winner."""
    rng, me_rng = random.Random(seed), random.Random(seed + 10**6)
    deck = [(r, s) for r in RANKS if r != "ACE" for s in SUITS] + [("ACE", s) for s in SUITS[:3]]
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(HAND)] for _ in range(PLAYERS)]
    stock = deck
    state = {"leader": 0, "played": []}

    def pick(p, opts):
        if p != 0:
            return opts[rng.randrange(len(opts))] if len(opts) > 1 else opts[0]
        return pipmc(0, hands, stock, state["leader"], state["played"], opts, me_rng, n)
    # play_on with a tracked trick, so that the PIPMC seat knows the trick in progress
    leader = 0
    while True:
        played = []
        state["leader"], state["played"] = leader, played
        lead_suit = None
        while len(played) < PLAYERS:
            p = (leader + len(played)) % PLAYERS
            card = pick(p, legal(hands[p], lead_suit))
            hands[p].remove(card)
            lead_suit = lead_suit or card[1]
            played.append((p, card))
        leader = max(played, key=lambda pc: RANKS[pc[1][0]] + (100 if pc[1][1] == lead_suit else 0))[0]
        if not hands[leader]:
            return leader


def timed(fn):
    clock = Clock()
    out = fn()
    return out, clock.cpu, clock.wall


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="games per player set (default 1000)")
    ap.add_argument("--playouts", type=int, default=10, help="PIPMC's N: playouts per option (default 10)")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    n, k = a.games, a.playouts

    wins, ref_cpu, ref_wall = timed(lambda: sum(reference_game(a.seed + i, k) == 0 for i in range(n)))
    print(f"hand-written PIPMC:  {n} games in {ref_cpu:.2f} CPU s ({ref_wall:.2f} s wall), seat 0 wins {wins / n:.3f}")

    prog = compile_loaded(parse_file(GAMES / "agram.rcy"))
    simulate(prog, 2, a.seed, f"pipmc:{k},random")   # build the generated engines outside the timing
    stats, cpu, wall = timed(lambda: simulate(prog, n, a.seed, f"pipmc:{k},random"))
    share = stats.report()["seats"][0]["win_share"]
    print(f"ggpbridge pipmc:{k}:  {n} games in {cpu:.2f} CPU s ({wall:.2f} s wall), seat 0 wins {share:.3f}")
    print(f"ratio (ours / hand-written, CPU): {cpu / ref_cpu:.2f}x  (issue #34 target: within 5x)")


if __name__ == "__main__":
    main()
