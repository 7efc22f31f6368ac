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


# name -> (parameter's meaning, default, description); the searching players are imported
# only when used, so that plain simulations do not pay for them
SMART = {
    "pipmc": ("playouts per option", 10, "CardStock's PIPMC on determinizations of what the seat sees"),
    "mcts": ("iterations", 200, "UCT on the full game: it sees all cards (cheats; an upper bound on skill)"),
    "ismcts": ("iterations", 200, "single-observer information-set MCTS on what the seat sees"),
}
KNOWN = ("random", "first", *SMART, "policy")
CHEATS = {"mcts"}   # players that read hidden cards: every output naming them says so


def usage() -> str:
    """The known players and their parameters, for help texts and error messages."""
    extra = ", ".join(f"{k}[:N] (N = {v[0]}, default {v[1]})" for k, v in SMART.items())
    return f"random, first, {extra}, policy:FILE (a policy written by `ggpbridge solve -o FILE`)"


def parse_players(spec: str) -> list[tuple[str, int | None]]:
    """The (name, parameter) of each seat of a comma list like 'pipmc:20,random'; ValueError if bad."""
    out = []
    for item in [s.strip() for s in spec.split(",") if s.strip()] or ["random"]:
        name, sep, arg = item.partition(":")
        name = name.strip().lower()
        if name not in KNOWN:
            raise ValueError(f"unknown player {name!r}; known: {usage()}")
        if name == "policy":
            if not arg.strip():
                raise ValueError(f"{item!r}: policy needs a file, as in policy:POLICY.json")
            from .policy_player import load_policy
            load_policy(arg.strip())   # a bad file is refused before any game is played
            out.append((name, arg.strip()))
            continue
        if not sep:
            out.append((name, SMART[name][1] if name in SMART else None))
            continue
        if name not in SMART:
            raise ValueError(f"player {name!r} takes no parameter (got {item!r}); known: {usage()}")
        try:
            k = int(arg)
        except ValueError:
            k = 0
        if k < 1:
            raise ValueError(f"{item!r}: the {SMART[name][0]} of {name} must be a positive integer; known: {usage()}")
        out.append((name, k))
    return out


def player_names(spec: str) -> list[str]:
    """The seat names of a comma list, checked (parameters included) against the known players."""
    return [name for name, _ in parse_players(spec)]


def describe_players(spec: str) -> str:
    """The players of a spec as outputs name them: parameters spelled out, cheaters labelled."""
    parts = []
    for name, k in parse_players(spec):
        text = f"{name}:{k}" if k is not None else name
        parts.append(f"{text} (sees all cards)" if name in CHEATS else text)
    return ",".join(parts)


def seat_rng(seed: int, seat: int, name: str) -> random.Random:
    """The RNG of a searching seat: a function of the game's seed, the seat and the player only."""
    return random.Random(f"{seed}/{seat}/{name}")   # str seeds are hashed with SHA-512: stable


def make_smart(name: str, k: int, rng: random.Random):
    """A searching player by name and parameter."""
    if name == "pipmc":
        from .pipmc import PIPMCPlayer
        return PIPMCPlayer(rng, k)
    from .mcts import ISMCTSPlayer, MCTSPlayer
    return (MCTSPlayer if name == "mcts" else ISMCTSPlayer)(rng, k)


def make_players(spec: str, n: int, seed: int) -> list:
    """Players from a comma list like 'pipmc:20,random' (the last one repeats to fill n seats)."""
    seats = parse_players(spec)
    out = []
    shared = None  # one decision stream per game for all random seats: seeding is not free
    for i in range(n):
        name, k = seats[min(i, len(seats) - 1)]
        if name == "random":
            if shared is None:
                shared = RandomPlayer(seed * 1000 + 1)
            out.append(shared)
        elif name == "first":
            out.append(FirstPlayer())
        elif name == "policy":
            from .policy_player import PolicyPlayer
            out.append(PolicyPlayer(k, seat_rng(seed, i, name)))
        else:
            out.append(make_smart(name, k, seat_rng(seed, i, name)))
    return out
