"""GDL -> ASP: names, rule rendering, the domain analysis, program texts that clingo runs."""
from pathlib import Path

import clingo
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ggpbridge.gdl.asp import (ENCODINGS, add_to_control, game_domain, program_statements,
                               to_asp_program)
from ggpbridge.gdl.asp_rules import dynamic_levels, render_rule
from ggpbridge.gdl.asp_terms import (asp_name, asp_variable, gdl_name, kif_symbol, symbol_kif,
                                     symbol_term)
from ggpbridge.gdl.errors import AspError
from ggpbridge.gdl.kif import parse_kif

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "gdl"


def game(name: str):
    return parse_kif((EXAMPLES / f"{name}.kif").read_text())


def rendered(text: str, **kwargs) -> list[str]:
    (rule,) = parse_kif(text).rules
    return [str(stm) for stm in render_rule(rule, **kwargs)]


def model_of(program: str, arguments=()) -> list[str] | None:
    ctl = clingo.Control(list(arguments), logger=lambda code, msg: None)
    ctl.add("base", [], program)
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        model = handle.model()
        return None if model is None else sorted(map(str, model.symbols(atoms=True)))


# -- names ------------------------------------------------------------------

@pytest.mark.parametrize("name, expected", [
    ("cell", "cell"), ("x_pos", "x_pos"), ("x-pos", "_qx_2Dpos"), ("1+", "_q1_2B"),
    ("_a", "_q_5Fa"), ("007", "_q007"), ("not", "_qnot"), ("caf\u00e9", "_qcaf_C3_A9"),
])
def test_asp_name_escapes_deterministically(name, expected):
    assert asp_name(name) == expected
    assert gdl_name(expected) == name


def test_variables_are_capitalised_or_escaped():
    assert asp_variable("x") == "X"
    assert asp_variable("row2") == "Row2"
    assert asp_variable("x-1") == "_Vx_2D1"


@settings(deadline=None, max_examples=200)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=8))
def test_every_name_becomes_a_clingo_identifier_and_comes_back(name):
    escaped = asp_name(name)
    symbol = clingo.parse_term(escaped)  # clingo's own lexer accepts it as a constant
    assert symbol.type == clingo.SymbolType.Function and symbol.name == escaped
    assert gdl_name(escaped) == name


def test_numbers_are_integers_and_symbols_round_trip():
    symbol = kif_symbol("(cell 1 007 x-y (f 2147483648))")
    assert str(symbol) == "cell(1,_q007,_qx_2Dy,f(_q2147483648))"
    assert symbol.arguments[0] == clingo.Number(1)
    assert symbol_kif(symbol) == "(cell 1 007 x-y (f 2147483648))"
    assert symbol_term(clingo.Number(5)).name == "5"


# -- rules ------------------------------------------------------------------

def test_distinct_or_and_not_are_translated():
    assert rendered("(<= (p ?x) (q ?x ?y) (distinct ?x ?y))") == ["p(X) :- q(X,Y); X != Y."]
    assert rendered("(<= (p ?x) (q ?x) (not (distinct ?x a)))") == ["p(X) :- q(X); X = a."]
    assert rendered("(<= (p ?x) (q ?x) (or (r ?x) (not (s ?x))))") == [
        "p(X) :- q(X); r(X).", "p(X) :- q(X); not s(X)."]
    # De Morgan: not (a or b) is (not a) and (not b).
    assert rendered("(<= (p ?x) (q ?x) (not (or (r ?x) (s ?x))))") == [
        "p(X) :- q(X); not r(X); not s(X)."]
    assert rendered("(<= p (or))") == []  # an empty disjunction is false


def test_keywords_become_plain_predicates_and_odd_names_are_escaped():
    assert rendered("(<= (legal ?r (go+ ?n)) (true (at ?r 007)) (does ?r noop))") == [
        "legal(R,_qgo_2B(N)) :- true(at(R,_q007)); does(R,noop)."]
    assert rendered("(<= game-over (true (x-y ?v-1)))") == ["_qgame_2Dover :- true(_qx_2Dy(_Vv_2D1))."]


def test_relaxed_rules_drop_negated_atoms_but_keep_comparisons():
    text = "(<= (p ?x) (q ?x) (not (r ?x)) (not (distinct ?x a)))"
    assert rendered(text, relaxed=True) == ["p(X) :- q(X); X = a."]


def test_an_unsupported_negation_is_reported():
    with pytest.raises(AspError, match="negation"):
        rendered("(<= p (not (not (or a b))))")


def test_dynamic_levels():
    levels = dynamic_levels(game("tictactoe"))
    assert levels[("line", 1)] == "state" and levels[("legal", 2)] == "state"
    assert levels[("next", 1)] == "move"
    assert ("index", 1) not in levels and ("init", 1) not in levels


# -- domain -----------------------------------------------------------------

def test_domain_of_tictactoe():
    domain = game_domain(game("tictactoe"))
    assert len(domain.fluents) == 3 * 3 * 3 + 2  # every cell mark, and control
    assert len(domain.moves) == 2 * (9 + 1)      # marks and noop for each role
    assert kif_symbol("(control oplayer)") in domain.fluents


def test_domain_without_base_or_input_is_found_by_grounding():
    desc = parse_kif("""
        (role p) (succ 0 1) (succ 1 2)
        (init (count 0))
        (<= (legal p (add ?n)) (true (count ?m)) (succ ?m ?n))
        (<= (legal p stop) (true (count ?m)) (not (succ ?m ?n2)) (succ ?n2 ?m))
        (<= (next (count ?n)) (does p (add ?n)))
        (<= terminal (true (count 2)))
        (goal p 100)
    """)
    domain = game_domain(desc)
    assert sorted(map(symbol_kif, domain.fluents)) == ["(count 0)", "(count 1)", "(count 2)"]
    # `stop` needs a negated atom, which the relaxation drops: an over-approximation.
    assert {symbol_kif(m) for _, m in domain.moves} == {"(add 1)", "(add 2)", "stop"}


# -- programs ---------------------------------------------------------------

@pytest.mark.parametrize("name", ["tictactoe", "montyhall", "minipoker"])
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_encoding_of_every_example_runs_under_clingo(name, encoding):
    text = to_asp_program(game(name), encoding)
    assert model_of(text) is not None


def test_state_program_text_answers_for_the_initial_state():
    text = to_asp_program(game("tictactoe"), "state")
    # Plain clingo cannot assign externals; facts for the initial state do the same job.
    model = model_of(text + "true(F) :- init(F).\n")
    assert "legal(xplayer,mark(2,2))" in model and "legal(oplayer,noop)" in model
    assert "terminal" not in model and "goal(xplayer,50)" in model


def test_add_to_control_matches_the_text():
    desc = game("montyhall")
    ctl = clingo.Control()
    add_to_control(ctl, desc, "rules")
    ctl.ground([("base", [])])
    from_control = sorted(str(a.symbol) for a in ctl.symbolic_atoms)
    assert from_control == model_of(to_asp_program(desc, "rules"))


def test_program_statements_rejects_bad_arguments():
    with pytest.raises(ValueError):
        program_statements(game("tictactoe"), "nonsense")
    with pytest.raises(ValueError):
        program_statements(game("tictactoe"), "state", horizon=3)


def test_clingo_errors_become_asp_errors():
    # Unsafe: ?y occurs only in a distinct. The validator says so too; clingo must not crash us.
    with pytest.raises(AspError, match="unsafe"):
        game_domain(parse_kif("(role p) (<= (legal p ?x) (init ?x) (distinct ?x ?y))"))
