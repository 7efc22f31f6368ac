"""Static validator: every check, each with a case it flags and one it accepts."""
from pathlib import Path

import pytest

from ggpbridge.gdl.ast import Description, Func, Rule, Var
from ggpbridge.gdl.kif import parse_kif, to_kif
from ggpbridge.gdl.validate import Diagnostic, detect_gdl_version, is_valid, validate

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "gdl"

# A complete, valid one-player game; snippets appended to it start at line 7.
BASE = """(role a)
(init (s 1))
(<= (legal a noop) (true (s 1)))
(goal a 100)
(<= terminal (true (s 2)))
(<= (next (s 2)) (true (s 1)))
"""
FIRST = BASE.count("\n") + 1


def check(extra: str = "", base: str = BASE, **kwargs) -> list[Diagnostic]:
    return validate(parse_kif(base + extra), **kwargs)


def errors(diags):
    return [d for d in diags if d.severity == "error"]


def warnings(diags):
    return [d for d in diags if d.severity == "warning"]


def only_error(diags, fragment: str) -> Diagnostic:
    found = [d for d in errors(diags) if fragment in d.message]
    assert len(found) == 1, [d.message for d in errors(diags)]
    return found[0]


def test_base_game_is_clean():
    assert check() == []


# The deliberately broken snippets: (extra KIF, line of the culprit, message).
BROKEN = {
    "unsafe rule": ("(<= (p ?x) (q ?y))\n(q b)\n", FIRST, "unsafe rule: ?x"),
    "negation cycle": ("(<= p (not q))\n(<= q (not p))\n", FIRST, "not stratified"),
    "does in legal": ("(<= moved (does a noop))\n(<= (legal a stay) moved)\n", FIRST + 1,
                      "'legal' must not depend on 'does' (legal -> moved -> does)"),
    "true in head": ("(<= (true (s 3)) (true (s 1)))\n", FIRST, "'true' may not appear in a rule head"),
    "init on true": ("(<= ok (true (s 1)))\n(<= (init (s 3)) ok)\n", FIRST + 1,
                     "'init' must not depend on 'true' (init -> ok -> true)"),
    "arity clash": ("(cell 1 2)\n(<= (cell 1) (true (s 1)))\n", FIRST + 1,
                    "arity clash: relation 'cell' has 1 argument(s) here but 2 at line 7"),
    "goal 150": ("(<= (goal a 150) (true (s 2)))\n", FIRST, "goal value 150 is outside 0..100"),
    "recursion restriction": ("(num 0)\n(<= (num (s ?x)) (num ?x))\n", FIRST + 1,
                              "recursion restriction violated: in (num ?x), ?x"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_snippet_is_reported_on_its_rule(name):
    extra, line, fragment = BROKEN[name]
    diags = check(extra)
    diag = only_error(diags, fragment)
    assert diag.line == line
    assert diag.rule == to_kif(parse_kif(BASE + extra).rules[line - 1])
    assert not is_valid(diags)


def test_missing_terminal_is_reported():
    base = BASE.replace("(<= terminal (true (s 2)))\n", "")
    diag = only_error(check(base=base), "missing 'terminal'")
    assert (diag.line, diag.rule) == (0, "")


@pytest.mark.parametrize("keyword, line", [("role", 1), ("legal", 3), ("goal", 4)])
def test_missing_required_keywords(keyword, line):
    base = "".join(l + "\n" for n, l in enumerate(BASE.splitlines(), 1) if n != line)
    only_error(check(base=base), f"missing '{keyword}'")


def test_missing_init_is_only_a_warning():
    diags = check(base=BASE.replace("(init (s 1))\n", "(<= (init (s 1)) step_one)\nstep_one\n"))
    assert diags == []
    diags = check(base=BASE.replace("(init (s 1))\n", ""))
    assert is_valid(diags)
    assert [d.message for d in warnings(diags)] == [
        "no 'init' facts: every fluent is false in the initial state"]


# -- keywords ---------------------------------------------------------------

@pytest.mark.parametrize("extra, fragment", [
    ("(<= (legal a) (true (s 1)))\n", "'legal' takes 2 arguments, not 1"),
    ("(<= (p) (true (s 1) x))\n", "'true' takes 1 argument, not 2"),
    ("(<= (terminal x) (true (s 1)))\n", "'terminal' takes 0 arguments, not 1"),
    ("(<= (sees a) (true (s 1)))\n", "'sees' takes 2 arguments, not 1"),
])
def test_keyword_arities(extra, fragment):
    assert only_error(check(extra), fragment).line == FIRST


@pytest.mark.parametrize("extra, fragment", [
    ("(<= (does a noop) (true (s 1)))\n", "'does' may not appear in a rule head"),
    ("(distinct a b)\n", "'distinct' may not appear in a rule head"),
    ("(<= (not p) (true (s 1)))\n", "'not' may not appear in a rule head"),
    ("(<= p (init (s 1)))\n", "'init' may not appear in a rule body"),
    ("(<= p (next (s 1)))\n", "'next' may not appear in a rule body"),
    ("(<= p (base (s 1)))\n", "'base' may not appear in a rule body"),
    ("(<= p (input a noop))\n", "'input' may not appear in a rule body"),
    ("(<= p (not (sees a x)))\n", "'sees' may not appear in a rule body"),
    ("(<= (role b) (true (s 1)))\n", "'role' must be given by ground facts"),
    ("(role (f ?x))\n", "'role' facts must be ground"),
])
def test_keyword_placement(extra, fragment):
    assert only_error(check(extra), fragment).line == FIRST


def test_misplaced_head_adds_no_dependency_errors():
    diags = check("(<= (true (s 3)) (does a noop))\n")
    assert [d.message for d in errors(diags)] == ["'true' may not appear in a rule head"]


def test_keywords_in_allowed_places_pass():
    extra = ("(<= (sees a seen) (does a noop) (role a))\n"
             "(<= (base (s ?n)) (succ ?m ?n))\n(succ 1 2)\n"
             "(<= (input ?r noop) (role ?r))\n")
    assert errors(check(extra)) == []


# -- dependency restrictions ------------------------------------------------

@pytest.mark.parametrize("extra, fragment", [
    ("(<= terminal (does a noop))\n", "'terminal' must not depend on 'does' (terminal -> does)"),
    ("(<= (goal a 0) (not (did a)))\n(<= (did a) (does a noop))\n",
     "'goal' must not depend on 'does' (goal -> did -> does)"),
    ("(<= (base (s ?x)) (true (s ?x)))\n", "'base' must not depend on 'true' (base -> true)"),
    ("(<= (input a ?m) (prev ?m))\n(<= (prev ?m) (does a ?m))\n", "'input' must not depend on 'does'"),
])
def test_dependency_restrictions(extra, fragment):
    assert only_error(check(extra), fragment).line == FIRST


def test_next_and_sees_may_depend_on_does_and_legal_on_true():
    extra = ("(<= (next (s 1)) (does a noop))\n(<= (sees a (s 1)) (does a noop))\n"
             "(<= (legal a wait) (waiting))\n(<= (waiting) (true (s 2)))\n")
    assert errors(check(extra)) == []


# -- safety -----------------------------------------------------------------

@pytest.mark.parametrize("extra, names", [
    ("(<= (p ?x) (true (s 1)))\n", "?x"),
    ("(<= p (true (s 1)) (not (true (s ?y))))\n", "?y"),
    ("(<= p (true (s ?x)) (distinct ?x ?z))\n", "?z"),
    ("(<= (p ?x ?y) (or (true (s ?x)) (true (s 2))) (true (s ?y)))\n", "?x"),
    ("(<= (p ?x) (not (not (true (s ?x)))))\n", "?x"),
    ("(p ?x)\n", "?x"),
    ("(<= (p ?x ?y ?z) (true (s ?z)))\n", "?x, ?y"),
])
def test_unsafe_rules(extra, names):
    assert only_error(check(extra), f"unsafe rule: {names} must").line == FIRST


def test_safe_rules():
    extra = ("(<= (p ?x) (true (s ?x)) (not (true (t ?x))) (distinct ?x 1))\n"
             "(<= (q ?x) (or (true (s ?x)) (true (t ?x))))\n"
             "(<= (r ?x) (true (s ?x)) (or (not (true (t ?x))) (distinct ?x 3)))\n")
    assert [d for d in check(extra) if "unsafe" in d.message] == []


# -- stratification ---------------------------------------------------------

def test_negation_cycle_names_the_predicates():
    diags = check("(<= p (not q))\n(<= q r)\n(<= r (true (s 1)) p)\n")
    diag = only_error(diags, "not stratified")
    assert diag.message.endswith("p -> not q -> r -> p")
    assert diag.line == FIRST


def test_each_negative_cycle_is_reported_once():
    diags = check("(<= p (not q))\n(<= q (not p))\n(<= u (not v))\n(<= v u)\n")
    cycles = [(d.line, d.message.split(": ")[1]) for d in diags if "stratified" in d.message]
    assert cycles == [(FIRST, "p -> not q -> not p"), (FIRST + 2, "u -> not v -> u")]


def test_negation_of_itself():
    assert only_error(check("(<= p (not p))\n"), "not stratified").message.endswith("p -> not p")


def test_negation_inside_or_counts():
    only_error(check("(<= p (or (not q) (true (s 1))))\n(<= q p)\n"), "not stratified")


def test_stratified_programs_pass():
    extra = ("(<= p (not q))\n(<= q (true (s 1)))\n"     # negation, no cycle
             "(<= u v)\n(<= v u)\n(<= v (true (s 1)))\n"  # positive cycle only
             "(<= w u (not x))\n(x)\n")                   # negation out of a cycle
    assert [d for d in check(extra) if "stratified" in d.message] == []


# -- recursion restriction --------------------------------------------------

@pytest.mark.parametrize("extra, line", [
    ("(q 1)\n(<= (q ?y) (q (f ?y)))\n", FIRST + 1),
    ("(p 1)\n(r 1 2)\n(<= (p ?y) (or (r ?x ?y) (t ?y)) (p ?x))\n(t 1)\n", FIRST + 2),
    ("(e 1 2)\n(<= (reach ?x ?z) (e ?x ?z))\n(<= (reach ?x ?z) (hop ?x ?y) (e ?y ?z))\n"
     "(<= (hop ?x ?y) (reach ?x (g ?y)) (e ?x ?y))\n", FIRST + 3),
])
def test_recursion_restriction_violations(extra, line):
    assert only_error(check(extra), "recursion restriction").line == line


def test_recursion_restriction_allows_the_usual_patterns():
    extra = ("(e 1 2)\n(succ 1 2)\n"
             "(<= (path ?x ?y) (e ?x ?y))\n"
             "(<= (path ?x ?z) (path ?x ?y) (e ?y ?z))\n"          # support from e
             "(<= (lt ?x ?y) (succ ?x ?y))\n"
             "(<= (lt ?x ?z) (lt ?x ?y) (succ ?y ?z))\n"
             "(<= (sym ?x ?y) (sym ?y ?x))\n(sym 1 2)\n"            # head arguments
             "(<= (deep ?x) (deep (f 1)) (e ?x 2))\n(deep (f 1))\n"  # ground argument
             "(<= (alt ?y) (or (e ?x ?y) (succ ?x ?y)) (alt ?x))\n(alt 1)\n")  # both branches
    assert [d for d in check(extra) if "recursion" in d.message] == []


# -- arities, goals ---------------------------------------------------------

def test_function_arity_clash():
    diags = check("(<= (next (s 1 2)) (true (s 1)))\n")
    assert only_error(diags, "function 's' has 2 argument(s) here but 1 at line 2").line == FIRST


def test_relation_and_function_name_overlap_is_a_warning():
    diags = check("(<= (legal a (m 1)) (m 1))\n(m 1)\n")
    assert is_valid(diags)
    (diag,) = [d for d in diags if "used both" in d.message]
    assert diag.message == "'m' is used both as a relation (line 7) and as a function symbol; is a 'true' missing?"
    assert (diag.severity, diag.line) == ("warning", FIRST)


@pytest.mark.parametrize("value, fragment", [
    ("150", "goal value 150 is outside 0..100"),
    ("high", "goal value high is not an integer"),
    ("-5", "goal value -5 is not an integer"),
    ("(f 1)", "goal value (f 1) is not an integer"),
])
def test_bad_goal_values(value, fragment):
    assert only_error(check(f"(<= (goal a {value}) (true (s 2)))\n"), fragment).line == FIRST


def test_good_goal_values():
    extra = "(goal a 0)\n(<= (goal a 50) (true (s 2)))\n(<= (goal a ?v) (val ?v))\n(val 7)\n"
    assert [d for d in check(extra) if "goal value" in d.message] == []


# -- warnings ---------------------------------------------------------------

def test_undefined_relation_and_empty_argument_list_warnings():
    diags = check("(<= (legal a x) (true (s 1)) (ghost))\n")
    assert is_valid(diags)
    messages = [d.message for d in warnings(diags)]
    assert "relation 'ghost' is used but never defined (it is always false)" in messages
    assert "(ghost) has no arguments; write the constant ghost instead" in messages


# -- GDL-II -----------------------------------------------------------------

GDL2 = BASE + "(role random)\n(<= (legal random noop) (true (s 1)))\n(<= (sees a x) (does random noop))\n"


def test_gdl_version_detection():
    assert detect_gdl_version(parse_kif(BASE)) == 1
    assert detect_gdl_version(parse_kif(GDL2)) == 2
    assert detect_gdl_version(parse_kif(BASE + "(<= (sees a x) (true (s 1)))\n")) == 2


def test_random_without_goal_is_warned():
    diags = check(base=GDL2)
    assert is_valid(diags)
    assert [(d.message, d.line) for d in warnings(diags)] == [
        ("the 'random' role has no goal rule", FIRST)]


def test_random_goal_by_variable_counts():
    assert check("(<= (goal ?r 0) (role ?r) (distinct ?r a))\n", base=GDL2) == []
    assert check("(goal random 0)\n", base=GDL2) == []


def test_declared_gdl1_rejects_sees():
    diags = check(base=GDL2, gdl_version=1)
    assert only_error(diags, "'sees' belongs to GDL-II").line == FIRST + 2
    assert any("ordinary player" in d.message for d in warnings(diags))
    assert is_valid(check(base=GDL2, gdl_version=2))


def test_invalid_gdl_version_argument():
    with pytest.raises(ValueError):
        validate(parse_kif(BASE), gdl_version=3)


# -- results ----------------------------------------------------------------

def test_diagnostics_are_sorted_and_formatted():
    diags = check("(<= (p ?x) (q))\n(<= (true x) (q))\n(q)\n", base=BASE.replace("(role a)\n", ""))
    assert [d.line for d in diags] == sorted(d.line for d in diags)
    unsafe = only_error(diags, "unsafe")
    assert unsafe.format("g.kif") == f"g.kif:{FIRST - 1}: error: {unsafe.message}\n    (<= (p ?x) (q))"
    missing = only_error(diags, "missing 'role'")
    assert missing.format("g.kif") == "g.kif: error: missing 'role': the description has no rule or fact for it"
    assert unsafe.as_dict() == {"severity": "error", "message": unsafe.message,
                                "line": FIRST - 1, "rule": "(<= (p ?x) (q))"}


def test_hand_built_malformed_rules_are_reported_not_raised():
    desc = Description((Rule(Var("x")), Rule(Func("p", ()), (Var("y"),))))
    messages = [d.message for d in validate(desc)]
    assert "rule head ?x is not an atom" in messages
    assert "?y is not a literal" in messages


def test_is_valid():
    assert is_valid([])
    assert is_valid([Diagnostic("warning", "w")])
    assert not is_valid([Diagnostic("warning", "w"), Diagnostic("error", "e")])


@pytest.mark.parametrize("name, version", [
    ("tictactoe.kif", 1), ("montyhall.kif", 2), ("minipoker.kif", 2)])
def test_example_games_are_valid(name, version):
    desc = parse_kif((EXAMPLES / name).read_text(encoding="utf-8"), name)
    assert validate(desc) == []
    assert detect_gdl_version(desc) == version


def test_example_roles():
    roles = {name: [to_kif(r.head) for r in parse_kif((EXAMPLES / name).read_text()).rules
                    if r.head.name == "role"]
             for name in ("tictactoe.kif", "montyhall.kif", "minipoker.kif")}
    assert roles == {
        "tictactoe.kif": ["(role xplayer)", "(role oplayer)"],
        "montyhall.kif": ["(role candidate)", "(role random)"],
        "minipoker.kif": ["(role alice)", "(role bob)", "(role random)"],
    }


def test_montyhall_hides_the_car_from_the_candidate():
    desc = parse_kif((EXAMPLES / "montyhall.kif").read_text())
    sees = [r for r in desc.rules if r.head.name == "sees"]
    assert sees and all("car" not in to_kif(r.head) for r in sees)
    assert any("open_door" in to_kif(r) for r in sees)
