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

from dataclasses import dataclass

from ..cluster import compiled, map_games, prefix
from ..frontends import load_game
from ..sim import compile_loaded
from ..sim.machine import ChoiceP, Program
from ..sim.metrics import in_seat, potential, seat_shares
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
                progress=None, client=None) -> dict:
    """Play the report's games of the game file `game` and return every metric (module doc).

    `client` (a `distributed.Client`, see `cluster.session`) plays the games on its Dask cluster
    in seeded chunks; the traces are gathered in seed order, so the result is the one a single
    process gives (timing aside)."""
    parse_players(players)   # a bad spec is refused before any game is played
    loaded = load_game(game, dialect)
    overrides = tuple(sorted(dict(sets or {}).items()))
    prog = compiled(loaded, overrides)
    seats = prog.lay.n
    m, k = default_counts(n, pipmc_games, potential_games)
    tick = progress or (lambda done: None)
    labels = {cid: f"line {node.node.pos.line}" if node.node.pos else f"choice {cid}"
              for cid, node in prog.by_id.items() if isinstance(node, ChoiceP)}
    summary, errors, pipmc, pots = Summary(seats, prog.maximize, labels), [], [], []
    t0 = time.perf_counter()
    stop = _Stop()

    def run(kind: str, count: int) -> list:
        task = ReportGames(loaded, overrides, kind, players, max_steps)
        return stop.run(task, prog, range(seed, seed + count), client, tick)

    for s, (tr, error) in zip(range(seed, seed + n), run("main", n)):
        if error is not None and len(errors) < 10:
            errors.append({"seed": s, "error": error})
        summary.add(tr)
    pipmc = run("pipmc", m)
    for p in range(seats):
        if stop.stopped:
            break
        base = run(f"random@{p}", k)
        pots.append((p, base, run(f"pipmc@{p}", k)))
    main = summary.result()
    # unrounded: CardStock's Fairness of an exactly even share is exactly 1
    first = summary.wins[0] / main["finished"] if main["finished"] else None
    out = {
        # the main games played, as `simulate` counts them: fewer than n when interrupted
        "game": str(game), "players": describe_players(players), "games": main["games"], "seed": seed,
        "sets": dict(sets or {}), "seats": seats, "scoring": "max" if prog.maximize else "min",
        "summary": main, "errors": errors,
        "pipmc": {"games": len(pipmc), "playouts": PLAYOUTS, "meaningful_choices": cardstock.meaningful(pipmc),
                  "cardstock": cardstock.heuristics(pipmc, seats, first)},
        "strategy_potential": [_potential(p, base, smart) for p, base, smart in pots],
        "interrupted": stop.stopped, "seconds": round(time.perf_counter() - t0, 3),
    }
    if stop.cluster_error:
        out["cluster_error"] = stop.cluster_error
    return out


@dataclass(frozen=True)
class ReportGames:
    """A report's games of one kind for a range of seeds; picklable, so a Dask worker plays them.

    kind: "main" (the given players; a trace and the rule error or None per game), "pipmc"
    (evaluating PIPMC in every seat; a trace per game), "random@P" / "pipmc@P" (that player in
    seat P, random elsewhere; seat P's share of the win per game)."""

    loaded: object
    overrides: tuple
    kind: str
    players: str = "random"
    max_steps: int = 100_000

    def __call__(self, seeds: range) -> list:
        prog = compiled(self.loaded, self.overrides)
        return [self.one(prog, s) for s in seeds]

    def one(self, prog: Program, s: int):
        """Game `s` of this kind."""
        seats = prog.lay.n
        if self.kind == "main":
            players_ = make_players(self.players, seats, s)
            rec = Recorder(players_)
            res = play(prog, s, players_, self.max_steps, observer=rec)
            return trace(res, rec), (res.error if res.status == ERROR else None)
        if self.kind == "pipmc":
            players_ = [EvaluatingPIPMC(seat_rng(s, p, "pipmc"), PLAYOUTS) for p in range(seats)]
            rec = Recorder(players_)
            return trace(play(prog, s, players_, self.max_steps, observer=rec), rec)
        spec, seat = self.kind.split("@")
        return seat_shares(prog, int(seat), 1, s, in_seat(seats, int(seat), spec))[0]


class _Stop:
    """Runs the kinds of games one after the other until one is interrupted; then the later
    ones play nothing, and what was played is kept."""

    def __init__(self):
        self.stopped = False
        self.cluster_error = None

    def run(self, task: ReportGames, prog: Program, seeds: range, client, tick) -> list:
        out: list = []
        if self.stopped or not len(seeds):
            return out
        if client is None:
            try:
                for s in seeds:
                    out.append(task.one(prog, s))
                    tick(1)
            except KeyboardInterrupt:
                self.stopped = True
            return out
        mapped = map_games(task, seeds, cluster=client, progress=tick)
        for part in prefix(mapped, seeds):
            out.extend(part)
        if mapped.interrupted or mapped.error:
            self.stopped = True
            self.cluster_error = mapped.error
        return out


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
