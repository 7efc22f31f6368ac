"""The fitness of one game, from seeded playouts (each term's formula: docs/evolve.md).

Two sets of games, as `ggpbridge report` plays them and folded by the report's own code:
`conf["playouts"]["games"]` games with random players (the report's "main" games, folded
by `report.summary.Summary`: finished share, win shares, decisions, lead changes,
decisiveness), and per seat `potential_games` games with PIPMC in the seat and as many
with random there (the report's strategy potential, `sim.metrics.potential`). Game i of
a set uses seed `seed + i`, so an evaluation is a function of the text, the seed and the
configuration only, wherever it runs.

Every term is in [0, 1]; the fitness is their weighted mean. A game that does not load or
compile, or never finishes, has fitness 0. Strategy potential is measured only for a game
whose random games all finished within the length band's top (else its term is 0), and its
PIPMC games stop, unscored, at 4 times the steps of its longest random game: PIPMC on a long
or runaway game would cost more than the rest of the run.
"""
from __future__ import annotations

from ..errors import GgpBridgeError
from ..report.data import ReportGames
from ..report.summary import Summary
from ..sim.machine import FINISHED
from ..sim.metrics import in_seat, potential, seat_shares

POTENTIAL_STEPS = 4   # a PIPMC game's step cap, in units of the longest random game's steps
TERMS = ("completion", "balance", "few_draws", "length", "decisiveness", "lead_changes", "potential")


def load_text(text: str, name: str):
    """A game text as the `recycle.Loaded` the simulator compiles (its suffix picks the language)."""
    from ..frontends import is_gcardgame
    if is_gcardgame(name):
        from ..gcardgame import parse_text, to_recycle
        return to_recycle(parse_text(text, name))
    from ..recycle import parse_text as parse_rcy
    return parse_rcy(text, name)


def evaluate(text: str, name: str, seed: int, conf: dict) -> dict:
    """The fitness of the game text `name` (a file name: its suffix picks the language), its
    terms and the playout figures they come from; `error` when it cannot be played."""
    from ..cluster import compiled
    try:
        loaded = load_text(text, name)
        prog = compiled(loaded, ())
    except (GgpBridgeError, RecursionError) as e:
        return {"fitness": 0.0, "terms": dict.fromkeys(TERMS, 0.0), "figures": {},
                "error": str(e).splitlines()[0]}
    play = conf["playouts"]
    seats = prog.lay.n
    summary, draws, errors = Summary(seats, prog.maximize), 0, []
    main = ReportGames(loaded, (), "main", "random", play["max_steps"])
    for s in range(seed, seed + play["games"]):
        tr, error = main.one(prog, s)
        summary.add(tr)
        draws += tr["status"] == FINISHED and len(tr["winners"]) != 1
        if error and not errors:
            errors.append(error.splitlines()[0])
    res = summary.result()
    pots = []
    mean = res["length"]["decisions"]["mean"]
    # PIPMC's cost grows with the square of a game's length (playouts from every decision), and
    # its games have no step cap of ours: only a game that always ended, within the band, gets them
    if res["finished"] == res["games"] and mean is not None and mean <= conf["band"]["max_decisions"]:
        k = play["potential_games"]
        # PIPMC can steer a game that random players always end into a loop: its games stop (unscored)
        # at POTENTIAL_STEPS times the longest random game, where the report's would run 100,000 steps
        cap = min(play["max_steps"], POTENTIAL_STEPS * res["length"]["steps"]["max"])
        for p in range(seats if k else 0):
            base = seat_shares(prog, p, k, seed, in_seat(seats, p), cap)
            pots.append(potential(seat_shares(prog, p, k, seed, in_seat(seats, p, "pipmc"), cap), base)[0])
    figures = {
        "seats": seats, "games": res["games"], "finished": res["finished"], "draws": draws,
        "spread": res["fairness"]["spread"], "decisions": res["length"]["decisions"]["mean"],
        "lead_changes": res["lead"]["lead_changes"]["mean"], "decisiveness": res["lead"]["decisiveness"]["mean"],
        "potential": round(sum(pots) / len(pots), 6) if pots else None,
    }
    terms = score_terms(figures, conf)
    out = {"fitness": weighted(terms, conf["weights"]), "terms": terms, "figures": figures}
    if errors:
        out["first_rule_error"] = errors[0]
    return out


def score_terms(f: dict, conf: dict) -> dict:
    """Each term in [0, 1] from the playout figures (docs/evolve.md); an undefined figure
    (no finished game, no lead curve) scores 0, as CardStock counts an undefined heuristic."""
    fin = f["finished"]
    if not fin:
        return dict.fromkeys(TERMS, 0.0)
    band, target = conf["band"], conf["targets"]
    m = f["decisions"]
    lo, hi = band["min_decisions"], band["max_decisions"]
    length = 1.0 if lo <= m <= hi else (m / lo if m < lo else hi / m)
    lead = f["lead_changes"]
    pot = f["potential"]
    terms = {
        "completion": fin / f["games"],
        "balance": 1.0 - f["spread"],
        "few_draws": 1.0 - f["draws"] / fin,
        "length": length,
        "decisiveness": 1.0 - f["decisiveness"] if f["decisiveness"] is not None else 0.0,
        "lead_changes": min(1.0, lead / target["lead_changes"]) if lead is not None and target["lead_changes"] else 0.0,
        "potential": _clip(pot / target["potential"]) if pot is not None and target["potential"] else 0.0,
    }
    return {k: round(v, 6) for k, v in terms.items()}


def weighted(terms: dict, weights: dict) -> float:
    """The weighted mean of the terms (0 when every weight is 0)."""
    total = sum(weights[k] for k in TERMS)
    return round(sum(weights[k] * terms[k] for k in TERMS) / total, 6) if total else 0.0


def _clip(x: float) -> float:
    return max(0.0, min(1.0, x))
