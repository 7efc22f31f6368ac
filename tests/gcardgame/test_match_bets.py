"""Texas hold'em and Blackjack (games/*.gcg, lowered, then translated) played as GGP matches, in
GDL-II and in the GDL relaxation: the manager and a player server over HTTP. The variants are
the smallest that still reach every rule (docs/gcardgame.md, "Texas and Blackjack on the other
engines"): Texas with numbers 1-8 of four suits (every poker play occurs) and Blackjack with one
suit of 13 (figures, aces as 1 and as 10, busts), two tokens each: tests/gcardgame/
test_small_variants.py. Their translations are small since the setup is folded (sim/fold.py:
the cards beyond the declared deck are not created), so a bounded match of each runs in every
full run, and so does Blackjack's whole match in GDL; the other whole matches, many minutes
each, with GGPBRIDGE_SLOW_TESTS=1 (docs/gcardgame.md has their times)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ggp"))
from ggp_helpers import match_over_http, replays_legally  # noqa: E402

from conftest import GAMES  # noqa: E402
from gcardgame.variants import BLACKJACK, TEXAS  # noqa: E402
from ggpbridge.gdl.machine import ClingoMachine  # noqa: E402
from ggpbridge.translate import load_description  # noqa: E402

VARIANTS = {
    "texas": (GAMES / "texas_holdem.gcg", TEXAS),
    "blackjack": (GAMES / "blackjack.gcg", BLACKJACK),
}
SLOW = os.environ.get("GGPBRIDGE_SLOW_TESTS") == "1"   # not CI=true: whole matches pass its time budget
pytestmark = pytest.mark.slow


def translated(game: str, version: int):
    path, sets = VARIANTS[game]
    desc = load_description(path, version, overrides=sets)
    return desc, ClingoMachine(desc)


@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_gdl2_over_http_until_the_step_cap(game):
    desc, machine = translated(game, 2)
    record = match_over_http(desc, machine, gdl=2, seed=2, startclock=120, playclock=10, max_steps=8, game=game)
    assert record["roles"] == ["player0", "player1", "player2", "random"]
    assert record["aborted"] and record["steps"] == 8 and record["errors"] == []
    replays_legally(machine, record, ends=True)


# Blackjack in GDL takes about 45 s of CPU (player included) and runs in every full run; the
# others pass a CI budget: a GDL-II player tracks what it cannot see, and Texas's game is longer
GATED = pytest.mark.skipif(not SLOW, reason="a whole match takes many minutes; runs with GGPBRIDGE_SLOW_TESTS=1")


@pytest.mark.parametrize("game, version", [("blackjack", 1), pytest.param("blackjack", 2, marks=GATED),
                                           pytest.param("texas", 1, marks=GATED),
                                           pytest.param("texas", 2, marks=GATED)])
def test_whole_match(game, version):
    desc, machine = translated(game, version)
    record = match_over_http(desc, machine, {"player1": "builtin:random", "player2": "builtin:random"},
                             gdl=version, seed=1, startclock=300, playclock=20, game=game)
    assert not record["aborted"]
    if version == 1:
        assert record["errors"] == []
    else:
        # a GDL-II player may lose track of the hidden cards (docs/ggp.md): an illegal move is
        # replaced by the manager and recorded; nothing else may go wrong
        assert {e["kind"] for e in record["errors"]} <= {"illegal"}
    goals = sorted(record["goals"][r] for r in ("player0", "player1", "player2"))
    # the most tokens win (winning `token 1`): one or more seats on top at 100, the others 0
    assert goals[-1] == 100 and set(goals) <= {0, 100}, record["goals"]
    replays_legally(machine, record, ends=True)
