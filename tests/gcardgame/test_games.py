"""The paper's three games (Tables 3 and 4) read, check clean and say what the tables say."""
from __future__ import annotations

import pytest

from conftest import GAMES
from ggpbridge.gcardgame import parse_file
from ggpbridge.gcardgame import syntax as s

NAMES = ["texas_holdem", "blackjack", "uno"]


def load(name: str):
    return parse_file(GAMES / f"{name}.gcg")


@pytest.mark.parametrize("name", NAMES)
def test_each_game_reads_and_checks_without_any_diagnostic(name):
    loaded = load(name)
    assert loaded.diagnostics == []
    assert (loaded.game.players, loaded.game.tables) == (3, 2)   # section 3: P = 3, T = 2


def test_texas_has_the_thirteen_stages_of_table_3_in_order():
    game = load("texas_holdem").game
    assert [st.index for st in game.stages] == list(range(13))
    assert [st.name for st in game.stages] == [
        "pre-flop", "first bet", "check bets", "flop", "2nd bet", "check bets", "turn", "3rd bet",
        "check bets", "river", "final bet", "check bets", "showdown"]


def test_texas_betting_and_checking_rules_are_the_tables():
    stages = load("texas_holdem").game.stages
    ka1, kx1 = s.TokenLoc("A", 1), s.TokenLoc("X", 1)
    first = stages[1].rules
    assert first[0] == s.Rule("mandatory", s.Unconditional(), s.Bet(None, None))
    assert first[1] == s.Rule("optional", s.Unconditional(), s.Bet("=", ka1))
    assert first[2:] == (s.Rule("once", s.Unconditional(), s.Status("next")),
                         s.Rule("once", s.Unconditional(), s.Status("done")))
    for i in (4, 7, 10):
        assert stages[i].rules[0] == s.Rule("optional", s.Unconditional(), s.Bet(">=", ka1))
    # every check stage, stage 5 included (its garbled `K` read as KA1), puts out a short bet
    for i in (2, 5, 8, 11):
        assert stages[i].rules == (s.Rule("mandatory", s.Tokens(kx1, "<", ka1), s.Status("out")),)


def test_texas_deals_burn_cards_to_t1_before_each_community_deal():
    stages = load("texas_holdem").game.stages
    deals = {i: [(str(r.consequent.target), r.consequent.amount) for r in stages[i].rules] for i in (3, 6, 9)}
    assert deals == {3: [("T1", 1), ("T0", 3)], 6: [("T1", 1), ("T0", 1)], 9: [("T1", 1), ("T0", 1)]}


def test_texas_showdown_and_ranking():
    game = load("texas_holdem").game
    hx_t0 = s.CardLocs((s.CardLoc("H", "X"), s.CardLoc("T", 0)))
    ha_t0 = s.CardLocs((s.CardLoc("H", "A"), s.CardLoc("T", 0)))
    assert game.stages[12].rules == (s.Rule("mandatory", s.Play(hx_t0, ">", ha_t0), s.Gain(s.TokenLoc("A", 1))),)
    assert [(e.play, e.score) for e in game.ranking] == [
        ("straight flush", 900), ("four of a kind", 800), ("full house", 700), ("flush", 600),
        ("straight", 500), ("three of a kind", 400), ("two pairs", 300), ("one pair", 200)]
    assert game.winning == s.Winning(1, 0)


def test_blackjack_is_table_4a():
    game = load("blackjack").game
    st = game.stages
    assert [r.consequent for r in st[0].rules] == [s.Deal(s.AllPlayers(), 2), s.Give(s.AllPlayers(), 99)]
    assert st[2].rules == (s.Rule("optional", s.Unconditional(), s.Pifr(s.CardLoc("D", None), 1, "up")),
                           s.Rule("optional", s.Unconditional(), s.Status("done")))
    hx = s.CardLocs((s.CardLoc("H", "X"),))
    assert st[3].rules == (
        s.Rule("mandatory", s.SumCond(hx, ">", s.Number(21)), s.Status("out")),
        s.Rule("mandatory", s.SumCond(hx, ">", s.CardLocs((s.CardLoc("H", "A"),))), s.Gain(s.TokenLoc("A", 1))))
    assert {e.number: e.values for e in game.ranking} == {11: (10,), 12: (10,), 13: (10,), 1: (1, 10)}
    assert game.winning == s.Winning(1, 0)


def test_uno_is_table_4b_with_no_ranking_or_winning_conditions():
    game = load("uno").game
    t0 = s.CardLocs((s.CardLoc("T", 0),))
    assert [r.consequent for r in game.stages[0].rules] == [s.Deal(s.AllPlayers(), 7), s.Deal(s.CardLoc("T", 0), 1)]
    assert game.stages[1].rules == (
        s.Rule("optional", s.Show("same suit", t0), s.PlayIt()),
        s.Rule("optional", s.Show("same number", t0), s.PlayIt()),
        s.Rule("optional", s.Draw(), s.Status("next")),
        s.Rule("mandatory", s.Have(s.EmptyCombo()), s.Win()))
    assert game.ranking == () and game.winning is None


def test_rules_keep_the_line_and_column_they_were_written_at():
    loaded = load("uno")
    lines = loaded.source.text.splitlines()
    for rule in loaded.game.stages[1].rules:
        assert lines[rule.pos.line - 1][rule.pos.col - 1:].startswith(("show", "draw", "mandatory"))
        cons = rule.consequent
        assert lines[cons.pos.line - 1][cons.pos.col - 1:].startswith(("playit", "next", "win"))
