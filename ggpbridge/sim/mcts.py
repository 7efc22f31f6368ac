"""Tree search players: UCT on the full game (`mcts`) and single-observer ISMCTS (`ismcts`).

Both grow one tree per decision from the state the seat stands in, with UCB1 selection,
one expansion per iteration, a random playout (`rollout.Sandbox`) and win shares backed
up per seat (each node is valued for the seat that moved into it). The tree is open loop:
a node is the sequence of options taken from the root, and chance is sampled afresh in
every iteration, so a node's options may differ between iterations; as in Cowling,
Powley and Whitehouse (2012) a child's exploration term counts the iterations in which it
was available rather than its parent's visits. A move is its index among the options
offered. Forced moves (one option) are played through and are not nodes. The seat takes
the root option visited most.

An iteration runs whole on the generated engine started at the root's choice
(`codegen_resume`), the tree walked from its choice callback, when the game compiles to
it; else on the closure engine. Both draw the same numbers and grow the same tree.

`MCTSPlayer` searches the true state: it sees every card, so it cheats and is an upper
bound on skill. `ISMCTSPlayer` (SO-ISMCTS) starts every iteration from a new
determinization of the seat's observation (`determinize.deal_hidden`), so the root's
statistics are over the seat's information set. Other seats' moves are told apart by
their index, which in another determinization may name another hidden card: they stand
for "that seat's k-th option", as SO-ISMCTS treats opponents' moves as if the searcher
saw them.
"""
from __future__ import annotations

import math
import random

from ..errors import GameDefinitionError
from .determinize import deal_hidden
from .machine import RunawayError
from .rollout import Sandbox

DEFAULT_ITERATIONS = 200
EXPLORATION = 0.7   # UCB1's constant for rewards in [0, 1]


class _Node:
    __slots__ = ("mover", "children", "visits", "avail", "total")

    def __init__(self, mover: int, n: int):
        self.mover = mover
        self.children: dict = {}
        self.visits = 0
        self.avail = 0
        self.total = [0.0] * n


class _TreeSearch:
    """UCT with availability counts; subclasses say where each iteration starts."""

    label = ""

    def __init__(self, rng: random.Random, iterations: int = DEFAULT_ITERATIONS):
        self.rng = rng
        self.iterations = iterations
        self.sandbox = None
        self.spent = 0   # iterations run so far (a forced move adds none)

    def cards(self, view):
        """The card lists an iteration starts from (None: the true ones)."""
        raise NotImplementedError

    def choose(self, view, options: list) -> int:
        """The root option visited most after the iterations."""
        if len(options) == 1:
            return 0
        live = view.live
        if self.sandbox is None or self.sandbox.prog is not live.prog:
            self.sandbox = Sandbox(live.prog, self.rng)
        root = _Node(view.player, self.sandbox.n)
        for _ in range(self.iterations):
            self._iterate(live, self.cards(view), root)
        self.spent += self.iterations
        visits = [root.children[i].visits if i in root.children else -1 for i in range(len(options))]
        return visits.index(max(visits))

    def _step(self, node: _Node, path: list, mover: int, k: int):
        """At `node`, where `mover` has k > 1 options: (index taken, next node or None once expanded)."""
        kids, rng = node.children, self.rng
        untried = []
        for i in range(k):
            if i in kids:
                kids[i].avail += 1
            else:
                untried.append(i)
        if untried:
            i = untried[rng.randrange(len(untried))]
            child = kids[i] = _Node(mover, self.sandbox.n)
            child.avail = 1
            path.append(child)
            return i, None
        i = max(range(k), key=lambda j: _ucb(kids[j]))
        path.append(kids[i])
        return i, kids[i]

    def _iterate(self, src, cards, root: _Node) -> None:
        path = [root]
        site = self.sandbox._fast(src)
        if site is not None:
            rewards = self._iterate_fast(src, cards, root, path, site)
        else:
            rewards = self._iterate_closure(src, cards, root, path)
        for nd in path:
            nd.visits += 1
            t = nd.total
            for p, r in enumerate(rewards):
                t[p] += r

    def _iterate_fast(self, src, cards, root, path, site) -> list:
        box, draw = self.sandbox, self.rng._randbelow
        at = [root]   # the current node; None once the iteration has left the tree

        def choose(p, k):
            if at[0] is None:
                return draw(k)
            i, at[0] = self._step(at[0], path, p, k)
            return i
        r = box.resumer
        box.live.c.rng = self.rng
        return box._shares(*r.run(self.rng, site, r.args(src.c, cards), choose))

    def _iterate_closure(self, src, cards, root, path) -> list:
        box = self.sandbox
        live = box.load(src, cards)
        live.c.rng = self.rng
        node = root
        try:
            while True:
                ch = live.advance()
                if ch is None:
                    return box.rewards()
                opts = live.options(ch)
                if not opts:
                    raise GameDefinitionError("no enabled option")
                if len(opts) == 1:
                    live.choose(ch, opts[0])
                    continue
                i, node = self._step(node, path, live.current_player(), len(opts))
                live.choose(ch, opts[i])
                if node is None:
                    return box.playout(self.rng)
        except (RunawayError, GameDefinitionError, RecursionError):
            return [0.0] * box.n


def _ucb(nd: _Node) -> float:
    return nd.total[nd.mover] / nd.visits + EXPLORATION * math.sqrt(math.log(nd.avail) / nd.visits)


class MCTSPlayer(_TreeSearch):
    """UCT on the perfect-information game: reads every card (cheats)."""

    label = "mcts (sees all cards)"

    def cards(self, view):
        return None


class ISMCTSPlayer(_TreeSearch):
    """Single-observer ISMCTS: every iteration starts from a determinization of the seat's observation."""

    label = "ismcts"

    def cards(self, view):
        return deal_hidden(view.live.c, view.player, self.rng)
