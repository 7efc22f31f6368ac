"""`all` over `runs largest` whose body reads only the run's size (translators/recycle_gdl/
runcounts.py): runs with a score held twice counted as CardStock lists their variants."""
from __future__ import annotations

import pytest

from ggpbridge.crosscheck import crosscheck
from ggpbridge.recycle import parse_file
from ggpbridge.translators.recycle_gdl import runcounts
from ggpbridge.translators.recycle_gdl.terms import const, f, rule

from test_coverage_cases import DATA

GAME = DATA / "hand_runs.rcy"


def lockstep():
    return crosscheck(parse_file(GAME), 8, seed=0)


@pytest.mark.slow
def test_runs_with_scores_held_twice_agree_with_the_simulator():
    rep = lockstep()
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 8 and rep.rule_errors == [] and rep.overflowed == []


@pytest.mark.slow
def test_the_same_plays_walked_without_counting_variants_end_as_overflow(monkeypatch):
    # the seeds above do meet runs with a score held twice: runloops.py's walk stops there
    monkeypatch.setattr(runcounts, "counts_variants", lambda n, bags: False)
    rep = lockstep()
    assert rep.divergence is None, rep.divergence
    assert rep.overflowed and set(rep.overflow_kinds) == {"run variants"}


@pytest.mark.slow
def test_variants_counted_once_each_are_found_by_the_lockstep(monkeypatch):
    real = runcounts._count_cards

    def once(flow, r, env, args, dom):   # every score held by one card: a run counted once
        count, one = real(flow, r, env, args, dom), flow.fresh.pred("one")
        v, m = flow.fresh.var("v"), flow.fresh.var("m")
        flow.rules.append(rule(f(one, *args, v, const(1)), f(count, *args, v, m)))
        return one
    monkeypatch.setattr(runcounts, "_count_cards", once)
    rep = lockstep()
    assert rep.divergence is not None and "state" in rep.divergence["what"]
