"""Random playouts on either engine, with outcomes in one shape (goals per role), to compare them."""
from __future__ import annotations

import random
import time

from .sim.stepwise import Chance, Decision, StepMachine, Terminal


def sim_playout(machine: StepMachine, rng: random.Random, max_events: int = 100_000) -> dict:
    """One uniformly random game on the simulator: goals per role (winners 100), decisions, chance events."""
    s = machine.initial_state()
    decisions = chance = 0
    for _ in range(max_events):
        node = machine.node(s)
        if isinstance(node, Terminal):
            n = len(node.scores)
            return {"goals": {f"player{p}": 100 if p in node.winners else 0 for p in range(n)},
                    "decisions": decisions, "chance": chance, "finished": True}
        if isinstance(node, Chance):
            s = machine.next_state(s, rng.randrange(node.n))
            chance += 1
        else:
            assert isinstance(node, Decision)
            if not node.options:
                raise ValueError(f"player {node.player} has no enabled option")
            s = machine.next_state(s, rng.randrange(len(node.options)))
            decisions += 1
    return {"goals": None, "decisions": decisions, "chance": chance, "finished": False}


def gdl_playout(machine, rng: random.Random, max_steps: int = 100_000) -> dict:
    """One uniformly random game on the clingo machine (every role, `random` included, plays uniformly)."""
    from .gdl.machine import playout
    from .gdl.errors import GameError
    try:
        p = playout(machine, rng, max_steps=max_steps)
    except GameError:
        return {"goals": None, "steps": max_steps, "finished": False}
    noop = sum(1 for joint in p.moves if all(str(m) == "noop" or str(r) == "random" for r, m in joint.items()))
    return {"goals": {str(r): v for r, v in p.goals.items() if str(r) != "random"}, "steps": len(p.moves),
            "decisions": len(p.moves) - noop, "finished": True}


def run(path, engine: str, n: int, seed: int = 0, overrides: dict | None = None, progress=None,
        max_steps: int = 10_000) -> dict:
    """n playouts (seeds seed..seed+n-1) of a game file on 'sim' or 'clingo'; per-role mean goals."""
    t0 = time.perf_counter()
    if engine == "sim":
        from .recycle import parse_file
        from .sim import compile_loaded
        machine = StepMachine(compile_loaded(parse_file(path), overrides))
        play = sim_playout
    else:
        from .gdl.machine import ClingoMachine
        from .translate import load_description
        machine = ClingoMachine(load_description(path, 2, overrides))
        play = gdl_playout
    games = []
    try:
        for i in range(n):
            games.append({"seed": seed + i, **play(machine, random.Random(seed + i), max_steps)})
            if progress is not None:
                progress(1)
    except KeyboardInterrupt:
        pass
    done = [g for g in games if g["finished"]]
    roles = sorted({r for g in done for r in g["goals"]})
    mean = {r: round(sum(g["goals"][r] for g in done) / len(done), 2) for r in roles} if done else {}
    return {"game": str(path), "engine": engine, "playouts": len(games), "finished": len(done),
            "mean_goal": mean, "seconds": round(time.perf_counter() - t0, 3), "games": games}
