"""The simulator behind the engine-neutral interface of `ggpbridge.machine`.

`StepMachine` exposes one event at a time (a player's decision, a chance event, the
end). `SimMachine` gives it the shape every engine shares, with the names of the
GDL translation: roles `player0` … `player<n-1>` and `random`; in each state one
role moves — the deciding player picks an `Option`, `random` picks an outcome
0..n-1 — and every other role plays `noop`; goals are 100 for the players with the
best score (ties included) and 0 for the others and for `random`, as in the
translation; a player's percepts after a joint move are what it observes in the
state that follows (`observe`), and `random` perceives nothing. Where the game runs on
without any decision (a `Runaway`), every role plays `noop` and the state stays as it is,
as the translation's automatic steps go on there: a playout runs into its step limit.
"""
from __future__ import annotations

from typing import Mapping

from ..errors import MoveError
from .machine import Option
from .stepwise import Chance, Decision, Runaway, State, StepMachine, Terminal

NOOP = "noop"
RANDOM = "random"


class SimMachine:
    """`SimMachine(step_machine)`: roles, initial state, legal moves, transitions, goals, percepts."""

    def __init__(self, machine: StepMachine):
        self.step_machine = machine
        self._players = tuple(f"player{p}" for p in machine.roles)
        self._roles = self._players + (RANDOM,)
        self._seat = {name: p for p, name in enumerate(self._players)}
        self._last: tuple = (None, None, None)   # the last transition: state, move, next state

    def roles(self) -> tuple[str, ...]:
        """The players' roles in seat order, then `random`."""
        return self._roles

    def initial_state(self) -> State:
        """The state after setup, at its first decision or chance event."""
        return self.step_machine.initial_state()

    def legal_moves(self, state: State, role: str) -> tuple:
        """The deciding player's options, chance's outcomes, or ('noop',) for a role that waits."""
        self._check_role(role)
        node = self.step_machine.node(state)
        if isinstance(node, Decision) and self._seat.get(role) == node.player:
            return node.options
        if isinstance(node, Chance) and role == RANDOM:
            return tuple(range(node.n))
        return () if isinstance(node, Terminal) else (NOOP,)

    def next_state(self, state: State, joint_moves: Mapping) -> State:
        """The state after the joint move (the mover's move; every other role plays noop)."""
        move = self._move(state, joint_moves)
        if move is None:   # a Runaway: the game runs on where it is
            return state
        last_state, last_move, following = self._last
        # a playout asks for the next state and then for the percepts of the same move
        if state is last_state and move == last_move:
            return following
        following = self.step_machine.next_state(state, move)
        self._last = (state, move, following)
        return following

    def is_terminal(self, state: State) -> bool:
        """True when the game is over."""
        return self.step_machine.is_terminal(state)

    def goals(self, state: State) -> dict[str, int]:
        """100 for each winner and 0 for the others (`random` too) in a terminal state; empty before."""
        node = self.step_machine.node(state)
        if not isinstance(node, Terminal):
            return {}
        won = set(node.winners)
        return {**{name: 100 if p in won else 0 for p, name in enumerate(self._players)}, RANDOM: 0}

    def sees(self, state: State, joint_moves: Mapping) -> dict[str, frozenset]:
        """Each role's percepts after the joint move: its observation of the next state."""
        following = self.next_state(state, joint_moves)
        seen = {name: _percepts(self.step_machine.observation(following, p))
                for p, name in enumerate(self._players)}
        return {**seen, RANDOM: frozenset()}

    # ------------------------------------------------------------ internals

    def _check_role(self, role) -> None:
        if role not in self._roles:
            raise MoveError(f"unknown role {role!r}; the roles are {', '.join(self._roles)}")

    def _move(self, state: State, joint_moves: Mapping) -> int | Option | None:
        for role in joint_moves:
            self._check_role(role)
        missing = [r for r in self._roles if r not in joint_moves]
        if missing:
            raise MoveError(f"no move for {', '.join(missing)}: every role moves in every state")
        node = self.step_machine.node(state)
        if isinstance(node, Terminal):
            raise MoveError("the state is terminal: the game is over")
        if isinstance(node, Runaway):
            wrong = {r: m for r, m in joint_moves.items() if m != NOOP}
            if wrong:
                raise MoveError(f"every role must play noop here, not {next(iter(wrong.values()))!r}: "
                                f"the game runs on without a decision")
            return None
        mover = RANDOM if isinstance(node, Chance) else self._players[node.player]
        for role, move in joint_moves.items():
            if role != mover and move != NOOP:
                raise MoveError(f"{role} must play noop here, not {move!r}: {mover} moves")
        move = joint_moves[mover]
        if move not in self.legal_moves(state, mover):
            raise MoveError(f"{move!r} is not a legal move of {mover} in this state")
        return move


def _percepts(observation: dict) -> frozenset:
    """An observation as a set of hashable facts: (location, cards or count), storages, current player."""
    facts = {("location", key, value) for key, value in observation["locations"].items()}
    facts.update((("ints", observation["ints"]), ("strs", observation["strs"]),
                  ("current", observation["current"])))
    return frozenset(facts)
