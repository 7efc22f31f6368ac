"""KIF reader and printer: syntax, normalisation, positions, errors, canonical output."""
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest

from ggpbridge.gdl.ast import Const, Description, Distinct, Func, Not, Or, Rule, Var, is_ground
from ggpbridge.gdl.errors import GdlError, KifSyntaxError
from ggpbridge.gdl.kif import parse_kif, print_kif, to_kif

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples" / "gdl").glob("*.kif"))


def one_rule(text: str) -> Rule:
    desc = parse_kif(text)
    assert len(desc.rules) == 1
    return desc.rules[0]


# -- AST --------------------------------------------------------------------

def test_ast_lowercases_names_and_ignores_lines_in_equality():
    assert Const("XPlayer", line=3) == Const("xplayer")
    assert Var("X") == Var("x")
    assert Func("Cell", [Const("A")]) == Func("cell", (Const("a"),))
    assert hash(Func("F", (Var("Y"),), line=9)) == hash(Func("f", (Var("y"),)))
    assert Const("a") != Var("a")


def test_ast_is_immutable():
    node = Const("a")
    with pytest.raises(FrozenInstanceError):
        node.name = "b"


def test_is_ground():
    assert is_ground(Func("f", (Const("a"), Func("g", (Const("b"),)))))
    assert not is_ground(Func("f", (Const("a"), Func("g", (Var("x"),)))))


# -- reading ----------------------------------------------------------------

def test_facts_rules_and_bare_constants():
    desc = parse_kif("(role xplayer)\nterminal\n(<= terminal (true (step 3)))\n")
    assert desc.rules == (
        Rule(Func("role", (Const("xplayer"),))),
        Rule(Const("terminal")),
        Rule(Const("terminal"), (Func("true", (Func("step", (Const("3"),)),)),)),
    )


def test_comments_are_ignored_including_parentheses_inside_them():
    text = """; header (with an unclosed paren
(role a) ; trailing comment )))
;(role b)
(<= terminal ; comment inside a rule
    (true done))
"""
    desc = parse_kif(text)
    assert desc.rules == (
        Rule(Func("role", (Const("a"),))),
        Rule(Const("terminal"), (Func("true", (Const("done"),)),)),
    )


def test_keywords_and_constants_are_case_insensitive():
    upper = parse_kif("(ROLE XPlayer)\n(<= TERMINAL (TRUE (Step 3)) (NOT (Or p (DISTINCT ?X a))))")
    lower = parse_kif("(role xplayer)\n(<= terminal (true (step 3)) (not (or p (distinct ?x a))))")
    assert upper == lower
    assert upper.rules[1].body[1] == Not(Or((Const("p"), Distinct(Var("x"), Const("a")))))


def test_or_not_distinct_and_nested_terms():
    rule = one_rule("(<= (next (cell ?x ?y b)) (does ?r (mark (pos ?m (f ?n)))) "
                    "(or (distinct ?x ?m) (not (p ?y))) (not (distinct ?y ?n)))")
    mark = Func("mark", (Func("pos", (Var("m"), Func("f", (Var("n"),)))),))
    assert rule.head == Func("next", (Func("cell", (Var("x"), Var("y"), Const("b"))),))
    assert rule.body == (
        Func("does", (Var("r"), mark)),
        Or((Distinct(Var("x"), Var("m")), Not(Func("p", (Var("y"),))))),
        Not(Distinct(Var("y"), Var("n"))),
    )


def test_names_with_symbols_and_numbers():
    rule = one_rule("(<= (x-player ?var_1) (score+ 100 ?var_1) (<=> a))")
    assert rule.head == Func("x-player", (Var("var_1"),))
    assert rule.body == (Func("score+", (Const("100"), Var("var_1"))), Func("<=>", (Const("a"),)))


def test_keyword_prefixes_are_ordinary_names():
    rule = one_rule("(<= nothing notable order distinctive)")
    assert [atom.name for atom in rule.body] == ["notable", "order", "distinctive"]


def test_empty_argument_list_differs_from_a_constant():
    rule = one_rule("(<= (p (f)) (q f))")
    assert rule.head.args == (Func("f", ()),)
    assert rule.body[0].args == (Const("f"),)


def test_empty_rule_body_is_a_fact_and_empty_text_is_empty():
    assert parse_kif("(<= (p a))") == parse_kif("(p a)")
    assert parse_kif("") == Description(())
    assert parse_kif("  ; only a comment\n") == Description(())


def test_heads_named_after_connectives_are_left_to_the_validator():
    desc = parse_kif("(distinct a b)\n(<= (not p) q)")
    assert desc.rules[0].head == Func("distinct", (Const("a"), Const("b")))
    assert desc.rules[1].head == Func("not", (Const("p"),))


def test_source_lines_are_recorded():
    desc = parse_kif("(role a)\n\n(<= (legal a\n        (move ?x))\n    (index ?x))\n")
    role, legal = desc.rules
    assert role.line == 1 and legal.line == 3
    assert legal.head.args[1].line == 4
    assert legal.body[0].line == 5


# -- errors -----------------------------------------------------------------

@pytest.mark.parametrize("text, line, col, fragment", [
    ("(role a)\n(<= (p ?x)\n   (q ?x)\n", 2, 1, "never closed"),
    ("(<= (p ?x)\n  (q (f ?x)\n", 2, 3, "never closed"),
    ("(role a))", 1, 9, "unmatched ')'"),
    ("(role a)\n(p ? x)", 2, 4, "unexpected character '?'"),
    ('(p "quoted")', 1, 4, "unexpected character '\"'"),
    ("(legal ?p not)", 1, 11, "keyword 'not'"),
    ("(<= (p) (not a b))", 1, 16, "unexpected name 'b', expected ')'"),
    ("(<= ?x (q ?x))", 1, 5, "unexpected variable '?x'"),
    ("?x", 1, 1, "unexpected variable '?x'"),
    ("(<= )", 1, 5, "unexpected ')'"),
    ("((p))", 1, 2, "unexpected '('"),
])
def test_syntax_errors_are_positioned(text, line, col, fragment):
    with pytest.raises(KifSyntaxError) as info:
        parse_kif(text, "game.kif")
    err = info.value
    assert (err.filename, err.line, err.col) == ("game.kif", line, col)
    assert fragment in err.message


def test_syntax_error_text_has_source_line_and_caret():
    with pytest.raises(KifSyntaxError) as info:
        parse_kif("(role a)\n(init (cell 1 ?))\n", "ttt.kif")
    assert isinstance(info.value, GdlError)
    assert str(info.value) == (
        "ttt.kif:2:15: error: unexpected character '?'\n"
        "    (init (cell 1 ?))\n"
        "                  ^"
    )


def test_default_filename():
    with pytest.raises(KifSyntaxError) as info:
        parse_kif("(")
    assert str(info.value).startswith("<string>:1:1: error: ")


# -- printing ---------------------------------------------------------------

def test_printer_is_canonical():
    messy = "(<=   (Legal  ?P\n (Mark ?X  ?Y))\n\t(TRUE (control ?P))(or (p)  q) (NOT (distinct ?x  b)))\n(ROLE  x)"
    assert print_kif(parse_kif(messy)) == (
        "(<= (legal ?p (mark ?x ?y)) (true (control ?p)) (or (p) q) (not (distinct ?x b)))\n"
        "(role x)\n"
    )


def test_printer_prints_facts_without_implication_and_empty_or():
    assert to_kif(Rule(Const("terminal"))) == "terminal"
    assert to_kif(Rule(Func("p", (Var("x"),)), (Or(()),))) == "(<= (p ?x) (or))"
    assert print_kif(Description(())) == ""


def test_printer_is_deterministic_and_a_fixed_point():
    text = "(<= (p ?x) (q ?x) (not (r ?x)))\n(q a)\n(r b)\n"
    first = print_kif(parse_kif(text))
    assert first == text
    assert print_kif(parse_kif(first)) == first


def test_to_kif_rejects_non_nodes():
    with pytest.raises(TypeError):
        to_kif(["not", "a", "node"])


def test_examples_exist():
    assert {p.name for p in EXAMPLES} >= {"tictactoe.kif", "montyhall.kif", "minipoker.kif"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_round_trip(path):
    desc = parse_kif(path.read_text(encoding="utf-8"), str(path))
    printed = print_kif(desc)
    assert parse_kif(printed) == desc
    assert printed.count("\n") == len(desc.rules)
