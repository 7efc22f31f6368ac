"""The 95% interval of each seat's win share (Wilson score), and how simulate explains its figures."""
from __future__ import annotations

import json
import math

from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main
from ggpbridge.sim.stats import wilson


def test_wilson_matches_the_closed_form_on_textbook_cases():
    # 50 of 100: the classic 0.404..0.596; 0 of 10: lower bound 0, upper z^2/(n+z^2)
    lo, hi = wilson(50, 100)
    assert math.isclose(lo, 0.40383, abs_tol=1e-5) and math.isclose(hi, 0.59617, abs_tol=1e-5)
    lo, hi = wilson(0, 10)
    assert lo == 0 and math.isclose(hi, 1.96 ** 2 / (10 + 1.96 ** 2), abs_tol=1e-4)
    assert wilson(0, 0) is None


def test_a_fractional_count_lies_between_its_neighbours():
    # ties split the win 1/k: 12.5 wins of 40 gives an interval between those of 12 and 13
    a, b, c = wilson(12, 40), wilson(12.5, 40), wilson(13, 40)
    assert a[0] < b[0] < c[0] and a[1] < b[1] < c[1]


def test_simulate_reports_and_explains_the_interval():
    r = CliRunner().invoke(main, ["simulate", str(GAMES / "kuhn_poker.rcy"), "-n", "40", "--json"])
    rep = json.loads(r.stdout)
    for s in rep["seats"]:
        lo, hi = s["win_interval"]
        assert lo <= s["win_share"] <= hi
    text = CliRunner().invoke(main, ["simulate", str(GAMES / "kuhn_poker.rcy"), "-n", "40"]).output
    assert "95%" in text and "rank 1 is the best" in text and "steps" in text
