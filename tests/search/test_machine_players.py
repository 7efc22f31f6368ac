"""The searching players written once against the GameMachine interface (ggpbridge.search)."""
from __future__ import annotations

import random

import pytest

from ggpbridge.machine import playout
from ggpbridge.recycle import parse_text
from ggpbridge.search.pipmc import PIPMC, best_option
from ggpbridge.search.tree import ISMCTS, MCTS, Node, Tree
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.gamemachine import SimMachine
from ggpbridge.sim.stepwise import StepMachine

# Each seat once picks S (the score) or X (nothing), S offered second: the one good option.
ONE_GOOD_OPTION = ("(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO)))))"
                   " (stage player (end (== (game sto T) 2))"
                   "  (choice ((do ((inc (game sto T) 1) (inc ((current player) sto X) 1)))"
                   "           (do ((inc (game sto T) 1) (inc ((current player) sto S) 1))))))"
                   " (scoring max ((current player) sto S)))")


def sim_machine():
    return SimMachine(StepMachine(compile_loaded(parse_text(ONE_GOOD_OPTION))))


def test_the_pipmc_core_takes_the_best_total_and_the_first_of_equals():
    values = {0: [1, 0], 1: [0, 2], 2: [2, 0]}
    assert best_option(3, [0, 1], lambda k, d: values[k][d]) == 1
    assert best_option(2, [0], lambda k, d: 5) == 0


def test_the_tree_core_expands_each_option_once_then_follows_ucb():
    tree = Tree(random.Random(0), 2)
    root = Node(0, 2)
    seen = []
    for _ in range(3):   # three options: each expanded once, in some order, before any is revisited
        path = [root]
        i, nxt = tree.step(root, path, 0, 3)
        assert nxt is None and i not in seen and path[-1] is root.children[i]
        seen.append(i)
        Tree.backup(path, [1.0 if i == 2 else 0.0, 0.0])
    path = [root]
    i, nxt = tree.step(root, path, 0, 3)
    assert i == 2 and nxt is root.children[2]   # the only option that won so far
    Tree.backup(path, [1.0, 0.0])
    assert Tree.most_visited(root, 3) == 2
    # availability counts the steps at the parent since the child exists, its own expansion included
    assert [root.children[i].avail for i in seen] == [4, 3, 2]


def test_mcts_plays_a_recycle_game_through_the_machine_interface():
    # random takes S half the time; MCTS seat 0 must take it every time (goal 100, a tie at worst)
    m = sim_machine()
    for seed in range(30):
        play = playout(m, random.Random(seed), {"player0": MCTS(random.Random(seed), 20)})
        assert play.goals["player0"] == 100, seed


def test_random_seat_misses_the_good_option_sometimes():
    # the independent reason the MCTS test can fail: random play does lose this game
    m = sim_machine()
    goals = [playout(m, random.Random(s)).goals["player0"] for s in range(30)]
    assert 0 in goals


@pytest.mark.parametrize("cls", [PIPMC, ISMCTS])
def test_honest_players_need_a_machine_that_deals_what_a_seat_does_not_see(cls):
    m = sim_machine()
    s = m.initial_state()
    moves = m.legal_moves(s, "player0")
    with pytest.raises(ValueError, match="determinize"):
        cls(random.Random(0), 3)(m, s, "player0", moves)


@pytest.mark.parametrize("cls", [PIPMC, MCTS, ISMCTS])
def test_forced_moves_cost_nothing(cls):
    p = cls(random.Random(0), 3)
    assert p(sim_machine(), None, "player0", ("only",)) == "only" and p.spent == 0


# x and y choose a or b at once; x wins with b, y wins with a
SIMULTANEOUS = """(role x) (role y) (init (step 0))
(<= (legal ?r a) (role ?r) (true (step 0))) (<= (legal ?r b) (role ?r) (true (step 0)))
(<= (next (chose ?r ?m)) (does ?r ?m)) (<= (next (step 1)) (true (step 0)))
(<= terminal (true (step 1)))
(<= (goal x 100) (true (chose x b))) (<= (goal x 0) (not (true (chose x b))) (true (step 1)))
(<= (goal y 100) (true (chose y a))) (<= (goal y 0) (not (true (chose y a))) (true (step 1)))"""


def test_mcts_ranks_the_options_of_the_role_choosing_when_others_choose_at_once():
    # the root's children were the first role with a choice's (x's): y was ranked by x's visits
    from ggpbridge.gdl.kif import parse_kif
    from ggpbridge.gdl.machine import ClingoMachine
    m = ClingoMachine(parse_kif(SIMULTANEOUS))
    s = m.initial_state()
    picks = {(str(r), str(MCTS(random.Random(seed), 200)(m, s, r, m.legal_moves(s, r))))
             for seed in range(3) for r in m.roles()}
    assert picks == {("x", "b"), ("y", "a")}
