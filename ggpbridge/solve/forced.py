"""Can a seat force a win? Exactly, by AND-OR over the game tree; the winning probability by CFR+.

A *guaranteed* win is one against every choice of the other seats and every chance outcome
(of positive probability): winning with probability 1 against everything. A mixed strategy
that does so is a mixture of pure ones that all do, so a pure strategy is enough: one option
per information set of the seat. Perfect recall makes the choices independent across the
sets after different options, so they are settled deepest first: at a set, an option is
winning when every history of the set wins after it (the deeper choices already made), and
the set wins when some option does. A win is being among the winners (a shared first place
counts), as `query winnable` has it.
"""
from __future__ import annotations

import numpy as np

from .cfr import CFRPlus
from .tree import DECISION, TERMINAL, GameTree


def wins_indicator(tree: GameTree, seat: int) -> np.ndarray:
    """1 at the terminals where `seat` is among the winners (its win share is positive), else 0."""
    return ((tree.kind == TERMINAL) & (tree.payoff[:, seat] > 0)).astype(float)


def guaranteed_win(tree: GameTree, seat: int) -> tuple[bool, dict]:
    """(whether `seat` can force a win, its winning option per information set where it has one).

    `tree` must be built with the `win` utility."""
    win = wins_indicator(tree, seat)
    levels = [len(i.history) for i in tree.infosets]
    choice = np.zeros(len(tree.infosets), np.int64)
    mine = [j for j, i in enumerate(tree.infosets) if i.seat == seat]
    ok: dict = {}
    for level in sorted({levels[j] for j in mine}, reverse=True):
        v = _values(tree, seat, win, choice)
        for j in (j for j in mine if levels[j] == level):
            info = tree.infosets[j]
            nodes = np.nonzero(tree.slot == info.offset)[0]          # the children after option 0 ...
            parents = tree.parent[nodes]
            for a in range(len(info.options)):
                kids = tree.first_child[parents] + a
                if v[kids].min() > 0:
                    choice[j] = a
                    ok[j] = a
                    break
    v = _values(tree, seat, win, choice)
    return bool(v[0] > 0), ok


def _values(tree: GameTree, seat: int, win: np.ndarray, choice: np.ndarray) -> np.ndarray:
    """1 where the seat wins whatever the others and chance do, following `choice` at its own sets."""
    v = win.copy()
    for d in range(len(tree.levels) - 2, -1, -1):
        lo, hi = tree.levels[d]
        for i in range(lo, hi):
            n = tree.n_children[i]
            if not n:
                continue
            f = tree.first_child[i]
            if tree.kind[i] == DECISION and tree.player[i] == seat:
                j = tree.slot_infoset[tree.slot[f]]
                v[i] = v[f + choice[j]]
            else:   # chance and the other seats: every outcome must be a win
                v[i] = v[f:f + n].min()
    return v


def win_probability_cfr(tree: GameTree, seat: int, target: float = 0.001, most: int = 20_000) -> dict:
    """The seat's probability of winning under best play against the others, two seats only: CFR+ on the
    zero-sum game of winning (1) or not (0); approximate, within the exploitability reached."""
    duel = GameTree(**{**tree.__dict__})
    w = wins_indicator(tree, seat)
    duel.payoff = np.zeros_like(tree.payoff)
    terminal = tree.kind == TERMINAL
    duel.payoff[terminal, seat] = w[terminal]
    duel.payoff[terminal, 1 - seat] = 1 - w[terminal]
    s = CFRPlus(duel)
    ev = s.evaluate()
    while ev["exploitability"] > target and s.iterations < most:
        s.iterate(10)
        ev = s.evaluate()
    return {"probability": ev["value"][seat], "exploitability": ev["exploitability"], "iterations": s.iterations}

