"""The game tree and CFR+ on Kuhn and Leduc poker, against facts published about them."""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from ggpbridge.frontends import load_game
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.stepwise import StepMachine
from ggpbridge.solve.cfr import CFRPlus
from ggpbridge.solve.tree import CHANCE, SolveError, build_tree

from conftest import GAMES


def tree_of(name, utility="score", **sets):
    return build_tree(StepMachine(compile_loaded(load_game(str(GAMES / name), None), sets)), utility)


def solve_to(tree, target, most=20000):
    s = CFRPlus(tree)
    while s.iterations < most:
        s.iterate(10)
        ev = s.evaluate()
        if ev["exploitability"] < target:
            return s, ev
    raise AssertionError(f"exploitability {ev['exploitability']} after {s.iterations} iterations")


@pytest.fixture(scope="module")
def kuhn():
    return tree_of("kuhn_poker.rcy")


def test_kuhn_tree_has_the_textbook_shape(kuhn):
    # 3 x 2 deals; per deal 5 betting sequences end the hand; each seat holds one of 3 cards
    # at 2 kinds of decision (opening / facing a bet, for the first seat: opening / after check-bet)
    assert kuhn.stats["terminal_nodes"] == 6 * 5
    assert kuhn.stats["information_sets"] == [6, 6]
    assert kuhn.constant_sum == 0
    root = 0
    assert kuhn.kind[root] == CHANCE
    kids = range(kuhn.first_child[root], kuhn.first_child[root] + kuhn.n_children[root])
    assert sum(kuhn.exact_chance[k] for k in kids) == 1
    assert {kuhn.exact_chance[k] for k in kids} == {Fraction(1, 6)}


def test_kuhn_value_is_minus_one_eighteenth(kuhn):
    s, ev = solve_to(kuhn, 0.001)
    assert ev["exploitability"] < 0.001
    assert abs(ev["value"][0] + 1 / 18) < 0.001
    assert abs(sum(ev["value"])) < 1e-9


def _prob(tree, policy, seat, card, history_len, facing, label_word):
    """The average probability of the option whose text names `label_word`, in the set of `seat`
    holding `card` with `history_len` earlier decisions, facing a bet or not."""
    for info in tree.infosets:
        if info.seat == seat and f"p{seat} HAND: ({card})" in info.view and len(info.history) == history_len \
                and ("BETTING 1" in info.view) == facing:
            for a, text in enumerate(info.labels):
                if label_word in text:
                    return policy[info.offset + a]
    raise AssertionError(f"no such set: seat {seat} {card} {label_word}")


def test_kuhn_second_seat_plays_its_unique_equilibrium(kuhn):
    # Kuhn (1950): the second player's equilibrium strategy is unique: with the king always
    # bet after a check and call a bet; with the jack bet 1/3 after a check and fold to a bet;
    # with the queen check after a check and call a bet 1/3 of the time
    s, _ = solve_to(kuhn, 0.0005)
    pol = s.average()
    assert _prob(kuhn, pol, 1, "KING", 0, True, "CALL") == pytest.approx(1, abs=0.02)
    assert _prob(kuhn, pol, 1, "JACK", 0, True, "FOLD") == pytest.approx(1, abs=0.02)
    assert _prob(kuhn, pol, 1, "QUEEN", 0, True, "CALL") == pytest.approx(1 / 3, abs=0.05)
    assert _prob(kuhn, pol, 1, "JACK", 0, False, "BET") == pytest.approx(1 / 3, abs=0.05)
    assert _prob(kuhn, pol, 1, "QUEEN", 0, False, "CHECK") == pytest.approx(1, abs=0.02)


def test_best_response_beats_a_fixed_strategy_exactly(kuhn):
    # the first seat always bets (and calls): the second calls with the king (+2), calls with
    # the queen (it wins 2 against the jack and loses 2 against the king: 0, better than
    # folding's -1) and folds the jack (-1)
    s = CFRPlus(kuhn)
    pol = s.current()
    for info in kuhn.infosets:
        if info.seat == 0:
            for a, text in enumerate(info.labels):
                pol[info.offset + a] = 1.0 if ("BET" in text or "CALL" in text) else 0.0
    assert s.best_response_value(pol, 1) == pytest.approx(float(Fraction(2 + 0 - 1, 3)))


def test_win_utility_is_constant_sum_one(kuhn):
    win = tree_of("kuhn_poker.rcy", utility="win")
    assert win.constant_sum == 1
    assert set(np.unique(win.payoff[win.kind == 0])) <= {0.0, 0.5, 1.0}


def test_a_game_with_a_cycle_has_no_tree():
    # War, losers' cards first: some deals of 6 cards loop for ever (docs/query.md)
    with pytest.raises(SolveError, match="cycle"):
        tree_of("war_n6_loser.rcy")


def test_the_node_limit_is_an_error_not_a_hang():
    m = StepMachine(compile_loaded(load_game(str(GAMES / "leduc_poker.rcy"), None), {}))
    with pytest.raises(SolveError, match="more than 1000 histories"):
        build_tree(m, limit=1000)


@pytest.mark.slow
def test_leduc_value_matches_the_literature():
    tree = tree_of("leduc_poker.rcy")
    # 936 information sets (Southey et al. 2005; OpenSpiel); 6 x 5 x 4 deals once the unseen
    # stock order is merged, each with 4 + 5 x 9 betting sequences that end the hand
    assert sum(tree.stats["information_sets"]) == 936
    assert tree.stats["terminal_nodes"] == 120 * 49
    s, ev = solve_to(tree, 0.002)
    # OpenSpiel's leduc_poker: the first player's value is -0.0856064
    assert abs(ev["value"][0] - (-0.0856064)) < 0.002


def test_agrees_with_the_plain_reference_of_the_benchmark(kuhn):
    # benchmarks/cfr_speed.py writes Kuhn's rules and CFR+ out by hand, recursively, with dicts:
    # the same variant must reach the same value and exploitability, iteration for iteration
    import sys
    sys.path.insert(0, str(GAMES.parent / "benchmarks"))
    try:
        from cfr_speed import PlainCFRPlus, kuhn_tree
    finally:
        sys.path.pop(0)
    ours, plain = CFRPlus(kuhn), PlainCFRPlus(kuhn_tree())
    for _ in range(3):
        ours.iterate(7)
        plain.iterate(7)
        ev = ours.evaluate()
        expl, value = plain.exploitability()
        assert ev["value"][0] == pytest.approx(value[0], abs=1e-9)
        assert ev["exploitability"] == pytest.approx(expl, abs=1e-9)


def test_views_at_own_decisions_lose_nothing_of_the_full_observation_history(kuhn):
    # the sets are keyed on what a seat saw at its own decisions; keyed on what it saw at every
    # step of the play (chance steps included) they must be the same sets for Kuhn
    from ggpbridge.sim.stepwise import Chance, Decision
    from ggpbridge.sim.views import view_text
    m = StepMachine(compile_loaded(load_game(str(GAMES / "kuhn_poker.rcy"), None), {}))
    full = set()
    todo = [(m.initial_state(), ((), ()))]
    while todo:
        s, seen = todo.pop()
        nd = m.node(s)
        seen = tuple(h + ((view_text(m.prog.lay, m.observation(s, p)),),) for p, h in enumerate(seen))
        if isinstance(nd, Decision):
            full.add((nd.player, seen[nd.player]))
            for k in range(len(nd.options)):
                mine = tuple(h + ((k,),) if p == nd.player else h for p, h in enumerate(seen))
                todo.append((m.next_state(s, k), mine))
        elif isinstance(nd, Chance):
            todo.extend((m.next_state(s, k), seen) for k in range(nd.n))
    assert [sum(1 for p, _ in full if p == seat) for seat in (0, 1)] == kuhn.stats["information_sets"]
