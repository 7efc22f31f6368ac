"""Players: the protocol smart players implement, and the simple ones."""
from __future__ import annotations

import random
from typing import Protocol


class View:
    """What a deciding player is given: who it is, and its observation on demand."""

    __slots__ = ("live", "player")

    def __init__(self, live, player: int):
        self.live, self.player = live, player

    def observation(self) -> dict:
        """The locations and storages this player may see (computed when asked)."""
        from .stepwise import observe
        return observe(self.live, self.player)


class Player(Protocol):
    """Picks one of the options offered at a decision; `view` is what the player may see."""

    def choose(self, view: View, options: list) -> int:
        """Index of the chosen option."""


class RandomPlayer:
    """Uniformly random among the options."""

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, view, options: list) -> int:
        return self.rng.randrange(len(options))


class FirstPlayer:
    """Always the first option offered (deterministic)."""

    def choose(self, view, options: list) -> int:
        return 0


PLAYERS = {"random": RandomPlayer, "first": FirstPlayer}


def player_names(spec: str) -> list[str]:
    """The seat names of a comma list, checked against the known players."""
    names = [s.strip() for s in spec.split(",") if s.strip()] or ["random"]
    unknown = [x for x in names if x not in PLAYERS]
    if unknown:
        raise ValueError(f"unknown player {unknown[0]!r}; known: {', '.join(PLAYERS)}")
    return names


def make_players(spec: str, n: int, seed: int) -> list:
    """Players from a comma list like 'random,first' (the last one repeats to fill n seats)."""
    names = player_names(spec)
    out = []
    shared = None  # one decision stream per game for all random seats: seeding is not free
    for i in range(n):
        name = names[min(i, len(names) - 1)]
        cls = PLAYERS[name]
        if cls is RandomPlayer:
            if shared is None:
                shared = RandomPlayer(seed * 1000 + 1)
            out.append(shared)
        else:
            out.append(cls())
    return out
