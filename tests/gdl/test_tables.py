"""Static arithmetic tables too large to ground are found from the rules and refused up front."""
from __future__ import annotations

import pickle

import pytest
from click.testing import CliRunner

from conftest import TOO_LARGE_GAME
from ggpbridge.cli import main
from ggpbridge.gdl import tables
from ggpbridge.gdl.kif import parse_kif
from ggpbridge.gdl.machine import ClingoMachine
from ggpbridge.gdl.tables import GroundingTooLargeError, chain_tables, chains, check_groundable
from ggpbridge.gdl.validate import validate

GAME = """(role a)
(init (s 0))
(<= (legal a (go ?y)) (true (s ?x)) (succ ?x ?y))
(<= (next (s ?y)) (does a (go ?y)))
(<= terminal (true (s ?x)) (less 2 ?x))
(goal a 100)
"""
ORDER = "(<= (less ?a ?b) (succ ?a ?b))\n(<= (less ?a ?c) (less ?a ?b) (succ ?b ?c))\n"
PLUS = ("(<= (plus ?a 0 ?a) (num ?a))\n"
        "(<= (plus ?a ?b ?z) (plus ?a ?k ?y) (succ ?k ?b) (succ ?y ?z))\n")


def counting(n: int, *extra: str) -> str:
    """The game over the numbers 0..n-1, with the order table and the extra rules."""
    facts = "".join(f"(num {k})\n" for k in range(n)) + "".join(f"(succ {k} {k + 1})\n" for k in range(n - 1))
    return GAME + facts + ORDER + "".join(extra)


def test_order_and_addition_over_a_chain_are_counted_as_quadratic_tables():
    desc = parse_kif(counting(60, PLUS))
    assert chains(desc) == {("succ", 2): 60}
    found = {t.relation: (t.chain, t.length, t.facts) for t in chain_tables(desc)}
    assert found == {("less", 2): (("succ", 2), 60, 1770), ("plus", 3): (("succ", 2), 60, 1770)}
    # the rule named is the recursive one, where the chain is walked
    assert {t.rule.head.name for t in chain_tables(desc)} == {"less", "plus"}
    assert all(any(getattr(a, "name", "") == t.relation[0] for a in t.rule.body) for t in chain_tables(desc))


def test_what_is_not_a_quadratic_table_is_not_counted():
    # a unary relation recursing along the chain holds one fact a constant
    reach = "(<= (reach 0)) (<= (reach ?y) (reach ?x) (succ ?x ?y))\n"
    assert chain_tables(parse_kif(counting(60).replace(ORDER, "") + reach)) == []
    # a fact given twice is one link
    assert chains(parse_kif(counting(5, "(succ 0 1)\n"))) == {("succ", 2): 5}
    # a relation that is not one to one is no chain (two successors of 0)
    assert chains(parse_kif(GAME + "(succ 0 1) (succ 0 2) (succ 1 3)" + ORDER)) == {}
    # a chain relation with a rule besides its facts is no table of facts
    assert chains(parse_kif(counting(5, "(<= (succ 9 10) (true (s 9)))\n"))) == {}
    # a recursion that reads the state is not static: it is not a table
    walked = "(<= (ahead ?x ?y) (true (s ?x)) (succ ?x ?y))\n(<= (ahead ?x ?z) (ahead ?x ?y) (succ ?y ?z))\n"
    assert chain_tables(parse_kif(counting(60).replace(ORDER, "") + walked)) == []


def test_check_groundable_refuses_over_the_limit_and_names_the_tables():
    desc = parse_kif(counting(60, PLUS))
    check_groundable(desc, limit=3540)
    with pytest.raises(GroundingTooLargeError, match=r"\(less\), \(plus\) recurse over the chain \(succ\) "
                                                     r"of 60 constants, at least 3,540 ground facts") as excinfo:
        check_groundable(desc, limit=3539)
    with pytest.raises(GroundingTooLargeError, match=r"^too large to ground: \(less\) recurses over the chain "):
        check_groundable(parse_kif(counting(60)), limit=1000)
    # the reason is the message's first line, for logs; the error survives pickling (sweeps, dask)
    error = excinfo.value
    assert str(error).startswith(error.reason + ". GDL has no arithmetic") and "\n" not in error.reason
    assert error.reason.endswith("at least 3,540 ground facts (the limit is 3,539)")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is GroundingTooLargeError and str(copy) == str(error) and copy.reason == error.reason


def test_the_clingo_machine_refuses_before_grounding_unless_the_check_is_off(monkeypatch):
    desc = parse_kif(counting(60, PLUS))
    assert ClingoMachine(desc).legal_moves(ClingoMachine(desc).initial_state(), "a")
    monkeypatch.setattr(tables, "TABLE_LIMIT", 1000)
    with monkeypatch.context() as patched:   # refused before anything is grounded
        patched.setattr("ggpbridge.gdl.machine.game_domain", lambda *a, **k: pytest.fail("grounded"))
        with pytest.raises(GroundingTooLargeError):
            ClingoMachine(desc)
    machine = ClingoMachine(desc, check=False)
    assert [str(m) for m in machine.legal_moves(machine.initial_state(), "a")] == ["go(1)"]


def test_the_validator_warns_on_the_recursive_rules_and_keeps_the_description_valid(monkeypatch):
    desc = parse_kif(counting(60, PLUS))
    assert not [d for d in validate(desc) if "ground facts" in d.message]
    monkeypatch.setattr("ggpbridge.gdl.validate.TABLE_LIMIT", 1000)
    found = [d for d in validate(desc) if "ground facts" in d.message]
    assert [(d.severity, d.rule.split()[1]) for d in found] == [("warning", "(less"), ("warning", "(plus")]
    assert found[0].line == counting(60).count("\n")   # the second rule of ORDER, the last line
    assert "1,770 ground facts, with the other tables 3,540" in found[0].message
    assert not [d for d in validate(desc) if d.severity == "error"]


def test_the_cli_names_a_refused_game_and_an_invalid_one_without_a_traceback(tmp_path):
    # 6,000 numbers: about 36 million facts, refused at the default limit before any grounding
    big = tmp_path / "big.kif"
    big.write_text(counting(6000, PLUS))
    result = CliRunner().invoke(main, ["playout", str(big), "--engine", "clingo", "-n", "1"])
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {big}: too large to ground: (less), (plus) recurse over the chain "
                                    "(succ) of 6,000 constants")
    assert "Traceback" not in result.output
    invalid = tmp_path / "invalid.kif"
    invalid.write_text("(role a)\n(<= (legal a x) (true y))\n")
    result = CliRunner().invoke(main, ["playout", str(invalid), "--engine", "clingo", "-n", "1"])
    assert result.exit_code == 2 and result.output.startswith(f"error: {invalid}: the description is not valid GDL")
    query = CliRunner().invoke(main, ["query", str(big), "terminates", "--engine", "asp"])
    assert query.exit_code == 2 and "too large to ground" in query.output


def test_crosscheck_names_the_recycle_game_whose_translation_is_too_large(tmp_path):
    game = tmp_path / "big.rcy"
    game.write_text(TOO_LARGE_GAME)
    result = CliRunner().invoke(main, ["crosscheck", str(game), "-n", "1"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.startswith(f"error: {game}: too large to ground: (less), (plus)")
