"""A match record shows the cards of a translated card game by their attributes, beside the GDL moves."""
from __future__ import annotations

import re

from conftest import GAMES
from ggpbridge.ggp.manager import Match, load_game


def test_a_record_names_cards_by_their_attributes():
    desc, gdl = load_game(GAMES / "agram2_c2.rcy")
    record = Match(desc, {"player0": "builtin:random", "player1": "builtin:random"}, gdl=gdl, seed=3,
                   playclock=5, game="agram2_c2.rcy").run()
    shown, moves = record["moves_shown"], record["moves"]
    assert len(shown) == len(moves) and [len(r) for r in shown] == [len(r) for r in moves]
    plays = [m for row in shown for m in row if m.startswith("(option")]
    assert plays and not any(re.search(r"\bc\d+\b", m) for m in plays)
    assert all(re.search(r"\(\w+ (hearts|clubs|spades|diamonds)\)", m) for m in plays), plays   # (RANK SUIT)
