"""All the games of a report, behind one function: `report_data`.

It takes a game file's path and plain values and returns a JSON-ready dict, so that it can
run where the file is readable and nothing else is shared (another process, a Dask worker).
Three sets of games are played, each from `seed` (game i uses seed + i):

- the main games, `n` of them with the given players: win shares, fairness, lengths,
  branching and the lead metrics (summary.py);
- `pipmc_games` games with every seat an evaluating PIPMC: meaningful choices and
  CardStock's Scorer heuristics (cardstock.py);
- per seat, `potential_games` games with PIPMC in that seat and `potential_games` with
  random there, every other seat random: strategy potential (sim/metrics.py).

A KeyboardInterrupt stops the games: what was computed is returned, with `interrupted` set.
"""
from __future__ import annotations

import math
import time

from ..frontends import load_game
from ..sim import compile_loaded
from ..sim.machine import ChoiceP, Program
from ..sim.metrics import potential, seat_shares
from ..sim.players import describe_players, make_players, parse_players, seat_rng
from ..sim.playout import ERROR, play
from . import cardstock
from .summary import Summary
from .trace import EvaluatingPIPMC, Recorder, trace

PLAYOUTS = 10   # PIPMC's playouts per option, as the `pipmc` player


def compile_game(game: str, sets: dict | None = None, dialect: str | None = None) -> Program:
    """The game file compiled with its variables overridden by `sets` (errors name the file)."""
    return compile_loaded(load_game(game, dialect), dict(sets or {}))


def default_counts(n: int, pipmc_games: int | None, potential_games: int | None) -> tuple[int, int]:
    """The sizes of the PIPMC and strategy-potential sets: at most n, 50 and 100 by default."""
    return (min(n, 50) if pipmc_games is None else pipmc_games,
            min(n, 100) if potential_games is None else potential_games)


def planned_games(seats: int, n: int, pipmc_games: int | None = None, potential_games: int | None = None) -> int:
    """How many games `report_data` plays for a game of `seats` seats (for progress bars)."""
    m, k = default_counts(n, pipmc_games, potential_games)
    return n + m + 2 * k * seats


def report_data(game: str, players: str, n: int, seed: int, sets: dict | None, *, pipmc_games: int | None = None,
                potential_games: int | None = None, max_steps: int = 100_000, dialect: str | None = None,
                progress=None) -> dict:
    """Play the report's games of the game file `game` and return every metric (module doc)."""
    parse_players(players)   # a bad spec is refused before any game is played
    prog = compile_game(game, sets, dialect)
    seats = prog.lay.n
    m, k = default_counts(n, pipmc_games, potential_games)
    tick = progress or (lambda done: None)
    labels = {cid: f"line {node.node.pos.line}" if node.node.pos else f"choice {cid}"
              for cid, node in prog.by_id.items() if isinstance(node, ChoiceP)}
    summary, errors, pipmc, pots = Summary(seats, prog.maximize, labels), [], [], []
    t0 = time.perf_counter()
    interrupted = False
    try:
        for i in range(n):
            s = seed + i
            players_ = make_players(players, seats, s)
            rec = Recorder(players_)
            res = play(prog, s, players_, max_steps, observer=rec)
            if res.status == ERROR and len(errors) < 10:
                errors.append({"seed": s, "error": res.error})
            summary.add(trace(res, rec))
            tick(1)
        for i in range(m):
            s = seed + i
            players_ = [EvaluatingPIPMC(seat_rng(s, p, "pipmc"), PLAYOUTS) for p in range(seats)]
            rec = Recorder(players_)
            pipmc.append(trace(play(prog, s, players_, max_steps, observer=rec), rec))
            tick(1)
        for p in range(seats):
            specs = ["random"] * seats
            base, smart = [], []
            pots.append((p, base, smart))
            for i in range(k):
                base += seat_shares(prog, p, 1, seed + i, ",".join(specs))
                tick(1)
            specs[p] = "pipmc"
            for i in range(k):
                smart += seat_shares(prog, p, 1, seed + i, ",".join(specs))
                tick(1)
    except KeyboardInterrupt:
        interrupted = True
    main = summary.result()
    # unrounded: CardStock's Fairness of an exactly even share is exactly 1
    first = summary.wins[0] / main["finished"] if main["finished"] else None
    return {
        "game": str(game), "players": describe_players(players), "games": n, "seed": seed,
        "sets": dict(sets or {}), "seats": seats, "scoring": "max" if prog.maximize else "min",
        "summary": main, "errors": errors,
        "pipmc": {"games": len(pipmc), "playouts": PLAYOUTS, "meaningful_choices": cardstock.meaningful(pipmc),
                  "cardstock": cardstock.heuristics(pipmc, seats, first)},
        "strategy_potential": [_potential(p, base, smart) for p, base, smart in pots],
        "interrupted": interrupted, "seconds": round(time.perf_counter() - t0, 3),
    }


def _potential(seat: int, base: list, smart: list) -> dict:
    """A seat's strategy potential over the games both sets finished playing."""
    g = min(len(base), len(smart))
    if g == 0:
        return {"seat": seat, "games": 0, "potential": None, "interval": None, "share": None, "random_share": None}
    mean, (lo, hi) = potential(smart[:g], base[:g])
    interval = [round(lo, 6), round(hi, 6)] if math.isfinite(lo) else None
    return {"seat": seat, "games": g, "potential": round(mean, 6), "interval": interval,
            "share": round(sum(smart[:g]) / g, 6), "random_share": round(sum(base[:g]) / g, 6)}


def headline(rep: dict) -> dict:
    """The report's metrics as single numbers by name (what a sweep plots against its variable)."""
    s = rep["summary"]
    out = {f"win share, seat {x['seat']}": x["win_share"] for x in s["seats"]}
    out["fairness spread"] = s["fairness"]["spread"]
    out["decisions per game"] = s["length"]["decisions"]["mean"]
    out["options per decision"] = s["branching"]["mean_options"]
    out["lead changes per game"] = s["lead"]["lead_changes"]["mean"]
    out["drama: deepest deficit"] = s["lead"]["drama"]["mean_deepest_deficit"]
    out["drama: share of games trailed"] = s["lead"]["drama"]["trailed_share"]
    out["decisiveness"] = s["lead"]["decisiveness"]["mean"]
    out["meaningful choices"] = rep["pipmc"]["meaningful_choices"]["share"]
    for x in rep["strategy_potential"]:
        out[f"strategy potential, seat {x['seat']}"] = x["potential"]
    for name, h in rep["pipmc"]["cardstock"]["heuristics"].items():
        out[f"CardStock {name}"] = h["value"]
    return out
