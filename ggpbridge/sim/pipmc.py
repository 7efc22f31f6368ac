"""CardStock's PIPMC player on the simulator's fast path.

The algorithm is written once, in `ggpbridge.search.pipmc` (which also plays it on any
GameMachine); here it is driven by the simulator: determinizations are
`determinize.deal_hidden` card lists and each playout runs on the generated engine started
at the choice (`rollout.Sandbox`), rewards being win shares. That path is kept for speed: random
play through `SimMachine` costs about 20 times the CPU (measured for MCTS, whose iterations are
the same kind of work: benchmarks/search_paths.py; `SimMachine` cannot determinize).
A forced move costs no playouts (the playout loop never asks a player to choose among one option).
"""
from __future__ import annotations

import random

from ..search.pipmc import DEFAULT_PLAYOUTS, best_option
from .determinize import deal_hidden
from .rollout import Sandbox


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
        self.spent += len(options) * len(deals)
        return best_option(len(options), deals, lambda k, cards: box.play_option(live, options, k, rng, cards)[me])
