"""Decks: locations only shuffled and drawn from are bags that `random` draws from, and still agree."""
from __future__ import annotations

import pytest

from conftest import GAMES
from ggpbridge.crosscheck import Divergence, Lockstep, crosscheck
from ggpbridge.gdl.ast import Description
from ggpbridge.gdl.kif import to_kif
from ggpbridge.gdl.machine import ClingoMachine
from ggpbridge.recycle import parse_file, parse_text
from ggpbridge.translators.recycle_gdl import Translation
from ggpbridge.translators.recycle_gdl.order import decks

# a small game of our own: deal one card each, then play them out onto a pile
GAME = """
(game
  (setup
    (create players 2)
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR, FIVE)))))
  (do (
    {first}
    (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
  (stage player
    (end (== (size ((current player) iloc HAND)) 0))
    (choice (
      (any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE))))
      {option})))
  (scoring max (size ((current player) iloc HAND))))
"""


def _decks(first="(shuffle (game iloc STOCK))", option=""):
    return {x.name for x in decks(parse_text(GAME.format(first=first, option=option)).game)}


def test_a_location_shuffled_first_and_only_drawn_from_is_a_deck():
    assert _decks() == {"iloc_stock"}
    assert _decks(option="((> (size (game iloc STOCK)) 0) (move (top (game iloc STOCK)) (top (game vloc PILE))))") \
        == {"iloc_stock"}   # its size may be read, and a draw may come later
    # a card may go back in: the deck is then stale until shuffled (see the tests below)
    assert _decks(option=REFILL) == {"iloc_stock"}


REFILL = "((> (size (game vloc PILE)) 0) (move (top (game vloc PILE)) (top (game iloc STOCK))))"

# rounds of our own: shuffle the stock, deal two each, play them out, put the pile back in the stock
ROUNDS = """
(game
  (setup
    (create players 2)
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR, FIVE)))))
  {before}
  (stage player
    (end (== (game sto ROUND) 2))
    (do (
      {shuffle}
      (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
    (stage player
      (end (all player 'P (== (size ('P iloc HAND)) 0)))
      (choice (
        (any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE)))))))
    (do (
      (repeat all (move (top (game vloc PILE)) (top (game iloc STOCK))))
      (inc (game sto ROUND) 1))))
  (scoring max (size ((current player) iloc HAND))))
"""


@pytest.mark.parametrize("first, option", [
    ("", ""),                                                           # dealt in creation order
    ("(move (top (game iloc STOCK)) (top (game vloc PILE))) (shuffle (game iloc STOCK))", ""),   # drawn first
    ("(shuffle (game iloc STOCK)) (remember (top (game iloc STOCK)) (top (game mem SEEN)))", ""),  # top looked at
    ("(shuffle (game iloc STOCK)) (set (game str PEEK) (cardatt RANK (top (game iloc STOCK))))", ""),
    ("(shuffle (game iloc STOCK))",                                     # a player's STOCK, never shuffled
     "((> (size ((current player) iloc STOCK)) 0) (move (top ((current player) iloc STOCK)) (top (game vloc PILE))))"),
], ids=["never shuffled", "drawn before the shuffle", "remembered", "peeked", "a player's"])
def test_a_location_whose_order_can_be_known_is_not_a_deck(first, option):
    assert _decks(first, option) == set()


def test_a_deck_is_a_bag_and_random_draws_each_card_from_what_is_left():
    loaded = parse_file(GAMES / "agram2_c2.rcy")
    tr = Translation(loaded.game)
    assert {x.name for x in tr.decks} == {"iloc_stock"} and tr.decks <= tr.bags
    assert not Translation(loaded.game, decks=False).decks   # as the query engines translate
    m = ClingoMachine(tr.description)
    s = m.initial_state()
    assert not any(str(f).startswith("at(iloc_stock") for f in s)
    stock = lambda s: {f.arguments[2] for f in s if f.name == "in" and str(f.arguments[0]) == "iloc_stock"}  # noqa
    whole = stock(s)
    assert len(whole) == len(tr.prog.lay.cards)
    rnd = [r for r in m.roles() if str(r) == "random"][0]
    draws = 0
    while draws < 3:
        moves = {r: m.legal_moves(s, r) for r in m.roles()}
        if moves[rnd][0].name == "draw":
            # every card left may come next, and the one drawn leaves the deck
            assert {mv.arguments[0] for mv in moves[rnd]} == stock(s) and len(stock(s)) == len(whole) - draws
            draws += 1
        s = m.next_state(s, {r: ms[-1] for r, ms in moves.items()})


@pytest.mark.parametrize("game, n", [("agram2_c2.rcy", 6), ("kuhn_poker.rcy", 10), ("war_n4_winner.rcy", 10)])
def test_decks_agree_with_the_simulators_shuffle_and_draws(game, n):
    loaded = parse_file(GAMES / game)
    assert Translation(loaded.game).decks
    rep = crosscheck(loaded, n, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == n and rep.chance > 0


def test_a_draw_that_leaves_the_card_in_the_deck_is_caught():
    ls = Lockstep(parse_file(GAMES / "war_n4_winner.rcy"))
    desc = ls.tr.description
    rules = [r for r in desc.rules if not (r.head.name == "rm_card" and "(draw " in to_kif(r))]
    assert len(rules) == len(desc.rules) - 1
    ls.gdl = ClingoMachine(Description(tuple(rules)))
    with pytest.raises(Divergence) as info:
        ls.play(0)
    assert "iloc_stock" in " ".join(info.value.detail.get("only_clingo", []))


def test_a_refilled_deck_agrees_when_it_is_shuffled_before_each_deal():
    loaded = parse_text(ROUNDS.format(before="", shuffle="(shuffle (game iloc STOCK))"), "rounds.rcy")
    tr = Translation(loaded.game)
    assert {x.name for x in tr.decks} == {"iloc_stock"} and tr.decks <= tr.bags
    rep = crosscheck(loaded, 12, seed=0)
    assert rep.divergence is None, rep.divergence
    # both rounds were dealt from the deck: 4 cards drawn by `random` each round, none overflowed
    assert rep.playouts == 12 and not rep.overflowed and rep.decisions == 12 * 8


def test_a_draw_from_a_refilled_deck_not_shuffled_since_ends_the_play_as_overflow():
    # shuffled once before the first round: the second deals the pile back in the order it was put
    text = ROUNDS.format(before="(do ((shuffle (game iloc STOCK))))", shuffle="")
    loaded = parse_text(text, "rounds.rcy")
    assert {x.name for x in Translation(loaded.game).decks} == {"iloc_stock"}
    rep = crosscheck(loaded, 5, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.overflowed == [0, 1, 2, 3, 4] and rep.overflow_kinds == {"stale draw": 5}
    # each play agreed through the first round, up to the second deal's first draw
    assert rep.decisions == 5 * 4


def test_a_clingo_playout_says_why_a_stale_draw_has_no_outcome():
    import random

    from ggpbridge.playouts import random_playout
    from ggpbridge.translate import STALE_DRAW
    text = ROUNDS.format(before="(do ((shuffle (game iloc STOCK))))", shuffle="")
    m = ClingoMachine(Translation(parse_text(text, "rounds.rcy").game).description)
    g = random_playout(m, random.Random(0))
    assert not g["finished"] and g["goals"] is None
    assert g["error"] == f"{STALE_DRAW} and ended as overflow"
