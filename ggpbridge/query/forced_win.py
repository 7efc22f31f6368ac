"""`query GAME forced-win ROLE`: can ROLE guarantee a win, and how likely is it to win under best play.

A game whose locations are all public is searched state by state (`solve.expectimax.win_probability`):
ROLE maximises its probability of winning, every other seat minimises it, chance is averaged,
exactly. The answer is yes when that probability is 1, and the witness is the strategy: ROLE's
option at each of its decisions that play can reach while it follows the strategy, keyed by the
moves from the start (`ggpbridge replay` follows every other move and checks every end is a win).

A game with hidden information is answered on its game tree (`solve.forced.guaranteed_win`):
exactly, by AND-OR over ROLE's information sets, what ROLE can force knowing only what it sees.
The probability of winning under best play (what ROLE can make sure of against every strategy of
the others) is bracketed by CFR+ on ROLE against the others (`solve.forced.win_bounds`): with
more than two seats the others are one coalition that pools what they see, which gives a lower
bound; profiles the others can play each on its own (the coalition's strategy split among them,
and CFR+ run with every seat on its own) give an upper bound.
"""
from __future__ import annotations

import time

from ..errors import interrupted_by
from ..solve.expectimax import win_probability
from ..solve.forced import guaranteed_win, independent_upper, win_bounds
from ..solve.run import public_only
from ..solve.tree import DEFAULT_LIMIT, SolveError, build_tree
from ..sim.stepwise import Chance, Decision, StepMachine
from .answer import NO, UNKNOWN, YES, Answer

MAX_WITNESS = 10_000   # ROLE's decisions listed in a strategy witness at most


def answer_forced_win(machine: StepMachine, role: int, limit_states: int | None = None,
                      timeout: float | None = None) -> Answer:
    """The explicit engine's answer to forced-win ROLE (`timeout` bounds CFR+'s iterations)."""
    limit = limit_states or DEFAULT_LIMIT
    t0 = time.perf_counter()
    try:
        ans = _perfect(machine, role, limit) if public_only(machine) else _hidden(machine, role, limit, timeout)
    except SolveError as e:
        ans = Answer("forced-win", UNKNOWN, "explicit", f"not answered: {e}", limit=str(e))
    except KeyboardInterrupt as stop:
        ans = Answer("forced-win", UNKNOWN, "explicit", "the search was interrupted", limit=interrupted_by(stop))
    ans.seconds = round(time.perf_counter() - t0, 3)
    return ans


def _perfect(machine, role, limit) -> Answer:
    p, search, s0 = win_probability(machine, role, limit)
    stats = {"win_probability": str(p), "states": len(search.table)}
    how = (f"exhaustive search of the {len(search.table)} states (every location is public): player {role} "
           f"maximises its chance of winning, the others minimise it, chance is averaged exactly: {p}")
    if p != 1:
        return Answer("forced-win", NO, "explicit", how, stats=stats)
    strategy = strategy_of(machine, search.table, s0, role)
    if strategy is None:
        stats["witness"] = f"left out: more than {MAX_WITNESS} decisions"
        return Answer("forced-win", YES, "explicit", how, stats=stats)
    return Answer("forced-win", YES, "explicit", how, stats=stats,
                  witness={"kind": "strategy", "steps": [], "strategy": strategy})


def strategy_of(machine: StepMachine, table: dict, s0, role: int) -> list | None:
    """ROLE's best option at each of its decisions reachable while it follows them, keyed by the
    moves from the start; None beyond MAX_WITNESS decisions."""
    out = []
    todo = [(s0, ())]
    while todo:
        s, path = todo.pop()
        nd = machine.node(s)
        if isinstance(nd, Chance):
            todo.extend((machine.next_state(s, k), path + (k,)) for k in range(nd.n))
        elif isinstance(nd, Decision):
            if nd.player == role:
                best = table[machine.key(s)][2]
                out.append({"after": list(path), "option": best})
                if len(out) > MAX_WITNESS:
                    return None
                todo.append((machine.next_state(s, best), path + (best,)))
            else:
                todo.extend((machine.next_state(s, k), path + (k,)) for k in range(len(nd.options)))
    return out


def _hidden(machine, role, limit, timeout=None) -> Answer:
    seats = len(machine.roles)
    # more seats: the others as one coalition pooling what they see (its strategies include every
    # profile of theirs, so what ROLE guarantees against it, it guarantees against them)
    teams = None if seats == 2 else tuple(0 if s == role else 1 for s in range(seats))
    actor = role if teams is None else 0
    tree = build_tree(machine, "win", limit, teams=teams)
    ok, _ = guaranteed_win(tree, actor)
    sets = tree.stats["information_sets"][actor]
    how = (f"AND-OR over player {role}'s {sets} information sets in the game tree ({tree.stats['histories']} "
           f"histories; hidden information: the player chooses knowing only what it sees)")
    how += (": a pure strategy wins every play, so the probability of winning under best play is 1" if ok else
            ": no strategy wins every play, so the probability of winning under best play is below 1")
    stats = {"histories": tree.stats["histories"], "information_sets": sets}
    if ok:
        stats["win_probability"] = "1"
    else:
        t0 = time.perf_counter()
        stop = (lambda: time.perf_counter() - t0 > timeout) if timeout else None
        b = win_bounds(tree, actor, stop=stop)
        if teams is not None:   # the others each on their own: another profile, maybe a tighter bound
            alone = independent_upper(build_tree(machine, "win", limit), role, stop=stop)
            b["projected_upper"] = b["upper"]
            b["upper"] = min(b["upper"], alone["upper"])
            b["interrupted"] = b["interrupted"] or alone["interrupted"]
        stats.update(win_probability_lower=round(b["lower"], 6), win_probability_upper=round(b["upper"], 6),
                     exploitability=round(b["exploitability"], 6), cfr_iterations=b["iterations"])
        who = "the other player" if teams is None else (
            f"the other {seats - 1} players as one coalition pooling what they see "
            f"({tree.stats['information_sets'][1]} information sets)")
        against = "the coalition's best reply" if teams else "the other's best reply"
        reply_to = ("the better for them of two profiles the others can play each on its own: the coalition's "
                    "strategy split among its seats, and CFR+ run with every seat on its own" if teams
                    else "the other's strategy")
        stopped = ("" if b["converged"] else f", {b['interrupted']} before 0.001" if b["interrupted"]
                   else ", stopped before 0.001 by --timeout or the iteration limit")
        how += (f"; CFR+ on player {role} winning or not against {who}, {b['iterations']} iterations "
                f"(exploitability {b['exploitability']:.4f}{stopped}): the probability of winning under best "
                f"play is at least {b['lower']:.4f} (its average strategy against {against}) and at most "
                f"{b['upper']:.4f} (its best reply to {reply_to})")
        if teams is not None and b["upper"] - b["lower"] > 2 * b["exploitability"] + 1e-9:
            how += ("; the bounds stay apart because the coalition's strategy relies on what its seats see "
                    f"together: split among its seats it concedes {b['projected_upper'] - b['coalition_upper']:.4f} "
                    "more (docs/solve.md, forced-win)")
    return Answer("forced-win", YES if ok else NO, "explicit", how, stats=stats)
