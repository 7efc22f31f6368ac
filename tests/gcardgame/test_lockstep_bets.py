"""Lockstep on G_cardgame's betting (Texas's first bet, alone): the translation offers the bets
the simulator offers. It did not while the lookahead's copy of the rules (legal moves of the
next state, `gdl/asp.lookahead_rules`) numbered its projected auxiliary predicates as the
time-free program did: a static part of one rule took the name of another rule's part, and a
`not` over it let clingo offer a call that matched no bet (player 1's `option1 0 1`, seed 0)."""
from __future__ import annotations

import pytest

from ggpbridge.crosscheck import crosscheck
from ggpbridge.gcardgame import parse_text, to_recycle

BETS = """players 3
stage 0
  com give ALL PLAYERS 3
stage 1
  mandatory unconditional bet λ λ
  unconditional bet = KA1
  once unconditional next
  once unconditional done
winning
  token 1
  not out 0
"""


@pytest.mark.slow
def test_the_translation_offers_the_simulators_bets():
    rep = crosscheck(to_recycle(parse_text(BETS, "bets.gcg")), 2, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 2 and rep.decisions > 10
