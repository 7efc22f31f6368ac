"""Runaway loops without a decision: a stage whose end never holds and whose body has no
choice and no chance is proven a cycle (its state recurs) or cut by the step limit, on
both engines and on everything that drives them; nothing hangs.

Each check runs under an alarm, so that a regression fails instead of hanging the suite.
"""
from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from ggpbridge.recycle import parse_file
from ggpbridge.sim import compile_loaded, play, simulate
from ggpbridge.sim.codegen import compile_fast
from ggpbridge.sim.players import make_players

DATA = Path(__file__).parent / "data"
CYCLE_GAME = DATA / "runaway_cycle.rcy"   # passes a card around for ever: its state recurs
COUNT_GAME = DATA / "runaway_count.rcy"   # counts up for ever: its state never recurs


class Hang(BaseException):
    """Raised by the alarm: a BaseException, so that no `except Exception` of the code swallows it."""


@contextmanager
def deadline(seconds: float):
    """Fail (not hang) when the body runs longer than `seconds`."""
    def expired(signum, frame):
        raise Hang(f"still running after {seconds} s: a runaway loop was not stopped")
    old = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _prog(path):
    return compile_loaded(parse_file(path))


@pytest.mark.parametrize("path,status", [(CYCLE_GAME, "cycle"), (COUNT_GAME, "unfinished")])
def test_the_closure_engine_stops_a_loop_without_decisions(path, status):
    prog = _prog(path)
    with deadline(30):
        r = play(prog, 0, make_players("random", prog.lay.n, 0), max_steps=2_000)
    assert r.status == status and r.scores == [] and r.winners == []
    if status == "unfinished":
        assert 2_000 < r.steps <= 2_002   # cut within the first pass (a block, the end test) beyond the limit


@pytest.mark.parametrize("path,status", [(CYCLE_GAME, "cycle"), (COUNT_GAME, "unfinished")])
def test_the_generated_engine_stops_it_at_the_same_step(path, status):
    prog = _prog(path)
    fast = compile_fast(prog)
    assert fast is not None
    for seed in range(3):
        with deadline(30):
            ref = play(prog, seed, make_players("random", prog.lay.n, seed), max_steps=2_000)
            got, _, steps = fast(random.Random(seed), lambda p, n: 0, 2_000, [])
        assert (got, steps) == (status, ref.steps)


def test_simulate_reports_runaway_seeds_on_both_engines():
    prog = _prog(CYCLE_GAME)
    with deadline(60):
        fast = simulate(prog, 3, seed=5, max_steps=2_000).report()
        slow = simulate(prog, 3, seed=5, max_steps=2_000, detailed=True).report()
        unfinished = simulate(_prog(COUNT_GAME), 2, seed=5, max_steps=2_000).report()
    for rep in (fast, slow):
        assert rep["cycles"] == 3 and rep["finished"] == 0
        assert rep["runaway_seeds"]["cycle"] == [5, 6, 7]
    assert unfinished["unfinished"] == 2 and unfinished["runaway_seeds"]["unfinished"] == [5, 6]


def test_the_command_line_stops_with_max_steps():
    # a subprocess with a timeout: a regression must fail, not hang
    cmd = [sys.executable, "-m", "ggpbridge.cli", "simulate", str(COUNT_GAME), "-n", "2", "--max-steps", "1000",
           "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    rep = json.loads(out.stdout)
    assert rep["unfinished"] == 2 and rep["runaway_seeds"]["unfinished"] == [0, 1]


def test_fitting_tables_measures_past_a_runaway():
    from ggpbridge.sim.extent import measure
    with deadline(60):
        prog = _prog(COUNT_GAME)
        ext = measure(prog, plays=2, max_steps=2_000)
    locs, ints = ext.named(prog)
    # both plays ran to the limit and were kept: no failure, and the counter's range is the
    # one reached before the cut (about one increment per two steps), not the setup's zero
    assert ext.plays == 2 and ext.failed == []
    assert 900 <= ints["COUNT"][1] <= 1_001 and ints["COUNT"][0] == 0
    assert locs[("iloc", "HAND")] == 1


@pytest.mark.parametrize("path", [CYCLE_GAME, COUNT_GAME])
def test_the_stepwise_machine_names_the_runaway_as_a_node(path):
    from ggpbridge.sim.stepwise import Decision, Runaway, StepMachine
    m = StepMachine(_prog(path), max_stretch=5_000)
    with deadline(60):
        s = m.initial_state()
        while isinstance(nd := m.node(s), Decision):
            s = m.next_state(s, 0)
    assert isinstance(nd, Runaway)
    assert nd.status == ("cycle" if path == CYCLE_GAME else "unfinished")
    assert "11:3" in nd.message   # the stage that loops


@pytest.mark.parametrize("question,verdict", [("cycle", "yes"), ("terminates", "no"), ("always-ends", "no"),
                                              ("playable", "yes"), ("winnable", "no")])
def test_query_answers_a_proven_loop(question, verdict, tmp_path):
    from ggpbridge.query.run import run_query
    from ggpbridge.query.witness import replay
    from ggpbridge.sim.stepwise import StepMachine
    with deadline(60):
        (a,) = run_query(str(CYCLE_GAME), question, "0" if question == "winnable" else None)
    assert a.verdict == verdict, a.method
    if a.witness is not None:
        assert a.witness["kind"] == "loop"
        r = replay(StepMachine(_prog(CYCLE_GAME)), a.witness)
        assert r.confirmed, r.message
        # the play before the loop's entry is not a loop
        short = dict(a.witness, steps=a.witness["steps"][:-1])
        assert not replay(StepMachine(_prog(CYCLE_GAME)), short).confirmed


@pytest.mark.parametrize("question", ["cycle", "terminates", "always-ends", "playable", "winnable"])
def test_query_is_unknown_past_a_loop_it_cannot_prove(question):
    from ggpbridge.query.run import run_query
    with deadline(60):
        (a,) = run_query(str(COUNT_GAME), question, "0" if question == "winnable" else None)
    assert a.verdict == "unknown" and "without a decision" in a.limit, (a.verdict, a.method, a.limit)


def test_query_command_line_answers_within_its_timeout(tmp_path):
    cmd = [sys.executable, "-m", "ggpbridge.cli", "query", str(CYCLE_GAME), "cycle", "--timeout", "20",
           "--witness", str(tmp_path / "w.json")]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "cycle? yes" in out.stdout, out.stdout + out.stderr


def test_playouts_on_the_simulator_end_unfinished():
    from ggpbridge.playouts import run
    with deadline(60):
        rep = run(CYCLE_GAME, "sim", 2, max_steps=500)
    assert rep["playouts"] == 2 and rep["finished"] == 0
    assert all(g["goals"] is None and not g["finished"] for g in rep["games"])


def test_the_lockstep_counts_a_loop_as_a_runaway():
    from ggpbridge.crosscheck import crosscheck
    with deadline(120):
        rep = crosscheck(parse_file(CYCLE_GAME), 2, seed=0)
    assert rep.divergence is None and rep.playouts == 2 and rep.capped == [0, 1]


def test_conformance_reports_the_runaway_seeds():
    from ggpbridge.conformance import run_file
    with deadline(60):
        row = run_file(CYCLE_GAME, 2, max_steps=2_000)
    assert row.stage == "ok" and row.statuses == {"cycle": 2}


@pytest.mark.parametrize("question", ["cycle", "terminates", "always-ends", "playable"])
def test_the_asp_engine_agrees_on_a_proven_loop(question):
    from ggpbridge.query.run import run_query
    with deadline(120):
        explicit, asp = run_query(str(CYCLE_GAME), question, engine="both", timeout=60)
    assert explicit.verdict == asp.verdict != "unknown"
