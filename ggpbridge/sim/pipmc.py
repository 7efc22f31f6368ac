"""CardStock's PIPMC player: perfect-information Monte Carlo over determinizations.

At a decision with more than one option the seat draws N determinizations of the state
(`determinize.deal_hidden`: what it sees stays, what it cannot see is dealt anew) and,
for each option, plays that option in every determinization and the rest of the game
with uniformly random players. It takes the option with the highest mean win share
(ties to the first). The same N determinizations serve every option (common random
numbers: the options are compared on the same deals, which CardStock does not do but
which only lowers the noise of the comparison). A forced move costs no playouts (the
playout loop never asks a player to choose among one option).
"""
from __future__ import annotations

import random

from .determinize import deal_hidden
from .rollout import Sandbox

DEFAULT_PLAYOUTS = 10   # CardStock's; the paper uses 20


class PIPMCPlayer:
    """PIPMC with `playouts` random playouts per option; `rng` drives deals, chance and playouts."""

    label = "pipmc"

    def __init__(self, rng: random.Random, playouts: int = DEFAULT_PLAYOUTS):
        self.rng = rng
        self.playouts = playouts
        self.sandbox = None
        self.spent = 0   # playouts run so far (a forced move adds none)

    def choose(self, view, options: list) -> int:
        """The option with the best mean win share over the playouts."""
        if len(options) == 1:
            return 0
        live, me = view.live, view.player
        if self.sandbox is None or self.sandbox.prog is not live.prog:
            self.sandbox = Sandbox(live.prog, self.rng)
        box, rng = self.sandbox, self.rng
        deals = [deal_hidden(live.c, me, rng) for _ in range(self.playouts)]
        best, best_k = -1.0, 0
        for k in range(len(options)):
            total = 0.0
            for cards in deals:
                total += box.play_option(live, options, k, rng, cards)[me]
            self.spent += len(deals)
            if total > best:
                best, best_k = total, k
        return best_k
