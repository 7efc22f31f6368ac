"""Lockstep (simulator against clingo on the translation) on the IR extension BestSum: a hand
whose aces count 1 or 10 against a fixed score, so that the goals say on which side of it the
best sum fell; and a small Blackjack played to its end."""
from __future__ import annotations

from dataclasses import replace

import pytest

from conftest import GAMES, best_sums
from ggpbridge import ir
from ggpbridge.crosscheck import crosscheck
from ggpbridge.gcardgame import parse_text as parse_gcg, to_recycle
from ggpbridge.recycle import parse_text

# STOCK, bottom to top: ACE-RED, ACE-BLUE, KING-RED, KING-BLUE, NINE-RED, NINE-BLUE; player 0
# takes K cards from one end, and scores their best sum; player 1 scores W
GAME = ("(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (ACE, KING, NINE)) "
        "(SUIT (RED, BLUE)))))"
        " (do ((set (game points LOW) (((RANK : ACE) 1) ((RANK : KING) 10) ((RANK : NINE) 9)))"
        " (set (game points HIGH) (((RANK : ACE) 10) ((RANK : KING) 10) ((RANK : NINE) 9)))"
        " (repeat {k} (move ({end} (game iloc STOCK)) (top ((0 player) iloc HAND))))"
        " (set ((0 player) sto N) (sum ((0 player) iloc HAND) using (game points LOW)))"
        " (set ((1 player) sto N) {w})))"
        " (scoring max ((current player) sto N)))")


@pytest.mark.parametrize("end, k, bound, want", [
    ("bottom", 2, 21, 20), ("bottom", 3, 21, 21), ("bottom", 4, 21, 22), ("top", 2, 21, 18), ("bottom", 1, 5, 1),
])
@pytest.mark.parametrize("delta", [-1, 0, 1])
def test_the_translation_puts_the_best_sum_where_the_simulator_does(end, k, bound, want, delta):
    loaded = parse_text(GAME.format(end=end, k=k, w=want + delta), "bestsum.rcy")
    loaded = replace(loaded, game=best_sums(loaded.game, bound))
    rep = crosscheck(loaded, 1)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 1 and rep.rule_errors == [] and rep.overflowed == [], rep.as_dict()


def small_blackjack():
    """games/blackjack.gcg with 2 players, every card worth 1 and the ace 1 or 2, a bust above 3:
    the same rules over small sums (the tables of the real values cost minutes to ground)."""
    text = (GAMES / "blackjack.gcg").read_text(encoding="utf-8")
    head, ranking = text.split("\nranking\n")
    rest = ranking[ranking.index("\nwinning"):]
    cards = "".join(f"  card {k} 1\n" for k in range(2, 14)) + "  card 1 1 | 2\n"
    text = head.replace("players 3", "players 2").replace("sum HX > 21 out", "sum HX > 3 out")
    return to_recycle(parse_gcg(text + "\nranking\n" + cards + rest, "small_blackjack.gcg"))


@pytest.mark.slow
def test_a_small_blackjack_agrees_step_by_step():
    loaded = small_blackjack()
    assert any(isinstance(x, ir.BestSum) and x.bound == ir.IntLit(3) for x in loaded.game.walk())
    rep = crosscheck(loaded, 2, overrides={"GIVEA": 3})
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 2 and rep.rule_errors == [] and rep.overflowed == [], rep.as_dict()
