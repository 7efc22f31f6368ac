"""Property tests: print/parse round trip and a validator that never crashes."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ggpbridge.gdl.ast import KEYWORD_ARITY, RESERVED, Const, Description, Distinct, Func, Not, Or, Rule, Var
from ggpbridge.gdl.kif import parse_kif, print_kif, to_kif
from ggpbridge.gdl.validate import validate

# deadline=None: these are correctness properties, never timing checks.
PROPERTY = settings(deadline=None, max_examples=150)

names = st.one_of(
    st.from_regex(r"[a-zA-Z+*<>=.\-][a-zA-Z0-9_+*<>=.\-]{0,5}", fullmatch=True)
    .filter(lambda s: s.lower() not in RESERVED),
    st.integers(0, 150).map(str),
    st.sampled_from(sorted(set(KEYWORD_ARITY) - {"distinct"}) + ["random"]),
)
var_names = st.from_regex(r"[a-zA-Z_][a-zA-Z0-9_\-]{0,4}", fullmatch=True)
args = lambda inner: st.lists(inner, max_size=3).map(tuple)  # noqa: E731

terms = st.recursive(
    st.builds(Const, names) | st.builds(Var, var_names),
    lambda inner: st.builds(Func, names, args(inner)),
    max_leaves=8,
)
atoms = st.builds(Const, names) | st.builds(Func, names, args(terms))
heads = atoms | st.builds(Func, st.sampled_from(["distinct", "not", "or"]), args(terms))
literals = st.recursive(
    atoms | st.builds(Distinct, terms, terms),
    lambda inner: st.builds(Not, inner) | st.builds(Or, args(inner)),
    max_leaves=6,
)
rules = st.builds(Rule, heads, st.lists(literals, max_size=4).map(tuple))
descriptions = st.builds(Description, st.lists(rules, max_size=6).map(tuple))


@pytest.mark.slow
@PROPERTY
@given(descriptions)
def test_parse_print_round_trip(desc):
    text = print_kif(desc)
    assert parse_kif(text) == desc
    assert print_kif(parse_kif(text)) == text


@pytest.mark.slow
@PROPERTY
@given(descriptions)
def test_parsed_lines_match_printed_lines(desc):
    parsed = parse_kif(print_kif(desc))
    assert [rule.line for rule in parsed.rules] == list(range(1, len(desc.rules) + 1))


@pytest.mark.slow
@PROPERTY
@given(descriptions)
def test_validator_never_raises_and_reports_real_rules(desc):
    parsed = parse_kif(print_kif(desc))
    diags = validate(parsed)
    printed = print_kif(parsed).splitlines()
    assert [d.line for d in diags] == sorted(d.line for d in diags)
    for diag in diags:
        assert diag.severity in ("error", "warning")
        if diag.line:
            assert diag.rule == printed[diag.line - 1]
        else:
            assert diag.rule == ""


# Hand-built ASTs may hold shapes the reader never produces.
odd_heads = heads | st.builds(Var, var_names) | st.builds(Distinct, terms, terms) | st.builds(Not, atoms)
odd_rules = st.builds(Rule, odd_heads, st.lists(literals | st.builds(Var, var_names), max_size=3).map(tuple))


@PROPERTY
@given(st.builds(Description, st.lists(odd_rules, max_size=5).map(tuple)))
def test_validator_survives_hand_built_asts(desc):
    for diag in validate(desc, gdl_version=2):
        assert diag.rule == "" or diag.rule in {to_kif(rule) for rule in desc.rules}
