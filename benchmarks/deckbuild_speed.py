"""Benchmark: random games per CPU second of the deck-building games, and the expression searches.

Run: python benchmarks/deckbuild_speed.py [-n GAMES]
Prints, per game (RPN and Golomb, the paper's first games), random plays through
`ggpbridge.machine.playout` per CPU second, and the expression search alone on fresh random
hands of five (its cache cleared), hands per CPU second. No target: the figures say what a
PIPMC move costs (options x playouts x the rest of a game).
"""
from __future__ import annotations

import random

from _clock import Clock, parser
from ggpbridge.deckbuild import machine as deck_machine
from ggpbridge.deckbuild.cards import SUITS, Card
from ggpbridge.deckbuild.exprs import golomb_values, rpn_values
from ggpbridge.deckbuild.machine import DeckMachine
from ggpbridge.deckbuild.settings import settings
from ggpbridge.machine import playout


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("-n", type=int, default=100, help="games per game kind (default 100)")
    args = ap.parse_args()
    for game in ("rpn", "golomb"):
        deck_machine._values.cache_clear()
        m = DeckMachine(settings(game, {}))
        clock = Clock()
        steps = sum(len(playout(m, random.Random(seed), percepts=False).moves) for seed in range(args.n))
        print(f"{game}: {args.n} random games, {steps / args.n:.0f} joint moves each: "
              f"{args.n / clock.cpu:.1f} games per CPU second ({clock})")
    deck = [Card(s, r) for s in SUITS for r in range(1, 14)]
    rng = random.Random(0)
    hands = [rng.sample(deck, 5) for _ in range(args.n * 5)]
    for name, search in (("rpn", rpn_values), ("golomb", golomb_values)):
        clock = Clock()
        for hand in hands:
            search(hand)
        print(f"{name} expression search: {len(hands) / clock.cpu:.0f} hands of five per CPU second ({clock})")


if __name__ == "__main__":
    main()
