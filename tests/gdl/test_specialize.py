"""The ground program simplified for fixed externals, and the machine that uses one per control value."""
import random
from pathlib import Path

import clingo
import pytest

from ggpbridge.gdl.kif import parse_kif
from ggpbridge.gdl.machine import ClingoMachine, _control_family, playout
from ggpbridge.gdl.specialize import Inconsistent, Simplifier
from ggpbridge.translate import load_description

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "gdl"

# atoms: x=1, y=2 (externals); a=3, b=4, c=5, d=6, p=7, q=8, e=9
RULES = [
    (False, [3], [1]),          # a :- x.
    (False, [4], [-1]),         # b :- not x.
    (False, [5], [3, 2]),       # c :- a, y.
    (False, [6], [4]),          # d :- b.
    (False, [7], [8]),          # p :- q.
    (False, [8], [7]),          # q :- p.
    (False, [7], [1, -2]),      # p :- x, not y.
    (False, [9], [2]),          # e :- y.    (nothing shown reads e)
    (False, [], [6, 2]),        # :- d, y.
]


def simplifier(rules=RULES, weight_rules=()):
    return Simplifier(rules, list(weight_rules), externals=[1, 2], shown=[5, 6, 7])


def test_rules_that_cannot_apply_go_and_true_atoms_leave_the_bodies():
    kept = simplifier()([1], [])
    # x holds: a is true (out of c's body), b and d are false, the constraint on d can never fire
    assert (False, [5], [2]) in kept.rules
    assert all(6 not in head and 4 not in head for _, head, _ in kept.rules)
    assert all(head for _, head, _ in kept.rules)
    assert kept.facts == []
    # the loop p/q is kept for clingo to decide, with p's support from x, not y
    assert (False, [7], [-2]) in kept.rules and (False, [8], [7]) in kept.rules
    assert all(9 not in head for _, head, _ in kept.rules)   # e: nothing shown needs it


def test_atoms_derived_true_become_facts_when_shown():
    kept = simplifier()([], [1])
    assert kept.facts == [6]          # d follows from not x
    assert (False, [], [2]) in kept.rules    # the constraint `:- d, y` now reads y alone
    assert all(5 not in head for _, head, _ in kept.rules)   # c needs a, which needs x


def test_the_simplified_program_has_the_answers_of_the_whole():
    def answers(rules, weight_rules, facts, x, y):
        ctl = clingo.Control(["--models=0"])
        with ctl.backend() as backend:
            for atom in range(1, 10):
                backend.add_atom(clingo.Function(f"a{atom}"))
            for atom in facts:
                backend.add_rule([atom], [])
            for choice, head, body in rules:
                backend.add_rule(head, body, choice)
            for choice, head, lower, body in weight_rules:
                backend.add_weight_rule(head, lower, body, choice)
            for atom, value in ((1, x), (2, y)):
                if value:
                    backend.add_rule([atom], [])
        ctl.ground([("base", [])])
        shown = {"a5", "a6", "a7"}
        return [sorted(str(s) for s in m.symbols(atoms=True) if str(s) in shown)
                for m in ctl.solve(yield_=True)]
    weights = [(False, [5], 2, [(2, 1), (9, 1), (4, 1)])]   # c :- 2 { y; e; b }.
    whole = simplifier(RULES, weights)
    for x in (False, True):
        for y in (False, True):
            kept = whole([1] if x else [], [] if x else [1])
            assert answers(kept.rules, kept.weight_rules, kept.facts, x, y) == \
                answers(RULES, weights, [], x, y), (x, y)


def test_a_fixed_atom_that_a_rule_defines_is_refused():
    with pytest.raises(Inconsistent):
        Simplifier([(False, [1], [2])], [], externals=[1, 2], shown=[1])([1], [])


def machine(name, **kwargs):
    return ClingoMachine(parse_kif((EXAMPLES / f"{name}.kif").read_text()), **kwargs)


def test_the_control_family_is_the_one_value_fluent_most_rules_read():
    ttt = machine("tictactoe", specialize=True)
    assert sorted(map(str, ttt._family)) == ["control(oplayer)", "control(xplayer)"]
    initial = frozenset([clingo.Function("cell", [clingo.Number(1)]), clingo.Function("step", [clingo.Number(1)])])
    reads = {clingo.Function("cell", [clingo.Number(1)]): 50, clingo.Function("cell", [clingo.Number(2)]): 50,
             clingo.Function("step", [clingo.Number(1)]): 10, clingo.Function("step", [clingo.Number(2)]): 10,
             clingo.Function("score", [clingo.Number(0)]): 99}
    # cell holds once in the initial state here; score has no other value to tell states apart
    assert {str(f) for f in _control_family(reads, initial)} == {"cell(1)", "cell(2)"}
    assert _control_family(reads, frozenset()) == frozenset()
    assert {str(f) for f in _control_family(reads, initial | {clingo.Function("cell", [clingo.Number(2)])})} \
        == {"step(1)", "step(2)"}
    assert _control_family(reads, initial, most=1) == frozenset()


def plays(m, seeds, **kwargs):
    return [playout(m, random.Random(seed), **kwargs) for seed in seeds]


@pytest.mark.parametrize("name", ["tictactoe", "montyhall", "minipoker"])
def test_specialized_programs_give_the_same_playouts(name):
    whole, special = machine(name, cache_size=1, specialize=False), machine(name, cache_size=1, specialize=True)
    assert not whole._family and special._family
    for a, b in zip(plays(whole, range(12)), plays(special, range(12))):
        assert (a.states, a.moves, a.percepts, a.goals) == (b.states, b.moves, b.percepts, b.goals)
    assert special._programs and all(p.rules < whole._program.rules for p in special._programs.values())


def test_tictactoe_reachable_states_with_specialized_programs():
    m = machine("tictactoe", specialize=True)
    m.max_programs = 1      # after the family is chosen: the second value finds no room
    start = m.initial_state()
    seen, frontier = {start}, [start]
    while frontier:
        frontier = [s for state in frontier if not m.is_terminal(state) for joint in m.joint_moves(state)
                    for s in [m.next_state(state, joint)] if not (s in seen or seen.add(s))]
    assert len(seen) == 5478
    assert len(m._programs) == 1     # the other control value is answered by the whole program


@pytest.mark.slow
def test_a_translated_card_game_specializes_on_its_program_counter():
    desc = load_description(ROOT / "games" / "kuhn_poker.rcy")
    whole = ClingoMachine(desc, cache_size=1, percepts=True, specialize=False)
    special = ClingoMachine(desc, cache_size=1, percepts=True, specialize=True)
    assert {f.name for f in special._family} == {"pc"}
    for a, b in zip(plays(whole, range(6)), plays(special, range(6))):
        assert (a.states, a.moves, a.percepts, a.goals) == (b.states, b.moves, b.percepts, b.goals)
    sizes = special.sizes()
    assert sizes["programs"] == len(special._programs) > 1
    assert sizes["specialized_rules"] < sizes["rules"]
    assert min(p.rules for p in special._programs.values()) < sizes["rules"] / 2


@pytest.mark.slow
def test_a_transition_without_percepts_is_solved_on_a_program_without_the_sees_rules():
    desc = load_description(ROOT / "games" / "kuhn_poker.rcy")
    whole = ClingoMachine(desc, cache_size=1, percepts=True, specialize=False)
    special = ClingoMachine(desc, cache_size=1, percepts=True, specialize=True)
    rng, state, steps = random.Random(3), special.initial_state(), 0
    while not special.is_terminal(state):
        joint = {r: rng.choice(special.legal_moves(state, r)) for r in special.roles()}
        following = special.next_state(state, joint)     # first without the percepts, then asked for them
        assert following == whole.next_state(state, joint)
        assert special.sees(state, joint) == whole.sees(state, joint)
        state, steps = following, steps + 1
    assert steps > 5
    kinds = {}
    for (percepts, control), program in special._programs.items():
        kinds.setdefault(control, {})[percepts] = program
        assert ("sees" in program.left_out) != percepts
    both = [k for k in kinds.values() if len(k) == 2]
    assert both and all(k[False].rules < k[True].rules for k in both)


def test_running_out_of_memory_while_specializing_falls_back_to_the_whole_program(monkeypatch):
    m = machine("montyhall", cache_size=1, specialize=True)
    assert m._family

    def no_memory(*args):
        raise MemoryError
    monkeypatch.setattr(type(m._program), "specialized", no_memory)
    expected = plays(machine("montyhall", cache_size=1, specialize=False), range(4))
    got = plays(m, range(4))
    assert [(p.states, p.goals) for p in got] == [(p.states, p.goals) for p in expected]
    assert not m._family and not m._programs and m._program._rules is None


def _long_counter(stages: int) -> str:
    """A game whose program counter has `stages` values, each read by rules of its own."""
    lines = ["(role robot)", "(init (pc 0))", "(init (mark 0))",
             "(<= (legal robot (go ?m)) (true (pc ?s)) (stage_move ?s ?m))",
             "(<= (next (pc ?t)) (true (pc ?s)) (succ ?s ?t))",
             "(<= (next (mark ?m)) (does robot (go ?m)))",
             f"(<= terminal (true (pc {stages - 1})))", "(<= (goal robot 100) (true (mark 1)))",
             "(<= (goal robot 0) (not (true (mark 1))))"]
    lines += [f"(succ {s} {s + 1})" for s in range(stages - 1)]
    lines += [f"(stage_move {s} {m})" for s in range(stages) for m in range(3) if (s + m) % 4]
    return "\n".join(lines)


def test_a_program_counter_with_more_values_than_the_old_cap_of_64_is_specialized():
    # 22 CardStock games have 65 to 122 program counter values: they played on the whole program
    desc = parse_kif(_long_counter(90))
    by_default = ClingoMachine(desc, cache_size=1, specialize=True)
    assert by_default.max_programs >= 90 and len(by_default._family) == 90
    capped = ClingoMachine(desc, cache_size=1, specialize=True, max_programs=64)
    assert not capped._family   # too many values for the cap: none is worth a program
    for a, b in zip(plays(capped, range(3)), plays(by_default, range(3))):
        assert (a.states, a.moves, a.goals) == (b.states, b.moves, b.goals)
    assert len(by_default._programs) > 64   # made as met (the last, terminal one is known a step ahead)
