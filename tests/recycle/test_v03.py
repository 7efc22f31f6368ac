"""The papers' v0.3 dialect: same IR as v0.5.10 up to names, with explicit quantifiers."""
from __future__ import annotations

from conftest import GAMES
from ggpbridge import ir
from ggpbridge.ir_norm import up_to_names
from ggpbridge.recycle import parse_file, parse_text
from ggpbridge.translators.recycle_text import to_text


def test_paper_agram_equals_its_v0510_counterpart_up_to_names():
    old = parse_file(GAMES / "agram_v03.gdl")
    new = parse_file(GAMES / "agram_paper.rcy")
    assert old.dialect == "0.3" and new.dialect == "0.5.10"
    assert up_to_names(old.game) == up_to_names(new.game)
    assert old.game != new.game  # the names really differ (rank vs RANK, 10 vs TEN)


def test_up_to_names_still_sees_structural_differences():
    new = parse_file(GAMES / "agram_paper.rcy").game
    text = (GAMES / "agram_paper.rcy").read_text().replace("(inc ((next player) sto SCORE) 1)",
                                                           "(inc ((current player) sto SCORE) 1)")
    assert up_to_names(parse_text(text).game) != up_to_names(new)


V03 = """(game (setup (create players 3) (create teams (0) (1) (2))
  (create deck (game iloc STOCK) (deck (rank (a, b)))))
  (stage player (end (== (size ((any player) iloc HAND)) 0))
    (choice (() (move (any ((current player) iloc HAND where (none (== (cardatt rank each) a))))
                      (top (game vloc PILE))))))
  (comp (() (move (top ((all player) iloc HAND)) (top (game vloc PILE)) all)))
  (scoring min (((current player) player) sto SCORE)))"""


def test_quantifiers_become_explicit():
    g = parse_text(V03).game
    end = g.body[0].end
    assert isinstance(end, ir.Quantified) and end.quant == "any" and end.coll == ir.AllOf("player")
    assert end.cond.left.coll.owner == ir.Var(end.var)
    comp = g.body[1]
    [loop] = comp.items
    assert isinstance(loop, ir.ForAll) and isinstance(loop.body, ir.RepeatAll)
    assert loop.body.body.src.source.owner == ir.Var(loop.var)


def test_any_card_in_a_choice_becomes_an_option_per_card_and_where_a_filter():
    g = parse_text(V03).game
    [opt] = g.body[0].body[0].options
    assert isinstance(opt, ir.AnyOf)
    assert isinstance(opt.coll, ir.Filter) and isinstance(opt.coll.cond, ir.Not)
    assert opt.body.src == ir.Var(opt.var)
    each = opt.coll.cond.arg.left
    assert each == ir.CardAtt(ir.Name("rank"), ir.Var(opt.coll.var))


def test_v03_upgrades_to_valid_v0510_with_renamed_names():
    loaded = parse_text(V03)
    text, renamed = to_text(loaded.game, loaded.comments)
    again = parse_text(text, dialect="0.5.10")
    assert up_to_names(again.game) == up_to_names(loaded.game)
    assert renamed["rank"] == "RANK" and renamed["a"] == "A"


def test_any_in_a_comp_is_an_error():
    import pytest
    from ggpbridge.errors import RecycleSyntaxError
    with pytest.raises(RecycleSyntaxError) as e:
        parse_text(V03.replace("(move (top ((all player) iloc HAND))", "(move (any ((all player) iloc HAND))"))
    assert "comp block has no player" in e.value.message
