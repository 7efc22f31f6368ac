"""forced-win's probability of winning under best play with hidden information: the bracket from
CFR+ against the other seats, pooled into one coalition when there are more than two.

Every expected value here comes from an argument about the game, not from a run:
- Kuhn (and Leduc), winning or not: folding always loses, so neither seat folds and the higher
  hand wins the showdown. Kuhn's three cards never tie: 1/2 each. Leduc ties (a shared win)
  when both hold the same rank (1 chance in 5; the board then cannot pair either): 1/2 + 1/10.
- tests/solve/data/guess.rcy, hide3.rcy and pool3.rcy: worked out in their comments.
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main
from ggpbridge.frontends import load_game
from ggpbridge.query.run import run_query
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.stepwise import StepMachine
from ggpbridge.solve.cfr import CFRPlus
from ggpbridge.solve.forced import duel, independent_upper, project_to_members, win_bounds, wins_indicator
from ggpbridge.solve.tree import GameTree, SolveError, build_tree

DATA = Path(__file__).parent / "data"
HIDE3, POOL3, GUESS = str(DATA / "hide3.rcy"), str(DATA / "pool3.rcy"), str(DATA / "guess.rcy")
TOL = 0.002   # CFR+ stops at exploitability 0.001: the bracket is at most NashConv = 0.002 wide


def _bounds(game, role, **sets):
    (a,) = run_query(game, "forced-win", role, overrides=sets)
    return a, a.stats.get("win_probability_lower"), a.stats.get("win_probability_upper")


def _machine(path, sets=None):
    return StepMachine(compile_loaded(load_game(str(path), None), dict(sets or {})))


@pytest.mark.parametrize("role", [0, 1])
def test_kuhn_brackets_one_half(role):
    a, lo, hi = _bounds(str(GAMES / "kuhn_poker.rcy"), role)
    assert a.verdict == "no"
    assert lo <= 0.5 <= hi and hi - lo <= TOL


def test_two_seats_guess_is_exactly_one_half_for_both():
    for role in (0, 1):
        a, lo, hi = _bounds(GUESS, role)
        assert a.verdict == "no" and lo == pytest.approx(0.5, abs=TOL) and hi == pytest.approx(0.5, abs=TOL)


def test_the_perfect_information_relaxation_is_no_upper_bound():
    # why forced-win does not use it: there player 1 sees player 0's card too, and player 0 is
    # worth 0, below what it makes sure of in the game (1/2)
    r = CliRunner().invoke(main, ["solve", GUESS, "--method", "expectimax", "--utility", "win", "--json"])
    relaxed = float(Fraction(json.loads(r.output)["exact_value"][0]))
    a, lo, hi = _bounds(GUESS, 0)
    assert relaxed == 0 and lo > relaxed + 0.4


def test_three_seats_without_a_gain_from_pooling_close_on_the_value():
    a, lo, hi = _bounds(HIDE3, 0, SAMEOK=1)
    assert a.verdict == "no" and "coalition" in a.method
    assert lo <= 0.5 <= hi and hi - lo <= TOL


def test_three_seats_forced_win_is_exact():
    a, lo, hi = _bounds(HIDE3, 0, SAMEOK=0)
    assert a.verdict == "yes" and a.stats["win_probability"] == "1" and lo is None


def test_pooling_lowers_the_lower_bound_and_the_upper_one_is_the_value():
    a, lo, hi = _bounds(POOL3, 0)
    assert a.verdict == "no"
    assert lo == pytest.approx(1 / 3, abs=TOL)      # the coalition's value: player 2 knows the card
    assert hi == pytest.approx(1 / 2, abs=TOL)      # the true value: player 2 guesses blind
    assert "stay apart" in a.method


def test_the_bounds_hold_when_cfr_is_stopped_at_once():
    # no iteration at all: the uniform strategies' bounds are wide but still bracket the value
    m = _machine(GAMES / "kuhn_poker.rcy")
    b = win_bounds(build_tree(m, "win"), 0, stop=lambda: True)
    assert b["iterations"] == 0 and not b["converged"]
    assert b["lower"] < 0.5 - TOL and b["upper"] > 0.5 + TOL
    b = win_bounds(build_tree(_machine(POOL3), "win", teams=(0, 1, 1)), 0, stop=lambda: True)
    assert b["lower"] <= 1 / 3 + 1e-9 and b["upper"] >= 1 / 2 - 1e-9


def test_timeout_stops_cfr_and_says_so():
    r = CliRunner().invoke(main, ["query", str(GAMES / "kuhn_poker.rcy"), "forced-win", "0", "--timeout", "1e-9"])
    assert r.exit_code == 0, r.output
    assert "stopped before 0.001" in r.output and "at least" in r.output


def test_pooled_tree_joins_what_the_coalition_sees():
    m = _machine(POOL3)
    tree = build_tree(m, "win", teams=(0, 1, 1))
    assert tree.seats == 2
    coalition = [i for i in tree.infosets if i.seat == 1]
    # player 2 decides after stay or gamble, knowing the card (pooled): 4 sets; on its own it
    # knows only stay or gamble: 2
    assert len(coalition) == 4 and len({i.member for i in coalition}) == 2
    assert all("p1 sees:" in i.view and "p2 sees:" in i.view for i in coalition)
    alone = build_tree(m, "win")
    assert alone.stats["information_sets"] == [1, 0, 2]


def test_projection_averages_the_coalition_over_a_members_own_sets():
    tree = build_tree(_machine(POOL3), "win", teams=(0, 1, 1))
    s = CFRPlus(duel(tree, 0))
    pol = s.average().copy()
    for i in tree.infosets:   # the coalition names the card it sees
        if i.seat == 1:
            right = [k for k, lab in enumerate(i.labels) if ("JACK" in lab) == ("(JACK)" in i.view)]
            pol[i.offset:i.offset + len(i.options)] = np.eye(len(i.options))[right[0]]
    out = project_to_members(s, pol, 1)
    for i in tree.infosets:
        if i.seat == 1:   # each card is dealt with probability 1/2: player 2 alone names either half the time
            assert out[i.offset:i.offset + 2] == pytest.approx([0.5, 0.5])
    assert s.best_response_value(pol, 0) == pytest.approx(1 / 3)   # against the pooled coalition
    assert s.best_response_value(out, 0) == pytest.approx(1 / 2)


def test_teams_must_number_every_seat():
    with pytest.raises(SolveError, match="one actor number per seat"):
        build_tree(_machine(POOL3), "win", teams=(0, 1))


def test_cli_prints_both_bounds_labelled():
    r = CliRunner().invoke(main, ["query", POOL3, "forced-win", "0"])
    assert r.exit_code == 0, r.output
    assert "coalition pooling what they see" in r.output and "at least 0.33" in r.output
    assert "at most 0.5000" in r.output


@pytest.mark.slow
def test_leduc_brackets_three_fifths():
    a, lo, hi = _bounds(str(GAMES / "leduc_poker.rcy"), 1)
    assert a.verdict == "no" and lo <= 0.6 <= hi and hi - lo <= TOL


@pytest.mark.parametrize("game, sets, value", [(POOL3, {}, 1 / 2), (HIDE3, {"SAMEOK": 1}, 1 / 2)])
def test_the_others_each_on_their_own_bound_the_value_from_above(game, sets, value):
    tree = build_tree(_machine(game, sets), "win")
    assert tree.seats == 3
    b = independent_upper(tree, 0)
    assert b["upper"] == pytest.approx(value, abs=TOL) and b["upper"] >= value - 1e-9
    first = independent_upper(tree, 0, stop=lambda: True)   # the uniform profile: a looser bound
    assert first["iterations"] == 0 and first["upper"] >= b["upper"] - 1e-9


@pytest.mark.parametrize("game, sets, role", [(POOL3, {}, 0), (HIDE3, {"SAMEOK": 1}, 0),
                                              (str(GAMES / "kuhn_poker.rcy"), {}, 1)])
def test_the_lower_bound_holds_against_every_pure_profile_of_the_others(game, sets, role):
    # The claim checked by brute force: ROLE's strategy wins at least `lower` against the others
    # each choosing on its own, in every pure profile of theirs (mixed ones are mixtures of these).
    m = _machine(game, sets)
    plain = build_tree(m, "win")
    pooled = plain if plain.seats == 2 else build_tree(m, "win", teams=tuple(int(s != role) for s in range(3)))
    actor = role if pooled is plain else 0
    b = win_bounds(pooled, actor)
    mine = {(i.member or i.key): b["strategy"][i.offset:i.offset + len(i.options)]
            for i in pooled.infosets if i.seat == actor}
    won = GameTree(**{**plain.__dict__})
    won.payoff = np.zeros_like(plain.payoff)
    won.payoff[:, role] = wins_indicator(plain, role)
    s = CFRPlus(won)
    pol = np.zeros(plain.nslots)
    theirs = []
    for i in plain.infosets:
        if i.seat == role:
            pol[i.offset:i.offset + len(i.options)] = mine[i.key]
        else:
            theirs.append(i)
    assert 0 < len(theirs) <= 8
    worst = 1.0
    for pure in itertools.product(*(range(len(i.options)) for i in theirs)):
        for i, a in zip(theirs, pure):
            pol[i.offset:i.offset + len(i.options)] = np.eye(len(i.options))[a]
        worst = min(worst, s.values(pol)[0, role])
    assert worst >= b["lower"] - 1e-9


def test_a_signal_that_stops_cfr_is_named_and_the_bounds_kept(monkeypatch):
    from ggpbridge.cli.common import Terminated

    def stopped(self, k=1):
        raise Terminated()

    monkeypatch.setattr(CFRPlus, "iterate", stopped)
    b = win_bounds(build_tree(_machine(GAMES / "kuhn_poker.rcy"), "win"), 0)
    assert b["interrupted"] == "interrupted (SIGTERM)" and not b["converged"]
    assert b["lower"] < 0.5 - TOL and b["upper"] > 0.5 + TOL
    up = independent_upper(build_tree(_machine(POOL3), "win"), 0)
    assert up["interrupted"] == "interrupted (SIGTERM)" and up["upper"] >= 1 / 2 - 1e-9
