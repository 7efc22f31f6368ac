"""A match record shows the cards of a card game by their attributes, beside the GDL moves."""
from __future__ import annotations

import json
import re

from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main
from ggpbridge.gdl.kif import parse_kif
from ggpbridge.ggp.manager import Match

# the translation's way of naming cards: constants c0, c1, ... and their `card_att` facts
ONE_CARD_TRICK = """
(role dealer)
(card_id c0) (card_att c0 rank ace) (card_att c0 suit spades)
(card_id c1) (card_att c1 rank ten) (card_att c1 suit hearts)
(init (hand c0)) (init (hand c1))
(<= (legal dealer (play ?c)) (true (hand ?c)))
(<= (next played) (does dealer (play ?c)))
(<= terminal (true played))
(goal dealer 100)
"""


def test_a_record_names_cards_by_their_attributes():
    desc = parse_kif(ONE_CARD_TRICK, "trick.kif")
    record = Match(desc, {"dealer": "builtin:random"}, gdl=1, seed=3, playclock=5, game="trick.kif").run()
    (move,), = record["moves"]
    (shown,), = record["moves_shown"]
    assert re.fullmatch(r"\(play c[01]\)", move)
    assert shown == {"(play c0)": "(play (ace spades))", "(play c1)": "(play (ten hearts))"}[move]


def test_a_game_without_cards_keeps_its_record_as_it_was():
    desc = parse_kif(ONE_CARD_TRICK.replace("card_att", "feature"), "trick.kif")
    record = Match(desc, {"dealer": "builtin:random"}, gdl=1, seed=3, playclock=5, game="trick.kif").run()
    assert "moves_shown" not in record


def test_a_record_of_a_recycle_game_shows_the_options_taken(tmp_path):
    out = tmp_path / "record.json"
    r = CliRunner().invoke(main, ["match", str(GAMES / "kuhn_poker.rcy"), "--player", "player0=builtin:random",
                                  "--player", "player1=builtin:random", "--seed", "1", "-o", str(out)])
    assert r.exit_code == 0, r.output
    record = json.loads(out.read_text())
    chosen = [(m, s) for row, shown in zip(record["moves"], record["moves_shown"]) for m, s in zip(row, shown)
              if m.startswith("(option")]
    assert chosen
    # each shows the action of the option chosen, not its number
    assert all(not s.startswith("(option") and s.startswith("(") for m, s in chosen), chosen
