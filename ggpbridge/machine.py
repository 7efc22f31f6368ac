"""One state-machine interface for every engine, and what is written once against it.

The shape is ggp-base's StateMachine with chance as a role (OpenSpiel-style): every
role moves in every state, `random` plays the chance outcomes, a role with nothing
to decide plays `noop`. Two engines implement it:

- `ggpbridge.sim.gamemachine.SimMachine`: the native simulator (RECYCLE semantics);
- `ggpbridge.gdl.machine.ClingoMachine`: clingo on any GDL / GDL-II description.

States are immutable, hashable values of the engine; roles and moves are hashable
values whose `str` is their GDL name (`player0`, `random`, `noop`). A policy, a
playout, a search or a player that uses only these methods runs on either engine.
"""
from __future__ import annotations

import random as _random
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Mapping, Protocol, runtime_checkable

from .errors import MoveError


@runtime_checkable
class GameMachine(Protocol):
    """The methods every engine provides."""

    def roles(self) -> tuple: ...
    def initial_state(self) -> Hashable: ...
    def legal_moves(self, state: Any, role: Any) -> tuple: ...
    def next_state(self, state: Any, joint_moves: Mapping) -> Hashable: ...
    def is_terminal(self, state: Any) -> bool: ...
    def goals(self, state: Any) -> dict: ...
    def sees(self, state: Any, joint_moves: Mapping) -> dict: ...


def joint_moves(machine: GameMachine, state) -> list[dict]:
    """Every combination of legal moves in `state`, roles in order, moves in the engine's order."""
    out: list[dict] = [{}]
    for role in machine.roles():
        out = [{**partial, role: move} for partial in out for move in machine.legal_moves(state, role)]
    return out


def uniform(machine: GameMachine, state, role, moves: tuple, rng: _random.Random):
    """The default policy: a legal move uniformly at random."""
    return rng.choice(moves)


# A policy picks a move: policy(machine, state, role, legal_moves, rng) -> move.
Policy = Callable[[GameMachine, Any, Any, tuple, _random.Random], Any]


class UnfinishedPlay(Exception):
    """A playout reached its step limit; `play` holds what was played."""

    def __init__(self, message: str, play: "Playout"):
        super().__init__(message)
        self.play = play


@dataclass(frozen=True)
class Playout:
    """A played game: the states (first initial, last terminal), joint moves, percepts, goals."""

    states: tuple
    moves: tuple
    percepts: tuple
    goals: dict


def playout(machine: GameMachine, rng: _random.Random, policies: Mapping | None = None,
            max_steps: int = 10_000, percepts: bool = True) -> Playout:
    """Play from the initial state to a terminal one; `policies` maps a role (or its name) to a policy."""
    by_name = {str(r): p for r, p in (policies or {}).items()}
    unknown = set(by_name) - {str(r) for r in machine.roles()}
    if unknown:
        raise ValueError(f"policies for unknown roles: {', '.join(sorted(unknown))}")
    chosen = {role: by_name.get(str(role), uniform) for role in machine.roles()}
    states, moves, seen = [machine.initial_state()], [], []
    while not machine.is_terminal(states[-1]):
        state = states[-1]
        if len(moves) >= max_steps:
            raise UnfinishedPlay(f"no terminal state after {max_steps} steps",
                                 Playout(tuple(states), tuple(moves), tuple(seen), {}))
        joint = {}
        for role, policy in chosen.items():
            legal = machine.legal_moves(state, role)
            if not legal:
                raise MoveError(f"{role} has no legal move after {len(moves)} steps, and the game is not over")
            joint[role] = policy(machine, state, role, legal, rng)
        moves.append(joint)
        if percepts:
            seen.append(machine.sees(state, joint))
        states.append(machine.next_state(state, joint))
    return Playout(tuple(states), tuple(moves), tuple(seen), machine.goals(states[-1]))
