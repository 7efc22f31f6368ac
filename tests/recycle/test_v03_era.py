"""v0.3 forms of the RECYCLE paper's era, read as that era's grammar and engine read them:
`(any LOC)` as a card inside a condition is "some card of LOC", and `(sum RAWSTORAGE)` sums
a storage over the players (or teams) the owner names."""
from __future__ import annotations

from ggpbridge import ir
from ggpbridge.ir_norm import up_to_names
from ggpbridge.recycle import parse_text
from ggpbridge.recycle.check import check
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.machine import Live

# the current player may pass only while holding a heart: (any HAND) in a condition
ANY_IN_CONDITION = """(game
  (setup (create players 2) (create teams (0) (1))
    (create deck (game iloc STOCK) (deck (rank (2, 3)) (suit (hearts, spades)))))
  (comp (() (move (top (game iloc STOCK)) (top ((all player) iloc HAND)) 2)))
  (stage player (end (== (size ((all player) iloc HAND)) 0))
    (choice
      ((== (cardatt suit (any ((current player) iloc HAND))) hearts)
       (move (top ((current player) iloc HAND)) (top (game vloc PILE))))
      ((!= (cardatt suit (any ((current player) iloc HAND))) hearts)
       (move (bottom ((current player) iloc HAND)) (top (game vloc PILE))))))
  (scoring max (((current player) player) sto SCORE)))"""

THE_SAME_IN_V0510 = """(game
  (setup (create players 2) (create teams (0) (1))
    (create deck (game iloc STOCK) (deck (RANK (TWO, THREE)) (SUIT (HEARTS, SPADES)))))
  (do ((all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
  (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
    (choice (
      ((any ((current player) iloc HAND) 'C (== (cardatt SUIT 'C) HEARTS))
       (move (top ((current player) iloc HAND)) (top (game vloc PILE))))
      ((any ((current player) iloc HAND) 'C (!= (cardatt SUIT 'C) HEARTS))
       (move (bottom ((current player) iloc HAND)) (top (game vloc PILE)))))))
  (scoring max ((current player) sto SCORE)))"""


def test_any_card_in_a_condition_is_some_card_of_the_location():
    old = parse_text(ANY_IN_CONDITION)
    assert old.dialect == "0.3"
    assert not [d for d in check(old.game, old.source) if d.severity == "error"]
    cond = old.game.body[1].body[0].options[0].cond
    assert isinstance(cond, ir.Quantified) and cond.quant == "any"
    assert up_to_names(old.game) == up_to_names(parse_text(THE_SAME_IN_V0510).game)


def test_a_player_holding_a_heart_and_a_spade_has_both_options():
    prog = compile_loaded(parse_text(ANY_IN_CONDITION))
    for seed in range(20):
        live = Live(prog, seed)
        live.setup()
        ch = live.advance()
        suits = {prog.lay.cards[k]["suit"] for k in live.c.L[prog.lay.loc_slot("iloc", "HAND")][1]}
        assert len(live.options(ch)) == len(suits), (seed, suits)
