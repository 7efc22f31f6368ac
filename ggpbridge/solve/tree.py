"""The game tree of a game, built once from the stepwise machine, for exact analysis.

Every history is followed: each chance outcome (with its exact probability) and each option.
A seat's *information set* at a decision is its observation history as the simulator shows
it to a player (`sim/views.view_text` of `StepMachine.observation`): what it saw at each of
its earlier decisions with a real choice, the option it took there, and what it sees now.
That is perfect recall of the seat's own decisions, and exactly what the policy player
(`policy:FILE`) can rebuild while playing, since the simulator asks a player only at its own
decisions with more than one option.

Subtrees that are the same game (the same information sets, options and payoffs all the way
down) are merged where chance splits: the order of the cards left in a shuffled stock that
nobody ever sees makes Leduc's 720 shuffles 120 deals. Chains of chance events (a shuffle is
one event per position) become one chance node over their distinct outcomes, and a decision
with one option is no decision. The probabilities are exact fractions until the numeric
arrays are made. Merging changes no value, regret or best response: the merged histories
have equal subtrees, and every quantity of CFR is linear in the chance probability.

With `teams`, seats are grouped into actors that decide as one (forced-win's coalition of a
seat's opponents): an actor of several seats *pools* what they see, its information set
being what all its members saw at its earlier real decisions, the options taken there, and
what all of them see now. Each such set also records its deciding member's own information
set (`InfoSet.member`), so that a coalition's strategy can be brought back to one its
members could play without sharing what they see.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..errors import GgpBridgeError
from ..sim.stepwise import Chance, Decision, Runaway, StepMachine, Terminal
from ..sim.views import view_text

TERMINAL, CHANCE, DECISION = 0, 1, 2
UTILITIES = ("score", "win")
DEFAULT_LIMIT = 2_000_000


class SolveError(GgpBridgeError):
    """The game cannot be analysed exactly (no finite tree, too large, or a dead end)."""


@dataclass
class InfoSet:
    """One information set: its seat, what the seat saw and did before, what it sees now, its options."""

    seat: int
    history: tuple          # ((view text, option index), ...) at the seat's earlier real decisions
    view: str
    options: tuple          # the simulator's Option values, in its order
    labels: tuple           # what each option does, for people (`moves.option_text`)
    offset: int = 0         # its first slot in the tree's action arrays
    member: tuple | None = None   # with pooled teams: the deciding seat's own key (seat, history, view)

    @property
    def key(self) -> tuple:
        """What identifies it: (seat, earlier (view, option index) pairs, current view)."""
        return (self.seat, self.history, self.view)


@dataclass
class GameTree:
    """The merged tree as flat arrays, nodes in breadth-first order (children contiguous)."""

    seats: int
    utility: str
    kind: np.ndarray            # TERMINAL / CHANCE / DECISION
    player: np.ndarray          # the seat deciding, -1 elsewhere
    parent: np.ndarray          # -1 at the root
    prob: np.ndarray            # chance probability of the edge into a node (1 below decisions)
    slot: np.ndarray            # the (information set, option) slot of the edge into a node, -1 below chance
    first_child: np.ndarray
    n_children: np.ndarray
    payoff: np.ndarray          # utility per seat at terminals (0 elsewhere)
    levels: list                # (lo, hi) node ranges per depth
    infosets: list
    slot_infoset: np.ndarray
    exact_chance: list = field(default_factory=list)   # Fraction of each node's incoming chance edge
    stats: dict = field(default_factory=dict)
    constant_sum: Fraction | None = None   # the utilities' sum when it is the same at every terminal

    @property
    def nslots(self) -> int:
        return len(self.slot_infoset)


def terminal_utility(nd: Terminal, seats: int, utility: str, maximize: bool) -> tuple:
    """Each seat's utility at a terminal: its score (negated when the game minimizes), or its win share."""
    if utility == "win":
        share = Fraction(1, len(nd.winners)) if nd.winners else Fraction(0)
        return tuple(share if s in nd.winners else Fraction(0) for s in range(seats))
    sign = 1 if maximize else -1
    return tuple(Fraction(sign * v) for v in nd.scores)


def build_tree(machine: StepMachine, utility: str = "score", limit: int = DEFAULT_LIMIT, progress=None,
               teams: tuple | None = None) -> GameTree:
    """Follow every history of the game and merge equal subtrees; SolveError if it has none finite.

    `teams` (one actor number per seat, actors numbered from 0) makes the tree's players the
    actors: the seats of one actor pool their observations, and an actor's utility is the sum
    of its seats'. Without it every seat is its own actor."""
    if utility not in UTILITIES:
        raise SolveError(f"unknown utility {utility!r} (one of: {', '.join(UTILITIES)})")
    seats = len(machine.roles)
    if teams is not None and (len(teams) != seats or sorted(set(teams)) != list(range(max(teams) + 1))):
        raise SolveError(f"teams {teams!r}: expected one actor number per seat ({seats}), numbered from 0")
    return _Builder(machine, utility, limit, progress, teams).run()


class _Builder:
    def __init__(self, machine, utility, limit, progress, teams=None):
        self.m, self.utility, self.limit, self.progress = machine, utility, limit, progress
        self.seats = len(machine.roles)
        # with pooled teams a history holds each seat's own record and then each actor's
        self.teams = tuple(teams) if teams is not None else tuple(range(self.seats))
        self.actors = max(self.teams) + 1
        self.members = [[s for s in range(self.seats) if self.teams[s] == a] for a in range(self.actors)]
        self.pooled = teams is not None
        self.member_options: dict = {}   # a seat's own key -> its options (pooled teams only)
        self.maximize = machine.prog.maximize
        self.sigs: dict = {}        # signature -> id
        self.sig_of: list = []      # id -> signature
        self.hist: dict = {}        # (parent history id, item) -> id; 0 is the empty history
        self.hist_of: list = [None]
        self.infosets: dict = {}    # key -> InfoSet
        self.raw = 0
        self.states: set = set()
        self.views: dict = {}

    # ---------------------------------------------------------------- interning
    def _sig(self, sig) -> int:
        i = self.sigs.get(sig)
        if i is None:
            i = self.sigs[sig] = len(self.sig_of)
            self.sig_of.append(sig)
        return i

    def _hist(self, parent: int, item) -> int:
        k = (parent, item)
        i = self.hist.get(k)
        if i is None:
            i = self.hist[k] = len(self.hist_of)
            self.hist_of.append(k)
        return i

    def _pairs(self, h: int) -> tuple:
        """The (view, option index) pairs of a history id (its items alternate view, option)."""
        items = []
        while h:
            h, item = self.hist_of[h]
            items.append(item)
        items.reverse()
        return tuple(zip(items[0::2], items[1::2]))

    # ---------------------------------------------------------------- the walk
    def _view(self, state, seat: int) -> str:
        obs = self.m.observation(state, seat)
        seen = (tuple(obs["locations"].items()), obs["ints"], obs["strs"], obs["current"])
        view = self.views.get(seen)
        if view is None:   # the same sight recurs across deals and histories: name it once
            view = self.views[seen] = view_text(self.m.prog.lay, obs)
        return view

    def _infoset(self, state, nd: Decision, hist: tuple) -> tuple:
        """The information set at a decision, and the history ids after the views: the seat's own
        and (pooled teams) its actor's."""
        p = nd.player
        view = self._view(state, p)
        own = (p, self._pairs(hist[p]), view)
        if not self.pooled:
            key, member, shown = own, None, view
        else:
            if self.member_options.setdefault(own, nd.options) != nd.options:
                raise _options_differ(p, view)
            a = self.teams[p]
            members = self.members[a]
            shown = view if len(members) == 1 else " || ".join(
                f"p{s} sees: {view if s == p else self._view(state, s)}" for s in members)
            key, member = (a, self._pairs(hist[self.seats + a]), shown), own
        info = self.infosets.get(key)
        if info is None:
            from ..moves import option_text
            labels = tuple(_label(self.m, state, o, option_text) for o in nd.options)
            info = self.infosets[key] = InfoSet(key[0], key[1], shown, nd.options, labels, member=member)
        elif info.options != nd.options:
            raise _options_differ(p, shown)
        vh = self._hist(hist[p], view)
        return info, (vh, self._hist(hist[self.seats + self.teams[p]], shown) if self.pooled else None)

    def run(self) -> GameTree:
        m = self.m
        s0 = m.initial_state()
        hist0 = (0,) * (self.seats + (self.actors if self.pooled else 0))
        # frame: [state, node, histories (per seat, then per pooled actor), next move, child signatures,
        #         infoset, view-history ids (the seat's, its actor's), key]
        stack = [self._frame(s0, m.node(s0), hist0)]
        on_path = {stack[0][7]}
        root = None
        while stack:
            f = stack[-1]
            state, nd = f[0], f[1]
            n = nd.n if isinstance(nd, Chance) else len(nd.options) if isinstance(nd, Decision) else 0
            if f[3] < n:
                k = f[3]
                f[3] += 1
                nxt, nnd = m.step(state, k)
                hist = f[2]
                if f[5] is not None:   # a real decision: the seat (and its actor) remembers the option it took
                    hist = _put(hist, nd.player, self._hist(f[6][0], k))
                    if self.pooled:
                        hist = _put(hist, self.seats + self.teams[nd.player], self._hist(f[6][1], k))
                child = self._frame(nxt, nnd, hist)
                if child[7] in on_path:
                    raise SolveError("the game can return to a state it was in (a cycle): it has no finite "
                                     "game tree to analyse exactly")
                on_path.add(child[7])
                stack.append(child)
                continue
            stack.pop()
            on_path.discard(f[7])
            sig = self._close(f)
            if stack:
                stack[-1][4].append(sig)
            else:
                root = sig
        return self._expand(root)

    def _frame(self, state, nd, hist) -> list:
        self.raw += 1
        if self.raw > self.limit:
            raise SolveError(f"the game tree has more than {self.limit} histories (--limit-nodes)")
        if self.progress is not None and self.raw % 4096 == 0:
            self.progress(self.raw)
        key = StepMachine.key(state)
        self.states.add(key)
        if isinstance(nd, Runaway):
            raise SolveError(f"a play runs on without any decision or chance event: {nd.message}")
        info = vh = None
        if isinstance(nd, Decision):
            if not nd.options:
                raise SolveError(f"player {nd.player} must choose but has no enabled option")
            if len(nd.options) > 1:
                info, vh = self._infoset(state, nd, hist)
        return [state, nd, hist, 0, [], info, vh, key]

    def _close(self, f) -> int:
        """The signature id of a finished frame (its children's ids are in f[4])."""
        nd, kids = f[1], f[4]
        if isinstance(nd, Terminal):
            return self._sig(("T", terminal_utility(nd, self.seats, self.utility, self.maximize)))
        if isinstance(nd, Decision):
            if f[5] is None:   # one option: no decision at all
                return kids[0]
            return self._sig(("D", f[5].key, tuple(kids)))
        dist: dict = {}
        p = Fraction(1, nd.n)
        for k in kids:
            sig = self.sig_of[k]
            if sig[0] == "C":   # a chain of chance events is one event over its outcomes
                for g, q in sig[1]:
                    dist[g] = dist.get(g, 0) + p * q
            else:
                dist[k] = dist.get(k, 0) + p
        if len(dist) == 1:
            return next(iter(dist))
        return self._sig(("C", tuple(sorted(dist.items()))))

    # ---------------------------------------------------------------- arrays
    def _expand(self, root: int) -> GameTree:
        infos = list(self.infosets.values())
        infos.sort(key=lambda i: (i.seat, len(i.history), i.history, i.view))
        index = {}
        slot_infoset = []
        for j, info in enumerate(infos):
            info.offset = len(slot_infoset)
            index[info.key] = j
            slot_infoset.extend([j] * len(info.options))
        kind, player, parent, prob, slot, first, nch, pay = [], [], [], [], [], [], [], []
        exact = []
        levels = []
        frontier = [(root, -1, Fraction(1), -1)]
        while frontier:
            lo = len(kind)
            levels.append((lo, lo + len(frontier)))
            nxt = []
            for sig_id, par, p, sl in frontier:
                i = len(kind)
                sig = self.sig_of[sig_id]
                parent.append(par)
                prob.append(float(p))
                exact.append(p)
                slot.append(sl)
                first.append(0)
                if sig[0] == "T":
                    kind.append(TERMINAL), player.append(-1), nch.append(0), pay.append(sig[1])
                    continue
                pay.append(None)
                first[i] = lo + len(frontier) + len(nxt)
                if sig[0] == "C":
                    kind.append(CHANCE), player.append(-1), nch.append(len(sig[1]))
                    nxt.extend((g, i, q, -1) for g, q in sig[1])
                else:
                    info = infos[index[sig[1]]]
                    kind.append(DECISION), player.append(info.seat), nch.append(len(sig[2]))
                    nxt.extend((g, i, Fraction(1), info.offset + a) for a, g in enumerate(sig[2]))
            frontier = nxt
        n = len(kind)
        payoff = np.zeros((n, self.actors))
        sums = set()
        for i, u in enumerate(pay):
            if u is not None:
                for s, x in enumerate(u):
                    payoff[i, self.teams[s]] += float(x)
                sums.add(sum(u))
        tree = GameTree(self.actors, self.utility, np.array(kind, np.int8), np.array(player, np.int32),
                        np.array(parent, np.int64), np.array(prob), np.array(slot, np.int64),
                        np.array(first, np.int64), np.array(nch, np.int64), payoff, levels, infos,
                        np.array(slot_infoset, np.int64), exact)
        tree.constant_sum = next(iter(sums)) if len(sums) == 1 else None
        tree.stats = {"histories": self.raw, "states": len(self.states), "nodes": n,
                      "terminal_nodes": int((tree.kind == TERMINAL).sum()),
                      "chance_nodes": int((tree.kind == CHANCE).sum()),
                      "decision_nodes": int((tree.kind == DECISION).sum()),
                      "information_sets": [sum(1 for i in infos if i.seat == s) for s in range(self.actors)],
                      "depth": len(levels) - 1}
        return tree


def _options_differ(player: int, view: str) -> SolveError:
    return SolveError(f"player {player} is offered different options in situations it cannot tell "
                      f"apart ({view}): the options give away hidden information")


def _put(t: tuple, i: int, x) -> tuple:
    return t[:i] + (x,) + t[i + 1:]


def _label(machine, state, opt, option_text) -> str:
    try:
        return option_text(machine, state, opt)
    except Exception:   # a label is for people; the option itself is what counts
        return opt.label or f"option form {opt.form}" + (f" any {'.'.join(map(str, opt.path))}" if opt.path else "")
