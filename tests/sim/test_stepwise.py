"""The stepwise state machine agrees with the fast simulator and exposes every chance event."""
from __future__ import annotations

import random

import pytest

from conftest import GAMES
from ggpbridge.recycle import parse_file
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.machine import Live
from ggpbridge.sim.stepwise import Chance, Decision, StepMachine, Terminal


def fast_game(prog, seed):
    """Play with the fast engine, recording chance outcomes and option indices."""
    live = Live(prog, seed)
    live.c.record = []
    live.setup()
    rng = random.Random(seed)
    picks = []
    while True:
        ch = live.advance()
        if ch is None:
            return live.c.record, picks, live.scores()
        opts = live.options(ch)
        k = rng.randrange(len(opts))
        picks.append(k)
        live.choose(ch, opts[k])


@pytest.mark.parametrize("name", ["agram2_c3.rcy", "kuhn_poker.rcy", "war_n6_winner.rcy", "gops.rcy", "blackjack.rcy"])
def test_stepwise_replays_the_fast_engine_exactly(name):
    prog = compile_loaded(parse_file(GAMES / name))
    m = StepMachine(prog)
    for seed in range(4):
        outcomes, picks, scores = fast_game(prog, seed)
        s = m.initial_state()
        oi = pi = 0
        while not m.is_terminal(s):
            nd = m.node(s)
            if isinstance(nd, Chance):
                s = m.next_state(s, outcomes[oi])
                oi += 1
            else:
                assert isinstance(nd, Decision) and m.legal_moves(s, nd.player) == nd.options
                s = m.next_state(s, picks[pi])
                pi += 1
        assert (oi, pi) == (len(outcomes), len(picks))
        assert list(m.node(s).scores) == scores


def test_a_shuffle_is_one_chance_node_per_position():
    m = StepMachine(compile_loaded(parse_file(GAMES / "war_n4_winner.rcy")))
    s = m.initial_state()
    sizes = []
    while isinstance(m.node(s), Chance):
        sizes.append(m.node(s).n)
        s = m.next_state(s, 0)
    assert sizes == [4, 3, 2]
    deals = set()
    for a in range(4):
        for b in range(3):
            for c in range(2):
                t = m.initial_state()
                for k in (a, b, c):
                    t = m.next_state(t, k)
                deals.add(t)
    assert len(deals) == 24   # every permutation reached, states compare by value


def test_states_are_values_and_illegal_moves_are_refused():
    m = StepMachine(compile_loaded(parse_file(GAMES / "agram2_c2.rcy")))
    s = m.initial_state()
    assert m.initial_state() == s and hash(s) == hash(m.initial_state())
    with pytest.raises(ValueError):
        m.next_state(s, 99)
    while isinstance(m.node(s), Chance):
        s = m.next_state(s, 0)
    nd = m.node(s)
    assert isinstance(nd, Decision)
    with pytest.raises(ValueError):
        m.next_state(s, len(nd.options))
    assert m.legal_moves(s, 1 - nd.player) == ("noop",)


def test_observation_hides_other_hands():
    m = StepMachine(compile_loaded(parse_file(GAMES / "agram2_c2.rcy")))
    s = m.initial_state()
    while isinstance(m.node(s), Chance):
        s = m.next_state(s, 1)
    obs0 = m.observation(s, 0)["locations"]
    obs1 = m.observation(s, 1)["locations"]
    h0, h1 = (("player", 0), "iloc", "HAND"), (("player", 1), "iloc", "HAND")
    assert isinstance(obs0[h0], tuple) and obs0[h1] == 2
    assert isinstance(obs1[h1], tuple) and obs1[h0] == 2
    stock = (("game", None), "iloc", "STOCK")
    assert obs0[stock] == obs1[stock] == 2
    assert all(v for v in obs0.values())   # empty locations are left out
    assert not isinstance(m.node(s), Terminal)
