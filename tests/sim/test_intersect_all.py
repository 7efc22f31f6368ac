"""`(intersect (all player 'P X))` is the cards in every player's X: one collection per player.

CardStock counts the `(all …)` form as no argument at all, so its intersect is always empty
(docs/cardstock-semantics.md); treated as one argument it would be every card of every X.
Both engines and the translation take it as the intersection it names."""
from __future__ import annotations


import pytest

from ggpbridge.recycle import parse_text
from ggpbridge.sim import compile_loaded, play, simulate
from ggpbridge.sim.players import make_players

GAME = """
(game
  (setup
    (create players 2)
    (create deck (game iloc STOCK) (deck (RANK (ACE, TWO, THREE, FOUR)) (SUIT (HEARTS)))))
  (do ((move (top (game iloc STOCK)) (top ((0 player) vloc PILE)))
       (move (top (game iloc STOCK)) (top ((1 player) vloc PILE)))
       (remember (top (game iloc STOCK)) (top ((0 player) mem SEEN)))
       (remember (top (game iloc STOCK)) (top ((1 player) mem SEEN)))
       (remember (bottom (game iloc STOCK)) (top ((1 player) mem SEEN)))
       (set ((0 player) sto SCORE) (size (intersect (all player 'P ('P vloc PILE)))))
       (set ((1 player) sto SCORE) (size (intersect (all player 'P ('P mem SEEN)))))))
  (scoring max ((current player) sto SCORE)))
"""


@pytest.mark.parametrize("detailed", [False, True])
def test_intersect_over_every_player_is_what_all_of_them_hold(detailed):
    prog = compile_loaded(parse_text(GAME))
    if detailed:   # the closure engine
        r = play(prog, 0, make_players("random", 2, 0), max_steps=100)
        scores = list(r.scores)
    else:          # the generated engine, through simulate's statistics
        rep = simulate(prog, 1, seed=0).report()
        scores = [s["mean_score"] for s in rep["seats"]]
    # the piles hold different cards: none is in both; SEEN shares one card of three
    assert scores == [0, 1]
