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

from dataclasses import replace

import numpy as np

from ..errors import interrupted_by
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


def duel(tree: GameTree, actor: int) -> GameTree:
    """The two-actor zero-sum game of `actor` winning (1) or not (0) on a tree of two actors."""
    if tree.seats != 2:
        raise ValueError("a duel needs a tree of two actors (build it with teams)")
    return _win_game(tree, actor, 1)


def _win_game(tree: GameTree, seat: int, constant_sum) -> GameTree:
    """`tree` paying `seat` 1 where it wins and every other actor 1 where it does not (0 elsewhere)."""
    w = wins_indicator(tree, seat)
    terminal = tree.kind == TERMINAL
    payoff = np.zeros_like(tree.payoff)
    payoff[terminal] = (1 - w[terminal])[:, None]
    payoff[terminal, seat] = w[terminal]
    return replace(tree, payoff=payoff, constant_sum=constant_sum)


def win_bounds(tree: GameTree, actor: int, target: float = 0.001, most: int = 20_000, stop=None) -> dict:
    """Bounds on the probability with which `actor` can make sure of winning, from CFR+ on the duel.

    `tree` has two actors: `actor` (one seat) and the coalition of the others (several seats
    pooling what they see, or one seat). With ROLE's average strategy s and the coalition's t:

    - lower: what s wins against the coalition's best reply to it. s guarantees it against any
      coalition strategy, so also against opponents who do not share what they see (each of
      their strategy profiles is one the coalition can play).
    - upper: what ROLE's best reply wins against t brought back to the members' own information
      sets (at each set of a member, t's options averaged over the coalition's sets within it,
      weighted by how often chance and the coalition reach them). That is a profile the opponents
      can play without sharing anything, and no strategy of ROLE wins more against it.

    With one opponent the two are the equilibrium's bracket, its width the NashConv. CFR+ runs
    until the duel's exploitability is at most `target`, `most` iterations, or `stop()` is true;
    Ctrl-C stops it too. Either way the bounds hold (they are the values of actual strategies), only wider.
    `strategy` is the average strategy per slot of the tree (ROLE's part is what achieves `lower`)."""
    game = duel(tree, actor)
    other = 1 - actor
    s = CFRPlus(game)
    ev = s.evaluate()
    interrupted = ""   # what stopped CFR+ early (errors.interrupted_by), "" when nothing did
    try:
        while ev["exploitability"] > target and s.iterations < most and not (stop and stop()):
            s.iterate(10)
            ev = s.evaluate()
    except KeyboardInterrupt as stop:   # the bounds of the strategies reached still hold: keep them
        interrupted = interrupted_by(stop)
        ev = s.evaluate()
    avg = s.average()   # the policy `ev` evaluated: its best responses are computed already
    lower = 1.0 - ev["best_response_value"][other]
    coalition_upper = ev["best_response_value"][actor]
    upper = s.best_response_value(project_to_members(s, avg, other), actor)
    return {"lower": lower, "upper": upper, "coalition_upper": coalition_upper, "exploitability": ev["exploitability"],
            "iterations": s.iterations, "converged": ev["exploitability"] <= target,
            "interrupted": interrupted, "strategy": avg}


def project_to_members(s: CFRPlus, policy: np.ndarray, actor: int) -> np.ndarray:
    """`policy` with the actor's slots replaced by a strategy each member can play on its own.

    At a member's own information set, the coalition's option probabilities are averaged over
    the coalition's sets that fall in it, each weighted by its reach through chance and the
    coalition's own choices (leaving out the other side's, which the coalition does not choose;
    a plain average where that weight is 0). Any such average is a strategy of the member alone,
    so the upper bound holds whatever the weights; these make it tight when pooling gains nothing."""
    t = s.t
    out = policy.copy()
    mine = [j for j, i in enumerate(t.infosets) if i.seat == actor]
    if not mine:
        return out
    r = s.reaches(policy)
    keep = [c for c in range(t.seats + 1) if c != 1 - actor]
    weight = np.prod(r[:, keep], axis=1)
    decisions = np.nonzero(t.kind == DECISION)[0]
    decisions = decisions[t.n_children[decisions] > 0]
    at = t.slot_infoset[t.slot[t.first_child[decisions]]]
    per_set = np.bincount(at, weight[decisions], minlength=len(t.infosets))
    groups: dict = {}
    for j in mine:
        info = t.infosets[j]
        groups.setdefault(info.member if info.member is not None else info.key, []).append(j)
    for js in groups.values():
        k = len(t.infosets[js[0]].options)
        rows = np.array([policy[t.infosets[j].offset:t.infosets[j].offset + k] for j in js])
        w = per_set[js]
        mix = (w @ rows) / w.sum() if w.sum() > 0 else rows.mean(axis=0)
        for j in js:
            out[t.infosets[j].offset:t.infosets[j].offset + k] = mix
    return out


def independent_upper(tree: GameTree, seat: int, target: float = 0.001, most: int = 1_000, stop=None) -> dict:
    """A second upper bound for more than two seats: CFR+ with every other seat on its own, each
    paid 1 when `seat` does not win, on `tree` (every seat its own actor, the `win` utility).

    Whatever profile the others reach, it is one they can play without sharing what they see,
    so `seat`'s best reply to it bounds what `seat` can make sure of; the least such value over
    the checkpoints (every 10 iterations) is kept. CFR+ promises no equilibrium here (the others
    are a team), only these bounds; it stops at exploitability `target`, `most` iterations,
    `stop()` or Ctrl-C."""
    s = CFRPlus(_win_game(tree, seat, None))
    best = s.best_response_value(s.average(), seat)
    interrupted = ""   # what stopped CFR+ early (errors.interrupted_by), "" when nothing did
    try:
        while s.iterations < most and not (stop and stop()):
            s.iterate(10)
            ev = s.evaluate()
            best = min(best, ev["value"][seat] + ev["best_response_gain"][seat])
            if ev["exploitability"] <= target:
                break
    except KeyboardInterrupt as stop:   # the checkpoints reached are bounds already
        interrupted = interrupted_by(stop)
    return {"upper": best, "iterations": s.iterations, "interrupted": interrupted}
