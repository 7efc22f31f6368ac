"""The small Texas and Blackjack variants that the lockstep check and the GGP matches use
(docs/gcardgame.md, "Texas and Blackjack on the other engines") still reach every rule of their
game: the simulator's random plays of the variant show every poker play at a showdown, and aces
counted both as 1 and as 10, figures and busts in Blackjack. Why these sizes: seven cards of a
Texas hand need 8 numbers for a high card without a straight, and four suits for four of a kind;
Blackjack's figures need the 13 numbers, and one suit leaves 7 cards to hit after the deal."""
from __future__ import annotations

from collections import Counter

import pytest

from conftest import GAMES
from gcardgame.variants import BLACKJACK, TEXAS, LastState
from ggpbridge.frontends import load_game
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.players import make_players
from ggpbridge.sim.playout import FINISHED, play
from ggpbridge.sim.plays import plays_present

NUMBER = {n: i + 1 for i, n in enumerate(
    "ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN ELEVEN TWELVE THIRTEEN".split())}
POKER = ("straight flush", "four of a kind", "full house", "flush", "straight", "three of a kind", "two pairs",
         "one pair")


def final_hands(game, sets, seeds):
    """For each finished play: the board (T0) and, per player not out, the cards they hold."""
    prog = compile_loaded(load_game(game), sets)
    for seed in range(seeds):
        keep = LastState()
        r = play(prog, seed, make_players("random", 3, seed), observer=keep)
        assert r.status == FINISHED, r.error
        c = keep.live.c
        lay = c.lay

        def cards(name, owner):
            return [lay.cards[x] for (_, n), slot in lay.loc_slots.items() if n == name for x in c.loc(slot, owner)]
        status = c.ints(lay.sto_slots["STATUS"])
        # seats are owners 1..3; a STATUS of 3 or more is out (the lowering's `1 - STATUS // 3`)
        yield cards("TA", 0), [cards("HAND", p) + cards("UP", p) for p in (1, 2, 3) if status[p] < 3]


@pytest.mark.slow
def test_every_poker_play_reaches_a_showdown_of_the_small_texas():
    seen = Counter()
    for board, hands in final_hands(GAMES / "texas_holdem.gcg", TEXAS, 600):
        assert all(NUMBER[x["RANK"]] <= 8 for x in board)
        if len(board) < 5 or len(hands) < 2:
            continue   # everybody else folded: no showdown
        for hand in hands:
            cards = hand + board
            present = plays_present([14 if NUMBER[x["RANK"]] == 1 else NUMBER[x["RANK"]] for x in cards],
                                    [x["SUIT"] for x in cards])
            seen[next((p for p in POKER if p in present), "high card")] += 1
    assert set(seen) == set(POKER) | {"high card"}, seen


def test_aces_count_1_and_10_in_the_small_blackjack():
    seen = Counter()
    for _, hands in final_hands(GAMES / "blackjack.gcg", BLACKJACK, 300):
        seen["bust"] += 3 - len(hands)   # only a sum above 21 puts a Blackjack player out
        for hand in hands:
            numbers = [NUMBER[x["RANK"]] for x in hand]
            low = sum(min(n, 10) for n in numbers)
            seen["figure"] += any(n > 10 for n in numbers)
            if 1 in numbers:   # decision 15: one ace counts 10 while the total stays at most 21
                seen["ace as 10" if low + 9 <= 21 else "ace as 1"] += 1
    assert seen["ace as 10"] and seen["ace as 1"] and seen["figure"] and seen["bust"], seen
