"""The mutable data of a running game, laid out for speed.

Cards are integer ids. Every (visibility, name) of a location, and every storage name,
gets a slot; a slot holds one entry per owner: index 0 is the table (`game`), 1..n the
players, n+1.. the teams. Lists of cards have their top at the end, as CardStock's
`CardCollection` does. `freeze()` gives a hashable snapshot, `thaw()` restores one.
"""
from __future__ import annotations

import random as _random

from ..errors import GameDefinitionError


class Suspend(Exception):
    """Raised in stepwise mode when a chance event has no outcome supplied yet."""

    def __init__(self, kind: str, n: int, detail: str = "", where: tuple | None = None):
        super().__init__(kind)
        self.kind, self.n, self.detail, self.where = kind, n, detail, where


class Layout:
    """Static facts shared by every run of one compiled game."""

    def __init__(self, nplayers: int, teams: list[list[int]], cards: list[dict]):
        self.n = nplayers
        self.teams = teams
        self.team_of = [0] * nplayers
        for t, members in enumerate(teams):
            for p in members:
                self.team_of[p] = t
        self.owners = 1 + nplayers + len(teams)
        self.cards = cards
        self.attr: dict[str, list] = {}
        for i, c in enumerate(cards):
            for k, v in c.items():
                self.attr.setdefault(k, [None] * len(cards))[i] = v
        self.attr_index: dict[tuple, list] = {}  # (attribute, value) -> the cards having it
        for k, col in self.attr.items():
            for card, v in enumerate(col):
                self.attr_index.setdefault((k, v), []).append(card)
        self.loc_slots: dict[tuple, int] = {}     # (vis, name) -> slot
        self.loc_vis: list[str] = []
        self.sto_slots: dict[str, int] = {}
        self.str_slots: dict[str, int] = {}
        self.pts_slots: dict[str, int] = {}

    def loc_slot(self, vis: str, name) -> int:
        """The slot of a location kind and name, allocated on first use."""
        key = (vis, name)
        s = self.loc_slots.get(key)
        if s is None:
            s = self.loc_slots[key] = len(self.loc_vis)
            self.loc_vis.append(vis)
        return s

    @staticmethod
    def slot(table: dict, name) -> int:
        s = table.get(name)
        if s is None:
            s = table[name] = len(table)
        return s


class Runtime:
    """One game's data plus the hooks through which chance and choices are resolved."""

    __slots__ = ("lay", "L", "where", "I", "S", "P", "cyc", "tcyc", "vars", "rng", "forced",
                 "fpos", "record", "stepwise", "bpath", "bpos", "btrace", "belems", "nchance", "watch", "drawlog")

    def __init__(self, lay: Layout, seed: int | None = None):
        self.lay = lay
        o = lay.owners
        # every slot named at compile time exists from the start (closures index it directly)
        self.L: list[list[list[int]]] = [[[] for _ in range(o)] for _ in lay.loc_vis]
        self.where: list = [None] * len(lay.cards)
        self.I: list[list[int]] = [[0] * o for _ in lay.sto_slots]
        self.S: list[list[str]] = [[""] * o for _ in lay.str_slots]
        self.P: list[list] = [[None] * o for _ in lay.pts_slots]
        self.cyc: list[list[int]] = [[0, -1]]
        self.tcyc: list[list[int]] = [[0, -1]]
        self.vars: dict = {}
        self.rng = _random.Random(seed)
        self.forced: list | None = None   # outcomes supplied by an outside driver (stepwise mode)
        self.fpos = 0
        self.record: list | None = None  # outcomes taken, when recording
        self.stepwise = False
        self.nchance = 0                  # chance events with more than one outcome so far
        self.bpath: list = []             # branch indices to follow while enumerating options
        self.bpos = 0
        self.btrace: list | None = None   # (index, count) of each `any` taken
        self.belems: list | None = None   # when a list: (element, type) of each `any` taken (crosscheck)
        self.watch = None                 # sim.extent.Extent: sizes and integers as they are written
        # when a list: (slot, owner, card, fresh) of each card taken from a location's top or
        # bottom, fresh unless a re-run replays it (the lockstep check follows decks with it)
        self.drawlog: list | None = None

    # ------------------------------------------------------------ option branches
    def branch(self, n: int) -> int:
        """Which of n elements an `any` takes: forced by the enumerator, else the first."""
        p = self.bpos
        k = self.bpath[p] if p < len(self.bpath) else 0
        self.bpos = p + 1
        if self.btrace is not None:
            self.btrace.append((k, n))
        return k

    # ------------------------------------------------------------ storage access
    def loc(self, slot: int, owner: int) -> list:
        """The card list of a location, created empty on first reference (as CardStock does)."""
        L = self.L
        while len(L) <= slot:
            L.append([None] * self.lay.owners)
        row = L[slot]
        lst = row[owner]
        if lst is None:
            lst = row[owner] = []
        return lst

    def ints(self, slot: int) -> list:
        I = self.I
        while len(I) <= slot:
            I.append([0] * self.lay.owners)
        return I[slot]

    def strs(self, slot: int) -> list:
        S = self.S
        while len(S) <= slot:
            S.append([""] * self.lay.owners)
        return S[slot]

    def points(self, slot: int) -> list:
        P = self.P
        while len(P) <= slot:
            P.append([None] * self.lay.owners)
        return P[slot]

    # ------------------------------------------------------------ chance
    def pick(self, n: int, kind: str, detail: str = "", where: tuple | None = None) -> int:
        """An outcome in 0..n-1 of a chance event: random, or supplied in stepwise mode."""
        if n <= 1 or self.btrace is not None:
            # while options are enumerated by tentative runs, chance takes its first outcome
            # and consumes nothing: it is drawn for real when the chosen option is carried out
            return 0
        self.nchance += 1
        f = self.forced
        if f is not None:
            if self.fpos < len(f):
                k = f[self.fpos]
                self.fpos += 1
                if not 0 <= k < n:
                    raise GameDefinitionError(f"chance outcome {k} out of range 0..{n - 1} for {kind}")
                return k
            if self.stepwise:
                raise Suspend(kind, n, detail, where)
        k = self.rng.randrange(n)
        if self.record is not None:
            self.record.append(k)
        return k

    def shuffle(self, cards: list, where: tuple | None = None) -> None:
        """Fisher-Yates from the top down, one chance event per position (CardCollection.Shuffle).

        `where`: the (visibility, name) of the location shuffled, when it has a fixed one."""
        for n in range(len(cards) - 1, 0, -1):
            k = self.pick(n + 1, "shuffle", f"position {n}", where)
            cards[n], cards[k] = cards[k], cards[n]

    # ------------------------------------------------------------ player cycles
    def current(self) -> int:
        return self.cyc[-1][0]

    # ------------------------------------------------------------ snapshots
    def freeze(self) -> tuple:
        """A hashable snapshot of all data (cards, storages, cycles)."""
        return (
            tuple(tuple(tuple(x) if x is not None else None for x in row) for row in self.L),
            tuple(tuple(r) for r in self.I),
            tuple(tuple(r) for r in self.S),
            tuple(tuple(tuple(x) if x is not None else None for x in r) for r in self.P),
            tuple(tuple(x) for x in self.cyc),
            tuple(tuple(x) for x in self.tcyc),
        )

    def thaw(self, snap: tuple) -> None:
        """Restore a snapshot taken by freeze()."""
        L, I, S, P, cyc, tcyc = snap
        self.L = [[list(x) if x is not None else None for x in row] for row in L]
        self.I = [list(r) for r in I]
        self.S = [list(r) for r in S]
        self.P = [[list(x) if x is not None else None for x in r] for r in P]
        self.cyc = [list(x) for x in cyc]
        self.tcyc = [list(x) for x in tcyc]
        where = [None] * len(self.lay.cards)
        vis = self.lay.loc_vis
        for slot, row in enumerate(self.L):
            if vis[slot] == "mem":
                continue
            for owner, lst in enumerate(row):
                if lst:
                    for c in lst:
                        where[c] = (slot, owner)
        self.where = where
