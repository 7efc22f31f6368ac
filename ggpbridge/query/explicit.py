"""The explicit engine: exhaustive search over the simulator's stepwise state machine.

Every chance outcome and every option is followed; states are identified by
`StepMachine.key` (data and control without stage iteration numbers), so a state
met twice is expanded once. A *step* is one decision or one chance outcome (each
position of a Fisher-Yates shuffle is one step); `--horizon N` counts those.

- cycle: iterative DFS; a successor still on the DFS stack is a recurrence (a back edge).
- terminates: no back edge, no dead end (a non-terminal state without any move) and,
  with a horizon, no play longer than N steps.
- always-ends: the whole reachable graph goes into networkx; every state must be an
  ancestor of a terminal state (reverse reachability).
- playable: no reachable decision with zero enabled options (the simulator stops such
  a game with "player p has no enabled option").
- winnable ROLE: some reachable terminal state has ROLE among the winners.

A stretch that runs on without any decision or chance event is a `Runaway` state without
moves: proven endless (its state recurs) it is a cycle, a play that does not terminate and
a state that cannot end; cut by the machine's step limit it leaves each answer that it
could change 'unknown'.

Limits (`limit_states`, `timeout`) and Ctrl-C end a search with an honest 'unknown'.
"""
from __future__ import annotations

import gc
import time

from ..errors import GgpBridgeError, interrupted_by
from ..sim.stepwise import Chance, Decision, Runaway, StepMachine, Terminal
from .answer import NO, UNKNOWN, YES, Answer
from .witness import describe_steps, make_witness, step_record

ENGINE = "explicit"
_CHECK_EVERY = 512   # moves between clock checks: time.perf_counter is not free
_COLLECT_EVERY = 16384  # moves between collections of the youngest GC generation (see run_search)


class _Stop(Exception):
    """A limit was reached: `limit` says which, for the 'unknown' answer."""

    def __init__(self, limit: str):
        super().__init__(limit)
        self.limit = limit


class Search:
    """One exhaustive search: the states found so far, their ids, and the limits."""

    def __init__(self, machine: StepMachine, limit_states: int | None = None, timeout: float | None = None,
                 progress=None):
        self.m = machine
        self.limit_states = limit_states
        self.deadline = None if timeout is None else time.perf_counter() + timeout
        self.timeout = timeout
        self.progress = progress
        self.ids: dict = {}            # state key -> id (0 = the initial state)
        self.transitions = 0           # moves tried, from every state expanded
        self.kinds = {"chance": 0, "decision": 0, "terminal": 0, "runaway": 0}
        self.max_depth = 0
        self.capped = False   # some state was left unexpanded at the horizon
        self.unproven: Runaway | None = None   # the first stretch cut by the step limit, not proven endless

    # ------------------------------------------------------------ bookkeeping
    def _new(self, key) -> int:
        i = len(self.ids)
        if self.limit_states is not None and i >= self.limit_states:
            raise _Stop(f"--limit-states {self.limit_states} reached")
        self.ids[key] = i
        return i

    def _tick(self) -> None:
        self.transitions += 1
        if self.transitions % _COLLECT_EVERY == 0:
            gc.collect(0)
        if self.transitions % _CHECK_EVERY == 0:
            self._clock()
            if self.progress is not None:
                self.progress(len(self.ids))

    def _clock(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Stop(f"--timeout {self.timeout:g} s reached")

    def stats(self) -> dict:
        """Figures of the search so far."""
        return {"states": len(self.ids), "transitions": self.transitions,
                "max_depth": self.max_depth, **{f"{k}_states": v for k, v in self.kinds.items()}}

    def moves(self, node) -> range:
        """The moves of a node: chance outcomes or option indices (none at a terminal)."""
        if isinstance(node, Chance):
            return range(node.n)
        if isinstance(node, Decision):
            return range(len(node.options))
        return range(0)

    # ------------------------------------------------------------ the search
    def dfs(self, visit=None, on_stack_hit=None, edges: list | None = None, max_depth: int | None = None,
            longest: dict | None = None):
        """Depth-first over every reachable state, each expanded once.

        The DFS stack `path` holds frames [state, node, id, moves-iterator, move-taken, best].
        `visit(path, node)` is called when a state is first met; a true result stops the search
        and is returned. A frame deeper than `max_depth` steps that is not terminal is not
        expanded and calls visit(path, None) (a play still running after max_depth steps).
        `on_stack_hit(path, k)` is called for a successor standing at the k-th frame (a
        recurrence); its true result is returned. `edges` collects (id, id) pairs. `longest`
        collects, per id of an acyclic graph, (steps of the longest play from it, its first move).
        """
        m = self.m
        s0 = m.initial_state()
        n0 = m.node(s0)
        self._new(m.key(s0))
        self._count(n0)
        on_stack: dict[int, int] = {0: 0}
        path = [[s0, n0, 0, iter(self.moves(n0)), None, (0, None)]]
        if visit is not None and (r := visit(path, n0)):
            return r
        while path:
            top = path[-1]
            mv = next(top[3], None)
            if mv is None:   # every move of this state tried: leave it
                del on_stack[top[2]]
                path.pop()
                if longest is not None:
                    longest[top[2]] = top[5]
                    if path and top[5][0] + 1 > path[-1][5][0]:
                        path[-1][5] = (top[5][0] + 1, path[-1][4])
                continue
            self._tick()
            top[4] = mv
            nxt, nd = m.step(top[0], mv)
            key = m.key(nxt)
            j = self.ids.get(key)
            if j is not None:
                if edges is not None:
                    edges.append((top[2], j))
                if j in on_stack:
                    if on_stack_hit is not None and (r := on_stack_hit(path, on_stack[j])):
                        return r
                elif longest is not None and longest[j][0] + 1 > top[5][0]:
                    top[5] = (longest[j][0] + 1, mv)
                continue
            j = self._new(key)
            if edges is not None:
                edges.append((top[2], j))
            self._count(nd)
            if isinstance(nd, Runaway):
                self._clock()   # a stretch run to its end is no cheap move: look at the clock now
            on_stack[j] = len(path)
            path.append([nxt, nd, j, iter(self.moves(nd)), None, (0, None)])
            depth = len(path) - 1
            if depth > self.max_depth:
                self.max_depth = depth
            if visit is not None and (r := visit(path, nd)):
                return r
            if max_depth is not None and depth >= max_depth and not isinstance(nd, Terminal):
                self.capped = True
                if visit is not None and (r := visit(path, None)):
                    return r
                path[-1][3] = iter(())   # no deeper than the horizon
        return None

    def _count(self, node) -> None:
        if isinstance(node, Runaway):
            self.kinds["runaway"] += 1
            if not node.proven and self.unproven is None:
                self.unproven = node
            return
        self.kinds["chance" if isinstance(node, Chance) else "decision" if isinstance(node, Decision)
                   else "terminal"] += 1

    def unproven_limit(self) -> str:
        """The limit to name when a stretch cut by the step limit left an answer open."""
        return f"the step limit of a stretch without decisions ({self.unproven.message})"


def steps_of(path: list, upto: int | None = None) -> list:
    """The witness steps along a DFS stack: the move taken at each frame below `upto` (default: all but the top)."""
    frames = path[:-1] if upto is None else path[:upto]
    return [step_record(f[1], f[4]) for f in frames]


# ---------------------------------------------------------------- the questions
def answer_explicit(machine: StepMachine, question: str, role: int | None = None, horizon: int | None = None,
                    timeout: float | None = None, limit_states: int | None = None, progress=None,
                    game: str | None = None, overrides: dict | None = None) -> Answer:
    """Answer one question about the game of `machine` by exhaustive search."""
    search = Search(machine, limit_states, timeout, progress)
    handler = _HANDLERS[question]
    return run_search(search, question, lambda: handler(search, role, horizon), role, game, overrides)


def run_search(search: Search, question: str, body, role: int | None = None, game: str | None = None,
               overrides: dict | None = None, **witness_extra) -> Answer:
    """The frame of a search: `body()` gives the Answer; limits and Ctrl-C end it with 'unknown',
    and the answer gets its time, the search's figures and a JSON-ready witness."""
    t0 = time.perf_counter()
    # The states found are millions of nested tuples, and Python's automatic full collections
    # would scan them over and over (half the time of War n = 8). Collect only the youngest
    # generation, by hand: what the simulator leaves as cyclic garbage is freed there.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        ans = body()
    except _Stop as e:
        ans = Answer(question, UNKNOWN, ENGINE, "the search stopped before covering every reachable state",
                     limit=e.limit)
    except KeyboardInterrupt as stop:
        ans = Answer(question, UNKNOWN, ENGINE, "the search was interrupted", limit=interrupted_by(stop))
    finally:
        if was_enabled:
            gc.enable()
    ans.seconds = round(time.perf_counter() - t0, 3)
    ans.stats = {**search.stats(), **ans.stats}
    if ans.witness is not None:
        describe_steps(search.m, ans.witness["steps"])
        ans.witness = make_witness(game, overrides, question, role, ans.verdict, **witness_extra, **ans.witness)
    return ans


def _recurrence(path, k) -> dict:
    # the top frame's move leads back to the state of frame k: steps 0..len(path)-1 close the loop
    return {"kind": "recurrence", "steps": steps_of(path, len(path)), "recur_from": k}


def _loop(path, node) -> dict | None:
    """A witness for a play that reaches a stretch proven to run on for ever (a Runaway that recurs)."""
    if isinstance(node, Runaway) and node.proven:
        return {"kind": "loop", "steps": steps_of(path)}
    return None


_LOOP_HOW = "after step {n} a stage loops without any decision or chance event and its state recurs"


def _open(question: str, search: Search, what: str) -> Answer:
    """'unknown' because a stretch without decisions was cut by the step limit."""
    return Answer(question, UNKNOWN, ENGINE, what, limit=search.unproven_limit())


def _cycle(search: Search, role, horizon) -> Answer:
    found = search.dfs(visit=_loop, on_stack_hit=_recurrence, max_depth=horizon)
    within = "" if horizon is None else f" within {horizon} steps"
    if found and found["kind"] == "loop":
        return Answer("cycle", YES, ENGINE, f"DFS{within}: " + _LOOP_HOW.format(n=len(found["steps"])),
                      witness=found)
    if found:
        return Answer("cycle", YES, ENGINE, f"DFS{within}: the state after step {found['recur_from']} recurs after "
                      f"step {len(found['steps'])} (a back edge)", witness=found)
    if search.unproven is not None:
        return _open("cycle", search, "no recurrence found; a stretch of play was not followed to its end")
    if search.capped:
        # a depth-capped DFS may miss back edges below the cap: only 'no recurrence so far'
        return Answer("cycle", UNKNOWN, ENGINE, f"no recurrence found; plays go on beyond {horizon} steps",
                      limit=f"--horizon {horizon}")
    return Answer("cycle", NO, ENGINE, "exhaustive DFS: no successor of any reachable state is on the DFS stack "
                  "(no back edge, so the reachable state graph is acyclic)")


def _terminates(search: Search, role, horizon) -> Answer:
    def visit(path, node):
        if node is None:
            return {"kind": "no-end-within", "steps": steps_of(path), "horizon": horizon}
        if isinstance(node, Runaway):
            return _loop(path, node)
        if not isinstance(node, Terminal) and not search.moves(node):
            return {"kind": "dead-end", "steps": steps_of(path)}
        return None
    longest: dict = {}
    found = search.dfs(visit=visit, on_stack_hit=_recurrence, max_depth=horizon, longest=longest)
    if found is None and horizon is not None and longest[0][0] > horizon:
        # the DFS tree is shallower than the longest play when states are shared: follow the
        # longest play itself for `horizon` steps
        found = {"kind": "no-end-within", "steps": _longest_play(search, longest, horizon), "horizon": horizon}
    if found is None and search.unproven is not None:
        return _open("terminates", search, "no play found that does not end; a stretch of play was not followed "
                     "to its end")
    if found is None:
        how = "exhaustive DFS: no back edge (no cycle) and every state without a move is terminal"
        return Answer("terminates", YES, ENGINE, how + f"; the longest play has {longest[0][0]} steps",
                      stats={"longest_play": longest[0][0]})
    what = {"recurrence": "a play revisits a state (a cycle)",
            "dead-end": "a play reaches a non-terminal state where nobody can move",
            "no-end-within": f"a play is still running after {horizon} steps",
            "loop": _LOOP_HOW.format(n=len(found["steps"]))}
    return Answer("terminates", NO, ENGINE, f"DFS: {what[found['kind']]}", witness=found)


def _longest_play(search: Search, longest: dict, steps: int) -> list:
    m = search.m
    s = m.initial_state()
    out = []
    for _ in range(steps):
        nd = m.node(s)
        mv = longest[search.ids[m.key(s)]][1]
        out.append(step_record(nd, mv))
        s = m.next_state(s, mv)
    return out


def _always_ends(search: Search, role, horizon) -> Answer:
    import networkx as nx
    edges: list = []
    terminals: list = []
    parents: dict = {}   # id -> (parent id, step): the DFS tree, for a witness path

    def visit(path, node):
        if len(path) > 1:
            parents[path[-1][2]] = (path[-2][2], step_record(path[-2][1], path[-2][4]))
        if isinstance(node, Runaway) and node.proven:
            return _loop(path, node)
        # a stretch cut by the step limit may still end: counted as ending, so a state found
        # trapped is trapped for certain, and an answer that rests on it is only 'unknown'
        if isinstance(node, (Terminal, Runaway)):
            terminals.append(path[-1][2])
        return None
    found = search.dfs(visit=visit, edges=edges)
    if found is not None:
        return Answer("always-ends", NO, ENGINE, "DFS: " + _LOOP_HOW.format(n=len(found["steps"])) +
                      ": from there no terminal state is reachable", witness=found)
    g = nx.DiGraph()
    g.add_nodes_from(range(len(search.ids)))
    g.add_edges_from(edges)
    sink = -1   # one extra node after every terminal: "can end" = is an ancestor of it
    g.add_node(sink)
    g.add_edges_from((t, sink) for t in terminals)
    ending = nx.ancestors(g, sink)
    trapped = [j for j in range(len(search.ids)) if j not in ending]
    how = (f"reverse reachability in the networkx state graph ({len(search.ids)} states, {len(edges)} transitions) "
           f"from its {len(terminals)} terminal states")
    if horizon is not None:
        how += " (--horizon is not used: the whole graph is needed)"
    if not trapped and search.unproven is not None:
        return _open("always-ends", search, how + ": every reachable state can reach one or a stretch of play "
                     "that was not followed to its end")
    if not trapped:
        return Answer("always-ends", YES, ENGINE, how + ": every reachable state can still reach one")
    # the first trapped state the DFS met (lowest id) has a tree path from the start
    steps, j = [], min(trapped)
    while j != 0:
        j, st = parents[j]
        steps.append(st)
    steps.reverse()
    return Answer("always-ends", NO, ENGINE, how + f": {len(trapped)} reachable states cannot reach any",
                  witness={"kind": "trapped", "steps": steps}, stats={"trapped_states": len(trapped)})


def _playable(search: Search, role, horizon) -> Answer:
    def visit(path, node):
        if isinstance(node, Decision) and not node.options:
            return {"kind": "dead-end", "steps": steps_of(path), "player": node.player}
        return None
    found = search.dfs(visit=visit, max_depth=horizon)
    if found:
        return Answer("playable", NO, ENGINE, f"DFS: player {found['player']} must choose but has no enabled option",
                      witness=found)
    if search.unproven is not None:
        return _open("playable", search, "every decision met has an enabled option; a stretch of play was not "
                     "followed to its end")
    if search.capped:
        return Answer("playable", UNKNOWN, ENGINE, f"the player to move has an option in every state met within "
                      f"{horizon} steps", limit=f"--horizon {horizon}")
    return Answer("playable", YES, ENGINE, "exhaustive search: every reachable decision has at least one enabled "
                  "option (the other roles only wait, as with GDL's noop)")


def _winnable(search: Search, role, horizon) -> Answer:
    n = len(search.m.roles)
    if role is None or not 0 <= role < n:
        raise GgpBridgeError(f"winnable needs a role in 0..{n - 1} (or player0..player{n - 1}), got {role!r}")

    def visit(path, node):
        if isinstance(node, Terminal) and role in node.winners:
            return {"kind": "win", "steps": steps_of(path), "winners": list(node.winners)}
        return None
    found = search.dfs(visit=visit, max_depth=horizon)
    if found:
        return Answer("winnable", YES, ENGINE, f"search: a play of {len(found['steps'])} steps ends with player "
                      f"{role} among the winners {found['winners']}", witness=found)
    if search.unproven is not None:
        return _open("winnable", search, f"no win for player {role} found; a stretch of play was not followed "
                     "to its end")
    if search.capped:
        return Answer("winnable", UNKNOWN, ENGINE, f"no win for player {role} within {horizon} steps",
                      limit=f"--horizon {horizon}")
    return Answer("winnable", NO, ENGINE, f"exhaustive search: no reachable terminal state has player {role} "
                  "among the winners")


_HANDLERS = {"cycle": _cycle, "terminates": _terminates, "always-ends": _always_ends, "playable": _playable,
             "winnable": _winnable}
