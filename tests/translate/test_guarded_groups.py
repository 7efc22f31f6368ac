"""A partition walked only when every value has a group (partguard.py, issue #38: Scopa's
primiera), lock-stepped on a game of ours (tests/translate/data/guarded_groups.rcy) whose worths
tie, so that the simulator's scans draw coins."""
from __future__ import annotations

import pytest

from ggpbridge import ir
from ggpbridge.crosscheck import crosscheck
from ggpbridge.errors import UnsupportedConstructError
from ggpbridge.recycle import parse_file, parse_text
from ggpbridge.translate import translate_loaded
from ggpbridge.translators.recycle_gdl import loops, partguard

from conftest import ROOT

GAME = ROOT / "tests" / "translate" / "data" / "guarded_groups.rcy"


@pytest.mark.slow
def test_best_worths_of_every_colour_agree_with_the_simulator():
    rep = crosscheck(parse_file(GAME), 20, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 20 and rep.rule_errors == [], rep.as_dict()
    # 20 plays of a 12-card deck shuffle 11 times each: the rest are the scans' coins
    assert rep.chance > 20 * 11, rep.as_dict()


@pytest.mark.slow
def test_a_walk_without_its_guard_diverges(monkeypatch):
    # broken on purpose: every colour's best worth is added even when a colour has no card
    def unguarded(n, values):
        walk = partguard.guarded_walk(n, values)
        return walk.body if isinstance(walk, ir.CondAct) else walk
    monkeypatch.setattr(loops, "guarded_walk", unguarded)
    rep = crosscheck(parse_file(GAME), 20, seed=0)
    assert rep.divergence is not None and "differ" in rep.divergence["what"], rep.as_dict()


def test_a_guard_on_fewer_groups_than_values_stays_refused_with_its_position():
    text = GAME.read_text()
    assert "((== (size 'PARTS) 3)" in text
    loaded = parse_text(text.replace("((== (size 'PARTS) 3)", "((== (size 'PARTS) 2)"), "two_groups.rcy")
    with pytest.raises(UnsupportedConstructError) as info:
        translate_loaded(loaded, 2)
    e = info.value
    assert "'let' of a partition" in e.message and (e.pos.line, e.pos.col) == (13, 23), e
