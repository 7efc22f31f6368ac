"""Expectimax over the game's state graph: exact values with chance averaged, for perfect information.

Every reachable state is valued once (a transposition table keyed by `StepMachine.key`); the
values are exact fractions. At a decision the seat to move takes the option best for itself
(max-n: for two seats and a constant-sum utility this is minimax), the first of equal ones; at
chance the outcomes are averaged. `win_probability` is the adversarial variant for one seat:
the others play against it, and the value is its probability of winning under best play.

In a game where some seat does not see everything at its decisions (hidden cards, a face-down
stock), these values are those of its *perfect-information relaxation*, in which every seat
sees everything: `Result.hidden` says so, with the first hidden thing met.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..sim.stepwise import Chance, Decision, Runaway, StepMachine, Terminal
from ..sim.views import view_text
from .tree import DEFAULT_LIMIT, SolveError, terminal_utility


@dataclass
class Result:
    """Values per seat at the start, the first decisions' options, and the sizes searched."""

    values: tuple
    first_moves: list
    states: int               # the transposition table: distinct states valued
    histories: int            # the game tree: plays' prefixes (states counted once per path to them)
    hidden: str | None        # the first thing a seat to move could not see, or None (perfect information)
    constant_sum: Fraction | None = None   # the utilities' sum when it is the same at every terminal
    stats: dict = field(default_factory=dict)


class _Search:
    def __init__(self, machine: StepMachine, leaf, limit: int, progress):
        self.m, self.leaf, self.limit, self.progress = machine, leaf, limit, progress
        self.table: dict = {}     # key -> (values, histories below, best option index or None)
        self.hidden: str | None = None

    def _check_hidden(self, state, nd: Decision) -> None:
        if self.hidden is None:
            obs = self.m.observation(state, nd.player)
            for (who, vis, name), cards in obs["locations"].items():
                if isinstance(cards, int):
                    self.hidden = f"player {nd.player} does not see {name} ({vis}) when it decides"
                    return

    def run(self, choose):
        """Value every state reachable from the start (post-order); `choose(player, values)` picks at decisions."""
        m = self.m
        s0 = m.initial_state()
        stack = [[s0, m.node(s0), m.key(s0), 0, []]]
        on_path = {stack[0][2]}
        while stack:
            f = stack[-1]
            state, nd, key = f[0], f[1], f[2]
            if isinstance(nd, Runaway):
                raise SolveError(f"a play runs on without any decision or chance event: {nd.message}")
            n = nd.n if isinstance(nd, Chance) else len(nd.options) if isinstance(nd, Decision) else 0
            if f[3] < n:
                k = f[3]
                f[3] += 1
                nxt, nnd = m.step(state, k)
                nkey = m.key(nxt)
                hit = self.table.get(nkey)
                if hit is not None:
                    f[4].append(hit)
                    continue
                if nkey in on_path:
                    raise SolveError("the game can return to a state it was in (a cycle): expectimax needs "
                                     "plays that end")
                on_path.add(nkey)
                stack.append([nxt, nnd, nkey, 0, []])
                continue
            stack.pop()
            on_path.discard(key)
            entry = self._close(state, nd, f[4], choose)
            self.table[key] = entry
            if len(self.table) > self.limit:
                raise SolveError(f"more than {self.limit} states (--limit-nodes)")
            if self.progress is not None and len(self.table) % 2048 == 0:
                self.progress(len(self.table))
            if stack:
                stack[-1][4].append(entry)
        return self.table[m.key(s0)], s0

    def _close(self, state, nd, kids, choose) -> tuple:
        if isinstance(nd, Terminal):
            return (self.leaf(nd), 1, None)
        below = 1 + sum(k[1] for k in kids)
        if isinstance(nd, Chance):
            p = Fraction(1, nd.n)
            vals = tuple(sum(k[0][s] for k in kids) * p for s in range(len(kids[0][0])))
            return (vals, below, None)
        if not nd.options:
            raise SolveError(f"player {nd.player} must choose but has no enabled option")
        if len(nd.options) > 1:
            self._check_hidden(state, nd)
        best = choose(nd.player, [k[0] for k in kids])
        return (kids[best][0], below, best)


def _argmax(seat: int, values: list) -> int:
    best = 0
    for i, v in enumerate(values):
        if v[seat] > values[best][seat]:
            best = i
    return best


def expectimax(machine: StepMachine, utility: str = "score", limit: int = DEFAULT_LIMIT, progress=None,
               first: int = 5) -> Result:
    """Each seat's value when every seat maximises its own utility and chance is averaged exactly."""
    seats = len(machine.roles)
    maximize = machine.prog.maximize
    sums = set()

    def leaf(nd):
        u = terminal_utility(nd, seats, utility, maximize)
        sums.add(sum(u))
        return u
    search = _Search(machine, leaf, limit, progress)
    (values, histories, _), s0 = search.run(_argmax)
    return Result(values, first_moves(machine, search.table, s0, first), len(search.table), histories,
                  search.hidden, next(iter(sums)) if len(sums) == 1 else None)


def win_probability(machine: StepMachine, seat: int, limit: int = DEFAULT_LIMIT, progress=None) -> tuple:
    """(probability that `seat` wins when it plays best and every other seat plays against it, the search).

    A win is being among the winners (a shared first place counts), as `query winnable` has it."""
    def leaf(nd):
        return (Fraction(1) if seat in nd.winners else Fraction(0),)

    def choose(player, values):
        pick = max if player == seat else min
        target = pick(v[0] for v in values)
        return next(i for i, v in enumerate(values) if v[0] == target)
    search = _Search(machine, leaf, limit, progress)
    (values, _, _), s0 = search.run(choose)
    return values[0], search, s0


def first_moves(machine: StepMachine, table: dict, s0, most: int) -> list:
    """The first decisions of the game (those reached through chance alone), each with every option's
    values and the best option; the likeliest `most` of them."""
    from ..moves import option_text
    found: dict = {}
    todo = [(s0, Fraction(1))]
    budget = 100_000   # chance nodes walked at most: a listing, not an analysis
    while todo and budget:
        budget -= 1
        s, p = todo.pop()
        nd = machine.node(s)
        if isinstance(nd, Chance):
            todo.extend((machine.next_state(s, k), p / nd.n) for k in range(nd.n))
        elif isinstance(nd, Decision):
            if len(nd.options) == 1:
                todo.append((machine.next_state(s, 0), p))
                continue
            key = machine.key(s)
            if key in found:
                found[key][1] += p
            else:
                found[key] = [s, p]
        if len(found) > 10_000:   # a listing, not an analysis: enough to pick the likeliest
            break
    out = []
    for key, (s, p) in sorted(found.items(), key=lambda kv: -kv[1][1])[:most]:
        nd = machine.node(s)
        opts = []
        for k, o in enumerate(nd.options):
            child = machine.key(machine.next_state(s, k))
            try:
                label = option_text(machine, s, o)
            except Exception:   # a label is for people
                label = o.label or f"option {k}"
            opts.append({"option": k, "move": label, "values": table[child][0]})
        best = table[key][2]
        out.append({"probability": p, "player": nd.player,
                    "sees": view_text(machine.prog.lay, machine.observation(s, nd.player)),
                    "options": opts, "best": best})
    return out
