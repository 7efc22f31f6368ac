"""PIPMC written against `ggpbridge.machine` (any GameMachine with `determinize(state, role, rng)`).

The simulator's `sim/pipmc.py` plays compiled RECYCLE (`Program`) and cannot play a game
module; this is the same algorithm on the one machine interface (docs/deckbuilding.md, section
1): N determinizations of what the seat sees, each option played in every one of them and the
rest of the game with uniformly random moves (chance included), the best mean goal taken (ties
to the first option). The same determinizations serve every option (common random numbers).
"""
from __future__ import annotations

import random

from ..machine import GameMachine


def rollout(machine: GameMachine, state, rng: random.Random, max_steps: int = 10_000) -> dict:
    """Uniformly random moves for every role from `state` to the end: the goals (empty past max_steps)."""
    roles = machine.roles()
    for _ in range(max_steps):
        if machine.is_terminal(state):
            return machine.goals(state)
        state = machine.next_state(state, {r: rng.choice(machine.legal_moves(state, r)) for r in roles})
    return {}


class PIPMC:
    """A machine Policy: `PIPMC(rng, playouts)(machine, state, role, moves, _rng)` -> a move."""

    label = "pipmc"

    def __init__(self, rng: random.Random, playouts: int = 10):
        self.rng, self.playouts = rng, playouts
        self.spent = 0

    def __call__(self, machine, state, role, moves: tuple, _rng=None):
        if len(moves) == 1:
            return moves[0]
        rng = self.rng
        deals = [machine.determinize(state, role, rng) for _ in range(self.playouts)]
        others = {r: "noop" for r in machine.roles() if r != role}
        best, best_move = -1.0, moves[0]
        for move in moves:
            total = 0.0
            for deal in deals:
                total += rollout(machine, machine.next_state(deal, {**others, role: move}), rng).get(role, 0)
            self.spent += len(deals)
            if total > best:
                best, best_move = total, move
        return best_move
