"""The native simulator: CardStock's semantics, compiled from the IR for speed."""
from __future__ import annotations

import time

from ..errors import GameDefinitionError
from ..recycle import Loaded
from ..recycle.check import check
from .machine import Live, Option, Program
from .players import make_players
from .playout import Result, play
from .stats import Stats


def compile_loaded(loaded: Loaded, overrides: dict | None = None) -> Program:
    """Check a parsed game and compile it; a game with check errors is refused, naming the first."""
    errors = [d for d in check(loaded.game, loaded.source) if d.severity == "error"]
    if errors:
        e = errors[0]
        raise GameDefinitionError(f"the game has {len(errors)} error(s) and cannot be simulated; first: {e.message}",
                                  e.pos, loaded.source)
    try:
        return Program(loaded.game, overrides)
    except GameDefinitionError as e:
        raise e.with_source(loaded.source)


def simulate(prog: Program, n: int, seed: int = 0, players: str = "random", max_steps: int = 100_000,
             progress=None) -> Stats:
    """Play n games (seeds seed..seed+n-1), streaming them into statistics.

    A KeyboardInterrupt stops early: the statistics gathered so far are returned, with
    `interrupted` set on them.
    """
    stats = Stats(prog.lay.n)
    stats.interrupted = False
    t0 = time.perf_counter()
    try:
        for i in range(n):
            s = seed + i
            stats.add(play(prog, s, make_players(players, prog.lay.n, s), max_steps))
            if progress is not None:
                progress(1)
    except KeyboardInterrupt:
        stats.interrupted = True
    stats.seconds = time.perf_counter() - t0
    return stats


__all__ = ["Program", "Live", "Option", "Result", "Stats", "play", "simulate", "compile_loaded"]
