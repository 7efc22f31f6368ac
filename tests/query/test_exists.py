"""`query GAME exists --where CONDITION` on the explicit engine: the condition language, its meaning
over a play, the documented examples, witnesses that replay, and bad conditions.

tests/data/tricks_mini.rcy: 4 cards (HEARTS/CLUBS x TWO/THREE), 2 each, two tricks, no suit to
follow, the led suit beats the other then rank; the trick's winner takes both cards (TAKEN) and
TRICKS + 1; each heart taken is a penalty point, fewest wins. Facts worked out by hand below.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main
from ggpbridge.errors import GgpBridgeError
from ggpbridge.frontends import load_game
from ggpbridge.query import where as W
from ggpbridge.query.answer import NO, YES
from ggpbridge.query.run import run_query
from ggpbridge.query.witness import replay
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.stepwise import StepMachine

TRICKS = str(Path(__file__).resolve().parents[1] / "data" / "tricks_mini.rcy")
AGRAM3 = str(GAMES / "agram2_c3.rcy")


def explicit(game, condition, overrides=None, horizon=None):
    (ans,) = run_query(game, "exists", engine="explicit", where=condition, overrides=overrides, horizon=horizon)
    return ans


def machine(game, overrides=None):
    return StepMachine(compile_loaded(load_game(game), overrides))


def replayed(game, witness):
    return replay(machine(game, witness["overrides"]), witness)


# ---------------------------------------------------------------- the documented examples
def test_player_0_can_win_without_ever_winning_a_trick():
    # player 1 wins both tricks: it takes both hearts, player 0 none, and fewest penalty points win
    ans = explicit(TRICKS, "at end wins(player0) and always sto(player0 TRICKS) == 0")
    assert ans.verdict == YES
    r = replayed(TRICKS, ans.witness)
    assert r.confirmed, r.message
    assert ans.witness["kind"] == "satisfies" and ans.witness["where"].startswith("at end wins(player0)")


def test_a_deal_in_which_one_player_takes_every_point_card():
    ans = explicit(TRICKS, "at end (count(player0 TAKEN, HEARTS) == 2 or count(player1 TAKEN, HEARTS) == 2)")
    assert ans.verdict == YES and replayed(TRICKS, ans.witness).confirmed


def test_some_player_is_one_copy_of_the_condition_per_seat():
    names = W.Names.of(compile_loaded(load_game(TRICKS)).lay)
    some = W.parse("at end some player P: count(P TAKEN, HEARTS) == 2", names).formula
    spelled = W.parse("at end (count(player0 TAKEN, HEARTS) == 2 or count(player1 TAKEN, HEARTS) == 2)", names)
    assert some == spelled.formula
    every = W.parse("every player P: sto(P TRICKS) == 0", names).formula
    assert every == W.parse("sto(player0 TRICKS) == 0 and sto(player1 TRICKS) == 0", names).formula
    assert explicit(TRICKS, "at end some player P: count(P TAKEN, HEARTS) == 2").verdict == YES
    # two tricks, two players: one trick each is possible (trick 1 won by the follower, who then leads)
    assert explicit(TRICKS, "at end every player P: sto(P TRICKS) == 1").verdict == YES


def test_the_two_hearts_can_never_be_split():
    # Each player would have to win one trick holding one heart. The winner of trick 1 leads
    # trick 2; a trick with one heart has one card of each suit, and a card off the led suit
    # never wins, so the leader wins trick 2 too: never one heart each.
    ans = explicit(TRICKS, "at end (count(player0 TAKEN, HEARTS) == 1 and count(player1 TAKEN, HEARTS) == 1)")
    assert ans.verdict == NO and ans.witness is None


def test_the_game_ends_before_every_card_has_been_played_only_when_cards_stay_in_the_stock():
    cond = "over before size(game GATHERED) == 6"
    # Agram with 3 cards each deals the whole 6-card deck and plays every card: never
    assert explicit(AGRAM3, cond).verdict == NO
    # dealt one card each, 4 cards stay in the stock: every play ends with 2 gathered
    one = explicit(AGRAM3, cond, {"HANDSIZE": 1})
    assert one.verdict == YES and replayed(AGRAM3, one.witness).confirmed


def test_every_card_is_played_in_the_trick_game():
    assert explicit(TRICKS, "over before size(player0 HAND) + size(player1 HAND) == 0").verdict == NO
    assert explicit(TRICKS, "at end sto(player0 TRICKS) + sto(player1 TRICKS) == 2").verdict == YES
    assert explicit(TRICKS, "eventually sto(player0 TRICKS) + sto(player1 TRICKS) == 3").verdict == NO


def test_the_horizon_bounds_the_plays():
    # 4 cards: 3 chance events for the shuffle (Fisher-Yates), then 4 decisions: every play has 7 steps
    assert explicit(TRICKS, "true", horizon=6).verdict == NO
    assert explicit(TRICKS, "true", horizon=7).verdict == YES
    assert explicit(TRICKS, "at step 7 over").verdict == YES
    assert explicit(TRICKS, "at step 6 over").verdict == NO


# ---------------------------------------------------------------- replay recomputes the verdict
def test_replay_recomputes_the_condition_of_an_edited_witness():
    w = explicit(TRICKS, "at end wins(player0) and always sto(player0 TRICKS) == 0").witness
    w["where"] = "at end wins(player1)"
    r = replayed(TRICKS, w)
    assert not r.confirmed and "does not satisfy" in r.message
    w["where"] = "at end wins(player0)"
    assert replayed(TRICKS, w).confirmed


def test_replay_refuses_a_play_that_has_not_ended():
    w = explicit(TRICKS, "true").witness
    w["steps"] = w["steps"][:-1]
    r = replayed(TRICKS, w)
    assert not r.confirmed and "not over" in r.message


# ---------------------------------------------------------------- meaning over a play
def _trace(values):
    """A play whose only storage (slot 0, player 0's column) takes `values`; the last point ends it."""
    pts = [(((), ((0, v, 0),)), None) for v in values]
    pts[-1] = (pts[-1][0], (0,))
    return pts


X = W.Sto(0, 1, "X")


def _is(v):
    return W.Compare("==", X, W.Num(v))


@pytest.mark.parametrize("formula, values, expected", [
    (W.Eventually(_is(2)), [0, 1, 2, 1], True),
    (W.Eventually(_is(3)), [0, 1, 2, 1], False),
    (W.Always(W.Compare("<", X, W.Num(3))), [0, 1, 2, 1], True),
    (W.Always(W.Compare("<", X, W.Num(2))), [0, 1, 2, 1], False),
    (W.AtEnd(_is(1)), [0, 1, 2, 1], True),
    (W.AtEnd(W.Wins(0)), [0, 1], True),
    (W.Wins(0), [0, 1], False),   # read at the first point: the play is not over there
    (W.Next(W.Next(_is(2))), [0, 1, 2, 1], True),
    (W.Next(W.Next(W.Next(W.Next(W.TRUE)))), [0, 1, 2, 1], False),   # no fifth point
    (W.Not(W.Next(W.TRUE)), [5], True),
])
def test_temporal_operators_on_a_hand_made_play(formula, values, expected):
    assert W.holds_on(formula, _trace(values)) is expected


def _parsed(text):
    return W.parse(text, W.Names(1, {}, {"X": 0}, {})).formula


@pytest.mark.parametrize("text, values, expected", [
    ("sto(p0 X) == 2 before sto(p0 X) == 3", [0, 2, 3], True),
    ("sto(p0 X) == 2 before sto(p0 X) == 3", [0, 3, 2], False),   # 3 comes first
    ("sto(p0 X) == 2 before sto(p0 X) == 3", [0, 1, 1], False),   # 2 never comes
    ("sto(p0 X) == 2 after sto(p0 X) == 3", [0, 3, 2], True),
    ("sto(p0 X) == 2 after sto(p0 X) == 3", [0, 2, 3], False),
    ("sto(p0 X) == 2 after sto(p0 X) == 2", [2, 2], True),        # strictly after: a later point
    ("sto(p0 X) == 2 after sto(p0 X) == 2", [2, 0], False),
    ("not eventually sto(p0 X) == 1 or at end sto(p0 X) - 1 == 0", [0, 1], True),
    ("at step 1 sto(p0 X) + 1 == 2 and at step 2 sto(p0 X) == 2", [0, 1, 2], True),
])
def test_before_and_after_as_documented(text, values, expected):
    assert W.holds_on(_parsed(text), _trace(values)) is expected


# ---------------------------------------------------------------- bad conditions
def _names():
    return W.Names.of(compile_loaded(load_game(AGRAM3)).lay)


@pytest.mark.parametrize("text, col, words", [
    ("size(player0 HANDS) > 0", 14, ["unknown location 'HANDS'", "did you mean HAND", "GATHERED, HAND, PLAYED, STOCK"]),
    ("sto(player0 WIN) == 1", 13, ["unknown storage 'WIN'", "WON"]),
    ("wins(player2)", 6, ["players 0..1"]),
    ("has(player0 HAND, ACE SPADES)", 23, ["unknown card attribute value 'SPADES'", "HEARTS"]),
    ("size(player0 iloc PLAYED) > 0", 19, ["unknown iloc location 'PLAYED'", "HAND"]),
    ("eventually size(player0 HAND) >", 32, ["ends too early"]),
    ("size(player0 HAND) > 0 and and over", 28, ["unexpected 'and'"]),
    ("size(player0 HAND) ? 0", 20, ["unexpected character '?'"]),
    ("some player P: wins(Q)", 21, ["unknown player 'Q'", "P, player0, player1"]),
    ("some player p0: over", 13, ["'p0' names an owner already"]),
    ("at end size(player0 HAND)", 26, ["ends too early", "a comparison (== != < <= > >=)"]),
])
def test_bad_conditions_are_positioned(text, col, words):
    with pytest.raises(W.ConditionError) as e:
        W.parse(text, _names())
    assert e.value.pos.col == col, str(e.value)
    shown = str(e.value)
    for w in words:
        assert w in shown
    assert shown.splitlines()[-1] == "    " + " " * (col - 1) + "^"


def test_the_cli_shows_a_bad_condition_with_a_caret_and_exit_2():
    r = CliRunner().invoke(main, ["query", TRICKS, "exists", "--where", "at end wins(player7)"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "--where:1:13: error: the game has players 0..1, not 'player7'" in r.output
    assert "^" in r.output


@pytest.mark.parametrize("text, col, words", [
    ("at end size(player0 GATHERED) >= 1", 13, "GATHERED is the game's location, not player0's: write game GATHERED"),
    ("at end sto(game WON) > 0", 12, "WON is each player's storage, not the game's: write player0 WON"),
    ("every player p: at end size(p GATHERED) >= 1", 29, "GATHERED is the game's location, not p's"),
])
def test_a_place_named_under_an_owner_that_has_none_is_an_error(text, col, words):
    # before: `player0 GATHERED` read the player's (always empty) column of the game's location,
    # and the query answered "no" for a condition about a place that does not exist
    r = CliRunner().invoke(main, ["query", AGRAM3, "exists", "--where", text])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert f"--where:1:{col}: error: {words}" in r.output


def test_the_cli_needs_a_condition_and_keeps_where_for_exists():
    r = CliRunner().invoke(main, ["query", TRICKS, "exists"])
    assert r.exit_code == 2 and "exists needs --where" in r.output
    r = CliRunner().invoke(main, ["query", TRICKS, "cycle", "--where", "true"])
    assert r.exit_code == 2 and "go with the question exists" in r.output


def test_the_cli_writes_a_witness_that_replay_confirms(tmp_path):
    out = tmp_path / "w.json"
    r = CliRunner().invoke(main, ["query", TRICKS, "exists", "--where", "at end wins(player0)", "--witness", str(out),
                                  "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["answers"][0]["verdict"] == YES and data["where"] == "at end wins(player0)"
    r = CliRunner().invoke(main, ["replay", TRICKS, str(out), "--quiet"])
    assert r.exit_code == 0 and "confirmed: the game is over after step 7" in r.output


def test_the_explicit_engine_does_not_pretend_to_read_raw_asp(tmp_path):
    f = tmp_path / "c.lp"
    f.write_text(":- where_final(T), not true(int(tricks,1,1),T).\n")
    (ans,) = run_query(TRICKS, "exists", engine="explicit", where_file=str(f))
    assert ans.verdict == "unknown" and "asp engine only" in ans.method


def test_a_condition_on_a_gdl_file_is_refused(tmp_path):
    kif = tmp_path / "g.kif"
    kif.write_text("(role a)\n(init p)\n(legal a noop)\n(<= terminal (true p))\n(goal a 100)\n")
    with pytest.raises(GgpBridgeError, match="RECYCLE game"):
        run_query(str(kif), "exists", engine="explicit", where="true")
