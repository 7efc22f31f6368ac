"""Klaverjassen's constructs (issue #38's coverage): a max in the conditions and `any` ranges that
list an option, which the simulator evaluates without its tie-break coin (the last of the best
cards; listedmax.py), and a loop over the runs of each group of a partition (runloops.py).
Lock-stepped on small games of ours; the fast engine plays the same games as the closure engine."""
from __future__ import annotations

import random

import pytest

from click.testing import CliRunner

from ggpbridge.cli import main
from ggpbridge.crosscheck import crosscheck
from ggpbridge.recycle import parse_file, parse_text
from ggpbridge.sim import compile_loaded, play
from ggpbridge.sim.codegen import compile_fast
from ggpbridge.sim.ops import OpError, listed_extreme

from conftest import ROOT
from test_coverage_cases import refusal, variant

DATA = ROOT / "tests" / "translate" / "data"


def test_listing_keeps_the_last_of_the_best_cards_without_a_coin():
    scores = {"a": 1, "b": 2, "c": 2, "d": 0}
    assert listed_extreme(["a", "b", "c", "d"], scores, True) == "c"
    assert listed_extreme(["d", "a", "b"], scores, True) == "b"
    assert listed_extreme(["b", "d", "c"], {"b": 0, "c": 0, "d": 1}, False) == "c"
    with pytest.raises(OpError):
        listed_extreme([], scores, True)


@pytest.mark.parametrize("name", ["listed_max.rcy", "suit_runs.rcy"])
def test_klaverjassen_constructs_agree_with_the_simulator(name):
    rep = crosscheck(parse_file(DATA / name), 20, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 20 and rep.rule_errors == [], rep.as_dict()


def test_a_min_in_the_heads_agrees_with_the_simulator():
    # the same options around the lowest card so far: the chain of scores runs the other way
    text = (DATA / "listed_max.rcy").read_text()
    text = text.replace("(max (union", "(min (union").replace("(>= (score", "(<= (score")
    rep = crosscheck(parse_text(text, "listed_min.rcy"), 20, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 20 and rep.rule_errors == [], rep.as_dict()


def test_a_max_over_cards_named_by_a_variable_of_the_condition_is_refused():
    # the best card of each player's pile in turn: its rules would need the player as an argument
    error = refusal(variant(DATA / "listed_max.rcy",
                            "(== (owner (max (union (all player 'P ('P vloc PILE))) using (game points P))) (current player)))",
                            "(any player 'Q (== (owner (max ('Q vloc PILE) using (game points P))) (current player))))",
                            "per_player.rcy"))
    assert "named by a variable of its condition" in error.message and error.pos.line == 32


def test_the_crosscheck_command_names_plays_that_end_on_runs_of_equal_scores(tmp_path):
    # two shades of each card: a suit holds equal scores, whose runs the simulator lists per card
    game = tmp_path / "shaded_runs.rcy"
    game.write_text((DATA / "suit_runs.rcy").read_text().replace("(COLOR (RED, BLUE))",
                                                                 "(COLOR (RED, BLUE)) (SHADE (LIGHT, DARK))"))
    r = CliRunner().invoke(main, ["crosscheck", str(game), "-n", "3"])
    assert r.exit_code == 0 and r.exception is None, r.output
    assert "runs of cards of equal score" in r.output


def test_the_fast_engine_lists_the_same_options_as_the_closure_engine():
    # both engines take the coin-free max while listing; a coin on one side only would shift
    # every later draw of the shared random stream
    prog = compile_loaded(parse_file(DATA / "listed_max.rcy"))
    fast = compile_fast(prog)
    assert fast is not None
    for seed in range(30):
        drng = random.Random(seed)
        ref = play(prog, seed, [_Shared(drng)] * prog.lay.n)
        drng, trace = random.Random(seed), []
        status, scores, _ = fast(random.Random(seed), lambda p, n: drng.randrange(n), 10_000, trace)
        assert (status, scores) == (ref.status, ref.scores), seed
        assert trace == [(d.player, d.options) for d in ref.decisions], seed


class _Shared:
    def __init__(self, rng):
        self.rng = rng

    def choose(self, view, options):
        return self.rng.randrange(len(options))


def test_a_max_under_a_map_of_negative_scores_is_refused():
    # every card below -1, the simulator's start: it keeps the last card, "no card beats it" the best
    error = refusal(variant(DATA / "listed_max.rcy", "(((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3))",
                            "(((RANK : ONE) (- 0 4)) ((RANK : TWO) (- 0 3)) ((RANK : THREE) (- 0 2)))",
                            "negative.rcy"))
    assert "the simulator's start (-1)" in error.message and error.pos.line == 24
