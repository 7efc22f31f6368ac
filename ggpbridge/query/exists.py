"""`exists --where CONDITION` on the explicit engine: is there a whole play that satisfies the condition?

The search runs over pairs (state, what remains of the condition there): the condition is
progressed through each observation point (`where.progress`), a pair whose remainder is
false is dropped, and a terminal state whose final remainder is true ends the search with
the play as witness. Pairs are expanded once each, so the search is over the product of the
state graph with the (few) remainders of the condition. With `--horizon N` a play may take
at most N steps, and the steps left are part of the pair (a pair met deep and cut off may be
reachable earlier), so "no" means "no play of at most N steps".
"""
from __future__ import annotations

from ..sim.stepwise import Decision, Runaway, StepMachine, Terminal
from .answer import NO, UNKNOWN, YES, Answer
from .explicit import ENGINE, Search, run_search, steps_of
from .where import FALSE, TRUE, Condition, ScoreUndefined, atom_holds, progress

QUESTION = "exists"


def answer_exists(machine: StepMachine, cond: Condition, horizon: int | None = None, timeout: float | None = None,
                  limit_states: int | None = None, progress_cb=None, game: str | None = None,
                  overrides: dict | None = None) -> Answer:
    """The explicit engine's answer to `exists --where` (see the module docstring)."""
    search = Search(machine, limit_states, timeout, progress_cb)

    def body() -> Answer:
        try:
            return _search(search, cond, horizon)
        except ScoreUndefined:
            # a yes/no would depend on a score the game does not define there
            return Answer(QUESTION, UNKNOWN, ENGINE, "the condition reads score(...) in a state where the game's "
                          "scoring expression has no value", limit="score undefined mid-game")
    return run_search(search, QUESTION, body, None, game, overrides, where=cond.text)


def _advance(m: StepMachine, f, state, node):
    """The remainder of `f` after the observation point at `state`."""
    winners = node.winners if isinstance(node, Terminal) else None
    return progress(f, lambda a: atom_holds(a, state.data, winners, _scores_of(m, state, node)),
                    isinstance(node, Terminal))


def _scores_of(m: StepMachine, state, node):
    """The scores of a state, computed only if an atom asks (`where.value`)."""
    if isinstance(node, Terminal):
        return lambda: node.scores
    return lambda: m.scores(state)


def _search(search: Search, cond: Condition, horizon: int | None) -> Answer:
    m = search.m
    s0 = m.initial_state()
    n0 = m.node(s0)
    cut = False   # some play was still running at the horizon

    def key(state, rest, depth):
        return (m.key(state), rest) if horizon is None else (m.key(state), rest, depth)

    r0 = _advance(m, cond.formula, s0, n0)
    search._new(key(s0, r0, 0))
    search._count(n0)
    if isinstance(n0, Terminal):
        return _found(r0 == TRUE, [], cond, search, horizon)
    if r0 == FALSE:
        return _none(search, cond, horizon, cut)
    # frames: [state, node, remainder after it, moves iterator, move taken]
    path = [[s0, n0, r0, iter(search.moves(n0)), None]]
    while path:
        top = path[-1]
        mv = next(top[3], None)
        if mv is None:
            path.pop()
            continue
        search._tick()
        top[4] = mv
        nxt, nd = m.step(top[0], mv)
        depth = len(path)
        rest = _advance(m, top[2], nxt, nd)
        k = key(nxt, rest, depth)
        if k in search.ids:
            continue
        search._new(k)
        search._count(nd)
        if isinstance(nd, Runaway):
            search._clock()
        if depth > search.max_depth:
            search.max_depth = depth
        if isinstance(nd, Terminal):
            if rest == TRUE:
                path.append([nxt, nd, rest, iter(()), None])
                return _found(True, steps_of(path), cond, search, horizon)
            continue
        if rest == FALSE or isinstance(nd, Runaway) or (isinstance(nd, Decision) and not nd.options):
            continue   # no whole play satisfying the condition passes here
        if horizon is not None and depth >= horizon:
            cut = True
            continue
        path.append([nxt, nd, rest, iter(search.moves(nd)), None])
    return _none(search, cond, horizon, cut)


def _found(ok: bool, steps: list, cond: Condition, search: Search, horizon) -> Answer:
    if not ok:
        return _none(search, cond, horizon, False)
    return Answer(QUESTION, YES, ENGINE, f"search: a whole play of {len(steps)} steps satisfies the condition",
                  witness={"kind": "satisfies", "steps": steps})


def _none(search: Search, cond: Condition, horizon, cut: bool) -> Answer:
    if search.unproven is not None:
        return Answer(QUESTION, UNKNOWN, ENGINE, "no play found that satisfies the condition; a stretch of play "
                      "was not followed to its end", limit=search.unproven_limit())
    if horizon is not None:
        how = f"exhaustive search: no play of at most {horizon} steps satisfies the condition"
        return Answer(QUESTION, NO, ENGINE, how + ("" if cut else " (no play is longer)"),
                      stats={"cut_at_horizon": cut})
    return Answer(QUESTION, NO, ENGINE, "exhaustive search over (state, remainder of the condition): no whole "
                  "play satisfies the condition")


def trace_points(machine: StepMachine, states: list) -> list:
    """(data, winners, scores) per observation point of a play given as its states (for `where.holds_on`)."""
    out = []
    for s in states:
        nd = machine.node(s)
        out.append((s.data, nd.winners if isinstance(nd, Terminal) else None, _scores_of(machine, s, nd)))
    return out

