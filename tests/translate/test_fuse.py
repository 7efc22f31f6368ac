"""Fewer steps and no deep recursion for top-down provers: folded steps (fuse.py), ordered tables (kernel.py)."""
from __future__ import annotations

from pathlib import Path

import clingo
import pytest

from conftest import GAMES
from ggpbridge.crosscheck import Lockstep
from ggpbridge.gdl.ast import Const, Func, Not, Var
from ggpbridge.gdl.machine import ClingoMachine
from ggpbridge.recycle import parse_file
from ggpbridge.translators.recycle_gdl import Translation, fuse, kernel

DEPS = Path(__file__).parent / "data" / "fuse_dependencies.rcy"


def _asp(x) -> str:
    if isinstance(x, Var):
        return "V" + x.name.lstrip("?")
    if isinstance(x, Const):
        return x.name
    if isinstance(x, Not):
        return "not " + _asp(x.arg)
    return f"{x.name}({','.join(_asp(a) for a in x.args)})"


def _model(rules) -> set:
    text = "\n".join(_asp(r.head) + (" :- " + ", ".join(map(_asp, r.body)) if r.body else "") + "." for r in rules)
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], text)
    ctl.ground([("base", [])])
    out = set()
    ctl.solve(on_model=lambda m: out.update(str(s) for s in m.symbols(atoms=True)))
    return out


def _num(x: int) -> str:
    return str(x) if x >= 0 else f"m{-x}"


@pytest.mark.parametrize("lo,hi", [(-6, 6), (0, 9), (-9, 0), (-2, 11)])   # the tables hold 0
def test_the_reordered_tables_are_still_order_and_addition(lo, hi):
    model = _model(kernel.numbers(lo, hi, plus=True, times=True))
    r = range(lo, hi + 1)
    assert {a for a in model if a.startswith("less(")} == {f"less({_num(a)},{_num(b)})" for a in r for b in r if a < b}
    assert {a for a in model if a.startswith("plus(")} == {
        f"plus({_num(a)},{_num(b)},{_num(a + b)})" for a in r for b in r if lo <= a + b <= hi}
    assert {a for a in model if a.startswith("times(")} == {
        f"times({_num(a)},{_num(b)},{_num(a * b)})" for a in r for b in r
        if lo <= a * b <= hi and all(lo <= a * k <= hi for k in range(0, b, 1 if b >= 0 else -1))}


def test_recursive_tables_bind_the_chain_before_recursing():
    # A top-down prover (ggp-base, the GameController) reads a body left to right without tabling:
    # a recursive literal first makes it enumerate the whole relation at every level (Kuhn poker:
    # 5 to 10 s for one `plus` query, and the GameController's stack overflowed).
    desc = Translation(parse_file(GAMES / "kuhn_poker.rcy").game, 1).description
    recursive = [r for r in desc.rules if r.head.name in ("less", "plus", "reached")
                 and any(isinstance(x, Func) and x.name == r.head.name for x in r.body)]
    assert {r.head.name for r in recursive} == {"less", "plus", "reached"}
    for r in recursive:
        first = r.body[0]
        assert isinstance(first, Func) and first.name in ("succ", "positive", "negative"), r
        if r.head.name == "plus":   # and b walks towards 0 only, bound before the recursion
            assert r.body[1].name == "succ"


def _label(desc, key: str, reads: str | None = None, step: int | None = None) -> set:
    """The labels of the steps that write integer storage KEY: those whose body reads storage
    READS (else KEY itself) and adds the constant STEP (when given)."""
    out = set()
    for r in desc.rules:
        if r.head.name != "set_int" or r.head.args[0] != Const(key):
            continue
        body = [x for x in r.body if isinstance(x, Func)]
        if reads is not None and not any(x.name == "int_value" and x.args[0] == Const(reads) for x in body):
            continue
        if step is not None and not any(x.name == "plus" and Const(str(step)) in x.args for x in body):
            continue
        out |= {x.args[0].args[0].name for x in body if x.name == "true" and x.args[0].name == "pc"}
    return out


def test_independent_instructions_share_a_step_and_dependent_ones_do_not():
    game = parse_file(DEPS).game
    flat = Translation(game, 2, fold=False).description
    folded = Translation(game, 2).description
    # unfolded: every increment is a step of its own
    assert len(_label(flat, "x") | _label(flat, "y") | _label(flat, "z") | _label(flat, "chips")) == 9

    def one(*args):
        (lab,) = _label(folded, *args)
        return lab
    # option 0 goes on with Y += 1 and X += 1, independent of each other: one step
    opt0 = one("y", "y", 1)
    assert opt0 in _label(folded, "x", "x", 1)
    # setup: X += 1 twice, then Y += X: each reads what the one before wrote
    setup_x = _label(folded, "x", "x", 1) - {opt0}
    assert len(setup_x) == 2 and one("y", "x") not in setup_x
    # Z += 3 reads and writes nothing of Y += X's
    assert one("z", "z", 3) == one("y", "x")
    # the options' first instructions run in the decision's step, on the move made
    choice = {x.args[0].args[0].name for r in folded.rules if r.head.name == "option_ok"
              for x in r.body if isinstance(x, Func) and x.name == "true"}
    assert {one("chips", "x"), one("y", "y", 2)} == choice
    # option 1: Y += 2, then CHIPS += Y reads it
    assert one("y", "y", 2) != one("chips", "y")


def _played(ls, seeds) -> int:
    steps = []
    next_state = ls.gdl.next_state
    ls.gdl.next_state = lambda s, joint: (steps.append(joint), next_state(s, joint))[1]
    for seed in seeds:
        ls.play(seed)   # raises on a divergence from the simulator
    return len(steps)


@pytest.mark.parametrize("game", [DEPS, GAMES / "kuhn_poker.rcy"], ids=lambda p: p.name)
def test_folded_steps_agree_with_the_simulator_in_fewer_steps(game):
    loaded = parse_file(game)
    folded = Lockstep(loaded)
    flat = Lockstep(loaded)
    flat.tr = Translation(loaded.game, 2, fold=False)
    flat.gdl = ClingoMachine(flat.tr.description, percepts=True)
    n_folded, n_flat = _played(folded, range(8)), _played(flat, range(8))
    assert n_folded < n_flat


def test_without_the_dependency_check_the_lockstep_finds_the_difference(monkeypatch):
    # the test above could not fail if folding dependent steps went unnoticed: fold them all
    monkeypatch.setattr(fuse, "_conflict", lambda *a, **k: False)
    ls = Lockstep(parse_file(DEPS))
    with pytest.raises(Exception) as info:
        for seed in range(8):
            ls.play(seed)
    assert "differ" in info.value.detail["what"]


SMALL_HANDS = Path(__file__).parent / "data" / "shuffle_small_hands.rcy"


def test_a_shuffle_of_one_card_folded_keeps_one_program_counter():
    # A hand of one card: the shuffle's last position and its `size <= 1` shortcut both go on to
    # the next label. Folding that label through one of the two ways left the other going to it
    # too: two `pc` fluents in the next state (war_abilities.rcy at RANKS=2 SUITS=1 diverged so).
    loaded = parse_file(SMALL_HANDS)
    for fold in (False, True):
        ls = Lockstep(loaded)
        ls.tr = Translation(loaded.game, 2, fold=fold)
        ls.gdl = ClingoMachine(ls.tr.description, percepts=True)
        for seed in range(4):
            assert ls.play(seed)[-1] == "over"   # raises on a divergence from the simulator
