"""UCT with availability counts (MCTS, SO-ISMCTS): the tree, and its driver on any GameMachine.

One tree per decision, grown from the state the seat stands in: UCB1 selection, one expansion
per iteration, a random playout, rewards backed up per seat (each node is valued for the seat
that moved into it). The tree is open loop: a node is the sequence of options taken from the
root, and chance is sampled afresh in every iteration, so a node's options may differ between
iterations; as in Cowling, Powley and Whitehouse (2012) a child's exploration term counts the
iterations in which it was available rather than its parent's visits. A move is its index among
the options offered. Forced moves (one option) are played through and are not nodes. The seat
takes the root option visited most.

`Tree` is the engine-neutral core; `MCTS` and `ISMCTS` drive it on a GameMachine (ISMCTS starts
every iteration from `machine.determinize(state, role, rng)`; MCTS from the true state, so it
sees every card: an upper bound on skill). The simulator drives the same core from its
generated engine (`sim/mcts.py`).
"""
from __future__ import annotations

import math
import random

from ..machine import GameMachine
from .pipmc import ROLLOUT_STEPS, determinizer

DEFAULT_ITERATIONS = 200
EXPLORATION = 0.7   # UCB1's constant for rewards in [0, 1]
CHANCE_ROLE = "random"


class Node:
    """A tree node: the seat that moved into it, its children by option index, its statistics."""

    __slots__ = ("mover", "children", "visits", "avail", "total")

    def __init__(self, mover: int, n: int):
        self.mover = mover
        self.children: dict = {}
        self.visits = 0
        self.avail = 0
        self.total = [0.0] * n


class Tree:
    """The UCT core for `n` seats: selection and expansion (`step`), backup, the final choice."""

    def __init__(self, rng: random.Random, n: int):
        self.rng, self.n = rng, n

    def step(self, node: Node, path: list, mover: int, k: int):
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
            child = kids[i] = Node(mover, self.n)
            child.avail = 1
            path.append(child)
            return i, None
        i = max(range(k), key=lambda j: ucb(kids[j]))
        path.append(kids[i])
        return i, kids[i]

    @staticmethod
    def backup(path: list, rewards) -> None:
        """Add one iteration's rewards (per seat) to every node on its path."""
        for nd in path:
            nd.visits += 1
            t = nd.total
            for p, r in enumerate(rewards):
                t[p] += r

    @staticmethod
    def most_visited(root: Node, k: int) -> int:
        """The root option visited most (ties: the first)."""
        visits = [root.children[i].visits if i in root.children else -1 for i in range(k)]
        return visits.index(max(visits))


def ucb(nd: Node) -> float:
    """UCB1 of a child for the seat that moved into it, exploration over its availability."""
    return nd.total[nd.mover] / nd.visits + EXPLORATION * math.sqrt(math.log(nd.avail) / nd.visits)


class MCTS:
    """UCT as a machine Policy on the true state (sees every card)."""

    label = "mcts (sees all cards)"

    def __init__(self, rng: random.Random, iterations: int = DEFAULT_ITERATIONS):
        self.rng, self.iterations = rng, iterations
        self.spent = 0   # iterations run so far (a forced move adds none)

    def start(self, machine: GameMachine, state, role):
        """The state an iteration starts from."""
        return state

    def __call__(self, machine: GameMachine, state, role, moves: tuple, _rng=None):
        if len(moves) == 1:
            return moves[0]
        roles = machine.roles()
        tree = Tree(self.rng, len(roles))
        root = Node(roles.index(role), len(roles))
        for _ in range(self.iterations):
            path = [root]
            Tree.backup(path, self._iterate(machine, self.start(machine, state, role), roles, tree, root, path))
        self.spent += self.iterations
        return moves[Tree.most_visited(root, len(moves))]

    def _iterate(self, machine, state, roles, tree: Tree, node, path) -> list:
        rng, root = self.rng, node
        for _ in range(ROLLOUT_STEPS):
            if machine.is_terminal(state):
                goals = machine.goals(state)
                return [goals.get(r, 0) / 100 for r in roles]
            joint, legals = {}, [machine.legal_moves(state, r) for r in roles]
            # one role a step goes down the tree: at the root the role choosing (its children are
            # that role's options), below it the first with a choice; another role choosing at
            # the same time (a simultaneous move) is sampled, as chance is
            if node is root:
                tree_role = node.mover
            else:
                tree_role = next((i for i, r in enumerate(roles)
                                  if len(legals[i]) > 1 and str(r) != CHANCE_ROLE), None)
            for i, (r, legal) in enumerate(zip(roles, legals)):
                if len(legal) == 1:
                    joint[r] = legal[0]
                elif node is None or i != tree_role:   # out of the tree, chance, or not the tree's role
                    joint[r] = rng.choice(legal)
                else:
                    k, node = tree.step(node, path, i, len(legal))
                    joint[r] = legal[k]
            state = machine.next_state(state, joint)
        return [0.0] * len(roles)


class ISMCTS(MCTS):
    """Single-observer ISMCTS as a machine Policy: every iteration starts from a determinization."""

    label = "ismcts"

    def start(self, machine: GameMachine, state, role):
        return determinizer(machine)(state, role, self.rng)
