"""The native simulator: CardStock's semantics, compiled from the IR for speed."""
from __future__ import annotations

import random
import time

from ..errors import GameDefinitionError, only_errors
from ..recycle import Loaded
from ..recycle.check import check
from .machine import Live, Option, Program
from .players import FirstPlayer, RandomPlayer, make_players
from .playout import ERROR, FINISHED, Result, play, rank_players
from .stats import Stats


def compile_loaded(loaded: Loaded, overrides: dict | None = None) -> Program:
    """Check a parsed game and compile it; a game with check errors is refused, naming the first."""
    errors = only_errors(check(loaded.game, loaded.source))
    if errors:
        e = errors[0]
        raise GameDefinitionError(f"the game has {len(errors)} error(s) and cannot be simulated; first: {e.message}",
                                  e.pos, loaded.source)
    loaded.check_overrides(overrides)
    try:
        prog = Program(loaded.game, overrides)
    except GameDefinitionError as e:
        raise e.with_source(loaded.source)
    prog.source = loaded.source   # so that errors met while playing name the file
    if loaded.tallies:
        prog.count(loaded.tallies, loaded.tally_limit)
    return prog


def simulate(prog: Program, n: int, seed: int = 0, players: str = "random", max_steps: int = 100_000,
             progress=None, detailed: bool = False) -> Stats:
    """Play n games (seeds seed..seed+n-1), streaming them into statistics.

    Games run on the generated fast path when the game compiles to it and the players
    are the built-in ones; it plays exactly the games the closure engine plays (same
    seeds, same draws), but records no per-stage-iteration branching: `detailed` asks for
    the closure engine, which does. A game ending in an error is replayed on the closure
    engine for its message. A KeyboardInterrupt stops early: the statistics gathered so
    far are returned, with `interrupted` set on them.
    """
    stats = stats_for(prog)
    stats.interrupted = False
    fast = None
    searching = False   # searching players run on the closure engine (play_fast declines them)
    t0 = time.perf_counter()
    try:
        # generating the fast path is inside: a stop during it returns the (empty) statistics
        fast = None if detailed else fast_path(prog)
        for i in range(n):
            s = seed + i
            seats = make_players(players, prog.lay.n, s)
            r = play_fast(prog, fast, s, seats, max_steps) if fast is not None else None
            searching = searching or not _built_in(seats)
            stats.add(r if r is not None else play(prog, s, seats, max_steps))
            if progress is not None:
                progress(1)
    except KeyboardInterrupt:
        stats.interrupted = True
    stats.seconds = time.perf_counter() - t0
    stats.engine = "fast" if fast is not None and not searching else "reference"
    return stats


def stats_for(prog: Program) -> Stats:
    """Empty statistics for games of this program (with its tallies' columns, if it counts any)."""
    return Stats(prog.lay.n, tally_labels=list(prog.tally_exprs), tally_limit=prog.tally_limit)


def fast_path(prog: Program):
    """The generated playout function of a game (cached on the program), or None."""
    if not hasattr(prog, "_fast"):
        from .codegen import compile_fast
        prog._fast = compile_fast(prog)
    return prog._fast


def _built_in(seats: list) -> bool:
    """Whether every seat is a built-in player: the fast path plays only those (a searching
    player needs the closure engine's state)."""
    return all(type(p) in (RandomPlayer, FirstPlayer) for p in seats)


def play_fast(prog: Program, fast, seed: int, seats: list, max_steps: int) -> Result | None:
    """One game on the fast path as a Result, or None to have the closure engine play it."""
    if not _built_in(seats):
        return None
    trace: list = []
    if all(p is seats[0] for p in seats) and isinstance(seats[0], RandomPlayer):
        draw = seats[0].rng.randrange   # the same draws as RandomPlayer.choose, one call less
        choose = lambda p, k: draw(k)  # noqa: E731
    else:
        choose = lambda p, k: seats[p].choose(None, range(k))  # noqa: E731
    tally: list = []
    status, scores, steps = fast(random.Random(seed), choose, max_steps, trace, tally)
    if status == ERROR:
        return None   # replay on the closure engine, which names the error and its place
    res = Result(seed, status, steps=steps, decisions=[(p, k, None, ()) for p, k in trace],
                 tallies=dict(zip(prog.tally_exprs, tally)))
    if status == FINISHED:
        res.scores = list(scores)
        res.winners, res.ranks = rank_players(res.scores, prog.maximize)
    return res


__all__ = ["Program", "Live", "Option", "Result", "Stats", "play", "simulate", "compile_loaded", "stats_for"]
