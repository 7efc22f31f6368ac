"""The translation's number tables get a negative half only when a value can go below zero
(translators/recycle_gdl/signs.py): Blackjack's bets cannot, an arbitrary `dec` can."""
from __future__ import annotations

import pytest

from conftest import GAMES
from ggpbridge.gcardgame import parse_file as parse_gcg
from ggpbridge.gcardgame.lower import lower
from ggpbridge.recycle import parse_text
from ggpbridge.translators.recycle_gdl.signs import may_go_negative

HEAD = "(game (setup (create players 2) (create deck (game iloc D) (deck (RANK (A, B))))) "
TAIL = " (scoring max 0))"


def game(body: str):
    return parse_text(HEAD + body + TAIL, "signs.rcy").game


def test_blackjacks_bets_and_not_out_point_never_go_below_zero():
    assert not may_go_negative(lower(parse_gcg(GAMES / "blackjack.gcg").game))


@pytest.mark.parametrize("body, negative", [
    # a bet of at most the stash, its only write in the option: never below zero
    ("(stage player (end (== (game sto X) 1)) (choice ((any (range 1 .. ((current player) sto S)) 'N "
     "(do ((dec ((current player) sto S) 'N) (set (game sto X) 1)))))))", False),
    # the range is another storage's
    ("(stage player (end (== (game sto X) 1)) (choice ((any (range 1 .. ((current player) sto T)) 'N "
     "(do ((dec ((current player) sto S) 'N) (set (game sto X) 1)))))))", True),
    # the option writes the stash again before the dec could be checked against it
    ("(stage player (end (== (game sto X) 1)) (choice ((any (range 1 .. ((current player) sto S)) 'N "
     "(do ((inc ((current player) sto S) 'N) (dec ((current player) sto S) 'N) (set (game sto X) 1)))))))", True),
    ("(do ((dec (game sto X) 1)))", True),
    ("(do ((dec (game sto X) 0)))", False),
    # a storage set only to 0..3, divided by 3, taken from 1: at least 0
    ("(do ((set (game sto Y) 3) (set (game sto Z) (- 1 (// (game sto Y) 3)))))", False),
    ("(do ((set (game sto Y) 6) (set (game sto Z) (- 1 (// (game sto Y) 3)))))", True),
    ("(do ((inc (game sto Y) 1) (set (game sto Z) (- 1 (game sto Y)))))", True),
])
def test_what_may_go_negative(body, negative):
    assert may_go_negative(game(body)) is negative
