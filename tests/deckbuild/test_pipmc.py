"""The searching players on the machine interface: they see a winning buy that random play would miss."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from ggpbridge.deckbuild.cards import parse_card
from ggpbridge.deckbuild.machine import DeckMachine
from ggpbridge.deckbuild.moves import Buy
from ggpbridge.search.pipmc import PIPMC
from ggpbridge.search.tree import ISMCTS, MCTS
from ggpbridge.deckbuild.settings import settings


@pytest.mark.parametrize("player", [PIPMC(random.Random(4), 8), MCTS(random.Random(4), 60), ISMCTS(random.Random(4), 60)],
                         ids=["pipmc", "mcts", "ismcts"])
def test_searching_players_take_the_buy_that_ends_the_game_won(player):
    m = DeckMachine(settings("rpn", {}))
    s0 = m.initial_state()
    # player 1 trades its A♣ (1 point) for a K♠ (3): 16 against player 0's 14 + A♣ in hand = 15;
    # buying 5♠ (3 points), the last card of stack 1, ends the game at 18 against 16: every
    # playout of that option is a win, and the other options let the game go on
    p1 = s0.seats[1]
    behind = replace(p1, deck=tuple(sorted(p1.deck[1:] + (parse_card("Ks")._replace(copy=9),))))
    hand = tuple(sorted(parse_card(t) for t in "2h 3h 4h Ac".split()))
    seats = (replace(s0.seats[0], hand=hand), behind)
    state = replace(s0, seats=seats, tops=(parse_card("5s"), parse_card("9h"), parse_card("7h")),
                    left=(0, 4, 4), pool=s0.pool[:8], pending=(), phase="act", turns=1)
    assert m.scores(state) == [15, 16]
    moves = m.legal_moves(state, "player0")
    winning = [b for b in moves if isinstance(b, Buy) and b.stack == 0]
    assert winning and len(moves) > len(winning) + 3
    choice = player(m, state, "player0", moves)
    assert choice in winning
    after = m.next_state(state, {"player0": choice, "player1": "noop", "random": "noop"})
    assert m.goals(after)["player0"] == 100 and m.scores(after) == [18, 16]
