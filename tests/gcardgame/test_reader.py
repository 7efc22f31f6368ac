"""Every construct of the .gcg grammar reads into the syntax node it means."""
from __future__ import annotations

import pytest

from ggpbridge.errors import Pos
from ggpbridge.gcardgame import parse_text
from ggpbridge.gcardgame import syntax as s

HEAD = "players 3\ntables 2\nstage 0\n"
HX, HA, D = s.CardLoc("H", "X"), s.CardLoc("H", "A"), s.CardLoc("D", None)
T0, T1 = s.CardLoc("T", 0), s.CardLoc("T", 1)
KX0, KX1, KA1 = s.TokenLoc("X", 0), s.TokenLoc("X", 1), s.TokenLoc("A", 1)
U = s.Unconditional()


def locs(*parts):
    return s.CardLocs(tuple(parts))


def rule_of(line: str) -> s.Rule:
    loaded = parse_text(HEAD + "  " + line + "\n", "t.gcg")
    (rule,) = loaded.game.stages[0].rules
    return rule


RULES = [
    # computer commands (Table 2b)
    ("com deal ALL 2", s.Rule("com", None, s.Deal(s.AllPlayers(), 2))),
    ("com deal ALL PLAYERS 2", s.Rule("com", None, s.Deal(s.AllPlayers(), 2))),
    ("com deal player 1 4", s.Rule("com", None, s.Deal(s.SomePlayers((1,)), 4))),
    ("com give players 0 and 1 100", s.Rule("com", None, s.Give(s.SomePlayers((0, 1)), 100))),
    ("com give players 2, 0 and 1 5", s.Rule("com", None, s.Give(s.SomePlayers((2, 0, 1)), 5))),
    ("com deal T0 4", s.Rule("com", None, s.Deal(T0, 4))),
    ("com deal H2 1", s.Rule("com", None, s.Deal(s.CardLoc("H", 2), 1))),
    # antecedents (Table 1) and modifiers
    ("tokens K01 >= K11 next", s.Rule("optional", s.Tokens(s.TokenLoc(0, 1), ">=", s.TokenLoc(1, 1)), s.Status("next"))),
    ("once tokens KX0 > 0 done", s.Rule("once", s.Tokens(KX0, ">", s.Number(0)), s.Status("done"))),
    ("mandatory tokens KX1 < KA1 out", s.Rule("mandatory", s.Tokens(KX1, "<", KA1), s.Status("out"))),
    ("play H0 + T0 < H1 + T0 win", s.Rule("optional", s.Play(locs(s.CardLoc("H", 0), T0), "<", locs(s.CardLoc("H", 1), T0)), s.Win())),
    ("sum H0 = H1 end", s.Rule("optional", s.SumCond(locs(s.CardLoc("H", 0)), "=", locs(s.CardLoc("H", 1))), s.End())),
    ("sum HX <= 21 end", s.Rule("optional", s.SumCond(locs(HX), "<=", s.Number(21)), s.End())),
    ("have 2 of diamonds end", s.Rule("optional", s.Have(s.CardCombo(2, "diamonds")), s.End())),
    ("have 13 end", s.Rule("optional", s.Have(s.NumberCombo(13)), s.End())),
    ("have spades end", s.Rule("optional", s.Have(s.SuitCombo("spades")), s.End())),
    ("have full house end", s.Rule("optional", s.Have(s.PlayCombo("full house")), s.End())),
    ("have λ win", s.Rule("optional", s.Have(s.EmptyCombo()), s.Win())),
    ("draw next", s.Rule("optional", s.Draw(), s.Status("next"))),
    ("show same suit T0 playit", s.Rule("optional", s.Show("same suit", locs(T0)), s.PlayIt())),
    ("show card with same number T0 playit", s.Rule("optional", s.Show("same number", locs(T0)), s.PlayIt())),
    ("show > T1 playit", s.Rule("optional", s.Show(">", locs(T1)), s.PlayIt())),
    # consequents (Table 2a)
    ("unconditional pifr D*2 down", s.Rule("optional", U, s.Pifr(D, 2, "down"))),
    ("unconditional pifr T1 * 1 up", s.Rule("optional", U, s.Pifr(T1, 1, "up"))),
    ("unconditional puin T0*1 > up", s.Rule("optional", U, s.Puin(T0, 1, ">", "up"))),
    ("unconditional puin H1*2 λ down", s.Rule("optional", U, s.Puin(s.CardLoc("H", 1), 2, None, "down"))),
    ("unconditional bet > K01", s.Rule("optional", U, s.Bet(">", s.TokenLoc(0, 1)))),
    ("unconditional bet <= 10", s.Rule("optional", U, s.Bet("<=", s.Number(10)))),
    ("mandatory unconditional bet λ λ", s.Rule("mandatory", U, s.Bet(None, None))),
    ("unconditional gain K21", s.Rule("optional", U, s.Gain(s.TokenLoc(2, 1)))),
]


@pytest.mark.parametrize("line,expected", RULES, ids=[r[0] for r in RULES])
def test_each_rule_form_reads_as_its_node(line, expected):
    assert rule_of(line) == expected


@pytest.mark.parametrize("spelling", ["unconditional", "λ", "lambda"])
def test_every_spelling_of_lambda_means_the_same(spelling):
    assert rule_of(f"mandatory {spelling} bet {spelling} {spelling}") == s.Rule("mandatory", U, s.Bet(None, None))
    assert rule_of(f"have {spelling} win") == s.Rule("optional", s.Have(s.EmptyCombo()), s.Win())


@pytest.mark.parametrize("op,norm", [("<=", "<="), ("≤", "<="), (">=", ">="), ("≥", ">="), ("<", "<"), (">", ">"), ("=", "=")])
def test_restrictions_are_normalised(op, norm):
    assert rule_of(f"tokens KX1 {op} KA1 out").antecedent.op == norm


@pytest.mark.parametrize("sep", ["", "- ", "-> "])
def test_the_separator_between_antecedent_and_consequent_is_optional(sep):
    assert rule_of(f"once unconditional {sep}next") == s.Rule("once", U, s.Status("next"))


@pytest.mark.parametrize("words,name", [
    ("straight flush", "straight flush"), ("poker", "four of a kind"), ("four of a kind", "four of a kind"),
    ("full house", "full house"), ("flush", "flush"), ("straight", "straight"),
    ("three of a kind", "three of a kind"), ("two pairs", "two pairs"), ("one pair", "one pair")])
def test_ranking_plays_read_in_the_papers_words(words, name):
    game = parse_text(HEAD + "  draw next\nranking\n  " + words + " 7\n").game
    assert game.ranking == (s.RankPlay(name, 7),)


def test_ranking_cards_and_winning_conditions():
    game = parse_text(HEAD + "  draw next\nranking\n  card 13 10\n  card 1 1 | 10 | 11\nwinning\n  not out 5\n  token 2\n").game
    assert game.ranking == (s.RankCard(13, (10,)), s.RankCard(1, (1, 10, 11)))
    assert game.winning == s.Winning(2, 5)


def test_an_empty_winning_block_scores_nothing():
    assert parse_text(HEAD + "  draw next\nwinning\n").game.winning == s.Winning(0, 0)


def test_comments_blank_lines_bom_and_a_missing_final_newline_are_fine():
    text = "\ufeff# a game\n\nplayers 2   # two\n\n\ntables 1\nstage 0 (only)  # c\n\n  # rule next\n  draw next # c"
    game = parse_text(text).game
    assert (game.players, game.tables) == (2, 1)
    assert game.stages == (s.Stage(0, "only", (s.Rule("optional", s.Draw(), s.Status("next")),)),)


def test_a_stage_name_is_optional_and_stripped():
    game = parse_text("players 2\nstage 0\n  draw next\nstage 1 (  the end  )\n  draw end\n").game
    assert [st.name for st in game.stages] == ["", "the end"]


def test_nodes_carry_the_position_of_their_first_token():
    text = HEAD + "  mandatory play HX + T0 > HA + T0 gain KA1\n"
    rule = parse_text(text).game.stages[0].rules[0]
    assert rule.pos == Pos(4, 3)
    assert rule.antecedent.pos == Pos(4, 13)
    assert rule.antecedent.left.parts[1].pos == Pos(4, 23)
    assert rule.antecedent.right.pos == Pos(4, 28)
    assert rule.consequent.pos == Pos(4, 36)
    assert rule.consequent.loc.pos == Pos(4, 41)


def test_positions_take_no_part_in_equality():
    a = parse_text(HEAD + "  draw next\n").game
    b = parse_text("\n\nplayers 3\n  tables 2\n\nstage 0\n\n      draw   next\n").game
    assert a == b and a.stages[0].pos != b.stages[0].pos


def test_location_and_token_names_read_seat_and_slot():
    rule = parse_text("players 13\nstage 0\n  tokens K120 > KA0 end\n").game.stages[0].rules[0]
    assert rule.antecedent.left == s.TokenLoc(12, 0) and str(rule.antecedent.left) == "K120"
    assert str(rule_of("play H0 + HX + T1 > D end").antecedent.left) == "H0 + HX + T1"
