"""`query GAME forced-win ROLE`: can ROLE guarantee a win, and how likely is it to win under best play.

A game whose locations are all public is searched state by state (`solve.expectimax.win_probability`):
ROLE maximises its probability of winning, every other seat minimises it, chance is averaged,
exactly. The answer is yes when that probability is 1, and the witness is the strategy: ROLE's
option at each of its decisions that play can reach while it follows the strategy, keyed by the
moves from the start (`ggpbridge replay` follows every other move and checks every end is a win).

A game with hidden information is answered on its game tree (`solve.forced.guaranteed_win`):
exactly, by AND-OR over ROLE's information sets, what ROLE can force knowing only what it sees.
The probability of winning under best play comes from CFR+ for two seats (approximate, within
the exploitability reached); with more seats the others are no single player and it is left out.
"""
from __future__ import annotations

import time

from ..solve.expectimax import win_probability
from ..solve.forced import guaranteed_win, win_probability_cfr
from ..solve.run import public_only
from ..solve.tree import DEFAULT_LIMIT, SolveError, build_tree
from ..sim.stepwise import Chance, Decision, StepMachine
from .answer import NO, UNKNOWN, YES, Answer

MAX_WITNESS = 10_000   # ROLE's decisions listed in a strategy witness at most


def answer_forced_win(machine: StepMachine, role: int, limit_states: int | None = None) -> Answer:
    """The explicit engine's answer to forced-win ROLE."""
    limit = limit_states or DEFAULT_LIMIT
    t0 = time.perf_counter()
    try:
        ans = _perfect(machine, role, limit) if public_only(machine) else _hidden(machine, role, limit)
    except SolveError as e:
        ans = Answer("forced-win", UNKNOWN, "explicit", f"not answered: {e}", limit=str(e))
    except KeyboardInterrupt:
        ans = Answer("forced-win", UNKNOWN, "explicit", "the search was interrupted", limit="interrupted (Ctrl-C)")
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


def _hidden(machine, role, limit) -> Answer:
    tree = build_tree(machine, "win", limit)
    ok, choices = guaranteed_win(tree, role)
    sets = tree.stats["information_sets"][role]
    how = (f"AND-OR over player {role}'s {sets} information sets in the game tree ({tree.stats['histories']} "
           f"histories; hidden information: the player chooses knowing only what it sees)")
    how += ": a pure strategy wins every play" if ok else ": no strategy wins every play"
    stats = {"histories": tree.stats["histories"], "information_sets": sets}
    if tree.seats == 2:
        est = win_probability_cfr(tree, role)
        stats.update(win_probability=round(est["probability"], 6), exploitability=round(est["exploitability"], 6),
                     cfr_iterations=est["iterations"])
        how += (f"; CFR+ puts its probability of winning under best play at {est['probability']:.4f} "
                f"(exploitability {est['exploitability']:.4f})")
    return Answer("forced-win", YES if ok else NO, "explicit", how, stats=stats)
