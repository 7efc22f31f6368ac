"""ClingoMachine: tic-tac-toe's reachable states, minipoker to the end, errors, multi-shot use."""
import random
from pathlib import Path

import clingo
import pytest

from ggpbridge.gdl.asp_rules import restricted
from ggpbridge.gdl.asp_terms import kif_symbol
from ggpbridge.gdl.errors import GameError, GdlError, IllegalMoveError, UnknownRoleError
from ggpbridge.gdl.kif import parse_kif
from ggpbridge.gdl.machine import ClingoMachine, playout

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "gdl"
S = kif_symbol


def machine(name: str, **kwargs) -> ClingoMachine:
    return ClingoMachine(parse_kif((EXAMPLES / f"{name}.kif").read_text()), **kwargs)


@pytest.fixture(scope="module")
def ttt() -> ClingoMachine:
    return machine("tictactoe")


def reachable(m: ClingoMachine) -> tuple[set, int]:
    """Breadth-first search over joint moves: the reachable states and the transitions."""
    start = m.initial_state()
    seen, frontier, transitions = {start}, [start], 0
    while frontier:
        following = []
        for state in frontier:
            if m.is_terminal(state):
                continue
            for joint in m.joint_moves(state):
                transitions += 1
                successor = m.next_state(state, joint)
                if successor not in seen:
                    seen.add(successor)
                    following.append(successor)
        frontier = following
    return seen, transitions


# -- tic-tac-toe --------------------------------------------------------------

def test_tictactoe_has_5478_reachable_states(ttt):
    states, transitions = reachable(ttt)
    assert len(states) == 5478
    terminal = [s for s in states if ttt.is_terminal(s)]
    assert len(terminal) == 958  # the known count of final positions
    # Every terminal state gives each role one goal, and they are zero-sum around 100.
    for state in terminal:
        goals = ttt.goals(state)
        assert set(goals) == set(ttt.roles()) and sum(goals.values()) == 100
    assert transitions > len(states)


def test_tictactoe_interface(ttt):
    x, o = ttt.roles()
    assert (ttt.kif(x), ttt.kif(o)) == ("xplayer", "oplayer")
    start = ttt.initial_state()
    assert S("(control xplayer)") in start and len(start) == 10
    assert len(ttt.legal_moves(start, x)) == 9 and ttt.legal_moves(start, "oplayer") == (S("noop"),)
    assert not ttt.is_terminal(start) and ttt.goals(start) == {x: 50, o: 50}
    after = ttt.next_state(start, {"xplayer": "(mark 2 2)", o: S("noop")})
    assert S("(cell 2 2 x)") in after and S("(control oplayer)") in after
    assert S("(cell 2 2 b)") not in after and len(after) == 10
    assert ttt.sees(start, {x: S("(mark 2 2)"), o: S("noop")}) == {x: frozenset(), o: frozenset()}


def test_a_won_game(ttt):
    state = ttt.initial_state()
    for cell, role in [("1 1", "xplayer"), ("2 1", "oplayer"), ("1 2", "xplayer"),
                       ("2 2", "oplayer"), ("1 3", "xplayer")]:
        other = "oplayer" if role == "xplayer" else "xplayer"
        state = ttt.next_state(state, {role: f"(mark {cell})", other: "noop"})
    assert ttt.is_terminal(state)
    assert ttt.goals(state) == {S("xplayer"): 100, S("oplayer"): 0}
    with pytest.raises(GameError, match="terminal"):
        ttt.next_state(state, {"xplayer": "noop", "oplayer": "(mark 3 3)"})


def test_errors(ttt):
    start = ttt.initial_state()
    with pytest.raises(UnknownRoleError, match="nobody"):
        ttt.legal_moves(start, "nobody")
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        ttt.next_state(start, {"xplayer": "noop", "oplayer": "noop"})
    with pytest.raises(IllegalMoveError, match="no move for oplayer"):
        ttt.next_state(start, {"xplayer": "(mark 1 1)"})
    with pytest.raises(UnknownRoleError):
        ttt.sees(start, {"xplayer": "(mark 1 1)", "oplayer": "noop", "referee": "noop"})
    with pytest.raises(GameError, match=r"\(cell 9 9 x\) can never hold"):
        ttt.legal_moves(start | {S("(cell 9 9 x)")}, "xplayer")
    assert issubclass(GameError, GdlError)


def test_states_may_be_given_as_plain_sets(ttt):
    start = ttt.initial_state()
    assert ttt.legal_moves(set(start), "xplayer") == ttt.legal_moves(start, "xplayer")


def test_queries_reuse_one_ground_program_and_cache_per_state():
    m = machine("tictactoe")
    ctl, atoms = m._program.ctl, len(m._program.ctl.symbolic_atoms)
    rng = random.Random(3)
    for _ in range(20):
        playout(m, rng)
    # No part was grounded again: the same Control, its symbol table as after the first grounding.
    assert m._program.ctl is ctl and len(ctl.symbolic_atoms) == atoms
    goal_ctl = m._goal_program[0].ctl   # grounded at the first terminal state's goals
    for _ in range(5):
        playout(m, rng)
    assert m._goal_program[0].ctl is goal_ctl
    solves = m.solves
    start = m.initial_state()
    m.legal_moves(start, "xplayer"), m.is_terminal(start)
    assert m.solves == solves  # answered from the cache
    # playouts ask goals at their end only: the start's take one solve, of the goal program, once
    assert m.goals(start) == m.goals(start) and m.solves == solves + 1


def test_the_loaded_program_keeps_symbols_only_for_the_shown_atoms():
    m = machine("tictactoe")
    names = {a.symbol.name for a in m._program.ctl.symbolic_atoms}
    # the static facts (index tables, the domain) stayed behind in the scratch Control,
    # and the goals are another program's
    assert {"legal", "next", "terminal"} <= names <= {"legal", "next", "sees", "terminal"}
    m.goals(m.initial_state())
    assert {a.symbol.name for a in m._goal_program[0].ctl.symbolic_atoms} == {"goal"}
    assert 0 < m.sizes()["rules"]


def test_an_uncached_machine_gives_the_same_answers():
    cold, warm = machine("tictactoe", cache_size=0), machine("tictactoe")
    rng = random.Random(11)
    for _ in range(10):
        play = playout(warm, rng)
        for state, joint, following in zip(play.states, play.moves, play.states[1:]):
            assert cold.next_state(state, joint) == following
            assert cold.legal_moves(state, "oplayer") == warm.legal_moves(state, "oplayer")
        assert cold.goals(play.states[-1]) == play.goals


@pytest.mark.parametrize("name", ["tictactoe", "montyhall", "minipoker"])
def test_the_next_states_answers_from_the_lookahead_equal_a_solve_on_that_state(name):
    direct, ahead = machine(name, lookahead=False), machine(name)
    rng, checked = random.Random(5), 0
    for _ in range(15):
        play = playout(ahead, rng)
        for state in play.states[1:]:
            # every state after the first was answered by the solve that made it
            found = ahead._info_cache.lookup(state)
            assert found is not None
            assert found == direct._info(state)
            checked += 1
    assert checked > 20


def test_a_playout_costs_one_solve_per_transition_with_the_lookahead():
    for lookahead, per_step in ((True, 1), (False, 2)):
        m = machine("tictactoe", cache_size=1, lookahead=lookahead)
        play = playout(m, random.Random(2))
        # the initial state's own query, one (or two) solves per joint move, and the goals at the end
        assert m.solves == 1 + per_step * len(play.moves) + 1


def test_no_lookahead_when_legal_reads_does():
    # Outside GDL (the validator refuses it): a copy at the next state would read
    # moves that nobody has made yet, so the machine does without it.
    desc = parse_kif("""(role a) (init (p 0)) (succ 0 1) (succ 1 2)
        (<= (legal a (go ?n)) (true (p ?n)) (succ ?n ?m))
        (<= (legal a (go 9)) (does a (go 0)))
        (<= (next (p ?m)) (does a (go ?n)) (succ ?n ?m))
        (<= terminal (true (p 2))) (goal a 100)""")
    m = ClingoMachine(desc, check=False)
    assert not m.lookahead
    play = playout(m, random.Random(0))
    assert len(play.moves) == 2 and m.is_terminal(play.states[-1])


def test_a_game_without_percept_rules_is_grounded_whole_from_the_start():
    m = machine("tictactoe")
    assert m.percepts
    play = playout(m, random.Random(1))
    assert all(seen == {role: frozenset() for role in m.roles()} for seen in play.percepts)


def test_percepts_are_grounded_only_once_asked_and_then_agree():
    lean, whole = machine("minipoker"), machine("minipoker", percepts=True)
    assert not lean.percepts and whole.percepts
    # the lean program has no rule for `sees`
    assert lean.sizes()["rules"] < whole.sizes()["rules"]
    rng, plays = random.Random(4), []
    for _ in range(12):
        plays.append(playout(lean, rng, percepts=False))
    assert not lean.percepts   # nobody asked
    for play in plays:
        for state, joint, following in zip(play.states, play.moves, play.states[1:]):
            assert whole.next_state(state, joint) == following
            # asked for a transition the lean program made (and cached without percepts)
            assert lean.sees(state, joint) == whole.sees(state, joint)
            assert lean.next_state(state, joint) == following
    assert lean.percepts and lean.sizes()["rules"] == whole.sizes()["rules"]
    # the deal is seen: the comparison above was not of empty percepts only
    assert all(whole.sees(play.states[0], play.moves[0])[S("alice")] for play in plays)


def test_the_lean_program_keeps_every_rule_the_game_needs_besides_percepts():
    # `shown` feeds only the percepts; `dealt` feeds them and the next state.
    desc = parse_kif("""(role p) (role random) (init (round 0))
        (<= (legal random (deal ?c)) (card ?c) (true (round 0))) (<= (legal p noop) (true (round 0)))
        (<= (legal p (guess ?c)) (card ?c) (true (round 1))) (<= (legal random noop) (true (round 1)))
        (card a) (card b)
        (<= (dealt ?c) (does random (deal ?c)))
        (<= (shown ?c) (dealt ?c))
        (<= (next (hidden ?c)) (dealt ?c)) (<= (next (hidden ?c)) (true (hidden ?c)))
        (<= (next (round 1)) (true (round 0))) (<= (next (round 2)) (true (round 1)))
        (<= (next (right)) (does p (guess ?c)) (true (hidden ?c)))
        (<= (sees p (glimpse ?c)) (shown ?c))
        (<= terminal (true (round 2)))
        (<= (goal p 100) (true (right))) (<= (goal p 0) (not (true (right)))) (goal random 0)""")
    heads = {rule.head.name for rule in restricted(desc, {"legal", "next", "terminal", "goal"}).rules}
    assert "dealt" in heads and "next" in heads and not {"shown", "sees"} & heads
    lean, whole = ClingoMachine(desc), ClingoMachine(desc, percepts=True)
    for seed in range(6):
        play = playout(lean, random.Random(seed), percepts=False)
        again = playout(whole, random.Random(seed))
        assert play.states == again.states and play.goals == again.goals
        assert again.percepts[0][S("p")] == {S("(glimpse %s)" % whole.kif(play.moves[0][S("random")].arguments[0]))}


def test_goals_are_answered_by_a_program_of_their_own():
    # `score` feeds only the goals; `count` feeds them and terminal.
    desc = parse_kif("""(role p) (init (count 0))
        (succ 0 1) (succ 1 2) (succ 2 3) (legal p (add 1)) (legal p (add 2))
        (<= (next (count ?m)) (does p (add ?k)) (true (count ?n)) (sum ?n ?k ?m))
        (<= (sum ?n 1 ?m) (succ ?n ?m)) (<= (sum ?n 2 ?m) (succ ?n ?x) (succ ?x ?m)) (sum 2 2 3)
        (<= (reached ?n) (true (count ?n)))
        (<= terminal (reached 3))
        (<= (score 100) (reached 3)) (<= (score 50) (reached ?n) (succ ?n ?m))
        (<= (goal p ?v) (score ?v))""")
    assert {"score", "goal"} & {r.head.name for r in restricted(desc, {"legal", "next", "terminal"}).rules} == set()
    assert "reached" in {r.head.name for r in restricted(desc, {"legal", "next", "terminal"}).rules}
    split, joined = ClingoMachine(desc), ClingoMachine(desc, split_goals=False)
    assert split.sizes()["rules"] < joined.sizes()["rules"]
    values = set()
    for seed in range(8):
        play = playout(split, random.Random(seed))
        assert play == playout(joined, random.Random(seed))
        for state in play.states:   # not only at the end: 50 before, 100 after
            assert split.goals(state) == joined.goals(state)
            values.add(split.goals(state)[S("p")])
    assert values == {50, 100}
    with pytest.raises(GameError, match=r"\(count 9\) can never hold"):
        split.goals(frozenset({S("(count 9)")}))


# -- minipoker ----------------------------------------------------------------

def test_minipoker_plays_to_the_end_with_goals_for_every_role():
    m = machine("minipoker")
    alice, bob, chance = m.roles()
    outcomes = set()
    rng = random.Random(5)
    for _ in range(60):
        play = playout(m, rng)
        assert 3 <= len(play.states) <= 4 and m.is_terminal(play.states[-1])
        assert set(play.goals) == {alice, bob, chance}
        assert play.goals[alice] + play.goals[bob] == 100 and play.goals[chance] == 0
        outcomes.add((play.goals[alice], play.goals[bob]))
        # Each player sees its own card at the deal, and only that.
        deal = play.moves[0][chance]
        assert m.kif(deal).startswith("(deal ")
        mine, theirs = deal.arguments
        assert play.percepts[0] == {alice: {S("(your_card %s)" % m.kif(mine))},
                                    bob: {S("(your_card %s)" % m.kif(theirs))}, chance: frozenset()}
    assert outcomes == {(100, 0), (75, 25), (25, 75), (0, 100)}


def test_invalid_descriptions_are_rejected_with_the_reason():
    with pytest.raises(GdlError, match="missing 'role'"):
        ClingoMachine(parse_kif("(init a) (<= terminal a)"))
    with pytest.raises(GdlError, match="no role"):
        ClingoMachine(parse_kif("(init a) (<= terminal a)"), check=False)
    unstratified = "(role r) (<= (legal r a) (not p)) (<= p (not q)) (<= q (not p)) (goal r 0) (<= terminal p)"
    with pytest.raises(GdlError, match="not stratified"):
        ClingoMachine(parse_kif(unstratified))


def test_escaped_names_work_through_the_machine():
    m = ClingoMachine(parse_kif("""
        (role x-player) (role Bob_2)
        (succ 0 1) (succ 1 2) (succ 2 007)
        (init (at 0)) (init (tag _hidden))
        (<= (legal x-player (go+ ?n)) (true (at ?m)) (succ ?m ?n))
        (<= (legal bob_2 noop) (role x-player))
        (<= (next (at ?n)) (does x-player (go+ ?n)))
        (<= (next (tag ?t-1)) (true (tag ?t-1)))
        (<= (sees bob_2 (moved ?m)) (does x-player ?m))
        (<= terminal (true (at 007)))
        (<= (goal x-player 100) (true (at 007)))
        (<= (goal x-player 0) (not (true (at 007))))
        (goal bob_2 0)
    """))
    assert [m.kif(r) for r in m.roles()] == ["x-player", "bob_2"]
    state = m.initial_state()
    for _ in range(3):
        (move,) = m.legal_moves(state, "x-player")
        joint = {"x-player": move, "bob_2": "noop"}
        assert m.sees(state, joint)[S("bob_2")] == {clingo.Function("moved", [move])}
        state = m.next_state(state, joint)
    assert sorted(map(m.kif, state)) == ["(at 007)", "(tag _hidden)"]
    assert m.is_terminal(state) and m.goals(state) == {S("x-player"): 100, S("bob_2"): 0}
