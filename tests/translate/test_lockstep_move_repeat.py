"""Lockstep (simulator against clingo on the translation) on moves that read what they change
and on `repeat all` (issue #32): both sides play every game to its end and agree."""
from __future__ import annotations

from pathlib import Path

import pytest

from ggpbridge.crosscheck import crosscheck
from ggpbridge.recycle import parse_file

SIM_DATA = Path(__file__).parent.parent / "sim" / "data"


def _agree_to_the_end(path, n):
    rep = crosscheck(parse_file(path), n, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.rule_errors == [] and rep.broken == [] and rep.overflowed == [], rep.as_dict()
    assert rep.playouts == n and rep.chance > 0
    return rep


def test_trick_to_the_owner_of_the_highest_card():
    _agree_to_the_end(SIM_DATA / "trick_to_owner.rcy", 6)
