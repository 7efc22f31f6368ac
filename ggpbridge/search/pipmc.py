"""PIPMC (perfect-information Monte Carlo): the choice, and its driver on any GameMachine.

At a decision with more than one option the seat draws N determinizations of the state (what
it sees stays, what it cannot see is dealt anew) and, for each option, plays that option in
every determinization and the rest of the game with uniformly random moves (chance included).
It takes the option with the highest mean reward (ties to the first). The same N
determinizations serve every option (common random numbers: the options are compared on the
same deals, which only lowers the noise of the comparison). A forced move costs no playouts.
"""
from __future__ import annotations

import random
from typing import Callable, Sequence

from ..machine import GameMachine

DEFAULT_PLAYOUTS = 10   # CardStock's; the paper uses 20
ROLLOUT_STEPS = 20_000  # a playout that runs longer than this scores nothing for anyone


def best_option(n_options: int, deals: Sequence, value: Callable) -> int:
    """The index k in 0..n_options-1 with the highest total of `value(k, deal)` over `deals` (ties: the first).

    The engine-neutral core: `value` plays option k in one determinization to the end and gives
    the seat's reward. Options are tried in order, deals in order, so that one RNG drives the
    whole choice reproducibly."""
    best, best_k = -1.0, 0
    for k in range(n_options):
        total = 0.0
        for deal in deals:
            total += value(k, deal)
        if total > best:
            best, best_k = total, k
    return best_k


def rollout(machine: GameMachine, state, rng: random.Random, max_steps: int = ROLLOUT_STEPS) -> dict:
    """Uniformly random moves for every role from `state` to the end: the goals (empty past max_steps)."""
    roles = machine.roles()
    for _ in range(max_steps):
        if machine.is_terminal(state):
            return machine.goals(state)
        legal = [machine.legal_moves(state, r) for r in roles]
        if not all(legal):   # a role without a move before the end: no outcome, as past max_steps
            return {}
        state = machine.next_state(state, {r: rng.choice(ms) for r, ms in zip(roles, legal)})
    return {}


def determinizer(machine: GameMachine) -> Callable:
    """The machine's `determinize(state, role, rng)`; a clear error when it has none (an honest player
    must not search the true hidden cards)."""
    fn = getattr(machine, "determinize", None)
    if fn is None:
        raise ValueError(f"{type(machine).__name__} cannot deal what a seat does not see "
                         f"(no determinize method): pipmc and ismcts need it; mcts (which sees all) does not")
    return fn


class PIPMC:
    """PIPMC as a machine Policy: `PIPMC(rng, playouts)(machine, state, role, moves, _rng)` -> a move."""

    label = "pipmc"

    def __init__(self, rng: random.Random, playouts: int = DEFAULT_PLAYOUTS):
        self.rng, self.playouts = rng, playouts
        self.spent = 0   # playouts run so far (a forced move adds none)

    def __call__(self, machine: GameMachine, state, role, moves: tuple, _rng=None):
        if len(moves) == 1:
            return moves[0]
        rng, deal = self.rng, determinizer(machine)
        deals = [deal(state, role, rng) for _ in range(self.playouts)]
        others = [r for r in machine.roles() if r != role]

        def value(k, det):
            # the others play their one move (`noop`, or whatever the game calls it)
            joint = {**{r: machine.legal_moves(det, r)[0] for r in others}, role: moves[k]}
            goals = rollout(machine, machine.next_state(det, joint), rng)
            return goals.get(role, 0)
        self.spent += len(moves) * len(deals)
        return moves[best_option(len(moves), deals, value)]
