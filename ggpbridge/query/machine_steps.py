"""Any GameMachine with hashable states as the explicit engine's stepwise machine.

The explicit engine (`explicit.py`), replay and witnesses walk a machine one *step* at a time:
`node(state)` is a `Decision` (one player chooses among options), a `Chance` event (an outcome
0..n-1) or a `Terminal`, and `next_state(state, k)` takes the k-th move. `StepMachine` is the
simulator's; `MachineSteps` gives the same shape to any engine of `ggpbridge.machine`
(the deck-building games' `DeckMachine`, clingo on a GDL description, `SimMachine`), so the
search is written once. A step is one joint move: the role that has a real choice moves, every
other role plays its only move (`noop`; a role whose only move is another one moves when nobody
else does). The chance role (`random`) is a `Chance` node whose
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
            goals = {str(r): v for r, v in m.goals(state).items()}
            scores = tuple(goals.get(str(p), 0) for p in self.players)
            return Terminal(scores, tuple(i for i, g in enumerate(scores) if g >= WIN))
        legal = [m.legal_moves(state, r) for r in self.players]
        if any(not moves for moves in legal):   # a role without a move, and the game not over: a dead end
            return Decision(next(i for i, moves in enumerate(legal) if not moves), ())
        outcomes = self._outcomes(state)
        # a role with one move only plays it, whatever its name (`noop`, `pass`): one that has a
        # choice is the mover, and two at once are beyond this engine
        choosing = [i for i, moves in enumerate(legal) if len(moves) > 1]
        if len(choosing) + (len(outcomes) > 1) > 1:
            raise GgpBridgeError("two roles move at once here: the explicit engine follows games where one role "
                                 "moves at a time")
        if len(outcomes) > 1 or (outcomes and not choosing):
            return Chance(CHANCE_ROLE, len(outcomes), "pick")
        # the mover; when nobody has a choice, the first whose one move is not `noop`, else the first
        acting = choosing or [i for i, moves in enumerate(legal) if not _waits(moves)]
        i = acting[0] if acting else 0
        return Decision(i, legal[i])

    def _outcomes(self, state) -> tuple:
        """The chance role's outcomes in `state` (none when it only waits)."""
        found = [o for o in (self.machine.legal_moves(state, r) for r in self.chance) if not _waits(o)]
        return found[0] if found else ()

    def moves(self, state) -> tuple:
        """The moves of the role that moves in `state` (chance outcomes or a player's options)."""
        nd = self.node(state)
        if isinstance(nd, Chance):
            return self._outcomes(state)
        return nd.options if isinstance(nd, Decision) else ()

    def joint(self, state, k: int) -> dict:
        """The joint move of step k in `state`: the mover's k-th move, every other role's only move."""
        nd = self.node(state)
        m = self.machine
        mover = self.chance[0] if isinstance(nd, Chance) else self.players[nd.player]
        joint = {r: m.legal_moves(state, r)[0] for r in m.roles() if r != mover}
        joint[mover] = self.moves(state)[k]
        return joint

    def next_state(self, state, k: int):
        """The state after step k."""
        return self.machine.next_state(state, self.joint(state, k))

    def step(self, state, k: int):
        """(the state after step k, its node)."""
        nxt = self.next_state(state, k)
        return nxt, self.node(nxt)

    def chance_text(self, state, k: int) -> str:
        """Chance's k-th outcome in `state` as a person reads it (the card picked)."""
        # the log already says it is chance: a move text that says so too is not repeated
        return self.move_text(state, self.moves(state)[k]).removeprefix("chance: ")

    def move_text(self, state, option) -> str:
        """What an option does, for people: the move's `text` where it has one (a deck-building buy shows its
        expression), else its GDL name."""
        return getattr(option, "text", None) or str(option)


def _waits(moves: tuple) -> bool:
    """A role that only waits: its one legal move is `noop` (any engine's spelling of it)."""
    return len(moves) == 1 and str(moves[0]) == "noop"
