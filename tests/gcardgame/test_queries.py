"""`query` on a small UNO (docs/gcardgame.md, "Table 5" and the deck's declared size): six cards
(numbers 1-3 of two suits), one dealt to each of the three players and one to T0, two left to
draw. The whole game is searched by the explicit engine; the asp engine (clingo on the GDL-II
translation) takes minutes per question, so it runs with GGPBRIDGE_SLOW_TESTS=1."""
from __future__ import annotations

import os

import pytest

from conftest import GAMES
from ggpbridge.query.answer import YES
from ggpbridge.query.run import run_query

UNO = str(GAMES / "uno.gcg")
SMALL = {"NUMBERS": 3, "SUITS": 2, "DEALA": 1}
SLOW = os.environ.get("GGPBRIDGE_SLOW_TESTS") == "1"
pytestmark = pytest.mark.slow


@pytest.mark.parametrize("question, role", [("terminates", None), ("winnable", 0), ("winnable", 2)])
def test_small_uno_on_the_explicit_engine(question, role):
    (a,) = run_query(UNO, question, role, engine="explicit", overrides=SMALL, timeout=300)
    assert a.verdict == YES, (a.method, a.limit)
    if question == "winnable":   # the winning play is kept, and ends with that seat winning
        assert a.witness is not None


@pytest.mark.skipif(not SLOW, reason="minutes of clingo; runs with GGPBRIDGE_SLOW_TESTS=1")
@pytest.mark.parametrize("question, role", [("terminates", None), ("winnable", 0)])
def test_small_uno_on_both_engines(question, role):
    explicit, asp = run_query(UNO, question, role, engine="both", overrides=SMALL, timeout=1800)
    assert explicit.verdict == YES and asp.verdict == YES, (explicit.method, asp.method, asp.limit)
