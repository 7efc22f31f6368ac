"""A `set`, `inc` or `dec` whose value goes through the tables' arithmetic ends as `overflow`
off them (offtables.py).

`data/compounding.rcy` (ours) multiplies a storage by 50 on a player's choice (or adds 49 times
it). Fitted to 0..500 without capping, a play whose product passes 500 has no row in the product
table: it must end as `overflow`, as the simulator's value off the tables is counted by the
lockstep."""
from __future__ import annotations

from pathlib import Path

import pytest

from ggpbridge.crosscheck import Lockstep
from ggpbridge.gdl.ast import Const, Func, Not
from ggpbridge.translators.recycle_gdl import Fit, to_gdl

from test_coverage_cases import differs_on, variant

GAME = Path(__file__).parent / "data" / "compounding.rcy"
PRODUCT = "(* ((current player) sto X) 50)"
SET = f"(set ((current player) sto X) {PRODUCT})"
INC = "(inc ((current player) sto X) (* ((current player) sto X) 49))"


def set_flags(desc) -> list:
    """The rules that end a play as `overflow` when a `set` finds no value (offtables.missing_value)."""
    return [r for r in desc.rules if r.head == Func("nx", (Const("overflow"),))
            and any(isinstance(x, Not) and "set_has" in repr(x.arg) for x in r.body)]


@pytest.mark.parametrize("action, flagged", [
    (SET, True), ("(set ((current player) sto X) (+ ((current player) sto X) 7))", True), (INC, True),
    ("(dec ((current player) sto X) (+ ((current player) sto X) 7))", True),
    ("(set ((current player) sto X) ((current player) sto X))", False),
    ("(set ((current player) sto X) 7)", False), ("(inc ((current player) sto X) 7)", False),
    ("(set ((current player) sto X) (// ((current player) sto X) 2))", False)])
def test_only_a_change_through_sums_or_products_is_flagged(action, flagged):
    game = variant(GAME, SET, action, "flagged").game
    for fit in (None, Fit({}, {"X": (0, 500)})):
        assert bool(set_flags(to_gdl(game, fit=fit))) == flagged, (action, fit)


def _fitted_to_500(monkeypatch, action: str = SET) -> Lockstep:
    import ggpbridge.translate
    # fitted by hand below any cap (capped.py), so that a product leaves the tables
    monkeypatch.setattr(ggpbridge.translate, "measured_fit", lambda *a, **k: Fit({}, {"X": (0, 500)}))
    ls = Lockstep(variant(GAME, SET, action, "compounding"), fit=1)
    assert not ls.tr.capped
    return ls


@pytest.mark.slow
@pytest.mark.parametrize("action", [SET, INC])
def test_a_product_off_uncapped_tables_ends_as_overflow_in_lockstep(monkeypatch, action):
    ls = _fitted_to_500(monkeypatch, action)
    endings = [ls.play(seed)[-1] for seed in range(12)]
    assert "overflow" in endings and "over" in endings, endings
    assert ls.overflow_kind == "tables"


@pytest.mark.slow
@pytest.mark.parametrize("action", [SET, INC])
def test_the_same_product_left_unflagged_is_caught_by_the_lockstep(monkeypatch, action):
    ls = _fitted_to_500(monkeypatch, action)
    desc = ls.tr.description
    flags = set_flags(desc)
    assert flags
    differs_on(ls, tuple(r for r in desc.rules if r not in flags), 12)
