"""The IR extension BestSum (docs/gcardgame.md decision 15): a sum whose two-valued cards
count high as often as the bound allows, the same on both simulators, in JSON, and refused
by the RECYCLE printer (RECYCLE has no such form)."""
from __future__ import annotations

from dataclasses import fields, replace

import pytest

from conftest import best_sums
from ggpbridge import ir
from ggpbridge.errors import UnsupportedConstructError
from ggpbridge.ir_json import from_data, to_data
from ggpbridge.recycle import parse_text
from ggpbridge.recycle.check import check
from ggpbridge.sim import compile_loaded, fast_path, play_fast
from ggpbridge.sim.ops import best_sum
from ggpbridge.sim.players import make_players
from ggpbridge.sim.playout import FINISHED, play
from ggpbridge.translators.recycle_text import to_text


@pytest.mark.parametrize("low, high, bound, want", [
    ([1, 10], [10, 10], 21, 20),          # ace and king: the ace counts 10
    ([1, 1, 9], [10, 10, 9], 21, 20),     # two aces and a nine: one ace high (29 would bust)
    ([1, 1], [10, 10], 21, 20),           # two aces: 11, then 20
    ([1, 1, 10], [10, 10, 10], 21, 21),   # 12, then 21; a second raise would make 30
    ([10, 10, 5], [10, 10, 5], 21, 25),   # over the bound with every card low: the low total
    ([1, 10, 10], [10, 10, 10], 21, 21),  # the ace stays 1
    ([1, 2], [5, 3], 5, 4),               # raises 4 and 1: the smaller first, the larger does not fit
    ([], [], 21, 0),
])
def test_best_sum_raises_as_many_cards_as_the_bound_allows(low, high, bound, want):
    assert best_sum(low, high, bound) == want


# STOCK, bottom to top: ACE-RED, ACE-BLUE, KING-RED, KING-BLUE, NINE-RED, NINE-BLUE
GAME = ("(game (setup (create players 1) (create deck (game iloc STOCK) (deck (RANK (ACE, KING, NINE)) "
        "(SUIT (RED, BLUE)))))"
        " (do ((set (game points LOW) (((RANK : ACE) 1) ((RANK : KING) 10) ((RANK : NINE) 9)))"
        " (set (game points HIGH) (((RANK : ACE) 10) ((RANK : KING) 10) ((RANK : NINE) 9)))"
        " (set (game sto N) (sum ({end} {k} (game iloc STOCK)) using (game points LOW)))))"
        " (scoring max (game sto N)))")


def best_sum_game(end: str, k: int, bound: int):
    loaded = parse_text(GAME.format(end=end, k=k), "bestsum.rcy")
    return replace(loaded, game=best_sums(loaded.game, bound))


@pytest.mark.parametrize("end, k, bound, want", [
    ("bottom", 2, 21, 20), ("bottom", 3, 21, 21), ("bottom", 4, 21, 22), ("top", 2, 21, 18),
    ("bottom", 1, 5, 1), ("bottom", 1, 10, 10), ("bottom", 2, 11, 11),
])
def test_both_simulators_compute_the_best_sum(end, k, bound, want):
    loaded = best_sum_game(end, k, bound)
    assert [d.format() for d in check(loaded.game, loaded.source)] == []
    prog = compile_loaded(loaded)
    slow = play(prog, 0, make_players("random", 1, 0))
    fast = fast_path(prog)
    assert fast is not None
    quick = play_fast(prog, fast, 0, make_players("random", 1, 0), 1000)
    assert (slow.status, slow.scores) == (FINISHED, [want])
    assert (quick.status, quick.scores) == (FINISHED, [want])


def test_the_checker_types_its_parts():
    loaded = best_sum_game("bottom", 2, 21)
    (bs,) = [n for n in loaded.game.walk() if isinstance(n, ir.BestSum)]
    bad = replace(bs, bound=ir.Name("TWENTYONE"))
    game = swap_node(loaded.game, bs, bad)
    errors = [d.format() for d in check(game, loaded.source)]
    assert len(errors) == 1 and "bound" in errors[0]


def swap_node(x, old, new):
    if x is old:
        return new
    if isinstance(x, ir.Node):
        return replace(x, **{f.name: swap_node(getattr(x, f.name), old, new) for f in fields(x) if f.name != "pos"})
    if isinstance(x, tuple):
        return tuple(swap_node(v, old, new) for v in x)
    return x


def test_json_round_trip_and_the_printer_refuses():
    game = best_sum_game("bottom", 2, 21).game
    assert from_data(to_data(game)) == game
    with pytest.raises(UnsupportedConstructError) as info:
        to_text(game)
    assert "BestSum" in info.value.message
