"""Figures CardStock reports for its games, reproduced with fixed seeds and honest tolerances."""
from __future__ import annotations

import pytest

from conftest import CORPUS, GAMES
from ggpbridge.recycle import parse_file
from ggpbridge.sim import compile_loaded, simulate


def stats_of(path, n, seed=0, **kw):
    return simulate(compile_loaded(parse_file(path), kw.get("sets")), n, seed, detailed=kw.get("detailed", False)).report()


@pytest.fixture(scope="module", params=["corpus", "ours"])
def agram(request):
    if request.param == "corpus":
        if not (CORPUS / "rcy/Agram4.rcy").exists():
            pytest.skip("corpus absent")
        return stats_of(CORPUS / "rcy/Agram4.rcy", 3000, seed=11, detailed=True)
    return stats_of(GAMES / "agram.rcy", 3000, seed=11, detailed=True)


def test_agram_seats_win_a_quarter_each(agram):
    # CardStock: 25% per seat (+-1.5 points over 20,000 games); 3,000 games give a standard
    # error of 0.8 points, so 2.5 points is a 3-sigma band.
    assert agram["finished"] == 3000
    for seat in agram["seats"]:
        assert abs(seat["win_share"] - 0.25) < 0.025, seat


def test_agram_has_24_choices_and_the_leader_has_6_5_4_options(agram):
    assert agram["choices_per_game"]["distribution"] == {24: 3000}
    by = {tuple(x["iterations"]): x["mean_options"] for x in agram["branching"]["by_stage_iteration"]}
    assert [by[(t, 1)] for t in (1, 2, 3)] == [6.0, 5.0, 4.0]
    for t in (1, 2, 3):
        for pos in (2, 3, 4):
            assert 2.3 <= by[(t, pos)] <= 2.6, (t, pos, by[(t, pos)])


@pytest.mark.parametrize("path", [GAMES / "pairs.rcy", CORPUS / "rcy/Pairs4.rcy"], ids=["ours", "corpus"])
def test_pairs_offers_exactly_two_options_at_every_choice(path):
    if not path.exists():
        pytest.skip("corpus absent")
    rep = stats_of(path, 300, detailed=True)
    assert rep["finished"] == 300
    assert all(x["mean_options"] == 2.0 for x in rep["branching"]["by_stage_iteration"])
    assert rep["branching"]["forced_share"] == 0.0


def test_war_with_the_winners_card_first_never_cycles_in_practice():
    rep = stats_of(GAMES / "war.rcy", 150)
    assert rep["finished"] == 150 and rep["cycles"] == 0


def test_small_war_cycles_depend_on_the_return_order():
    seat = stats_of(GAMES / "war_n4_seat.rcy", 200)
    winner = stats_of(GAMES / "war_n4_winner.rcy", 200)
    assert seat["cycles"] > 0 and seat["cycles"] + seat["finished"] == 200
    assert winner["cycles"] == 0 and winner["finished"] == 200
    assert len(seat["runaway_seeds"]["cycle"]) >= 1


def test_war_as_cardstock_plays_it_cycles_on_about_a_fifth_of_deals():
    # CardStock saw 18-21% of deals cycle (the paper: 16.8%); 150 deals give a standard
    # error of about 3 points, so 8-30% is a fair band. Cycles are proven repeats, never scored.
    rep = stats_of(GAMES / "war_cardstock.rcy", 150)
    assert rep["unfinished"] == 0 and rep["errors"] == 0
    assert 0.08 <= rep["cycles"] / 150 <= 0.30, rep["cycles"]


@pytest.mark.parametrize("name", ["agram.rcy", "war_n6_seat.rcy", "kuhn_poker.rcy", "hearts.rcy"])
def test_fast_and_reference_engines_report_the_same_games(name):
    fast = stats_of(GAMES / name, 60, seed=5)
    ref = stats_of(GAMES / name, 60, seed=5, detailed=True)
    assert fast["engine"] == "fast" and ref["engine"] == "reference"
    for rep in (fast, ref):
        for k in ("seconds", "games_per_second", "engine"):
            rep.pop(k)
    assert fast["branching"].pop("by_stage_iteration") == []
    ref["branching"].pop("by_stage_iteration")
    assert fast == ref
