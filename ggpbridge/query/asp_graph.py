"""The asp engine's exhaustive search: the state graph of a GDL game, one move at a time.

The unrolling of `asp_engine` proves that nothing recurs only once every play has ended
within its horizon: its time steps cannot merge a state reached at different times, so a
proof costs about (plays) x (their length) x (rules per step), and War with 8 cards (40,320
deals, plays of up to some 300 GDL moves) is out of its reach. A depth-first search over the
reachable states costs one transition per state and edge instead: each transition is one
evaluation of the propositional network over clingo's grounding of the translation
(`ggpbridge.gdl.propnet_machine`, which answers as `ggpbridge.gdl.machine.ClingoMachine` does,
several times faster a move; the clingo machine's solve where the network cannot evaluate the
program), so the search stays independent of the simulator that the explicit engine searches.

Which states are kept. A state with exactly one joint move (a translation's automatic step,
or a forced decision) is *quiet*; the search keeps a state (a node of its DFS) when it is not
quiet, or when a checksum of it falls in one of `SAMPLE` classes, so that plays merging
inside long forced stretches are noticed within a few moves. A quiet state that is not kept
is passed through: its one joint move is made at once. This is exact:

- a cycle through a kept state is a back edge of the DFS over kept states (white/grey/black);
- a cycle through no kept state has a quiet state only, one successor each: it is a stretch
  that returns to a state of its own, seen by the stretch's own set of states.

Nothing is hashed lossily: kept states are stored whole (their fluents as numbers), so two
states are never taken for one.
"""
from __future__ import annotations

import time
import zlib
from array import array

from ..gdl.asp_terms import symbol_kif
from ..gdl.errors import GdlError
from ..gdl.machine import ClingoMachine
from ..gdl.propnet_machine import PropnetMachine

SAMPLE = 4          # one quiet state in about SAMPLE is kept (by a checksum of its fluents)
_CLOCK_EVERY = 256  # transitions between two looks at the clock


class GraphStop(Exception):
    """A limit was reached (`limit` names it); `stats` has the figures of what was explored."""

    def __init__(self, limit: str, stats: dict, timeout: bool = False):
        super().__init__(limit)
        self.limit = limit
        self.stats = stats
        self.timeout = timeout   # the clock, not --limit-states


class GraphSearch:
    """A DFS over the reachable states of a GDL description (see the module docstring).

    `run()` gives ("cycle", moves, (i, j)) for a play whose state after i moves is the state
    after j (j = len(moves)) and not terminal; ("dead", moves, roles) for a play ending in a
    non-terminal state where `roles` have no legal move, when `dead_ends`; or ("done", None,
    None) when the whole graph has been searched without either. `moves` are joint moves, each
    a list of {"role", "move"} in KIF, role order."""

    def __init__(self, desc, deadline: float | None = None, limit_states: int | None = None,
                 dead_ends: bool = False, flag=None):
        self.desc = desc
        self.m = self.roles = None   # the machine is grounded when the search starts
        self.deadline = deadline
        self.limit_states = limit_states
        self.dead_ends = dead_ends
        self.flag = flag             # a fluent to watch for: `flagged` once a reachable state has it
        self.flagged = False
        self.ids: dict = {}          # fluent Symbol -> number, for compact keys (no propnet)
        self._atoms = None           # the propnet's numbers of a state's fluents, when it has them
        self.color: dict = {}        # key of a kept state -> 1 on the DFS stack, 2 done
        self.transitions = 0
        self.passed = 0              # quiet states passed through without being kept
        self.cpu = 0.0
        self._steps = None           # the search, a generator that pauses every _CLOCK_EVERY moves

    def stats(self) -> dict:
        """Figures for Answer.stats."""
        return {"graph_states_kept": len(self.color), "graph_states_passed": self.passed,
                "graph_transitions": self.transitions, "graph_cpu_seconds": round(self.cpu, 3)}

    def _key(self, state) -> bytes:
        # The propnet's atoms number the fluents already (one per fluent): no Symbol is hashed.
        # A state has atom numbers or not by its fluents alone, so a state always gets one key.
        atoms = self._atoms(state) if self._atoms is not None else None
        if atoms is not None:
            return b"a" + array("I", sorted(atoms)).tobytes()
        ids = self.ids
        try:
            return b"s" + array("I", sorted(ids[f] for f in state)).tobytes()
        except KeyError:
            # New fluents are numbered in their own order, not the set's (which varies from run
            # to run): the states kept, and so the answer's lasso, are the same in every run.
            for f in sorted(f for f in state if f not in ids):
                ids[f] = len(ids)
            return b"s" + array("I", sorted(ids[f] for f in state)).tobytes()

    def _tick(self) -> bool:
        """Count a transition; whether it is time to pause (look at the clock and let others run)."""
        self.transitions += 1
        if self.transitions % _CLOCK_EVERY:
            return False
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise GraphStop(f"--timeout reached after {len(self.color)} states kept", self.stats(), timeout=True)
        return True

    def _joints(self, state, legal=None) -> list[tuple]:
        out: list[tuple] = [()]
        for moves in legal if legal is not None else self.m.options(state)[1]:
            out = [p + (mv,) for p in out for mv in moves]
        return out

    def _follow(self, state, joint):
        """From `state` by `joint`, through quiet states not kept: ("node", state, key, joints,
        moves), ("end", moves), ("dead", moves, state) or ("loop", moves, i) (the state after
        i of the moves recurs after all of them)."""
        m, moves, seen = self.m, [joint], {}
        while True:
            state = m.next_unchecked(state, joint)   # the joint came from options(): it is legal
            if self._tick():
                yield
            if self.flag is not None and self.flag in state:
                self.flagged = True
            terminal, legal = m.options(state)
            if terminal:
                return ("end", moves)
            joints = self._joints(state, legal)
            if not joints:
                return ("dead", moves, state)
            key = self._key(state)
            # the start is kept whatever it is
            if len(joints) != 1 or zlib.crc32(key) % SAMPLE == 0 or key in self.color:
                return ("node", state, key, joints, moves)
            if key in seen:
                return ("loop", moves, seen[key])
            seen[key] = len(moves)
            joint = joints[0]
            moves.append(joint)
            self.passed += 1

    def run(self) -> tuple:
        """Search until a finding or the end of the graph (see the class docstring)."""
        return self.advance(None)

    def advance(self, cpu: float | None) -> tuple | None:
        """Search on until a finding or the end of the graph (its result), or until the search
        has used `cpu` seconds of CPU in all (None: no pause); then None, and a later call resumes.
        The CPU counted is this thread's: the unrolling's solver may be running beside it."""
        start = time.thread_time()
        if self._steps is None:
            self._steps = self._run()
        try:
            while True:
                next(self._steps)
                if cpu is not None and self.cpu + time.thread_time() - start >= cpu:
                    return None
        except StopIteration as done:
            return done.value
        finally:
            self.cpu += time.thread_time() - start

    def _run(self):
        # The caller has validated the description: no second check here.
        m = self.m = _machine(self.desc)
        self._atoms = getattr(m, "state_atoms", None)
        self.roles = m.roles()
        init = m.initial_state()
        self.flagged = self.flag is not None and self.flag in init
        if m.is_terminal(init):
            return ("done", None, None)
        # A frame: [state, key, joints left, moves from its parent, moves before it]
        root_key = self._key(init)
        joints = self._joints(init)
        if not joints:
            return self._dead([], init) if self.dead_ends else ("done", None, None)
        stack = [[init, root_key, iter(joints), [], 0]]
        self.color[root_key] = 1
        depth_of = {root_key: 0}   # stack index of each grey key
        while stack:
            frame = stack[-1]
            joint = next(frame[2], None)
            if joint is None:
                self.color[frame[1]] = 2
                del depth_of[frame[1]]
                stack.pop()
                continue
            found = yield from self._follow(frame[0], joint)
            kind, moves = found[0], found[1]
            here = frame[4] + len(frame[3])   # moves from the start to frame's state
            if kind == "loop":
                return ("cycle", self._play(stack, moves), (here + found[2], here + len(moves)))
            if kind == "dead":
                if self.dead_ends:
                    return self._dead(self._play(stack, moves), found[2])
                continue
            if kind == "end":
                continue
            _, state, key, joints, moves = found
            c = self.color.get(key)
            if c == 1:
                k = depth_of[key]
                target = stack[k][4] + len(stack[k][3])
                return ("cycle", self._play(stack, moves), (target, here + len(moves)))
            if c == 2:
                continue
            if self.limit_states is not None and len(self.color) >= self.limit_states:
                raise GraphStop(f"--limit-states {self.limit_states} reached", self.stats())
            self.color[key] = 1
            depth_of[key] = len(stack)
            stack.append([state, key, iter(joints), moves, here])
        return ("done", None, None)

    def _dead(self, moves: list, state) -> tuple:
        stuck = [symbol_kif(r) for r in self.roles if not self.m.legal_moves(state, r)]
        return ("dead", moves, stuck)

    def _play(self, stack: list, last: list) -> list:
        """The joint moves from the start through the frames of the stack and then `last`."""
        joints = [j for frame in stack for j in frame[3]] + last
        return [[{"role": symbol_kif(r), "move": symbol_kif(mv)} for r, mv in zip(self.roles, j)] for j in joints]


def _machine(desc):
    """The propositional network over clingo's grounding of `desc` (the same states and moves
    as ClingoMachine, several times faster a move: the search is one move at a time); the
    clingo machine where the network cannot evaluate the program."""
    try:
        return PropnetMachine(desc, cache_size=64, check=False, percepts=False)
    except GdlError:   # AspError, or a loop through negation (propnet_machine reports it so)
        return ClingoMachine(desc, cache_size=64, check=False)
