"""Integers too many for tables (wide.py): two digits with carries, checked in lockstep.

`data/wide_scores.rcy` (ours) sums card scores of hundreds into scores of thousands, both
ways (about 4,600 integers): the translation adds, subtracts and compares them by digits."""
from __future__ import annotations

from pathlib import Path

import pytest

from ggpbridge.crosscheck import Lockstep, crosscheck
from ggpbridge.gdl.ast import Description, Func
from ggpbridge.gdl.tables import estimate
from ggpbridge.recycle import parse_file
from ggpbridge.translators.recycle_gdl import to_gdl
from ggpbridge.translators.recycle_gdl import wide

from test_coverage_cases import differs_on

DATA = Path(__file__).parent / "data"


def _facts(desc, name):
    """The facts of a relation, numbers as ints (`m5` is -5), other constants as names."""
    def value(c):
        t = c.name
        return -int(t[1:]) if t[:1] == "m" and t[1:].isdigit() else int(t) if t.isdigit() else t
    return {tuple(value(a) for a in r.head.args) for r in desc.rules
            if not r.body and isinstance(r.head, Func) and r.head.name == name}


def test_digits_add_subtract_and_compare_as_integers_do():
    w = wide.wide_range(-130, 130)
    assert w is None   # few integers keep the tables
    w = wide.wide_range(-1600, 1600)
    desc = Description(tuple(wide.facts(w)))
    B = w.base
    assert B * B >= 3201 > (B - 1) * (B - 1)
    digits = {n: (h, lo) for n, h, lo in _facts(desc, "ndig") if n != "inf"}
    assert len(digits) == 3201 and all(h * B + lo == n and 0 <= lo < B for n, (h, lo) in digits.items())
    ladd = {(x, y): (z, c) for x, y, z, c in _facts(desc, "ladd")}
    hadd = {(x, y, c): z for x, y, c, z in _facts(desc, "hadd")}
    for a, b in [(0, 0), (57, 58), (-1600, 1600), (999, 601), (-5, -7), (1234, -1234)]:
        (ah, al), (bh, bl) = digits[a], digits[b]
        zl, c = ladd[al, bl]
        assert hadd[ah, bh, c] * B + zl == a + b
    # a sum beyond the range has no high digit: the caller sees no value (overflow)
    (ah, al), (bh, bl) = digits[1500], digits[200]
    assert (ah, bh, ladd[al, bl][1]) not in hadd
    cmp = {(x, y): r for x, y, r in _facts(desc, "hcmp")}
    assert cmp[digits[-300][0], digits[700][0]] == "lt" and cmp[digits[1600][0], digits[1600][0]] == "eq"
    inf = {n: (h, lo) for n, h, lo in _facts(desc, "ndig") if n == "inf"}["inf"]
    assert all(cmp[h, inf[0]] == "lt" for h, _ in digits.values())   # `inf` is above every number


def test_the_translation_of_a_wide_game_has_no_table_of_pairs():
    desc = to_gdl(parse_file(DATA / "wide_scores.rcy").game)
    heads = {r.head.name for r in desc.rules if isinstance(r.head, Func)}
    assert "ndig" in heads and not heads & {"plus", "leq", "positive"}
    assert not any(isinstance(x, Func) and x.name in ("less", "leq", "plus") for r in desc.rules for x in r.body)
    tables, total = estimate(desc)
    assert total < 10_000, tables   # only the positions' chains; the tables would be 39 million facts
    nums = [r for r in desc.rules if not r.body and isinstance(r.head, Func) and r.head.name == "num"]
    assert len(nums) > wide.WIDE_FROM


@pytest.mark.slow
def test_a_wide_game_agrees_in_lockstep():
    rep = crosscheck(parse_file(DATA / "wide_scores.rcy"), 6)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 6 and rep.overflowed == [] and rep.rule_errors == [], rep.as_dict()


@pytest.mark.slow
def test_a_carry_lost_is_caught_by_the_lockstep():
    ls = Lockstep(parse_file(DATA / "wide_scores.rcy"))
    desc = ls.tr.description
    # the high digit of a sum forgets the carry of the low digits
    bad = tuple(r for r in desc.rules if not (not r.body and r.head.name == "hadd" and r.head.args[2].name == "1"))
    bad += tuple(type(r)(Func("hadd", r.head.args[:2] + (r.head.args[2].__class__("1"), r.head.args[3])), ())
                 for r in desc.rules if not r.body and r.head.name == "hadd" and r.head.args[2].name == "0")
    differs_on(ls, bad, 6)
