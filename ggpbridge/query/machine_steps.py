"""Any GameMachine with hashable states as the explicit engine's stepwise machine.

The explicit engine (`explicit.py`), replay and witnesses walk a machine one *step* at a time:
`node(state)` is a `Decision` (one player chooses among options), a `Chance` event (an outcome
0..n-1) or a `Terminal`, and `next_state(state, k)` takes the k-th move. `StepMachine` is the
simulator's; `MachineSteps` gives the same shape to any engine of `ggpbridge.machine`
(the deck-building games' `DeckMachine`, clingo on a GDL description, `SimMachine`), so the
search is written once. A step is one joint move: the role that has a real choice moves, every
other role plays its only move (`noop`). The chance role (`random`) is a `Chance` node whose
outcomes are its legal moves in the machine's order (reachability, not probability, is what
the questions ask). A *win* is a goal of 100, as in GGP.
"""
from __future__ import annotations

from functools import lru_cache

from ..errors import GgpBridgeError
from ..machine import GameMachine
from ..sim.stepwise import Chance, Decision, Terminal

CHANCE_ROLE = "random"
WIN = 100
_CACHE = 1 << 16   # nodes remembered: a DFS asks for a state's moves once per successor


class MachineSteps:
    """`MachineSteps(machine)`: initial_state, node, step, next_state, key and roles, as `StepMachine` has them."""

    def __init__(self, machine: GameMachine):
        self.machine = machine
        roles = machine.roles()
        self.players = [r for r in roles if str(r) != CHANCE_ROLE]
        self.chance = [r for r in roles if str(r) == CHANCE_ROLE]
        self.roles = list(range(len(self.players)))
        self.node = lru_cache(maxsize=_CACHE)(self._node)

    def initial_state(self):
        """The machine's initial state."""
        return self.machine.initial_state()

    def key(self, state):
        """The state itself: the machine's states are hashable values."""
        return state

    def _node(self, state):
        m = self.machine
        if m.is_terminal(state):
            goals = m.goals(state)
            scores = tuple(goals.get(p, 0) for p in self.players)
            return Terminal(scores, tuple(i for i, g in enumerate(scores) if g >= WIN))
        choosing = []
        for i, role in enumerate(self.players):
            moves = m.legal_moves(state, role)
            if moves != ("noop",):
                choosing.append((i, moves))
        outcomes = [m.legal_moves(state, r) for r in self.chance]
        outcomes = [o for o in outcomes if o != ("noop",)]
        if len(choosing) + len(outcomes) > 1:
            raise GgpBridgeError("two roles move at once here: the explicit engine follows games where one role "
                                 "moves at a time")
        if outcomes:
            return Chance(CHANCE_ROLE, len(outcomes[0]), "pick")
        if choosing:
            return Decision(*choosing[0])
        # nobody has a move and the game is not over: a dead end (a Decision without options)
        return Decision(0, ())

    def moves(self, state) -> tuple:
        """The moves of the role that moves in `state` (chance outcomes or a player's options)."""
        nd = self.node(state)
        if isinstance(nd, Chance):
            return next(o for o in (self.machine.legal_moves(state, r) for r in self.chance) if o != ("noop",))
        return nd.options if isinstance(nd, Decision) else ()

    def joint(self, state, k: int) -> dict:
        """The joint move of step k in `state`: the mover's k-th move, every other role's only move."""
        nd = self.node(state)
        mover = self.chance[0] if isinstance(nd, Chance) else self.players[nd.player]
        joint = {r: "noop" for r in self.machine.roles()}
        joint[mover] = self.moves(state)[k] if isinstance(nd, Chance) else nd.options[k]
        return joint

    def next_state(self, state, k: int):
        """The state after step k."""
        return self.machine.next_state(state, self.joint(state, k))

    def step(self, state, k: int):
        """(the state after step k, its node)."""
        nxt = self.next_state(state, k)
        return nxt, self.node(nxt)

    def move_text(self, state, option) -> str:
        """What an option does, for people: the move's `text` where it has one (a deck-building buy shows its
        expression), else its GDL name."""
        return getattr(option, "text", None) or str(option)
