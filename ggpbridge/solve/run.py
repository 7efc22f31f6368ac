"""`solve_game`: a game file analysed exactly, by CFR+ or expectimax, as a JSON-ready report.

`--method auto` takes expectimax when every location of the game is public (vloc or mem),
so that no seat can lack anything at a decision, and CFR+ otherwise. Expectimax on a game
with hidden cards is allowed and labelled: it is the perfect-information relaxation.
A limit (iterations, target exploitability, timeout) or Ctrl-C ends CFR+ with the average
strategy found so far, evaluated; Ctrl-C while the tree is being built ends with its size.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

from ..errors import interrupted_by
from ..frontends import load_game
from ..sim import compile_loaded
from ..sim.stepwise import StepMachine
from .cfr import CFRPlus
from .expectimax import expectimax
from .policy import policy_document
from .tree import DEFAULT_LIMIT, SolveError, build_tree

METHODS = ("auto", "cfr+", "expectimax")
CHECK_EVERY = 10   # CFR+ iterations between evaluations (a best response costs a few iterations)


@dataclass
class Solved:
    """The report, and what writing a policy file needs (CFR+ only)."""

    report: dict
    tree: object = None
    policy: object = None
    header: dict = field(default_factory=dict)

    def policy_document(self) -> dict | None:
        """The policy file's content, or None when the method gives no policy (expectimax)."""
        if self.tree is None or self.policy is None:
            return None
        return policy_document(self.tree, self.policy, self.header)


def public_only(machine: StepMachine) -> bool:
    """True when every location of the game is visible to everyone (vloc, mem)."""
    return all(v in ("vloc", "mem") for v in machine.prog.lay.loc_vis)


def frac(x: Fraction) -> str:
    """An exact value as text: `-1/18`, `0`."""
    return str(x)


def solve_game(game: str, overrides: dict | None = None, utility: str = "score", method: str = "auto",
               target: float = 0.001, max_iterations: int = 100_000, timeout: float | None = None,
               limit: int = DEFAULT_LIMIT, progress=None, on_checkpoint=None, dialect: str | None = None,
               want_policy: bool = False) -> Solved:
    """Analyse the game file; `progress(what, n)` is told of histories built and iterations run,
    `on_checkpoint(dict)` of each evaluation (iteration, value, exploitability, seconds).
    `want_policy`: a policy file is wanted, so `auto` takes CFR+ (expectimax gives none)."""
    if method not in METHODS:
        raise SolveError(f"unknown method {method!r} (one of: {', '.join(METHODS)})")
    overrides = dict(overrides or {})
    machine = StepMachine(compile_loaded(load_game(game, dialect), overrides))
    why = "chosen"
    if method == "auto":
        public = public_only(machine)
        method = "expectimax" if public and not want_policy else "cfr+"
        why = ("auto: a policy file is asked for" if want_policy else "auto: every location is public" if public
               else "auto: the game has hidden locations")
    report = {"game": str(game), "overrides": overrides, "utility": utility, "method": method, "method_reason": why,
              "seats": len(machine.roles), "interrupted": False, "stopped_by": None}
    t0 = time.perf_counter()
    try:
        if method == "expectimax":
            return Solved(_expectimax(machine, utility, limit, progress, report, t0))
        return _cfr(machine, utility, target, max_iterations, timeout, limit, progress, on_checkpoint, report, t0)
    except SolveError as e:
        if str(e).startswith(f"{game}:"):
            raise
        raise SolveError(f"{game}: error: {e}") from None


def _expectimax(machine, utility, limit, progress, report, t0) -> dict:
    try:
        r = expectimax(machine, utility, limit, (lambda n: progress("states", n)) if progress else None)
    except KeyboardInterrupt as stop:
        report.update(interrupted=True, stopped_by=interrupted_by(stop), seconds=round(time.perf_counter() - t0, 3))
        return report
    report.update({
        "perfect_information": r.hidden is None,
        "relaxation": None if r.hidden is None else f"perfect-information relaxation: every seat sees everything "
                                                    f"(in the game, {r.hidden})",
        "value": [float(v) for v in r.values], "exact_value": [frac(v) for v in r.values],
        "first_moves": [{**fm, "probability": frac(fm["probability"]),
                         "options": [{**o, "values": [frac(v) for v in o["values"]]} for o in fm["options"]]}
                        for fm in r.first_moves],
        "tree": {"histories": r.histories, "transposition_table": r.states},
        "seconds": round(time.perf_counter() - t0, 3),
    })
    report["constant_sum"] = None if r.constant_sum is None else frac(r.constant_sum)
    return report


def _cfr(machine, utility, target, max_iterations, timeout, limit, progress, on_checkpoint, report, t0) -> Solved:
    try:
        tree = build_tree(machine, utility, limit, (lambda n: progress("histories", n)) if progress else None)
    except KeyboardInterrupt as stop:
        report.update(interrupted=True, stopped_by=f"{interrupted_by(stop)} while building the game tree",
                      seconds=round(time.perf_counter() - t0, 3))
        return Solved(report)
    report["tree"] = tree.stats
    report["constant_sum"] = None if tree.constant_sum is None else frac(tree.constant_sum)
    report["build_seconds"] = round(time.perf_counter() - t0, 3)
    solver = CFRPlus(tree)
    curve = []
    t1 = time.perf_counter()
    ev = None

    def checkpoint():
        nonlocal ev
        ev = solver.evaluate()
        point = {"iteration": solver.iterations, "value": ev["value"], "exploitability": ev["exploitability"],
                 "seconds": round(time.perf_counter() - t1, 3)}
        curve.append(point)
        if on_checkpoint is not None:
            on_checkpoint(point)
        return ev["exploitability"]

    try:
        if not solver.edges or not any(len(e[0]) for e in solver.edges):
            checkpoint()   # nobody decides anything: the value is the chance average
        else:
            while solver.iterations < max_iterations:
                solver.iterate(min(CHECK_EVERY, max_iterations - solver.iterations))
                if progress is not None:
                    progress("iterations", solver.iterations)
                if checkpoint() <= target:
                    report["stopped_by"] = f"exploitability {ev['exploitability']:.6g} <= target {target:g}"
                    break
                if timeout is not None and time.perf_counter() - t1 > timeout:
                    report["stopped_by"] = f"--timeout {timeout:g} s reached"
                    break
            else:
                report["stopped_by"] = f"--iterations {max_iterations} run"
    except KeyboardInterrupt as stop:
        report.update(interrupted=True, stopped_by=interrupted_by(stop))
        if not curve or curve[-1]["iteration"] != solver.iterations:
            checkpoint()   # what the iterations so far have reached
    avg = solver.average()
    report.update({
        "perfect_information": all(_single_history(tree)),
        "value": ev["value"], "exploitability": ev["exploitability"], "nash_conv": ev["nash_conv"],
        "best_response_gain": ev["best_response_gain"], "iterations": solver.iterations,
        "convergence": curve, "seconds": round(time.perf_counter() - t0, 3),
    })
    header = {k: report[k] for k in ("game", "overrides", "utility", "method", "seats", "iterations", "value",
                                     "exploitability")}
    return Solved(report, tree, avg, header)


def _single_history(tree):
    """Per information set: does it hold one node only (so its seat knew where it stood)?"""
    import numpy as np
    counts = np.bincount(tree.slot_infoset[tree.slot[tree.slot >= 0]], minlength=len(tree.infosets))
    sizes = np.array([len(i.options) for i in tree.infosets])
    return counts == sizes
