"""A report's games on any GameMachine (a deck-building `.dbk` module): the same metrics as `data.py`.

`report_data` plays compiled RECYCLE on the simulator's fast path; this plays a machine through
`ggpbridge.machine.playout` and writes the same traces, so `Summary`, `cardstock` and the page
read them unchanged. A decision is a state where a player (not `random`) has a move other than
`noop`, forced ones included; its `choice` is the state's `phase` where the machine's states
have one (`act`, `discard`, `bank`), for branching by choice. The score curve is the machine's
`scores(state)` at each decision, when it has that method. The evaluating PIPMC compares its
options on common random numbers as `trace.EvaluatingPIPMC` does; strategy potential plays
PIPMC in one seat against random.
"""
from __future__ import annotations

import random
import time
from typing import Callable

from ..errors import MoveError
from ..machine import GameMachine, UnfinishedPlay, playout
from ..search.pipmc import determinizer, rollout
from ..sim.machine import ERROR, FINISHED, UNFINISHED
from ..sim.metrics import in_seat
from ..sim.players import describe_players
from . import cardstock
from .data import PLAYOUTS, _potential, default_counts
from .summary import Summary

CHANCE = "random"


class EvaluatingPIPMC:
    """A machine Policy: PIPMC on common random numbers that logs its estimates per real decision."""

    def __init__(self, rng: random.Random, playouts: int = PLAYOUTS):
        self.rng, self.playouts = rng, playouts
        self.log: list = []   # per decision of this seat: the estimates, or None when forced

    def __call__(self, machine: GameMachine, state, role, moves: tuple, _rng=None):
        if len(moves) == 1:
            if str(moves[0]) != "noop":
                self.log.append(None)
            return moves[0]
        deal = determinizer(machine)
        others = {r: "noop" for r in machine.roles() if r != role}
        seeds = [self.rng.getrandbits(64) for _ in range(self.playouts)]
        totals = [0.0] * len(moves)
        for s in seeds:
            det = deal(state, role, random.Random(s))
            for k, move in enumerate(moves):
                goals = rollout(machine, machine.next_state(det, {**others, role: move}), random.Random(s + 1))
                totals[k] += goals.get(role, 0) / 100
        self.log.append([t / len(seeds) for t in totals])
        return moves[max(range(len(moves)), key=lambda k: (totals[k], -k))]


def machine_trace(machine: GameMachine, seed: int, policies: dict, max_steps: int, evaluators: dict | None = None):
    """One seeded game as the report's metrics read it (`trace.trace`'s shape), and its rule error or None."""
    players = [r for r in machine.roles() if str(r) != CHANCE]
    scores_of = getattr(machine, "scores", None)
    try:
        play = playout(machine, random.Random(seed), policies, max_steps, percepts=False)
        status, states, moves, error = FINISHED, play.states, play.moves, None
    except UnfinishedPlay as e:
        status, states, moves, error = UNFINISHED, e.play.states, e.play.moves, None
    except MoveError as e:
        return {"seed": seed, "status": ERROR, "winners": [], "scores": [], "steps": 0, "decisions": []}, str(e)
    decisions, curve = [], []
    for state, joint in zip(states, moves):
        for p, role in enumerate(players):
            if str(joint[role]) == "noop":
                continue
            k = len(machine.legal_moves(state, role))
            decisions.append([p, k, getattr(state, "phase", None), []])
            if scores_of is not None:
                curve.append(list(scores_of(state)))
    final = states[-1]
    goals = {str(r): v for r, v in machine.goals(final).items()} if status == FINISHED else {}
    scores = list(scores_of(final)) if scores_of is not None and status == FINISHED else \
        [goals.get(str(r), 0) for r in players]
    out = {"seed": seed, "status": status, "winners": [p for p, r in enumerate(players) if goals.get(str(r)) == 100],
           "scores": scores, "steps": len(moves), "decisions": decisions,
           "curve": curve + [scores] if scores_of is not None and status == FINISHED else None}
    if evaluators:
        logs = {p: iter(ev.log) for p, ev in evaluators.items()}
        out["values"] = [next(logs[d[0]], None) if d[0] in logs else None for d in decisions]
    return out, error


def machine_report_data(machine: GameMachine, game: str, players: str, n: int, seed: int, sets: dict | None,
                        policies_of: Callable, *, pipmc_games: int | None = None, potential_games: int | None = None,
                        max_steps: int = 100_000, progress=None) -> dict:
    """The report's three sets of games (`data.report_data`) on a machine; `policies_of(spec, machine, seed)`
    seats the players of a --players spec. Ctrl-C keeps what was played (`interrupted`)."""
    roles = [r for r in machine.roles() if str(r) != CHANCE]
    seats = len(roles)
    m, k = default_counts(n, pipmc_games, potential_games)
    tick = progress or (lambda done: None)
    summary, errors, evaluated, pots = Summary(seats, True, {}), [], [], []
    t0, stopped = time.perf_counter(), False
    try:
        for s in range(seed, seed + n):
            tr, error = machine_trace(machine, s, policies_of(players, machine, s), max_steps)
            if error is not None and len(errors) < 10:
                errors.append({"seed": s, "error": error})
            summary.add(tr)
            tick(1)
        for s in range(seed, seed + m):
            evs = {p: EvaluatingPIPMC(random.Random(f"{s}/{p}/pipmc")) for p in range(seats)}
            evaluated.append(machine_trace(machine, s, {roles[p]: ev for p, ev in evs.items()}, max_steps, evs)[0])
            tick(1)
        for p in range(seats):
            shares = {}
            for spec in ("random", "pipmc"):
                shares[spec] = []
                for s in range(seed, seed + k):
                    tr, _ = machine_trace(machine, s, policies_of(in_seat(seats, p, spec), machine, s), max_steps)
                    won = tr["status"] == FINISHED and p in tr["winners"]
                    shares[spec].append(1.0 / len(tr["winners"]) if won else 0.0)
                    tick(1)
            pots.append((p, shares["random"], shares["pipmc"]))
    except KeyboardInterrupt:
        stopped = True
    main = summary.result()
    first = summary.wins[0] / main["finished"] if main["finished"] else None
    return {
        # the main games played (`data.report_data`): fewer than n when interrupted
        "game": str(game), "players": describe_players(players), "games": main["games"], "seed": seed,
        "sets": dict(sets or {}), "seats": seats,
        "scoring": "max", "summary": main, "errors": errors,
        "pipmc": {"games": len(evaluated), "playouts": PLAYOUTS,
                  "meaningful_choices": cardstock.meaningful(evaluated),
                  "cardstock": cardstock.heuristics(evaluated, seats, first)},
        "strategy_potential": [_potential(p, base, smart) for p, base, smart in pots],
        "interrupted": stopped, "seconds": round(time.perf_counter() - t0, 3),
    }
