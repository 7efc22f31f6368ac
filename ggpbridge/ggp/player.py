"""A GGP player for any GDL or GDL-II game: one match at a time, reasoning with ClingoMachine.

`Player.handle(text)` takes a message and returns the reply; it never raises,
so the HTTP server (or an in-process manager) can hand it anything.

Knowledge: in GDL the joint moves arrive each turn, so the player knows the
state. In GDL-II it knows only its own executed moves and its percepts, so it
keeps a belief: states consistent with them, each weighted by the probability
of reaching it when every other role (`random` included) picks uniformly among
its legal moves (so in Monty Hall the other closed door weighs 2/3). The belief
is enumerated exactly while it stays under `belief_cap` states and the update
fits in the clock; past that it is a particle filter (32 states drawn by weight,
each moved by one random joint move that fits the percepts), and if the sample
dies out it searches for fresh consistent histories from the initial state
(randomised depth-first, with backtracking). If none is found in time, it plays
on from the successors whose percepts come closest (`lost`). Moves are chosen
among those legal in the believed states.
"""
from __future__ import annotations

import itertools
import random
import threading
import time
from dataclasses import dataclass, field, replace

import clingo

from ..gdl.ast import Const
from ..gdl.asp_terms import symbol_kif, term_symbol
from ..gdl.errors import GdlError
from ..gdl.machine import ClingoMachine
from .protocol import (Abort, Info, Play, Preview, ProtocolError, Start, Stop, error_reply, info_reply,
                       parse_message, read_rules)

STRATEGIES = ("random", "legal", "mc")


@dataclass
class Reply:
    """What the server sends back: an HTTP status and the body text."""

    status: int
    body: str


def margin(clock: float) -> float:
    """Seconds kept back from a clock for the network and the reply."""
    return min(1.0, 0.25 * clock)


@dataclass
class MatchState:
    """What the player knows of one match."""

    match_id: str
    role: clingo.Symbol
    machine: ClingoMachine
    playclock: float
    beliefs: dict                       # consistent state -> weight (one state in GDL)
    exact: bool = True                  # False once the belief is a sample
    lost: bool = False                  # True once no consistent state could be found
    gdl2: bool | None = None            # fixed by the first PLAY
    turn: int = 0                       # PLAY messages answered
    history: list = field(default_factory=list)   # GDL-II: (own move, percepts) per turn
    last_reply: str | None = None
    last_seen: float = field(default_factory=time.monotonic)


class Player:
    """A GGP player: `handle(message text) -> Reply`."""

    def __init__(self, strategy: str = "random", name: str = "ggpbridge", seed: int | None = None,
                 belief_cap: int = 256, cache_size: int = 20_000, abandon_after: float | None = None):
        # abandon_after: idle seconds after which a new START replaces the running match
        # (default 2 x playclock + 10: its manager has vanished).
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown strategy {strategy!r}; choose from {', '.join(STRATEGIES)}")
        self.strategy, self.name = strategy, name
        self.rng = random.Random(seed)
        self.belief_cap, self.cache_size, self.abandon_after = belief_cap, cache_size, abandon_after
        self.particles = 32  # states carried forward once the belief is a sample
        self.match: MatchState | None = None
        self._lock = threading.Lock()
        # The last machine, by rules text: PREVIEW grounds ahead, and a manager that
        # runs the same game again skips the grounding.
        self._machine_key: str | None = None
        self._machine: ClingoMachine | None = None

    # -- the entry point --------------------------------------------------

    def handle(self, text: str) -> Reply:
        """The reply to one message (never raises)."""
        received = time.monotonic()
        try:
            message = parse_message(text)
        except ProtocolError as exc:
            return Reply(400, error_reply(f"malformed message: {exc}"))
        except Exception as exc:  # noqa: BLE001 - as below: a bug must not cost the reply
            return Reply(500, error_reply(f"internal error: {type(exc).__name__}: {exc}"))
        if isinstance(message, Info):  # answered at once, even while a move is being chosen
            return Reply(200, info_reply(self.name, self.match is not None))
        try:
            with self._lock:
                return self._dispatch(message, received)
        except (ProtocolError, GdlError) as exc:
            return Reply(400, error_reply(str(exc)))
        except Exception as exc:  # noqa: BLE001 - a bug must not take the server down
            return Reply(500, error_reply(f"internal error: {type(exc).__name__}: {exc}"))

    def _dispatch(self, message, received: float) -> Reply:
        if isinstance(message, Start):
            return self._start(message, received)
        if isinstance(message, Preview):
            self._machine_for(message.rules)
            return Reply(200, "ready")
        match = self.match
        if match is None or match.match_id != message.match_id:
            # ggp-base's convention for a message about a match the player is not in.
            return Reply(200, "busy")
        match.last_seen = time.monotonic()
        if isinstance(message, Abort):
            self.match = None
            return Reply(200, "aborted")
        if isinstance(message, Stop):
            self.match = None
            return Reply(200, "done")
        return self._play(match, message, received)

    # -- start ------------------------------------------------------------

    def _start(self, message: Start, received: float) -> Reply:
        current = self.match
        if current is not None and current.match_id != message.match_id:
            # A manager that vanished mid-match must not block the player forever.
            idle = time.monotonic() - current.last_seen
            limit = self.abandon_after if self.abandon_after is not None else 2 * current.playclock + 10
            if idle < limit:
                return Reply(200, "busy")
        machine = self._machine_for(message.rules)
        role = term_symbol(Const(message.role))
        if role not in machine.roles():
            raise ProtocolError(f"role {message.role} is not a role of the game; the roles are "
                                + ", ".join(map(symbol_kif, machine.roles())))
        if current is not None and current.match_id == message.match_id and current.role == role:
            return Reply(200, "ready")  # a repeated START: nothing to redo
        self.match = MatchState(message.match_id, role, machine, message.playclock,
                                {machine.initial_state(): 1.0})
        return Reply(200, "ready")

    def _machine_for(self, rules: str) -> ClingoMachine:
        if rules != self._machine_key:
            desc = read_rules(rules)
            self._machine, self._machine_key = None, None  # let the old one go before grounding
            # percepts from the start, and no program specialized on the way (each takes up to
            # seconds on a large game): either could overrun a play clock
            self._machine = ClingoMachine(desc, cache_size=self.cache_size, percepts=True, specialize=False)
            self._machine_key = rules
        return self._machine

    # -- play -------------------------------------------------------------

    def _play(self, match: MatchState, message: Play, received: float) -> Reply:
        saved = replace(match, beliefs=dict(match.beliefs), history=list(match.history))
        try:
            return self._play_turn(match, message, received)
        except Exception:
            # A refused PLAY leaves the match as it was: it must not fix the form of PLAY,
            # move the turn or touch the belief, so the right PLAY that follows is taken.
            self.match = saved
            raise

    def _play_turn(self, match: MatchState, message: Play, received: float) -> Reply:
        if match.gdl2 is None:
            match.gdl2 = message.gdl2
        elif match.gdl2 != message.gdl2:
            raise ProtocolError("this match uses the "
                                + ("GDL-II" if match.gdl2 else "GDL")
                                + " form of PLAY; got the other form")
        deadline = received + match.playclock - margin(match.playclock)
        if match.gdl2:
            if message.turn == match.turn - 1 and match.last_reply is not None:
                return Reply(200, match.last_reply)  # the manager asked again
            if message.turn != match.turn:
                raise ProtocolError(f"out of order: expected turn {match.turn}, got turn {message.turn}")
            if match.turn > 0:
                if message.last_move is None:
                    raise ProtocolError("a GDL-II PLAY after turn 0 carries the player's last move")
                try:
                    self._observe(match, message, deadline)
                except GdlError:
                    # The rules refused a query on what we believed: lose the belief, keep the
                    # history (the move is chosen after a fresh search) and keep the turn in step.
                    match.beliefs = {}
        else:
            if message.moves is None:
                if match.turn == 0:
                    pass
                elif match.turn == 1 and match.last_reply is not None:
                    return Reply(200, match.last_reply)  # the first PLAY again
                else:
                    raise ProtocolError("out of order: PLAY with NIL moves after the first turn")
            else:
                if match.turn == 0:
                    raise ProtocolError("out of order: the first PLAY of a match carries NIL moves")
                self._advance(match, message.moves)
        move = self._choose(match, deadline)
        match.turn += 1
        match.last_reply = symbol_kif(move) if move is not None else "nil"
        return Reply(200, match.last_reply)

    def _advance(self, match: MatchState, moves) -> None:
        machine = match.machine
        roles = machine.roles()
        if len(moves) != len(roles):
            raise ProtocolError(f"the joint move has {len(moves)} moves, the game has {len(roles)} roles")
        joint = dict(zip(roles, map(term_symbol, moves)))
        state = next(iter(match.beliefs))
        for role, move in joint.items():
            if move not in machine.legal_moves(state, role):
                raise ProtocolError(f"{symbol_kif(move)} is not legal for {symbol_kif(role)} in the "
                                    "player's state: the joint moves disagree with the rules")
        match.beliefs = {machine.next_state(state, joint): 1.0}

    def _observe(self, match: MatchState, message: Play, deadline: float) -> None:
        """Update the belief with the own executed move and the percepts of the last turn."""
        own = term_symbol(message.last_move)
        percepts = frozenset(map(term_symbol, message.percepts or ()))
        match.history.append((own, percepts))
        # Exact enumeration may use a third of the clock, the whole update 70 %: the rest
        # is for choosing the move.
        now = time.monotonic()
        budget = max(0.0, deadline - now)
        found, partial = None, {}
        if match.exact:
            found, partial = self._enumerate(match, own, percepts, now + 0.35 * budget)
        closest: dict = {}
        if found is None:
            match.exact = False
            found, closest = self._filter(match, own, percepts, now + 0.7 * budget)
            found = found or partial
        if not found:
            found = self._resample(match, now + 0.7 * budget, 8)
        if not found and closest:
            # No history we could find explains the percepts: play on from the states that
            # come closest rather than answer nothing (documented as `lost`).
            found, match.lost = closest, True
        total = sum(found.values())
        match.beliefs = {state: weight / total for state, weight in found.items()}

    def _enumerate(self, match: MatchState, own, percepts, deadline: float) -> tuple[dict | None, dict]:
        """(the exact next belief or None when it outgrows the cap or the clock, what was found)."""
        machine, role = match.machine, match.role
        found: dict = {}
        for state, weight in match.beliefs.items():
            joints = _joints(machine, state, role, own)
            for joint in joints:
                if time.monotonic() > deadline or len(found) >= self.belief_cap:
                    return None, found
                if machine.sees(state, joint)[role] == percepts:
                    following = machine.next_state(state, joint)
                    # Each joint of the others is one of len(joints) equally likely ones.
                    found[following] = found.get(following, 0.0) + weight / len(joints)
        return found, found

    def _filter(self, match: MatchState, own, percepts, deadline: float) -> tuple[dict, dict]:
        """A particle filter: states drawn by weight, each moved by one random joint move that fits.

        Returns (consistent successors, closest successors): the second holds, for
        draws where no joint move fits, the successor whose percepts overlap the
        observed ones most — the fallback when the belief has lost the truth.
        """
        machine, role = match.machine, match.role
        states, weights = list(match.beliefs), list(match.beliefs.values())
        found: dict = {}
        closest: dict = {}
        draws = 0
        while states and len(found) < self.particles and draws < 4 * self.particles:
            if (found or closest) and time.monotonic() > deadline:  # one state at least, even when late
                break
            draws += 1
            state = self.rng.choices(states, weights)[0]
            joints = _joints(machine, state, role, own)
            fits = bool(joints)
            if not fits and not machine.is_terminal(state):
                joints = machine.joint_moves(state)  # own move impossible here: only "closest" can come
            self.rng.shuffle(joints)
            best, best_joint = -1.0, None
            for joint in joints:
                if (found or closest or best_joint is not None) and time.monotonic() > deadline:
                    break
                seen = machine.sees(state, joint)[role]
                if fits and seen == percepts:
                    following = machine.next_state(state, joint)
                    found[following] = found.get(following, 0.0) + 1.0
                    break
                overlap = len(seen & percepts) / max(1, len(seen | percepts))
                if overlap > best:
                    best, best_joint = overlap, joint
            else:
                if best_joint is not None and not found:
                    following = machine.next_state(state, best_joint)
                    closest[following] = closest.get(following, 0.0) + 1.0
        return found, closest

    def _resample(self, match: MatchState, deadline: float, want: int) -> dict:
        """Fresh states at the end of histories consistent with the player's moves and percepts."""
        out: dict = {}
        for _ in range(want):
            state = _random_history(match, self.rng, deadline)
            if state is None:
                break
            out[state] = out.get(state, 0.0) + 1.0 / want  # found as often as sampled
        return out

    # -- choosing ----------------------------------------------------------

    def _choose(self, match: MatchState, deadline: float) -> clingo.Symbol | None:
        machine, role = match.machine, match.role
        if not match.beliefs and match.history:
            match.beliefs = self._resample(match, deadline, 4)  # lost track earlier: try again
        states, weights = list(match.beliefs), list(match.beliefs.values())
        # A weighted sample of at most 16: a state never queried costs a clingo solve.
        sample = states if len(states) <= 16 else list(dict.fromkeys(self.rng.choices(states, weights, k=16)))
        sample = [s for s in sample if not machine.is_terminal(s)]
        if not sample:
            return None
        legal = None
        for state in sample:
            moves = set(machine.legal_moves(state, role))
            legal = moves if legal is None else legal & moves
        legal = sorted(legal) or list(machine.legal_moves(sample[0], role))
        if not legal:
            return None
        if self.strategy == "legal" or len(legal) == 1:
            return legal[0]
        if self.strategy == "random":
            return self.rng.choice(legal)
        chosen = set(sample)  # playouts start from the sampled live states, by weight
        live = [(s, w) for s, w in zip(states, weights) if s in chosen]
        return monte_carlo(machine, [s for s, _ in live], [w for _, w in live], role, legal, deadline, self.rng)


def monte_carlo(machine: ClingoMachine, states: list, weights: list, role, legal: list, deadline: float,
                rng: random.Random, max_depth: int = 1000) -> clingo.Symbol:
    """The move with the best mean goal over random playouts from states drawn by weight, until `deadline`."""
    totals = {move: 0.0 for move in legal}
    counts = {move: 0 for move in legal}
    for move in itertools.cycle(legal):
        if time.monotonic() >= deadline:
            break
        state = rng.choices(states, weights)[0]
        if move not in machine.legal_moves(state, role):
            continue
        joint = {r: move if r == role else rng.choice(machine.legal_moves(state, r)) for r in machine.roles()}
        state = machine.next_state(state, joint)
        depth = 0
        while not machine.is_terminal(state) and depth < max_depth and time.monotonic() < deadline:
            joint = {r: rng.choice(machine.legal_moves(state, r)) for r in machine.roles()}
            state = machine.next_state(state, joint)
            depth += 1
        if machine.is_terminal(state):  # a cut-off playout says nothing
            totals[move] += machine.goals(state).get(role, 0)
            counts[move] += 1
    return max(legal, key=lambda m: (totals[m] / counts[m] if counts[m] else -1.0, -legal.index(m)))


def _joints(machine: ClingoMachine, state, role, own) -> list[dict]:
    """Joint moves in `state` in which `role` plays `own` (none if `own` is not legal there)."""
    if machine.is_terminal(state) or own not in machine.legal_moves(state, role):
        return []
    choices = [[own] if r == role else machine.legal_moves(state, r) for r in machine.roles()]
    return [dict(zip(machine.roles(), combo)) for combo in itertools.product(*choices)]


def _random_history(match: MatchState, rng: random.Random, deadline: float):
    """One state reached by a random history that fits the player's moves and percepts, or None."""
    machine, role, history = match.machine, match.role, match.history

    def options(state, depth):
        joints = _joints(machine, state, role, history[depth][0])
        rng.shuffle(joints)
        return iter(joints)

    start = machine.initial_state()
    if not history:
        return start
    stack = [(0, start, options(start, 0))]
    while stack:
        if time.monotonic() > deadline:
            return None
        depth, state, pending = stack[-1]
        joint = next(pending, None)
        if joint is None:
            stack.pop()
            continue
        if machine.sees(state, joint)[role] != history[depth][1]:
            continue
        following = machine.next_state(state, joint)
        if depth + 1 == len(history):
            return following
        stack.append((depth + 1, following, options(following, depth + 1)))
    return None


