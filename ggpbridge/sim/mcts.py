"""Tree search players on the simulator: UCT on the full game (`mcts`) and SO-ISMCTS (`ismcts`).

The tree (UCB1 with availability counts, open loop, one expansion per iteration, win shares
backed up per seat, the root option visited most) is written once in `ggpbridge.search.tree`,
which also drives it on any GameMachine. Here the simulator drives it: a random playout
(`rollout.Sandbox`) and, where the game compiles to it, the whole iteration inside the
generated engine (the fast path: about 20 times less CPU than stepping `SimMachine`,
`benchmarks/search_paths.py`).

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

import random

from ..errors import GameDefinitionError
from ..search.tree import DEFAULT_ITERATIONS, Node, Tree
from .determinize import deal_hidden
from .machine import RunawayError
from .rollout import Sandbox


class _TreeSearch:
    """UCT with availability counts; subclasses say where each iteration starts."""

    label = ""

    def __init__(self, rng: random.Random, iterations: int = DEFAULT_ITERATIONS):
        self.rng = rng
        self.iterations = iterations
        self.sandbox = None
        self.tree: Tree | None = None
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
        self.tree = Tree(self.rng, self.sandbox.n)
        root = Node(view.player, self.sandbox.n)
        for _ in range(self.iterations):
            self._iterate(live, self.cards(view), root)
        self.spent += self.iterations
        return Tree.most_visited(root, len(options))

    def _iterate(self, src, cards, root: Node) -> None:
        path = [root]
        site = self.sandbox._fast(src)
        if site is not None:
            rewards = self._iterate_fast(src, cards, root, path, site)
        else:
            rewards = self._iterate_closure(src, cards, root, path)
        Tree.backup(path, rewards)

    def _iterate_fast(self, src, cards, root, path, site) -> list:
        box, draw = self.sandbox, self.rng._randbelow
        at = [root]   # the current node; None once the iteration has left the tree

        def choose(p, k):
            if at[0] is None:
                return draw(k)
            i, at[0] = self.tree.step(at[0], path, p, k)
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
                i, node = self.tree.step(node, path, live.current_player(), len(opts))
                live.choose(ch, opts[i])
                if node is None:
                    return box.playout(self.rng)
        except (RunawayError, GameDefinitionError, RecursionError):
            return [0.0] * box.n


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
