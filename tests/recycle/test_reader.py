"""Reading RECYCLE text the way CardStock reads it."""
from __future__ import annotations

import pytest

from ggpbridge import ir
from ggpbridge.errors import RecycleSyntaxError
from ggpbridge.recycle import parse_text

MINI = """(game
 (setup (create players 2)
  (create deck (game iloc STOCK) (deck (RANK (ACE, TWO)) (SUIT (HEARTS)))))
 (do ((shuffle (game iloc STOCK))))
 (scoring max ((current player) sto SCORE)))"""


def test_minimal_game_reads_into_ir():
    g = parse_text(MINI).game
    assert isinstance(g, ir.Game)
    assert g.setup.players == ir.IntLit(2)
    assert g.scoring == ir.Scoring("max", ir.IntStorage(ir.PlayerRef("current"), ir.Name("SCORE")))
    assert g.body == (ir.Do((ir.Shuffle(ir.Location(ir.GameOwner(), "iloc", ir.Name("STOCK"))),)),)


def test_positions_are_recorded_but_ignored_by_equality():
    a = parse_text(MINI).game
    b = parse_text("\n\n   " + MINI.replace("\n", "\n    ")).game
    assert a == b
    assert a.setup.pos.line == 2 and b.setup.pos.line == 4


def test_comments_anywhere_including_last_line_without_newline():
    text = ";; head\n" + MINI.replace("(do", ";; inline ( not a paren\n (do") + "\n;; tail without newline"
    loaded = parse_text(text)
    assert loaded.game == parse_text(MINI).game
    assert [c[1].strip() for c in loaded.comments] == ["head", "inline ( not a paren", "tail without newline"]


def test_single_semicolon_is_a_clear_error():
    with pytest.raises(RecycleSyntaxError) as e:
        parse_text(MINI.replace("(do", "; oops\n(do"), "f.rcy")
    msg = str(e.value)
    assert msg.startswith("f.rcy:4:2: error: unexpected character ';'") and "';;'" in msg
    assert msg.splitlines()[-1].strip() == "^"


def test_variables_and_byte_order_mark():
    text = "\ufeff" + MINI.replace("(do ((shuffle (game iloc STOCK))))",
                                   "(do ((all player 'P (inc ('P sto SCORE) 1))))")
    body = parse_text(text).game.body[0]
    assert body.items[0] == ir.ForAll(ir.AllOf("player"), "P",
                                      ir.Inc(ir.IntStorage(ir.Var("P"), ir.Name("SCORE")), ir.IntLit(1)))


def test_digits_stay_apart_where_the_parse_needs_them():
    # ANTLR's adaptive prediction reads (^ 1 2) as two numbers; only a surplus is joined.
    loaded = parse_text(MINI.replace("(shuffle (game iloc STOCK))", "(set (game sto X) (^ 1 2))"))
    assert loaded.game.body[0].items[0].value == ir.Arith("^", ir.IntLit(1), ir.IntLit(2))
    assert not loaded.warnings


def test_surplus_digits_are_joined_with_a_warning():
    loaded = parse_text(MINI.replace("(shuffle (game iloc STOCK))", "(inc (game sto X) 1 2)"), "j.rcy")
    assert loaded.game.body[0].items[0].value == ir.IntLit(12)
    [w] = loaded.warnings
    assert w.pos == ir.Pos(4, 25) and "'12'" in w.message


def test_v03_deck_digits_join_into_one_rank():
    text = """(game (setup (create players 2) (create teams (0) (1))
      (create deck (game iloc STOCK) (deck (rank (3,4,5,6 7, 8)))))
      (comp (() (shuffle (game iloc STOCK))))
      (scoring max ((current player) sto SCORE)))"""
    loaded = parse_text(text, "old.gdl")
    assert loaded.dialect == "0.3"
    ranks = loaded.game.setup.decks[0].deck.attrs[0].subs[0].names
    assert ranks == ("3", "4", "5", "67", "8")
    [w] = loaded.warnings
    assert "'67'" in w.message and (w.pos.line, w.pos.col) == (2, 57)


def test_v03_missing_final_paren_is_accepted_with_a_warning():
    text = """(game (setup (create players 2) (create teams (0) (1))
      (create deck (game iloc STOCK) (deck (rank (A)))))
      (comp (() (shuffle (game iloc STOCK))))
      (scoring max ((current player) sto SCORE))"""
    loaded = parse_text(text)
    assert loaded.game.scoring.mode == "max"
    assert any("not closed" in w.message for w in loaded.warnings)


def test_missing_paren_in_v05_is_an_error_at_the_unclosed_paren():
    with pytest.raises(RecycleSyntaxError) as e:
        parse_text(MINI.replace("(do ((shuffle (game iloc STOCK))))", "(do ((shuffle (game iloc STOCK)))"), "m.rcy")
    assert "never closed" in e.value.message and e.value.pos == ir.Pos(1, 1)


def test_text_after_the_game_form_is_a_warning():
    loaded = parse_text(MINI + ")) (extra)")
    [w] = loaded.warnings
    assert "after the game form" in w.message and w.pos.line == 5


def test_unknown_keyword_names_the_dialect():
    with pytest.raises(RecycleSyntaxError) as e:
        parse_text(MINI.replace("(shuffle (game iloc STOCK))", "(shuffle faro (game iloc STOCK) (game iloc X))"),
                   dialect="0.5.0")
    assert "not a keyword of RECYCLE v0.5.0" in e.value.message


def test_wrong_arity_is_reported_at_the_form():
    with pytest.raises(RecycleSyntaxError) as e:
        parse_text(MINI.replace("(shuffle (game iloc STOCK))", "(move (top (game iloc STOCK)))"), "a.rcy")
    assert str(e.value).startswith("a.rcy:4:7: error: 'move' takes 2 arguments, found 1")


@pytest.mark.parametrize("text,dialect", [
    (MINI, "0.5.10"),
    (MINI.replace("(do ((shuffle (game iloc STOCK))))", "(do ((remember (top (game iloc STOCK)) (top (game mem M)))))")
     .replace("(create deck", "(create teams (0) (1)) (create deck") + " ", "0.5.10"),
    ("(game (setup (create players 2)) (comp (() (shuffle (game iloc S)))) (scoring max 1))", "0.3"),
    ("(game (setup (create players 2)) (do (((== 1 1) (set (game points P) (((RANK (ACE)) 1))))))"
     " (scoring max 1))", "0.5.0"),
    ("(game (setup (create players 2)) (do (((== 1 1) (set (game points P) (((RANK : ACE) 1))))))"
     " (scoring max 1))", "0.5.10"),
])
def test_dialect_is_detected_from_content(text, dialect):
    assert parse_text(text, "x.gdl").dialect == dialect


def test_v050_and_v0510_award_forms_read_alike():
    a = parse_text("(game (setup (create players 2)) (do ((set (game points P) (((RANK (ACE)) 1)))))"
                   " (scoring max 1))").game
    b = parse_text("(game (setup (create players 2)) (do ((set (game points P) (((RANK : ACE) 1)))))"
                   " (scoring max 1))").game
    assert a == b


def test_any_outside_a_choice_runs_for_every_element_with_a_warning():
    loaded = parse_text(MINI.replace("(shuffle (game iloc STOCK))", "(any player 'P (inc ('P sto S) 1))"))
    assert isinstance(loaded.game.body[0].items[0], ir.ForAll)
    assert any("like 'all'" in w.message for w in loaded.warnings)
