"""The ASP engine of `ggpbridge query`: questions about a GDL / GDL-II game answered by clingo.

The game's rules are unrolled over time (`ggpbridge.gdl.asp.temporal_rules`) with the
play rules of asp/query_common.lp and the question's encodings from asp/query_*.lp,
grounded incrementally (clingo multi-shot: parts base, step(t), ask(T)). At the times T of
a schedule (every step up to 16, then strides of a half) the driver asks through
`#external ask(K,T)` atoms (K = running, unended, dead, recurs, simple, win), assigning one
true per solve. Every move of every role, `random` included, is picked freely. A bound
becomes a proof when no play is still running at T, or no play of T moves has distinct
states (every reachable state is then within T-1 moves). docs/asp.md explains each question.

A witness (a "yes" to cycle, a "no" to the others, a "yes" to winnable) is a JSON-ready dict
    {"engine": "asp", "format": "gdl-joint-moves", "question", "verdict", "kind", "role",
     "moves": [[{"role": "xplayer", "move": "(mark 1 1)"}, ...], ...],   # one list per step
     "recurs": [i, j]  (kind recurrence: the state after i moves is the state after j),
     "horizon": N      (kind no-end-within), "goal": V (kind win)}
that `replay_gdl` plays on a ClingoMachine to confirm the claim.
"""
from __future__ import annotations

import re
import time
from collections import deque

import clingo
from clingo import ast

from ..errors import GgpBridgeError, interrupted_by, only_errors
from ..gdl.asp import add_to_control, encoding_text, fact, new_control, reporting, temporal_rules
from ..gdl.asp_rules import location, restricted
from ..gdl.asp_terms import kif_symbol, symbol_kif
from ..gdl.ast import Const, Description, Func
from ..gdl.errors import GdlError
from ..gdl.machine import ClingoMachine, _roles
from ..gdl.tables import GroundingTooLargeError, check_groundable
from ..gdl.validate import validate
from .answer import NO, QUESTIONS, UNKNOWN, YES, Answer
from .asp_graph import GraphSearch, GraphStop
from .witness import Replay

ENGINE = "asp"
FORMAT = "gdl-joint-moves"
DEFAULT_MAX_HORIZON = 500   # deepest unrolling when no --horizon is given
KINDS = ("recurrence", "dead-end", "no-end-within", "trapped", "win", "satisfies")
_LOC = location(1, "<ggpbridge.query>")
_BASE_OVERFLOW = Func("base", (Const("overflow"),))
_SCORE_LOST = Const("score_lost")
_OVERFLOW = clingo.Function("overflow")   # the fluent a translation's play ends with outside its tables
# The encodings each question grounds next to the temporal game (asp/<name>.lp).
_FILES = {
    "cycle": ("query_common", "query_cycle"),
    "terminates": ("query_common", "query_terminates", "query_playable", "query_cycle"),
    "always-ends": ("query_common", "query_playable", "query_cycle"),
    "playable": ("query_common", "query_terminates", "query_playable", "query_simple"),
    "winnable": ("query_common", "query_winnable", "query_simple"),
}


class AspQueryError(GgpBridgeError):
    """A question the ASP engine cannot take (unknown question or role, bad witness)."""


class _Stop(Exception):
    """A limit was reached: `limit` names it for the 'unknown' answer."""

    def __init__(self, limit: str):
        super().__init__(limit)
        self.limit = limit


class Unrolling:
    """The game unrolled one step at a time in one clingo Control, with the asks of a question."""

    def __init__(self, desc: Description, files, facts=(), deadline: float | None = None):
        self.roles = _roles(desc)
        self.deadline = deadline
        self.ctl, self._messages = new_control(["--models=1"])
        with reporting(self._messages):
            with ast.ProgramBuilder(self.ctl) as builder:
                for stm in temporal_rules(desc):
                    builder.add(stm)
                for name in files:
                    ast.parse_string(encoding_text(name), builder.add)
                builder.add(ast.Program(_LOC, "base", []))
                for name, args in facts:
                    builder.add(fact(name, args))
        self.t = -1
        self.meanwhile = None   # run while a long solve is under way (cycle: the graph search's slices)
        self.solves = 0
        self.ground_seconds = self.solve_seconds = 0.0
        self._asked: list[clingo.Symbol] = []

    def deepen(self, horizon: int) -> int:
        """Ground the steps up to `horizon` (base first) and the asks at `horizon`."""
        self._check_clock()
        # Asks of earlier times are switched off for good, so the solver can drop them.
        for atom in self._asked:
            self.ctl.release_external(atom)
        self._asked = []
        parts = [("base", [])] if self.t < 0 else []
        parts += [("step", [clingo.Number(t)]) for t in range(max(self.t, 0) + 1, horizon + 1)]
        parts.append(("ask", [clingo.Number(horizon)]))
        start = time.perf_counter()
        with reporting(self._messages):
            # One part per call: grounding cannot be interrupted, so the clock is read in between.
            for part in parts:
                self.ctl.ground([part])
                self.t = max(self.t, part[1][0].number if part[1] else 0)
                self.ground_seconds += time.perf_counter() - start
                start = time.perf_counter()
                self._check_clock()
        return horizon

    def ask(self, kind: str) -> list[clingo.Symbol] | None:
        """The shown atoms of a play satisfying ask(kind, t) at the current t, or None if there is none."""
        atom = clingo.Function("ask", [clingo.Function(kind), clingo.Number(self.t)])
        if self.ctl.symbolic_atoms[atom] is None:   # assigning an unknown atom would silently ask nothing
            raise AspQueryError(f"no encoding loaded defines ask({kind},T)")
        self._asked.append(atom)
        remaining = self._check_clock()
        found: list = []
        start = time.perf_counter()
        self.solves += 1
        # An external is fixed false until assigned (an assumption cannot make it true).
        self.ctl.assign_external(atom, True)
        try:
            # Leaving the `with` early (a settled `meanwhile`, Ctrl-C) cancels the solve.
            with self.ctl.solve(async_=True, on_model=lambda m: found.append(m.symbols(shown=True))) as handle:
                if not self._wait(handle, remaining):
                    handle.cancel()
                    handle.wait()
                    self.ctl.assign_external(atom, False)
                    raise _Stop(f"--timeout reached while solving at step {self.t}")
                handle.get()
        finally:
            self.solve_seconds += time.perf_counter() - start
        self.ctl.assign_external(atom, False)
        return found[0] if found else None

    def _wait(self, handle, remaining: float | None) -> bool:
        """Wait for the solve (False: `remaining` seconds passed first). A solve that outlasts
        _ALONE seconds shares the wait with `meanwhile`: clingo solves in a thread of its own,
        which does not hold Python's lock, so the two use two cores. `meanwhile()` returns
        False when it has nothing more to do, and raises to end the solve."""
        if self.meanwhile is None or _ALONE is None:
            return handle.wait(remaining) if remaining is not None else handle.wait()
        first = _ALONE if remaining is None else min(_ALONE, remaining)
        if handle.wait(first):
            return True
        end = None if remaining is None else time.perf_counter() + remaining - first
        while self.meanwhile():
            if handle.wait(0):
                return True
            if end is not None and time.perf_counter() >= end:
                return False
        left = None if end is None else max(end - time.perf_counter(), 0.0)
        return handle.wait(left) if left is not None else handle.wait()

    def stats(self) -> dict:
        """Figures for Answer.stats."""
        return {"steps_grounded": self.t, "solves": self.solves,
                "ground_seconds": round(self.ground_seconds, 3), "solve_seconds": round(self.solve_seconds, 3)}

    def _check_clock(self) -> float | None:
        if self.deadline is None:
            return None
        remaining = self.deadline - time.perf_counter()
        if remaining <= 0:
            raise _Stop(f"--timeout reached at step {self.t}")
        return remaining

    # -- witnesses ------------------------------------------------------------

    def play(self, model: list[clingo.Symbol], upto: int) -> list[list[dict]]:
        """The joint moves 0..upto-1 of a model, each as [{"role", "move"}] in role order."""
        moves: dict[int, dict] = {}
        for atom in model:
            if atom.name == "does" and len(atom.arguments) == 3:
                role, move, t = atom.arguments
                moves.setdefault(t.number, {})[role] = move
        return [[{"role": symbol_kif(r), "move": symbol_kif(moves[t][r])} for r in self.roles]
                for t in range(upto) if t in moves]


def _witness(question: str, verdict: str, kind: str, moves: list, role: str | None = None, **extra) -> dict:
    return {"engine": ENGINE, "format": FORMAT, "question": question, "verdict": verdict, "kind": kind,
            "role": role, "moves": moves, **extra}


# -- the questions --------------------------------------------------------------
# A question is a plan: at each time T of a schedule, asks in order, each with what to do
# when it is satisfiable and when it is not (None: ask the next one). Every ask is
# monotone in T (asp/query_common.lp), so asking at a few times T is enough, and a proof
# at T (no play still running, or no play with distinct states) covers every earlier time.
# Proving that no play finds something (a dead end, a recurrence) is the costly part, so
# a "find" is asked at every time only up to 16, then at times about twice the last
# (and at the bound); the model of a play still running is looked at for one for free.
# A proof that needs the finds at T ("proof") asks the ones skipped at T before it counts;
# one that settles the question alone ("alone": nothing is running, so nothing recurs)
# does not.

_EXHAUSTED = object()   # the schedule ran out
_NEXT = object()        # an action that settles nothing: ask the next one
_EVERY = 16             # finds are asked at every time up to this one
_SHARE = 4              # cycle: seconds of CPU for the state graph's search per second of the unrolling's
_ALONE = 1.0            # cycle: seconds a solve runs alone before the graph search runs beside it (None: never)
_SLICE = 0.05           # cycle: seconds of the graph search's CPU between two looks at a solve


def schedule(bound: int) -> list[int]:
    """The times to ask at: every step up to 16, then strides of a half, ending at `bound`."""
    out, t = [], 0
    while t < bound:
        out.append(t)
        t += 1 if t < _EVERY else t // 2
    return out + [bound]


def _search(u: Unrolling, bound: int, plan, between=None):
    """Run a plan of (kind, if_sat, if_unsat, role) over the schedule; role: find, proof or alone.
    `between()`, when given, is called after each time: a result it gives settles the search."""
    last_finds = -1
    for horizon in schedule(bound):
        u.deepen(horizon)
        due = horizon <= _EVERY or horizon == bound or horizon >= 2 * last_finds
        skipped = []
        for kind, if_sat, if_unsat, role in plan:
            if role == "find" and not due:
                skipped.append((kind, if_sat, if_unsat, role))
                continue
            model = u.ask(kind)
            act = if_sat if model is not None else if_unsat
            if act is not None and model is None and role == "proof":
                for entry in skipped:   # the finds at T must have been asked for the proof to hold
                    found = _act(u, entry, horizon)
                    if found is not _NEXT:
                        return found
            result = _NEXT if act is None else act(u, model, horizon)
            if result is not _NEXT:
                return result
        if due:
            last_finds = horizon
        if between is not None:
            result = between()
            if result is not None:
                return result
    return _EXHAUSTED


def _act(u: Unrolling, entry, horizon: int):
    kind, if_sat, if_unsat, role = entry
    model = u.ask(kind)
    act = if_sat if model is not None else if_unsat
    return _NEXT if act is None else act(u, model, horizon)


def _peek(dead=None, lasso=None):
    """For the model of a play not ended: its dead end or its recurrence, when it shows one."""
    def act(u: Unrolling, model, t: int):
        if dead is not None and any(a.name == "_stuck" for a in model):
            return dead(u, model, t)
        if lasso is not None and any(a.name == "_recurs" for a in model):
            return lasso(u, model, t)
        return _NEXT
    return act


def _lasso(question: str, verdict: str):
    def act(u: Unrolling, model, t: int):
        i = min(a.arguments[0].number for a in model if a.name == "_recurs")
        w = _witness(question, verdict, "recurrence", u.play(model, t), recurs=[i, t])
        return verdict, f"incremental clingo: a play whose state after {i} moves recurs after {t}", w, None
    return act


def _dead_end(question: str):
    def act(u: Unrolling, model, t: int):
        moves = u.play(model, t)
        stuck = sorted({symbol_kif(a.arguments[0]) for a in model if a.name == "_blocked"})
        w = _witness(question, NO, "dead-end", moves, stuck=stuck)
        return NO, (f"incremental clingo: after {len(moves)} moves the game is not over and "
                    f"{', '.join(stuck) or 'some role'} cannot move"), w, None
    return act


def _proof(verdict: str, how: str, kind: str = "running"):
    why = {"running": "every play ends or is stuck within {t} moves",
           "unended": "every play ends within {t} moves",
           "simple": "no play of {t} moves visits {t1} distinct states, so every reachable state is reached within "
                     "{t0} moves"}[kind]
    return lambda u, model, t: (verdict, "incremental clingo: " + why.format(t=t, t1=t + 1, t0=t - 1) + how,
                                None, None)


def _cycle_plan(horizon) -> list:
    lasso = _lasso("cycle", YES)
    plan = [("running", _peek(lasso=lasso), _proof(NO, ": no play goes on forever"), "alone"),
            ("recurs", lasso, None, "find")]
    # A play cut at the horizon (asp/query_budget.lp) is not running, yet may recur right there.
    return plan if horizon is None else [plan[1], plan[0][:3] + ("proof",)]


def _cycle(u: Unrolling, horizon, bound, role, top):
    found = _search(u, bound, _cycle_plan(horizon))
    if found is _EXHAUSTED:
        return UNKNOWN, f"incremental clingo: no state recurs within {bound} moves", None, f"--horizon {bound}"
    return found


class _Settled(Exception):
    """The graph search settled cycle during one of the unrolling's solves (`result`)."""

    def __init__(self, result):
        super().__init__("settled")
        self.result = result


def _cycle_both(u: Unrolling, bound: int, g: GraphSearch):
    """cycle without a horizon: the unrolling and the state graph's search take turns, the graph
    getting _SHARE seconds of CPU per second of the unrolling's (its next time included), and
    it runs beside every solve that outlasts _ALONE seconds; the first to settle answers."""
    # The unrolling proves "no" once every play has ended, at a cost of about plays x length; the
    # graph search at one move per reachable state. Plays that merge often (War's deals) favour
    # the graph, short plays of a vast game the unrolling. A time of the schedule cannot be cut
    # short (grounding is not interruptible, and a solve once cancelled must start over), but a
    # solve runs in clingo's own thread, so the graph search runs beside the long ones: with the
    # turns alone, War n = 8's long solves left the graph half the CPU and one core.
    start, spent, limited = time.process_time(), [0.0], []

    def graph_slice() -> bool:
        if limited:
            return False
        try:
            found = _graph_cycle(g, g.advance(g.cpu + _SLICE))
        except GraphStop as stop:
            if stop.timeout:
                raise
            limited.append(stop)
            return False
        if found is not None:
            raise _Settled(found)
        return True

    def graph_turn():
        # The graph's share counts the unrolling's next time as costing what its last one did:
        # the times of the schedule grow, and one, once started, runs to its end.
        unrolled = time.process_time() - start - g.cpu
        last, spent[0] = unrolled - spent[0], unrolled
        if limited:
            return None
        try:
            return _graph_cycle(g, g.advance(_SHARE * (unrolled + last)))
        except GraphStop as stop:
            if stop.timeout:
                raise
            limited.append(stop)   # --limit-states: the unrolling goes on alone
            return None
    u.meanwhile = graph_slice
    try:
        found = _search(u, bound, _cycle_plan(None), between=graph_turn)
    except _Settled as settled:
        return settled.result
    finally:
        u.meanwhile = None
    if found is not _EXHAUSTED:
        return found
    if limited:
        raise limited[0]
    return _graph_cycle(g, g.run())


def _terminates(u: Unrolling, horizon, bound, role, top):
    dead = _dead_end("terminates")
    if horizon is None:
        lasso = _lasso("terminates", NO)
        found = _search(u, bound, [("unended", _peek(dead, lasso), _proof(YES, "", "unended"), "alone"),
                                   ("dead", dead, None, "find"),
                                   ("recurs", lasso, None, "find")])
        if found is _EXHAUSTED:
            return UNKNOWN, f"incremental clingo: plays go on beyond {bound} moves, without dead end or recurrence", \
                None, f"--horizon {bound}"
        return found

    def cut(u: Unrolling, model, t: int):
        moves = u.play(model, t)   # the play stops where it was cut
        w = _witness("terminates", NO, "no-end-within", moves, horizon=horizon)
        return NO, (f"incremental clingo: a play is still running after {horizon} steps "
                    f"({len(moves)} moves of the GDL game)"), w, None

    def ended(u: Unrolling, model, t: int):
        return YES, (f"incremental clingo: every play ends within {horizon} steps "
                     f"(all have ended after {t} moves of the GDL game)"), None, None
    found = _search(u, bound, [("spent", cut, None, "alone"),
                               ("unended", _peek(dead), ended, "alone")])
    if found is _EXHAUSTED:
        return UNKNOWN, f"incremental clingo: plays neither end nor take {horizon} steps within {bound} moves", \
            None, f"{bound} moves unrolled"
    return found


def _playable(u: Unrolling, horizon, bound, role, top):
    # "every play ends" settles it alone; "every play ends or is stuck" would need the dead ends.
    found = _search(u, bound, [("dead", _dead_end("playable"), None, "find"),
                               ("unended", _peek(dead=_dead_end("playable")),
                                _proof(YES, ": none meets a dead end", "unended"), "alone"),
                               ("simple", None, _proof(YES, "; none is a dead end", "simple"), "proof")])
    if found is _EXHAUSTED:
        return UNKNOWN, f"incremental clingo: no dead end within {bound} moves", None, f"--horizon {bound}"
    return found


def _winnable(u: Unrolling, horizon, bound, role, top):
    who = symbol_kif(role)

    def win(u: Unrolling, model, t: int):
        moves = u.play(model, t)
        w = _witness("winnable", YES, "win", moves, role=who, goal=top)
        return YES, f"incremental clingo: a play of {len(moves)} moves ends with goal {top} for {who}", w, None
    found = _search(u, bound, [("win", win, None, "find"),
                               ("running", None, _proof(NO, f"; none gives {who} goal {top}"), "proof"),
                               ("simple", None, _proof(NO, f"; no terminal one gives {who} goal {top}", "simple"),
                                "proof")])
    if found is _EXHAUSTED:
        return UNKNOWN, f"incremental clingo: no play gives {who} goal {top} within {bound} moves", None, \
            f"--horizon {bound}"
    return found


def _always_ends(u: Unrolling, horizon, bound, role, top):
    # A recurrence does not settle it (the loop may have an exit): the state graph does.
    to_graph = lambda u, model, t: None  # noqa: E731
    found = _search(u, bound, [("dead", _dead_end("always-ends"), None, "find"),
                               ("running", _peek(lasso=to_graph),
                                _proof(YES, ", none at a dead end: every state can reach the end"), "proof"),
                               ("recurs", to_graph, None, "find")])
    return None if found is _EXHAUSTED else found


_HANDLERS = {"cycle": _cycle, "terminates": _terminates, "always-ends": _always_ends, "playable": _playable,
             "winnable": _winnable}


def answer_asp(desc: Description, question: str, role=None, horizon: int | None = None,
               timeout: float | None = None, limit_states: int | None = None) -> Answer:
    """Answer a query question about a GDL / GDL-II description with clingo (see the module docstring)."""
    start = time.perf_counter()
    if question not in QUESTIONS:
        raise AspQueryError(f"unknown question {question!r} (one of: {', '.join(QUESTIONS)})")
    if question == "exists":   # it needs the condition: ggpbridge.query.asp_where.answer_exists_asp
        raise AspQueryError("exists is asked with a condition: ggpbridge.query.asp_where.answer_exists_asp")
    if horizon is not None and horizon < 0:
        raise AspQueryError("the horizon must be at least 0")
    deadline = None if timeout is None else start + timeout
    # A horizon counts steps (asp/query_budget.lp), not moves of the GDL game: translations take
    # automatic moves between steps, so the unrolling keeps its own bound.
    bound = DEFAULT_MAX_HORIZON
    budget = horizon is not None and question != "always-ends"
    files = _FILES[question] + (("query_budget",) if budget else ())
    facts, role_symbol, top = [("_budget", (clingo.Number(horizon),))] if budget else [], None, None
    # Unstratified or unsafe rules would make clingo's plays mean something else: refuse them.
    errors = only_errors(validate(desc))
    if errors:
        raise AspQueryError("the description is not valid GDL:\n"
                            + "\n".join(d.format("<description>") for d in errors))
    try:
        check_groundable(desc)
    except GroundingTooLargeError as e:
        raise AspQueryError(str(e)) from None
    u = g = None   # what was explored is kept in the stats of an answer stopped part-way
    try:
        if question == "winnable":
            role_symbol = resolve_role(desc, role)
            top = top_goal(desc, role_symbol)
            if top is None:
                return Answer(question, NO, ENGINE, f"no goal rule gives {symbol_kif(role_symbol)} any value",
                              round(time.perf_counter() - start, 3))
            facts.append(("_top", (role_symbol, clingo.Number(top))))
        # No question reads the percepts, and only `winnable` the goals: their rules would be
        # grounded at every step for nothing.
        keywords = ("legal", "next", "terminal") + (("goal",) if question == "winnable" else ())
        asked = restricted(desc, keywords)
        overflow = _may_overflow(asked)
        files += ("query_overflow",) if overflow else ()
        u = Unrolling(asked, files, facts, deadline)
        if question == "cycle" and horizon is None:
            g = GraphSearch(asked, deadline, limit_states, flag=_OVERFLOW if overflow else None)
            result = _cycle_both(u, bound, g)
        else:
            g, result = None, _HANDLERS[question](u, horizon, bound, role_symbol, top)
        if budget and result is not None:
            result = _within_budget(u, result, horizon, bound)
        if overflow and result is not None:
            result = _within_table(u, result)
        stats = u.stats() | (g.stats() if g is not None else {})
        if result is None:   # always-ends on a game whose plays can go on forever
            verdict, method, witness, limit, graph = _always_ends_graph(desc, deadline, limit_states)
            stats.update(graph)
        else:
            verdict, method, witness, limit = result
    except (_Stop, GraphStop) as stop:
        return Answer(question, UNKNOWN, ENGINE, "clingo stopped before an answer",
                      round(time.perf_counter() - start, 3), limit=stop.limit, stats=_explored(u, g))
    except KeyboardInterrupt as stop:   # leaving the solve handle's `with` has cancelled the search
        return Answer(question, UNKNOWN, ENGINE, "the search was interrupted", round(time.perf_counter() - start, 3),
                      limit=interrupted_by(stop), stats=_explored(u, g))
    except GdlError as e:   # the GDL layer's errors are not GgpBridgeErrors: carry their message over
        raise AspQueryError(str(e)) from e
    if witness is not None:
        describe_moves(desc, witness)
    return Answer(question, verdict, ENGINE, method, round(time.perf_counter() - start, 3), limit, witness, stats)


def _explored(u: Unrolling | None, g: GraphSearch | None) -> dict:
    """The figures of the unrolling and the graph search, as far as they got."""
    return (u.stats() if u is not None else {}) | (g.stats() if g is not None else {})


def describe_moves(desc: Description, witness: dict) -> dict:
    """Add `shown` to each joint move that names a card: the move with the card's attributes
    instead of its id, for people (replay plays `move`)."""
    from ..moves import GdlCards
    cards = GdlCards(desc)
    for joint in witness.get("moves", ()):
        for x in joint:
            shown = cards.move_text(x["move"])
            if shown != x["move"]:
                x["shown"] = shown
    return witness


def _within_budget(u: Unrolling, result, horizon: int, bound: int):
    """A proof over plays cut at the horizon says nothing beyond it: 'unknown' if some play was cut."""
    verdict, method, witness, limit = result
    if limit == f"--horizon {bound}":   # the unrolling ran out, not the steps
        limit = f"{bound} moves unrolled"
    if witness is None and verdict != UNKNOWN and u.ask("spent") is not None:
        return UNKNOWN, method + f"; but some plays were cut after {horizon} steps", None, f"--horizon {horizon}"
    return verdict, method, witness, limit


def _may_overflow(desc: Description) -> bool:
    """Whether the description declares the fluent `overflow` or derives `score_lost` (a translation that
    may leave its tables)."""
    return any(r.head == _BASE_OVERFLOW or r.head == _SCORE_LOST for r in desc.rules)


def _within_table(u: Unrolling, result):
    """A proof that some play owes to a play cut by `overflow` says nothing about the game: 'unknown'."""
    verdict, method, witness, limit = result
    if witness is None and verdict != UNKNOWN and u.ask("overflow") is not None:
        return (UNKNOWN, method + "; but some plays leave the translation's tables (integers, stage depth) "
                "and end as `overflow` there, or end with a score outside them (every goal 0)", None,
                "the translation's bounded tables")
    return result


def resolve_role(desc: Description, role) -> clingo.Symbol:
    """The role Symbol for a KIF name (`xplayer`), or `player<k>` / `<k>` for the k-th role that is not random."""
    roles = _roles(desc)
    if role is None:
        raise AspQueryError("winnable needs a role")
    try:
        symbol = kif_symbol(str(role))
    except GdlError:
        symbol = None
    if symbol in roles:
        return symbol
    match = re.fullmatch(r"(?:player|p)?(\d+)", str(role).strip(), re.IGNORECASE)
    players = [r for r in roles if symbol_kif(r) != "random"]
    if match and int(match.group(1)) < len(players):
        return players[int(match.group(1))]
    raise AspQueryError(f"unknown role {role!r}; the roles are {', '.join(map(symbol_kif, roles))}")


def top_goal(desc: Description, role: clingo.Symbol) -> int | None:
    """100 if a goal rule can give `role` 100, else the highest value it can get (None: no value at all)."""
    # The relaxed "domain" program over-approximates every goal atom of a reachable state.
    ctl, messages = new_control()
    with reporting(messages):
        add_to_control(ctl, desc, "domain")
        ctl.ground([("base", [])])
    values = {a.symbol.arguments[1].number for a in ctl.symbolic_atoms.by_signature("goal", 2)
              if a.symbol.arguments[0] == role and a.symbol.arguments[1].type == clingo.SymbolType.Number}
    if not values:
        return None
    return 100 if 100 in values else max(values)


def _graph_cycle(g: GraphSearch, found):
    """The answer to cycle from what the state graph's search found (None: not yet settled)."""
    if found is None:
        return None
    kind, moves, recurs = found
    stats = g.stats()
    how = (f"the translation's state machine (clingo's grounding): depth-first search of the reachable states ({stats['graph_states_kept']} kept, "
           f"{stats['graph_states_passed']} forced ones passed through)")
    if kind == "cycle":
        w = _witness("cycle", YES, "recurrence", moves, recurs=list(recurs))
        return YES, how + f": the state after {recurs[0]} moves recurs after {recurs[1]}", w, None
    if g.flagged:
        # a play that leaves the translation's tables ends there for the translation only
        return (UNKNOWN, how + ": no state recurs, but some plays leave the translation's tables (integers, stage "
                "depth) and end as `overflow` there", None, "the translation's bounded tables")
    return NO, how + ": no state recurs", None, None


def _always_ends_graph(desc: Description, deadline, limit_states):
    """always-ends on the state graph of a ClingoMachine: every reachable state must reach a terminal one."""
    m = ClingoMachine(desc)
    init = m.initial_state()
    parent = {init: None}   # state -> (previous state, joint move)
    succ: dict = {}
    todo = deque([init])
    while todo:
        if deadline is not None and time.perf_counter() > deadline:
            raise _Stop(f"--timeout reached after {len(parent)} states")
        s = todo.popleft()
        succ[s] = []
        if m.is_terminal(s):
            continue
        for joint in m.joint_moves(s):
            n = m.next_state(s, joint)
            succ[s].append(n)
            if n not in parent:
                if limit_states is not None and len(parent) >= limit_states:
                    raise _Stop(f"--limit-states {limit_states} reached")
                parent[n] = (s, joint)
                todo.append(n)
    # Reverse reachability from the terminal states.
    preds: dict = {s: [] for s in succ}
    for s, ns in succ.items():
        for n in ns:
            preds[n].append(s)
    can_end = {s for s in succ if m.is_terminal(s)}
    todo = deque(can_end)
    while todo:
        for p in preds[todo.popleft()]:
            if p not in can_end:
                can_end.add(p)
                todo.append(p)
    trapped = [s for s in parent if s not in can_end]
    graph = {"states": len(parent), "trapped": len(trapped)}
    how = f"clingo state machine: all {len(parent)} reachable states, reverse reachability from the terminal ones"
    if not trapped:
        return YES, how + ": every one can still reach the end", None, None, graph
    s, moves = trapped[0], []   # breadth first: trapped[0] is a nearest trapped state
    while parent[s] is not None:
        s, joint = parent[s]
        moves.append([{"role": symbol_kif(r), "move": symbol_kif(joint[r])} for r in m.roles()])
    w = _witness("always-ends", NO, "trapped", moves[::-1])
    return NO, how + f": {len(trapped)} of them cannot reach any", w, None, graph


# -- replay -----------------------------------------------------------------------

def replay_gdl(desc: Description, witness: dict, machine: ClingoMachine | None = None,
               describer=None, lay=None) -> Replay:
    """Play an ASP witness on a ClingoMachine and check what its kind claims; `describer` shows each
    move in the log (a `ggpbridge.moves.GdlCards` or `TranslationMoves`; default: cards named).
    `lay`: the simulator's layout of the RECYCLE game, to read the condition of a `satisfies` witness."""
    from ..moves import GdlCards
    from .witness import WitnessError
    if not isinstance(witness, dict) or witness.get("format") != FORMAT or witness.get("kind") not in KINDS:
        raise WitnessError(f"not a {FORMAT} witness with a kind among {', '.join(KINDS)}")
    try:
        m = machine or ClingoMachine(desc)
        cards = describer or GdlCards(desc)
        states, log = [m.initial_state()], []
        for i, joint in enumerate(witness.get("moves", []), 1):
            if m.is_terminal(states[-1]):
                raise WitnessError(f"step {i}: the game is already over")
            moves = {kif_symbol(x["role"]): kif_symbol(x["move"]) for x in joint}
            states.append(m.next_state(states[-1], moves))
            acts = [f"{x['role']}: {_shown(cards.move_text(x['move'], states[-2]), x['move'])}" for x in joint
                    if x["move"] != "noop"]
            log.append(f"{i:4}  " + ("  ".join(acts) or "(every role noop: an automatic step)"))
        if witness["kind"] == "win":
            # a win is the role's top goal, computed from the game: the witness's own `goal`
            # could have been edited down to whatever the role got
            top = top_goal(desc, resolve_role(desc, witness.get("role")))
            if witness.get("goal") != top:
                return Replay(False, f"the witness's goal {witness.get('goal')} for {witness.get('role')} is not "
                                     f"its top goal {top}: reaching it is not a win", log)
        if witness["kind"] == "satisfies":
            if lay is None or not isinstance(witness.get("where"), str):
                raise WitnessError("a satisfies witness is replayed on a RECYCLE game, with its condition `where`")
            from .asp_where import confirm_gdl
            return Replay(*confirm_gdl(m, desc, lay, witness, states), log)
        return Replay(*_confirm(m, witness, states), log)
    except (AspQueryError, GdlError, KeyError, TypeError) as e:
        raise WitnessError(f"the witness does not fit the game: {e}") from e


def _shown(text: str, move: str) -> str:
    """A move as shown, and the GDL move itself when that says something else."""
    return text if text == move else f"{text}   [{move}]"


def _confirm(m: ClingoMachine, w: dict, states: list) -> tuple[bool, str]:
    kind, n, last = w["kind"], len(states) - 1, states[-1]
    if kind == "recurrence":
        i, j = w["recurs"]
        if j != n or not 0 <= i < j:
            raise GdlError(f"recurs must be [i, {n}] with 0 <= i < {n}")
        if states[i] == states[j] and not m.is_terminal(states[j]):
            return True, (f"the state after {j} moves is the state after {i}, and the game is not over: "
                          f"it can repeat forever")
        return False, f"the state after {j} moves differs from the state after {i}, or the game is over"
    if kind == "dead-end":
        stuck = [symbol_kif(r) for r in m.roles() if not m.legal_moves(last, r)]
        if not m.is_terminal(last) and stuck:
            return True, f"after {n} moves the game is not over and {', '.join(stuck)} has no legal move"
        return False, f"after {n} moves the game is over or every role has a legal move"
    if kind == "no-end-within":
        if m.is_terminal(last):
            return False, f"the game is over after {n} moves"
        return True, f"the game is still running after {n} moves"
    if kind == "win":
        goal = m.goals(last).get(kif_symbol(w["role"])) if m.is_terminal(last) else None
        if goal == w.get("goal"):
            return True, f"the game is over after {n} moves with goal {goal} for {w['role']}"
        return False, f"after {n} moves {w['role']} does not have goal {w.get('goal')} in a terminal state"
    seen, todo = {last}, [last]   # trapped: no terminal state reachable from the last state
    while todo:
        s = todo.pop()
        if m.is_terminal(s):
            return False, f"a terminal state is still reachable after {n} moves"
        for joint in m.joint_moves(s):
            nxt = m.next_state(s, joint)
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return True, f"after {n} moves none of the {len(seen)} reachable states is terminal: the game cannot end"
