"""Fitted storages beyond any table (capped.py): capped at the game's bounds, checked in lockstep.

`data/compounding.rcy` (ours) multiplies a storage by 50 on a player's choice: three products
reach 125,000, most plays stay under 400, as CardStock's Poker compounds its scores."""
from __future__ import annotations

from pathlib import Path

import pytest

from ggpbridge.crosscheck import Lockstep
from ggpbridge.gdl.ast import Func
from ggpbridge.recycle import parse_file
from ggpbridge.translators.recycle_gdl import Fit, to_gdl
from ggpbridge.translators.recycle_gdl.capped import CAP_FROM, capped_keys

from test_coverage_cases import differs_on, variant
from test_offtables import set_flags

DATA = Path(__file__).parent / "data"
GAME = DATA / "compounding.rcy"


def _rooms(desc) -> list[int]:
    return sorted(int(r.head.args[1].name.replace("m", "-")) for r in desc.rules
                  if not r.body and isinstance(r.head, Func) and r.head.name == "int_room")


def test_only_a_range_of_cap_from_numbers_or_more_is_capped():
    # CAP_FROM - 1 numbers, and then CAP_FROM (0 is always in a storage's room)
    assert capped_keys({"A": (0, CAP_FROM - 2), "B": (-5, 3)}) == frozenset()
    assert capped_keys({"A": (0, CAP_FROM - 2), "B": (-1, CAP_FROM - 2), "C": (5, CAP_FROM - 1)}) == {"B", "C"}


def test_a_capped_storage_keeps_the_static_tables():
    game = parse_file(GAME).game
    small = to_gdl(game, fit=Fit({}, {"X": (0, 3_000)}))
    capped = to_gdl(game, fit=Fit({}, {"X": (0, 125_000)}))
    # under the cap the fitted range widens the tables; above it the game's own bounds stay
    assert _rooms(small)[-1] >= 3_000
    assert 400 <= _rooms(capped)[-1] < 1_000
    # a `set` whose product is off the tables ends the play as `overflow`, capped or not
    # (offtables.py); a capped storage flags every computed `set`, below
    assert set_flags(capped) and set_flags(small)


def test_a_capped_storage_flags_a_set_of_any_computed_value():
    plain = variant(GAME, "(* ((current player) sto X) 50)", "((current player) sto Y)", "plain").game
    assert not set_flags(to_gdl(plain, fit=Fit({}, {"X": (0, 3_000)})))
    assert set_flags(to_gdl(plain, fit=Fit({}, {"X": (0, 125_000)})))


@pytest.mark.slow
def test_a_capped_game_agrees_in_lockstep_and_overflows_past_the_cap():
    ls = Lockstep(parse_file(GAME), fit=20)
    assert ls.tr.capped == {"X"}
    endings = [ls.play(seed)[-1] for seed in range(12)]
    assert "overflow" in endings and "over" in endings, endings


@pytest.mark.slow
def test_a_product_off_the_tables_left_unflagged_is_caught_by_the_lockstep():
    ls = Lockstep(parse_file(GAME), fit=20)
    desc = ls.tr.description
    # the `set` of a product off the tables no longer ends the play: the storage silently stays
    flags = set_flags(desc)
    bad = tuple(r for r in desc.rules if r not in flags)
    assert len(bad) < len(desc.rules)
    differs_on(ls, bad, 12)
