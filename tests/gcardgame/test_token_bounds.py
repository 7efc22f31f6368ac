"""The translation's integer tables hold every token a G_cardgame player can end with: tokens are
only moved, so one stash can hold all that `com give` gave (Texas's seed 1 at full size ended
with a score of 188, outside the tables -1..152, and the lockstep stopped on it). The lowering
writes that total as an expression of the declared amounts (the scoring's `win` bonus); the
translator counts such constant expressions as values, as it counts literals."""
from __future__ import annotations

import pytest

from conftest import GAMES
from ggpbridge.crosscheck import checked_translation
from ggpbridge.frontends import load_game


@pytest.mark.parametrize("name", ["texas_holdem.gcg", "blackjack.gcg"])
@pytest.mark.parametrize("give", [99, 40])
def test_the_tables_hold_every_token_given(name, give):
    tr = checked_translation(load_game(GAMES / name), {"GIVEA": give})
    # three players, `com give ALL PLAYERS GIVEA`; the score adds 0 for not being out
    assert tr.bounds[1] > 3 * give
