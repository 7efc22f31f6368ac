"""Random playouts on either engine, through the one state-machine interface, outcomes in one shape."""
from __future__ import annotations

import random
import time

from .errors import GameDefinitionError, MoveError
from .machine import GameMachine, UnfinishedPlay, playout
from .translate import SCORE_OFF_TABLES, derives_score_lost, overflow_reason

CHANCE_ROLE = "random"


def random_playout(machine: GameMachine, rng: random.Random, max_steps: int = 100_000) -> dict:
    """One uniformly random game (every role, `random` included): goals per player, steps, decisions."""
    try:
        play = playout(machine, rng, max_steps=max_steps, percepts=False)
    except UnfinishedPlay as exc:
        return {"goals": None, "steps": len(exc.play.moves), "decisions": _decisions(exc.play.moves),
                "finished": False}
    except (MoveError, GameDefinitionError) as exc:
        # a rule error of the game (a player left without options): this game is lost, not the run
        return {"goals": None, "finished": False, "error": str(exc)}
    goals = {str(r): v for r, v in play.goals.items() if str(r) != CHANCE_ROLE}
    reason = overflow_reason(play.states[-1])
    if reason is None and _may_lose_score(machine) and set(goals.values()) == {0}:
        reason = SCORE_OFF_TABLES   # every goal 0 at the end of a max/min scoring: a score was lost
    if reason is not None:
        # the translation cannot follow this play (see translate --fit, and decks): no outcome
        return {"goals": None, "steps": len(play.moves), "finished": False,
                "error": f"{reason} and ended as overflow"}
    return {"goals": goals, "steps": len(play.moves), "decisions": _decisions(play.moves), "finished": True}


HORIZON_PLAYS, HORIZON_MARGIN, HORIZON_MAX_STEPS = 3, 1.5, 2_000


def measured_horizon(desc, plays: int = HORIZON_PLAYS, seed: int = 0, margin: float = HORIZON_MARGIN,
                     max_steps: int = HORIZON_MAX_STEPS) -> tuple[int | None, str]:
    """A horizon the plays of a GDL description fit in, and a line saying how it was chosen.

    `plays` uniformly random plays of the description itself (on the propositional network over
    clingo's grounding, seeds seed, seed+1, ...: the same figure for the same input), their longest
    times `margin` (random plays are not the longest), rounded up to a multiple of 10. (None, why)
    when a play did not end within `max_steps` joint moves or broke off with an error: the caller
    keeps its default and says so.
    """
    from .gdl.errors import GdlError
    from .gdl.propnet_machine import PropnetMachine
    try:
        # the propnet answers as the clingo machine does (the lockstep holds them to it) at a
        # fraction of the cost: solving once a transition took G_cardgame plays minutes each
        machine = PropnetMachine(desc, percepts=False)
    except GdlError as e:   # too large to ground, say: the program is still written, unmeasured
        return None, f"the game could not be played on clingo to measure it ({e})"
    longest = 0
    for k in range(seed, seed + plays):
        play = random_playout(machine, random.Random(k), max_steps)
        if not play["finished"] and play.get("error") and "overflow" not in play["error"]:
            return None, f"random play {k} of the game broke off: {play['error']}"
        if play.get("steps", 0) >= max_steps:
            return None, f"random play {k} of the game did not end within {max_steps} joint moves"
        longest = max(longest, play.get("steps", 0))
    horizon = max(10, -(-int(longest * margin) // 10) * 10)
    return horizon, (f"{margin:g} x the longest of {plays} seeded random plays ({longest} joint moves), "
                     f"rounded up to a multiple of 10")


def simulator_runaway(path, overrides: dict | None = None, dialect: str | None = None,
                      plays: int = HORIZON_PLAYS, seed: int = 0, max_steps: int = HORIZON_MAX_STEPS) -> str | None:
    """Why `measured_horizon` cannot measure a RECYCLE game, told by the simulator in milliseconds,
    or None: one of `plays` seeded random plays cycles or runs past its step limit, or takes more
    than `max_steps` simulator steps (the translation spends at least one joint move on each, so its
    clingo plays would run to their limit for nothing)."""
    from .frontends import load_game
    from .sim import compile_loaded, simulate
    from .sim.machine import CYCLE, UNFINISHED
    stats = simulate(compile_loaded(load_game(path, dialect), overrides), plays, seed)
    for status, word in ((CYCLE, "cycle"), (UNFINISHED, "do not end within the simulator's step limit")):
        seeds = stats.runaway_seeds.get(status)
        if seeds:
            return f"random plays of the game {word} (simulator, seeds {', '.join(map(str, seeds))})"
    longest = stats.report()["steps_per_game"]["max"]
    if longest > max_steps:
        return (f"a random play takes {longest} simulator steps, each at least one joint move: more than "
                f"the {max_steps} a measuring play may take")
    return None


def _may_lose_score(machine: GameMachine) -> bool:
    """Whether the machine plays a translation whose scoring may lose a score (the simulator's
    integers are Python's); a scan of the rules, next to a clingo playout's cost nothing."""
    desc = getattr(machine, "description", None)
    return desc is not None and derives_score_lost(desc)


def _decisions(moves) -> int:
    """Steps in which a player (not `random`) made a move other than noop."""
    return sum(1 for joint in moves
               if any(str(r) != CHANCE_ROLE and str(m) != "noop" for r, m in joint.items()))


def load_machine(path, engine: str, overrides: dict | None = None, fit: int = 0) -> GameMachine:
    """The game file on the simulator ('sim'), or over its GDL-II translation (tables fitted to `fit`
    random plays when > 0) on clingo ('clingo') or on its ground rules as a propositional network
    ('propnet', the same answers)."""
    if engine == "sim":
        from .frontends import load_game
        from .sim import compile_loaded
        from .sim.gamemachine import SimMachine
        from .sim.stepwise import StepMachine
        return SimMachine(StepMachine(compile_loaded(load_game(path), overrides)))
    if engine == "clingo":
        from .gdl.machine import ClingoMachine
        from .translate import load_description
        return ClingoMachine(load_description(path, 2, overrides, fit=fit))
    if engine == "propnet":
        from .gdl.propnet_machine import PropnetMachine
        from .translate import load_description
        return PropnetMachine(load_description(path, 2, overrides, fit=fit))
    raise ValueError(f"engine must be 'sim', 'clingo' or 'propnet', not {engine!r}")


def run(path, engine: str, n: int, seed: int = 0, overrides: dict | None = None, progress=None,
        max_steps: int = 10_000, fit: int = 0) -> dict:
    """n playouts (seeds seed..seed+n-1) of a game file on 'sim', 'clingo' or 'propnet'; per-role mean goals."""
    t0 = time.perf_counter()
    games = []
    try:
        # loading is inside: a stop while the game is still being read or grounded reports 0 playouts
        machine = load_machine(path, engine, overrides, fit)
        for i in range(n):
            games.append({"seed": seed + i, **random_playout(machine, random.Random(seed + i), max_steps)})
            if progress is not None:
                progress(1)
    except KeyboardInterrupt:
        pass
    done = [g for g in games if g["finished"]]
    roles = sorted({r for g in done for r in g["goals"]})
    mean = {r: round(sum(g["goals"][r] for g in done) / len(done), 2) for r in roles} if done else {}
    return {"game": str(path), "engine": engine, "playouts": len(games), "finished": len(done),
            "mean_goal": mean, "seconds": round(time.perf_counter() - t0, 3), "games": games}
