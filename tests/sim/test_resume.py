"""The generated engine started mid-game plays the same playouts as the closure engine."""
from __future__ import annotations

import random

import pytest

from conftest import GAMES
from ggpbridge.recycle import parse_file
from ggpbridge.sim import compile_loaded, play
from ggpbridge.sim.codegen import compile_fast
from ggpbridge.sim.determinize import deal_hidden
from ggpbridge.sim.machine import Live
from ggpbridge.sim.rollout import Sandbox, resumer

GAMES_ = ["agram.rcy", "kuhn_poker.rcy", "gops.rcy", "hearts.rcy", "whist.rcy", "leduc_poker.rcy",
          "crazy_eights.rcy", "blackjack.rcy", "pairs.rcy"]


def decision_states(prog, seed, every=3, most=4):
    """Copies of the game of `seed` (random players) at every `every`-th real decision, with its options."""
    out = []
    count = [0]

    class Grab:
        rng = random.Random(seed)

        def choose(self, view, options):
            count[0] += 1
            if count[0] % every == 1 and len(out) < most:
                live = view.live
                copy = Live(prog)
                copy.c.thaw(live.c.freeze())
                copy.c.vars = dict(live.c.vars)
                copy.set_control(live.control())
                out.append((copy, view.player, list(options)))
            return self.rng.randrange(len(options))
    play(prog, seed, [Grab()] * prog.lay.n)
    return out


@pytest.mark.parametrize("game", GAMES_)
def test_resumed_playouts_equal_closure_playouts(game):
    prog = compile_loaded(parse_file(GAMES / game))
    usable = resumer(prog).usable
    assert usable
    fast, slow = Sandbox(prog, random.Random(0)), Sandbox(prog, random.Random(0), fast=False)
    checked = resumed = 0
    for seed in range(3):
        for live, seat, options in decision_states(prog, seed):
            resumed += fast._fast(live) is not None
            cards = deal_hidden(live.c, seat, random.Random(seed))
            for k in range(min(len(options), 3)):
                a = fast.play_option(live, options, k, random.Random(k + 7), cards)
                b = slow.play_option(live, options, k, random.Random(k + 7), cards)
                assert a == b, (game, seed, k)
                checked += 1
            # from the state after an option, as the tree searches play out
            for box in (fast, slow):
                sim = box.load(live)
                f = sim.frames[-1]
                sim.choose(f[0].items[f[1]], options[-1])
            assert fast.playout(random.Random(3)) == slow.playout(random.Random(3))
    assert checked and resumed   # the fast path was taken


def test_a_game_without_generated_engine_is_played_out_on_the_closure_engine():
    prog = compile_loaded(parse_file(GAMES / "lost_cities.rcy"))   # a computed location name
    assert compile_fast(prog) is None and not resumer(prog).usable
    live, seat, options = decision_states(prog, 0, most=1)[0]
    box = Sandbox(prog, random.Random(0))
    assert box._fast(live) is None
    assert sum(box.play_option(live, options, 0, random.Random(1))) in (0.0, 1.0)


@pytest.mark.parametrize("game", ["agram.rcy", "kuhn_poker.rcy", "whist.rcy"])
def test_tree_searches_grow_the_same_trees_on_both_engines(game):
    from ggpbridge.sim.mcts import ISMCTSPlayer, MCTSPlayer
    from ggpbridge.sim.players import View
    prog = compile_loaded(parse_file(GAMES / game))
    for live, seat, options in decision_states(prog, 1, every=2, most=3):
        for cls in (MCTSPlayer, ISMCTSPlayer):
            a, b = cls(random.Random(5), 30), cls(random.Random(5), 30)
            b.sandbox = Sandbox(prog, b.rng, fast=False)
            assert a.choose(View(live, seat), options) == b.choose(View(live, seat), options)
            assert a.rng.getstate() == b.rng.getstate()
            assert a.sandbox._fast(live) is not None
