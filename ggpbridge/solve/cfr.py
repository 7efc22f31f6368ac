"""CFR+ on a `GameTree`, with values and exploitability by best response.

CFR+ (Tammelin 2014; Tammelin, Burch, Johanson and Bowling, IJCAI 2015): regret matching+
(cumulative regrets floored at 0), alternating updates (seat by seat, each seeing the others'
latest strategy) and the average strategy weighted by the iteration number. Every pass is
vectorised over a depth of the tree (numpy): reaches go down level by level, values come up
with `np.add.reduceat` over each parent's contiguous children, and regrets and strategy sums
gather into the (information set, option) slots with `np.bincount`.

Exploitability is OpenSpiel's: NashConv / number of seats, where NashConv adds up what each
seat gains by a best response against the others' average strategies. For two seats and a
constant-sum utility it is the distance from equilibrium, and it goes to 0; with more seats
or another utility CFR+ still runs but no equilibrium is promised, and the figure says how
far from one it is.
"""
from __future__ import annotations

import numpy as np

from .tree import CHANCE, GameTree


class CFRPlus:
    """The solver's state: cumulative regrets and strategy sums per slot, and the iteration count."""

    def __init__(self, tree: GameTree):
        self.t = tree
        self.iterations = 0
        self.regret = np.zeros(tree.nslots)
        self.strategy_sum = np.zeros(tree.nslots)
        sizes = np.array([len(i.options) for i in tree.infosets], np.int64)
        self.offsets = np.array([i.offset for i in tree.infosets], np.int64)
        self.sizes = sizes
        # the edges out of each seat's decisions (child index, parent index, slot)
        child = np.nonzero(tree.slot >= 0)[0]
        owner = tree.player[tree.parent[child]]
        self.edges = []
        for s in range(tree.seats):
            c = child[owner == s]
            self.edges.append((c, tree.parent[c], tree.slot[c]))
        # per level: the parents there that have children, and where their children start
        self.ups = []
        for d, (lo, hi) in enumerate(tree.levels[:-1]):
            inner = np.arange(lo, hi)[tree.n_children[lo:hi] > 0]
            clo, chi = tree.levels[d + 1]
            self.ups.append((inner, clo, chi, tree.first_child[inner] - clo))
        edge_owner = np.full(len(tree.kind), -1, np.int64)
        edge_owner[1:] = np.where(tree.kind[tree.parent[1:]] == CHANCE, tree.seats, tree.player[tree.parent[1:]])
        self.edge_owner = edge_owner
        self.info_level = np.array([len(i.history) for i in tree.infosets], np.int64)

    # ------------------------------------------------------------ strategies
    def current(self) -> np.ndarray:
        """The current strategy per slot: regret matching on the (non-negative) cumulative regrets."""
        return self._normalise(np.maximum(self.regret, 0))

    def average(self) -> np.ndarray:
        """The average strategy per slot (uniform where a set was never reached)."""
        return self._normalise(self.strategy_sum)

    def _normalise(self, x: np.ndarray) -> np.ndarray:
        if not len(x):
            return x
        tot = np.add.reduceat(x, self.offsets)
        per = np.repeat(tot, self.sizes)
        uniform = 1.0 / np.repeat(self.sizes, self.sizes)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(per > 0, x / np.where(per > 0, per, 1), uniform)

    # ------------------------------------------------------------ passes
    def _edge_weights(self, policy: np.ndarray) -> np.ndarray:
        t = self.t
        w = t.prob.copy()
        below = t.slot >= 0
        w[below] = policy[t.slot[below]]
        return w

    def reaches(self, policy: np.ndarray) -> np.ndarray:
        """Per node and per seat (and chance, the last column): that actor's part of the reach probability."""
        t = self.t
        w = self._edge_weights(policy)
        r = np.ones((len(t.kind), t.seats + 1))
        for lo, hi in t.levels[1:]:
            r[lo:hi] = r[t.parent[lo:hi]]
            own = self.edge_owner[lo:hi]
            r[np.arange(lo, hi), own] *= w[lo:hi]
        return r

    def values(self, policy: np.ndarray) -> np.ndarray:
        """Expected utility per node and seat when every seat plays `policy`."""
        t = self.t
        w = self._edge_weights(policy)
        u = t.payoff.copy()
        for inner, clo, chi, starts in reversed(self.ups):
            wu = u[clo:chi] * w[clo:chi, None]
            u[inner] = np.add.reduceat(wu, starts, axis=0)
        return u

    # ------------------------------------------------------------ CFR+
    def iterate(self, n: int = 1) -> None:
        """Run `n` iterations of CFR+ (alternating updates, linear averaging)."""
        t = self.t
        for _ in range(n):
            self.iterations += 1
            for s in range(t.seats):
                c, p, sl = self.edges[s]
                if not len(c):
                    continue
                sigma = self.current()
                r = self.reaches(sigma)
                u = self.values(sigma)
                others = np.prod(np.delete(r, s, axis=1), axis=1)
                gain = others[p] * (u[c, s] - u[p, s])
                self.regret += np.bincount(sl, gain, minlength=t.nslots)
                np.maximum(self.regret, 0, out=self.regret)
                self.strategy_sum += self.iterations * np.bincount(sl, r[p, s] * sigma[sl], minlength=t.nslots)

    # ------------------------------------------------------------ evaluation
    def best_response_value(self, policy: np.ndarray, seat: int) -> float:
        """What `seat` gets by a best response when the others play `policy`."""
        return self.best_response(policy, seat)[0]

    def best_response(self, policy: np.ndarray, seat: int) -> tuple:
        """(value, the policy with `seat`'s slots replaced by a pure best response).

        A seat's information sets are settled deepest first (by how many earlier decisions of
        its own they remember): an option's value there needs only the deeper choices, fixed
        already. Each depth costs one upward pass."""
        t = self.t
        c, p, sl = self.edges[seat]
        br = policy.copy()
        if len(c):
            others = np.prod(np.delete(self.reaches(policy), seat, axis=1), axis=1)
            seat_of_slot = np.array([t.infosets[j].seat for j in t.slot_infoset], np.int64)
            level_of_slot = self.info_level[t.slot_infoset]
            for level in range(int(self.info_level.max()), -1, -1):
                pick = (seat_of_slot[sl] == seat) & (level_of_slot[sl] == level)
                if not pick.any():
                    continue
                u = self.values(br)
                q = np.bincount(sl[pick], others[p[pick]] * u[c[pick], seat], minlength=t.nslots)
                sets = np.unique(t.slot_infoset[sl[pick]])
                for j in sets:
                    lo, k = self.offsets[j], self.sizes[j]
                    br[lo:lo + k] = 0
                    br[lo + int(np.argmax(q[lo:lo + k]))] = 1
        return float(self.values(br)[0, seat]), br

    def evaluate(self, policy: np.ndarray | None = None) -> dict:
        """The value per seat of `policy` (default: the average strategy), what each seat's best
        response to it gets, NashConv and exploitability."""
        pol = self.average() if policy is None else policy
        value = self.values(pol)[0]
        best = [self.best_response_value(pol, s) for s in range(self.t.seats)]
        gains = [b - value[s] for s, b in enumerate(best)]
        nash_conv = float(sum(gains))
        return {"value": [float(v) for v in value], "best_response_value": best,
                "best_response_gain": [float(g) for g in gains],
                "nash_conv": nash_conv, "exploitability": nash_conv / self.t.seats}

