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


def test_chance_in_several_operands_is_drawn_in_the_simulators_order():
    # a move's source before its destination, a value before its storage, left to right
    _agree_to_the_end(SIM_DATA / "chance_operands.rcy", 6)


@pytest.mark.parametrize("game", ["repeat_all_sources.rcy", "repeat_all_tuple.rcy"])
def test_repeat_all_over_changing_sources(game):
    # filters (onto another location and onto their own), a max, a location onto itself,
    # the first pair of a hand: each translated and played as the simulator plays it
    _agree_to_the_end(SIM_DATA / game, 6)


def test_repeat_all_over_a_source_the_translation_cannot_copy_says_which(tmp_path):
    from ggpbridge.errors import UnsupportedConstructError
    from ggpbridge.translators.recycle_gdl import to_gdl
    game = tmp_path / "union.rcy"
    game.write_text("""(game (setup (create players 2)
        (create deck (game vloc A) (deck (RANK (ONE, TWO)) (SUIT (RED)))))
      (do ((repeat all (move (top (union (game vloc A) (game vloc B))) (top (game vloc C))))))
      (scoring max 0))""")
    with pytest.raises(UnsupportedConstructError) as info:
        to_gdl(parse_file(game).game)
    assert "'repeat all' over (union" in str(info.value) and ":3:12:" in str(info.value)
