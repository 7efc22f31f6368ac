"""Table 5's columns (docs/gcardgame.md, decisions 22 and 23): wins by one seat alone, draws,
crashes by cause and mean turns in both units, on small games whose answers follow from the
rules, and through the simulate command."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main
from ggpbridge.gcardgame import TURN_LIMIT, parse_text, to_recycle
from ggpbridge.sim import compile_loaded, simulate
from ggpbridge.sim.players import make_players
from ggpbridge.sim.playout import ERROR, FINISHED, Result, play
from ggpbridge.sim.stats import crash_cause

UNO = str(GAMES / "uno.gcg")


def outcomes(text: str, n: int = 20, detailed: bool = False) -> dict:
    prog = compile_loaded(to_recycle(parse_text(text, "t.gcg"), count=True))
    return simulate(prog, n, detailed=detailed).outcomes()


# seat 0 plays first (decision 1) and its mandatory `win` fires at once: one rule, one turn
FIRST_WINS = "players 3\ntables 1\nstage 0\n  mandatory unconditional win\n"
# every player takes a card (mandatory) and is then done: two rules and one turn each; no
# winning conditions, so every total is 0 and every play is a draw (decision 13)
TAKE_AND_STOP = "players 2\ntables 1\nstage 0\n  mandatory unconditional pifr D*1 down\n  unconditional done\n"
# nobody can ever be done: the stage cannot end
FOREVER = "players 2\ntables 1\nstage 0\n  unconditional next\n"
# 2 × 27 cards from a deck of 52
DEAL_TOO_MANY = "players 2\ntables 1\nstage 0\n  com deal ALL 27\nstage 1\n  unconditional done\n"


@pytest.mark.parametrize("detailed", [False, True], ids=["fast", "reference"])
def test_a_forced_win_by_seat_0(detailed):
    o = outcomes(FIRST_WINS, detailed=detailed)
    assert o["won"] == [20, 0, 0] and o["draws"] == 0 and o["crashed"] == 0
    assert o["mean"] == {"rules": 1, "turns": 1}


@pytest.mark.parametrize("detailed", [False, True], ids=["fast", "reference"])
def test_rules_and_turns_are_different_units(detailed):
    o = outcomes(TAKE_AND_STOP, detailed=detailed)
    assert o["won"] == [0, 0] and o["draws"] == 20 and o["crashed"] == 0
    assert o["mean"] == {"rules": 4, "turns": 2}


def test_a_stage_that_cannot_end_crashes_over_the_turn_limit():
    o = outcomes(FOREVER, n=3)
    unit, bound = TURN_LIMIT
    assert o["crashes"] == {f"over {bound} {unit}": 3} and o["won"] == [0, 0] and o["draws"] == 0
    assert o["mean"] == {"rules": None, "turns": None}   # no play finished properly


def test_a_deal_from_an_empty_deck_crashes_at_the_rule():
    o = outcomes(DEAL_TOO_MANY, n=5)
    assert o["crashes"] == {"game error: t.gcg:4:7: error: a card is taken from an empty location": 5}


def test_the_limit_is_within_100_turns_in_its_unit():
    unit, bound = TURN_LIMIT
    done = Result(0, FINISHED, winners=[0], tallies={unit: bound})
    assert crash_cause(done, TURN_LIMIT) is None
    assert crash_cause(Result(0, FINISHED, winners=[0], tallies={unit: bound + 1}), TURN_LIMIT) == f"over {bound} {unit}"
    # past the limit, a later error would never have been reached
    late = Result(0, ERROR, error="x.gcg:1:1: error: boom", tallies={unit: bound + 1})
    assert crash_cause(late, TURN_LIMIT) == f"over {bound} {unit}"
    assert crash_cause(Result(0, ERROR, error="x.gcg:1:1: error: player 2 has no option\n  x\n  ^"), None) \
        == "game error: x.gcg:1:1: error: a player has no option"


def test_counting_does_not_change_the_play():
    loaded = parse_text((GAMES / "uno.gcg").read_text(), "uno.gcg")
    plain, counted = compile_loaded(to_recycle(loaded)), compile_loaded(to_recycle(loaded, count=True))
    for seed in range(15):
        a = play(plain, seed, make_players("random", 3, seed))
        b = play(counted, seed, make_players("random", 3, seed))
        assert (a.status, a.winners, len(a.decisions)) == (b.status, b.winners, len(b.decisions))
        assert not a.tallies and set(b.tallies) == {"rules", "turns"}
        # every pass plays a rule or ends a turn, and a turn ends after at least one pass
        assert b.tallies["turns"] <= len(b.decisions)


def test_both_engines_count_alike():
    prog = compile_loaded(to_recycle(parse_text((GAMES / "uno.gcg").read_text(), "uno.gcg"), count=True))
    fast, ref = simulate(prog, 30), simulate(prog, 30, detailed=True)
    assert fast.engine == "fast" and ref.engine == "reference"
    assert fast.outcomes() == ref.outcomes()


def test_simulate_reports_the_columns_in_json_and_text():
    r = CliRunner().invoke(main, ["simulate", UNO, "-n", "60", "--json"])
    o = json.loads(r.stdout)["outcomes"]
    assert sum(o["won"]) + o["draws"] + o["crashed"] == 60
    assert set(o["mean"]) == {"rules", "turns"} and o["mean"]["rules"] > o["mean"]["turns"] > 0
    text = CliRunner().invoke(main, ["simulate", UNO, "-n", "60"]).output
    assert "won by 0  won by 1  won by 2  draws  crashed  mean rules  mean turns" in text


def test_recycle_games_have_no_table5_columns():
    r = CliRunner().invoke(main, ["simulate", str(GAMES / "agram.rcy"), "-n", "5", "--json"])
    assert "outcomes" not in json.loads(r.stdout)


def test_statistics_merged_from_chunks_keep_the_columns():
    from ggpbridge.sim import stats_for
    # each player in turn wins or is done, at random: wins by either seat, and draws
    text = "players 2\ntables 1\nstage 0\n  unconditional win\n  unconditional done\n"
    prog = compile_loaded(to_recycle(parse_text(text, "t.gcg"), count=True))
    results = [play(prog, s, make_players("random", 2, s)) for s in range(30)]
    whole, merged = stats_for(prog), stats_for(prog)
    for r in results:
        whole.add(r)
    for part in (results[:11], results[11:]):
        chunk = stats_for(prog)
        for r in part:
            chunk.add(r)
        merged.merge(chunk)
    assert merged.outcomes() == whole.outcomes()
    o = whole.outcomes()
    assert sum(o["won"]) + o["draws"] == 30 and min(o["won"]) > 0 and o["draws"] > 0 and o["crashed"] == 0
