"""One state-machine interface: the simulator (SimMachine) and clingo (ClingoMachine) behind it."""
from __future__ import annotations

import random

import pytest

from conftest import GAMES
from ggpbridge.errors import MoveError
from ggpbridge.gdl.machine import ClingoMachine
from ggpbridge.machine import GameMachine, joint_moves, playout
from ggpbridge.playouts import load_machine, random_playout, run
from ggpbridge.recycle import parse_text
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.gamemachine import SimMachine
from ggpbridge.sim.stepwise import Chance, Decision, StepMachine, Terminal

# Player 0 is dealt one card, player 1 two; each turn the current player must play a
# card, so player 0 is left without an option on the second round: a rule error.
STUCK = """
(game
  (setup
    (create players 2)
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE)))))
  (do (
    (move (top (game iloc STOCK)) (top ((0 player) iloc HAND)))
    (repeat 2 (move (top (game iloc STOCK)) (top ((1 player) iloc HAND))))))
  (stage player
    (end (all player 'P (== (size ('P iloc HAND)) 0)))
    (choice (
      {option})))
  (scoring max (size ((current player) iloc HAND))))
"""
PLAY = "(move (top ((current player) iloc HAND)) (top (game vloc PILE)))"


def sim(name: str) -> SimMachine:
    return load_machine(GAMES / name, "sim")


def test_both_engines_implement_the_interface_with_the_same_roles():
    s, c = sim("war_n4_winner.rcy"), load_machine(GAMES / "war_n4_winner.rcy", "clingo")
    assert isinstance(s, GameMachine) and isinstance(c, GameMachine)
    assert isinstance(c, ClingoMachine)
    assert s.roles() == ("player0", "player1", "random")
    assert tuple(map(str, c.roles())) == s.roles()


@pytest.mark.parametrize("name", ["war_n4_winner.rcy", "kuhn_poker.rcy", "agram2_c2.rcy"])
def test_one_role_moves_per_state_and_goals_follow_the_winners(name):
    m = sim(name)
    steps = m.step_machine
    for seed in range(15):
        rng, state = random.Random(seed), m.initial_state()
        while not m.is_terminal(state):
            node = steps.node(state)
            joints = joint_moves(m, state)
            movers = {r for r in m.roles() if m.legal_moves(state, r) != ("noop",)}
            if isinstance(node, Chance):
                assert movers == {"random"} and len(joints) == node.n
                assert m.legal_moves(state, "random") == tuple(range(node.n))
            else:
                assert isinstance(node, Decision)
                assert movers == {f"player{node.player}"} and len(joints) == len(node.options)
            assert m.goals(state) == {}
            state = m.next_state(state, rng.choice(joints))
        node = steps.node(state)
        assert isinstance(node, Terminal)
        goals = m.goals(state)
        assert goals["random"] == 0
        assert {r for r, v in goals.items() if v == 100} == {f"player{p}" for p in node.winners}
        assert all(m.legal_moves(state, r) == () for r in m.roles())


def test_moves_the_rules_refuse_are_move_errors():
    m = sim("war_n4_winner.rcy")
    state = m.initial_state()   # the deal: random moves, the players wait
    with pytest.raises(MoveError, match="unknown role"):
        m.legal_moves(state, "player9")
    with pytest.raises(MoveError, match="no move for player1"):
        m.next_state(state, {"player0": "noop", "random": 0})
    with pytest.raises(MoveError, match="must play noop"):
        m.next_state(state, {"player0": "noop", "player1": 0, "random": 0})
    with pytest.raises(MoveError, match="not a legal move of random"):
        m.next_state(state, {"player0": "noop", "player1": "noop", "random": 99})
    end = playout(m, random.Random(0)).states[-1]
    with pytest.raises(MoveError, match="game is over"):
        m.next_state(end, {"player0": "noop", "player1": "noop", "random": 0})


def test_percepts_show_own_hidden_cards_and_only_counts_of_others():
    m = sim("kuhn_poker.rcy")
    play = playout(m, random.Random(1))
    both_seen = 0
    for seen in play.percepts:
        assert seen["random"] == frozenset()
        for p in (0, 1):
            hands = {fact[1][0]: fact[2] for fact in seen[f"player{p}"]
                     if fact[0] == "location" and fact[1][1:] == ("iloc", "HAND")}
            own, other = hands.get(("player", p)), hands.get(("player", 1 - p))
            assert own is None or isinstance(own, tuple)        # the cards themselves
            assert other is None or isinstance(other, int)      # only how many
            both_seen += own is not None and other is not None
    assert both_seen > 0


def test_the_same_policy_by_role_name_drives_either_engine():
    def first(machine, state, role, moves, rng):
        return moves[0]
    for engine in ("sim", "clingo"):
        m = load_machine(GAMES / "war_n4_winner.rcy", engine)
        play = playout(m, random.Random(0), policies={"random": first}, percepts=False)
        # the identity deal: outcome 0 at every Fisher-Yates position, on both engines
        assert sorted(play.goals[r] for r in m.roles() if str(r) != "random") == [0, 100]
        with pytest.raises(ValueError, match="unknown roles"):
            playout(m, random.Random(0), policies={"nobody": first})


def test_the_identity_deal_ends_the_same_on_both_engines():
    # the simulator's last shuffle outcome swaps a position with itself, so the deck stays in
    # creation order and is dealt from c3 down; the translation's `random` draws from the deck,
    # and its last move is the highest card left: the same deal
    def last(machine, state, role, moves, rng):
        return moves[-1]
    outcomes = []
    for engine in ("sim", "clingo"):
        m = load_machine(GAMES / "war_n4_winner.rcy", engine)
        play = playout(m, random.Random(0), policies={"random": last}, percepts=False)
        outcomes.append({str(r): v for r, v in play.goals.items()})
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("guarded, message", [
    (True, "player0 has no legal move"),                           # no enabled option
    (False, "stuck.rcy:12:13: error: a card is taken from an empty location")])   # offered, then fails
def test_a_rule_error_loses_that_game_not_the_run(tmp_path, guarded, message):
    option = f"((> (size ((current player) iloc HAND)) 0) {PLAY})" if guarded else PLAY
    text = STUCK.replace("{option}", option)
    path = tmp_path / "stuck.rcy"
    path.write_text(text)
    g = random_playout(SimMachine(StepMachine(compile_loaded(parse_text(text, str(path))))), random.Random(0))
    assert not g["finished"] and g["goals"] is None
    assert message in g["error"]
    rep = run(path, "sim", 3)
    assert rep["playouts"] == 3 and rep["finished"] == 0
    assert all(message in g["error"] for g in rep["games"])


def test_a_rule_error_in_lockstep_is_recorded_with_its_seed_and_the_run_goes_on():
    from ggpbridge.crosscheck import crosscheck
    rep = crosscheck(parse_text(STUCK.replace("{option}", PLAY), "stuck.rcy"), 3, seed=5)
    assert rep.divergence is None and rep.playouts == 3
    assert [e["seed"] for e in rep.rule_errors] == [5, 6, 7]
    assert all("stuck.rcy:" in e["error"] and "empty location" in e["error"] for e in rep.rule_errors)
    # the events played in lockstep before each error are counted
    assert rep.decisions >= 3 and rep.gdl_steps > rep.decisions
