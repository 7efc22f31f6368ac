"""Body projection (ggpbridge.gdl.asp_project): where it happens, and that it changes no answer."""
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import clingo
import pytest
from clingo import ast

from ggpbridge.gdl.asp import add_to_control, ground_horizon, to_asp_program
from ggpbridge.gdl.asp_project import AUX_PREFIX, Aux, Projector
from ggpbridge.gdl.asp_rules import render_rules
from ggpbridge.gdl.ast import Const, Distinct, Func, Var
from ggpbridge.gdl.kif import parse_kif
from ggpbridge.gdl.machine import ClingoMachine
from ggpbridge.translate import load_description

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "gdl"
POS, NEG = ast.Sign.NoSign, ast.Sign.Negation

# A counter whose rules have parts to project at every level: a static part in a
# state rule (legal), a state part and a move part in a move rule (next).
COUNTER = """
(role p)
(init (c 0))
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(tag 0 a) (tag 0 b) (tag 1 a) (tag 2 b)
(ok 1) (ok 2)
(<= (legal p (inc ?t)) (true (c ?n)) (tag ?n ?t) (ok ?u))
(<= (next (c ?m)) (true (c ?n)) (succ ?n ?m) (does p (inc ?t)) (tag ?k ?t))
(<= (sees p (twice ?t)) (does p (inc ?t)) (true (c ?n)) (tag ?n ?x) (tag ?n ?y) (distinct ?x ?y))
(<= terminal (true (c 3)))
(<= (goal p 100) terminal)
(<= (goal p 0) (not terminal))
"""


def v(name):
    return Var(name)


def atom(name, *args):
    return Func(name, tuple(Const(a) if isinstance(a, str) else a for a in args))


def lit(item, sign=POS):
    return (sign, item)


def project(head, *body):
    return Projector().project(("h", len(head.args)), head, list(body))


def text(desc_text: str, encoding: str = "rules", **kwargs) -> str:
    return to_asp_program(parse_kif(desc_text), encoding, **kwargs)


# -- where projection happens ---------------------------------------------------

def test_variables_local_to_a_part_are_projected_away():
    # h(V,C) :- s(P,I,B,K), e(P,I,C), p(C,V): B and K occur in s only.
    P, I, B, K, C, V = map(v, "pibkcv")
    s, e, p = atom("s", P, I, B, K), atom("e", P, I, C), atom("p", C, V)
    rules = project(atom("h", V, C), lit(s), lit(e), lit(p))
    first_aux, first_body = rules[0]
    assert first_aux == Aux("_aux_h_2_1", (P, I)) and first_body == [lit(s)]
    head, body = rules[-1]
    assert head == atom("h", V, C) and lit(p) in body
    assert all(isinstance(item, Aux) for sign, item in body if item != p)


def test_a_part_found_again_under_other_names_is_shared():
    game = parse_kif("""
        (role p) (plus 1 1 2) (plus 1 2 3)
        (<= (sum ?v ?k) (true (chips ?v ?a)) (true (pot ?s)) (plus ?a ?s ?k))
        (<= (sum2 ?w ?m) (true (chips ?w ?b)) (true (pot ?t)) (plus ?b ?t ?m))
    """)
    out = "".join(f"{stm}\n" for stm in render_rules(game.rules, project=True))
    assert "_aux_sum_2_1(A,K) :- true(pot(S)); plus(A,S,K)." in out
    assert "sum2(W,M) :- true(chips(W,B)); _aux_sum_2_1(B,M)." in out and "_aux_sum2" not in out


def test_no_split_when_the_rest_has_no_variable_of_its_own():
    # Nothing multiplies Y's instances: an auxiliary rule would only add to the program.
    X, Y = v("x"), v("y")
    body = [lit(atom("a", X, Y)), lit(atom("b", X))]
    assert project(atom("h", X), *body) == [(atom("h", X), body)]


def test_no_split_of_the_whole_body():
    X, Y = v("x"), v("y")
    body = [lit(atom("a", X, Y)), lit(atom("b", Y))]
    assert project(atom("h", X), *body) == [(atom("h", X), body)]


def test_a_negative_literal_goes_with_its_variables_only_when_they_stay_bound():
    X, Y = v("x"), v("y")
    # not c(X,Y) would need X in the part of Y: the split would be unsafe.
    unsafe = [lit(atom("a", X)), lit(atom("b", Y)), lit(atom("c", X, Y), NEG), lit(atom("d", X, v("z")))]
    rules = project(atom("h", X), *unsafe)
    assert all(lit(atom("c", X, Y), NEG) in body for head, body in rules if lit(atom("b", Y)) in body)
    for head, body in rules:
        bound = {var for sign, item in body if sign == POS and not isinstance(item, Distinct)
                 for var in (item.args if isinstance(item, Aux) else _vars(item))}
        needed = {var for sign, item in body if sign != POS or isinstance(item, Distinct) for var in _vars(item)}
        assert needed <= bound
    # Here the part of Y binds everything its negative literal needs.
    safe = [lit(atom("a", X)), lit(atom("b", Y)), lit(atom("c", Y), NEG)]
    (aux, part), (head, body) = project(atom("h", X), *safe)
    assert aux.args == () and part == safe[1:] and body == [safe[0], lit(aux)]


def test_an_unsafe_rule_is_left_whole():
    X, Y, Z = v("x"), v("y"), v("z")
    for head, body in [(atom("h", X), [lit(atom("a", X)), lit(atom("b", Y)), lit(atom("c", Z), NEG)]),
                       (atom("h", X, Z), [lit(atom("a", X)), lit(atom("b", Y))])]:
        assert project(head, *body) == [(head, body)]


def test_a_comparison_keeps_its_variables_bound():
    X, Y, Z = v("x"), v("y"), v("z")
    # Y != Z ties the parts of Y and of Z together: each alone would leave the other unbound.
    body = [lit(atom("a", X)), lit(atom("b", Z)), lit(atom("c", Y)), lit(Distinct(Y, Z))]
    (aux, part), (head, rest) = project(atom("h", X), *body)
    assert set(part) == set(body[1:]) and rest == [body[0], lit(aux)]


def _vars(item):
    from ggpbridge.gdl.ast import variables
    return set(item.args) if isinstance(item, Aux) else set(variables(item))


def test_only_rules_that_depend_on_the_state_are_projected():
    game = parse_kif("""
        (role p) (r 1 2) (r 2 3) (s 1)
        (<= (two ?x) (s ?x) (r ?x ?y) (r ?z ?w))
        (<= (on ?x) (true (f ?x)) (r ?z ?w))
    """)
    out = "".join(f"{stm}\n" for stm in render_rules(game.rules, project=True))
    assert "two(X) :- s(X); r(X,Y); r(Z,W)." in out  # static: gringo makes facts of it anyway
    assert "_aux_on_1_1 :- r(Z,W)." in out and "on(X) :- true(f(X)); _aux_on_1_1." in out



def test_a_static_join_over_several_shared_variables_stays_in_its_rule():
    # gops: projecting a static part out of a state rule gave a table as large as the
    # join (`plus` with its sum dropped is `plus` again): 1.5M facts more, not fewer.
    game = parse_kif("""
        (role p) (pts a 1) (pts b 2) (plus 0 1 1) (plus 1 1 2) (plus 0 2 2) (kind a x)
        (<= (next (h ?x)) (true (f ?c ?s ?x)) (pts ?c ?v) (plus ?s ?v ?t))
        (<= (next (k ?c)) (true (won ?c)) (kind ?c ?x) (kind ?d ?y))
    """)
    out = "".join(f"{stm}\n" for stm in render_rules(game.rules, project=True))
    assert ":- plus(S,V,T)." not in out  # before: _aux_next_1_1(S,V) :- plus(S,V,T).
    assert "plus(S,V,T)." in out.split("next(h(X)) :- ")[1].splitlines()[0]
    # no shared variable: the part multiplies the rest's instances, so it is projected
    assert ":- kind(D,Y)." in out and "kind(D,Y)" not in out.split("next(k(C)) :- ")[1]


def test_a_part_that_fixes_a_table_s_argument_is_projected_before_the_table():
    # lost_cities: (sum - 20) x (wagers + 1) added to a score. Taking the product's
    # table before the wager count was known made a table of every product with every
    # count and every score (4.4M auxiliary atoms); fixing the count first, 140,000.
    game = parse_kif("""
        (role p) (succ 0 1) (succ 1 2) (plus 2 0 2) (plus 0 1 1) (times 0 1 0) (times 1 1 1)
        (<= (next (score ?new)) (true (sum ?s0)) (plus 2 ?s ?s0)
            (true (count ?pl ?x ?k)) (true (turn ?pl)) (true (mark ?x)) (succ ?k ?r)
            (times ?s ?r ?p) (true (score ?old)) (plus ?old ?p ?new))
    """)
    out = "".join(f"{stm}\n" for stm in render_rules(game.rules, project=True))
    count = re.search(r"(_aux_next_1_\d+)\(K\) :- _aux_next_1_\d+\((?:K,X|X,K)\); true\(mark\(X\)\)\.", out)
    assert count, out
    # the count becomes the product's factor on its own, then meets the table
    assert f"(R) :- {count.group(1)}(K); succ(K,R)." in out, out
    assert not re.search(r"_aux_next_1_\d+\((P,K|K,P)\)", out), out


def test_a_recursive_rule_stays_whole():
    # gops' running sum of a location's points: projecting the recursive rule made a table of
    # every partial sum with every card at every position (1.4M auxiliary atoms)
    game = parse_kif("""
        (role p) (pts a 1) (pts b 2) (plus 0 1 1) (plus 1 1 2) (succ 0 1) (succ 1 2)
        (<= (total 0 0) (true (started)))
        (<= (total ?j ?t) (total ?i ?s) (true (at ?i ?c)) (pts ?c ?v) (plus ?s ?v ?t) (succ ?i ?j))
        (<= (score ?t) (total ?i ?t) (true (at ?i ?c)) (pts ?c ?v) (pts ?d ?w))
    """)
    out = "".join(f"{stm}\n" for stm in render_rules(game.rules, project=True))
    assert "total(J,T) :- total(I,S); true(at(I,C)); pts(C,V); plus(S,V,T); succ(I,J)." in out
    assert ":- pts(D,W)." in out   # a rule that only reads the recursion is still projected

def test_auxiliary_names_cannot_meet_the_games():
    # A GDL relation spelt like an auxiliary predicate is escaped (`_q...`), so the two differ.
    clash = COUNTER.replace("(ok ", "(_aux_legal_2_1 ")
    program = text(clash, "state")
    assert "_aux_legal_2_1 :- _q_5Faux_5Flegal_5F2_5F1(U)." in program
    assert_same_playouts(parse_kif(clash), playouts=3)


def test_the_text_is_the_same_from_run_to_run():
    # Different hash seeds change set iteration orders: the output must not depend on them.
    code = ("import sys; from pathlib import Path; from ggpbridge.gdl.kif import parse_kif; "
            "from ggpbridge.gdl.asp import to_asp_program; "
            "d = parse_kif(Path(sys.argv[1]).read_text()); "
            "print(to_asp_program(d, 'rules') + to_asp_program(d, 'temporal', horizon=3))")
    outs = {subprocess.run([sys.executable, "-c", code, str(EXAMPLES / "minipoker.kif")], capture_output=True,
                           text=True, check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
            for seed in ("1", "2", "3")}
    assert len(outs) == 1 and AUX_PREFIX in outs.pop()


def test_the_temporal_encoding_gives_auxiliary_atoms_the_rule_s_time():
    program = text(COUNTER, "temporal")
    # a static part of a state rule, at the state's time
    assert "_aux_legal_2_1(0) :- ok(U)." in program and "_aux_legal_2_1(t) :- ok(U)." in program
    # a move rule's parts, at the time of the move
    assert "_aux_next_1_1(M,(t-1)) :- true(c(N),(t-1)); succ(N,M)." in program
    assert "_aux_next_1_2((t-1)) :- does(p,inc(T),(t-1)); tag(K,T)." in program
    # a part that needs a literal of the rest to bind the variables of its comparison
    assert "_aux_sees_2_1((t-1)) :- true(c(N),(t-1)); tag(N,X); tag(N,Y); X != Y." in program


# -- answers are the same ---------------------------------------------------------

def assert_same_playouts(desc, playouts: int, seed: int = 0) -> int:
    """Random playouts on both machines, comparing every answer; the transitions checked."""
    plain = ClingoMachine(desc, cache_size=1, project=False)
    projected = ClingoMachine(desc, cache_size=1, project=True)
    assert projected.domain == plain.domain
    assert projected.initial_state() == plain.initial_state() and projected.roles() == plain.roles()
    rng, transitions = random.Random(seed), 0
    for _ in range(playouts):
        state = plain.initial_state()
        while True:
            assert projected.is_terminal(state) == plain.is_terminal(state)
            assert projected.goals(state) == plain.goals(state)
            legal = {r: plain.legal_moves(state, r) for r in plain.roles()}
            assert {r: projected.legal_moves(state, r) for r in plain.roles()} == legal
            if plain.is_terminal(state):
                break
            joint = {r: rng.choice(moves) for r, moves in legal.items()}
            assert projected.sees(state, joint) == plain.sees(state, joint)
            following = plain.next_state(state, joint)
            assert projected.next_state(state, joint) == following
            state, transitions = following, transitions + 1
    return transitions


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.kif")))
def test_examples_answer_the_same(name):
    assert assert_same_playouts(parse_kif((EXAMPLES / f"{name}.kif").read_text()), playouts=20) > 0


def test_the_counter_answers_the_same():
    assert assert_same_playouts(parse_kif(COUNTER), playouts=5) > 0


@pytest.mark.slow
def test_a_translated_card_game_answers_the_same():
    desc = load_description(ROOT / "games" / "war_n4_winner.rcy")
    # The translation has parts to project, or this test would show nothing.
    assert AUX_PREFIX in to_asp_program(desc, "rules")
    assert assert_same_playouts(desc, playouts=10) > 0


def _plays(desc, horizon: int, project: bool, incremental: bool) -> set:
    """Every play within the horizon, each with the game's own atoms (auxiliary ones left out)."""
    ctl = clingo.Control(["--models=0"], logger=lambda code, msg: None)
    if incremental:
        add_to_control(ctl, desc, "temporal", project=project)
        ground_horizon(ctl, horizon)
    else:
        add_to_control(ctl, desc, "temporal", horizon=horizon, project=project)
        ctl.ground([("base", [])])
    plays = set()
    ctl.solve(on_model=lambda m: plays.add(frozenset(
        str(s) for s in m.symbols(atoms=True) if not s.name.startswith(AUX_PREFIX))))
    return plays


@pytest.mark.parametrize("incremental", [False, True])
@pytest.mark.parametrize("name, horizon", [("counter", 4), ("montyhall", 4), ("minipoker", 3)])
def test_temporal_plays_are_the_same(name, horizon, incremental):
    desc = parse_kif(COUNTER if name == "counter" else (EXAMPLES / f"{name}.kif").read_text())
    plain = _plays(desc, horizon, project=False, incremental=incremental)
    assert plain and _plays(desc, horizon, project=True, incremental=incremental) == plain


@pytest.mark.parametrize("encoding", ["rules", "domain"])
def test_time_free_models_are_the_same(encoding):
    desc = parse_kif((EXAMPLES / "tictactoe.kif").read_text() + "(true (cell 1 1 x)) (true (control oplayer))")

    def model(project):
        ctl = clingo.Control(logger=lambda code, msg: None)
        add_to_control(ctl, desc, encoding, project=project)
        ctl.ground([("base", [])])
        found = []
        ctl.solve(on_model=lambda m: found.append(
            {str(s) for s in m.symbols(atoms=True) if not s.name.startswith(AUX_PREFIX)}))
        return found

    assert model(True) == model(False) and len(model(False)) == 1
