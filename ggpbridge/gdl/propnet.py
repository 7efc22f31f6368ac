"""A propositional network: a ground, stratified program evaluated in Python by change propagation.

`Propnet(rules, inputs)` takes the normal rules of a ground program, as flat arrays
(`ggpbridge.gdl.flat_rules.FlatRules`, what `ground_recorded(..., flat=True)` records) or as
clingo's observer reports them (`(choice, head, body)`, atoms as positive integers, negative
literals as negative ones), and the input atoms (the `true` and `does` externals), whose values the
caller sets. Every other atom is true exactly when one of its rules has a body that
holds, in the program's one answer set (the program with its inputs fixed is stratified).

Why not clingo: a solve resets and propagates the whole ground program, while a game's
transition changes a few fluents, which change a few rules. Here each rule counts its
body literals that do not hold and each atom the rules that support it; `set_inputs`
flips the inputs that differ and propagates only the counts that change. Atoms are
re-evaluated in a topological order of the dependency graph (a heap of their ranks), so
each atom settles once per update, after everything it reads.

Positive loops (recursive rules, after grounding) would support themselves through the
counts: the atoms of a strongly connected component are evaluated together, as the least
fixpoint of the component's rules over the atoms outside it, whenever one of them may change.
Negation through such a loop is unstratified and refused (`Unstratified`).
"""
from __future__ import annotations

from array import array
from heapq import heappop, heappush
from typing import Iterable, Sequence

import networkx as nx
import numpy as np

from .flat_rules import FlatRules, csr


class Unstratified(ValueError):
    """A ground atom depends negatively on itself: the program has no single answer to compute."""


class Propnet:
    """The network of a ground program; `value[atom]` is 1 when the atom holds now."""

    def __init__(self, rules: "FlatRules | Sequence[tuple]", inputs: Iterable[int], watched: Iterable[int] = ()):
        # Integrity constraints (no head, not a choice) are kept as rules of atom 0: the program
        # has no answer while atom 0 holds (`violated`). Choice rules cannot occur in a GDL state
        # program; the caller refuses them.
        if not isinstance(rules, FlatRules):
            rules = FlatRules.of(rules)
        inputs, watched = set(inputs), list(watched)
        heads, lengths, literals = rules.arrays()
        atoms = np.abs(literals)
        size = 1 + max([0, *inputs, *watched, int(heads.max(initial=0)), int(atoms.max(initial=0))])
        self.size = size
        self.inputs = inputs
        if inputs and np.isin(heads, np.fromiter(inputs, dtype=np.int64)).any():
            bad = next(int(h) for h in heads if int(h) in inputs)
            raise ValueError(f"input atom {bad} is the head of a rule")
        self.value = bytearray(size)
        # Flat typed arrays where they can be: a list costs 8 bytes an entry and an int object 28
        # more past 256, and a million-rule program has millions of atoms (issue #38, README).
        # The counts a transition changes and the heads it reads stay lists: an array's item
        # costs a new int object at every access, and these are most of a transition's time
        # (transitions 1.7 times slower with them as arrays, War n = 8 and Agram).
        self.head: list[int] = heads.tolist()
        rule_of = np.repeat(np.arange(len(heads), dtype=np.int32), lengths)   # the rule of each literal
        positive = literals > 0
        # every atom starts false: a rule misses its positive literals
        self.missing: list[int] = np.bincount(rule_of[positive], minlength=len(heads)).tolist()
        # rules reading the atom, and its negation: atom a's are pos_rules[pos_start[a]:pos_start[a + 1]]
        self.pos_start, self.pos_rules = csr(atoms[positive], rule_of[positive], size)
        self.neg_start, self.neg_rules = csr(atoms[~positive], rule_of[~positive], size)
        del rule_of, positive, atoms
        self.support = [0] * size    # rules of the atom whose bodies hold
        self._occ: dict[int, tuple] = {}   # atom -> (pos, neg) occurrences, for the atoms that flipped
        self._order(rules, heads, lengths)
        # atoms whose flips are recorded in `true_watched`, for reading the shown atoms cheaply
        self.watched = bytearray(size)
        for atom in watched:
            self.watched[atom] = 1
        self.true_watched: set[int] = set()
        self._queued = bytearray(len(self.rank_node))
        self._heap: list[int] = []
        head, support = self.head, self.support
        for index, missing in enumerate(self.missing):
            if missing:
                continue
            support[head[index]] += 1
            self._supported(head[index])
        self._settle()
        self._occ.clear()   # the atoms that hold from the start, most of them in every state

    def _order(self, rules: FlatRules, heads: np.ndarray, lengths: np.ndarray) -> None:
        """Rank every atom (or its loop) in a topological order; note the loops' atoms and rules."""
        self.rank_of = array("i", bytes(4 * self.size))   # atom -> rank of its node
        self.rank_node = array("i")                      # rank -> atom, or -(1 + loop number)
        self.loops: list[tuple[list[int], list[int]]] = []   # (atoms, their rules)
        self.loop_bodies: dict[int, Sequence[int]] = {}      # the bodies of the loops' rules
        self.looped = bytearray(self.size)                    # 1 for the atoms of loops
        # Most of a ground program is acyclic: it is ranked here, by removing atoms whose rules read
        # only ranked atoms, and networkx finds the loops in what is left (usually nothing). Why not
        # networkx on everything: its graph holds a dict per edge, gigabytes for Whist's program.
        waiting = np.bincount(heads, weights=lengths, minlength=self.size).astype(np.int64)
        ready = np.flatnonzero(waiting == 0).tolist()
        waiting = array("q", waiting.tobytes())
        pos_start, pos_rules, neg_start, neg_rules = self.pos_start, self.pos_rules, self.neg_start, self.neg_rules
        head, rank_of, rank_node = self.head, self.rank_of, self.rank_node
        while ready:
            atom = ready.pop()
            rank_of[atom] = len(rank_node)
            rank_node.append(atom)
            for occ in (pos_rules[pos_start[atom]:pos_start[atom + 1]], neg_rules[neg_start[atom]:neg_start[atom + 1]]):
                for rule in occ:
                    h = head[rule]
                    waiting[h] -= 1
                    if waiting[h] == 0:
                        ready.append(h)
        left = np.flatnonzero(np.frombuffer(waiting, dtype=np.int64)).tolist()
        if left:
            self._order_loops(rules, heads, left)

    def _order_loops(self, rules: FlatRules, heads: np.ndarray, left: list[int]) -> None:
        """Rank the atoms the acyclic pass left, in loops or after them, by their components."""
        kept = set(left)
        defining: dict[int, list[int]] = {}
        for rule in np.flatnonzero(np.isin(heads, np.array(left, dtype=np.int64))).tolist():
            defining.setdefault(int(heads[rule]), []).append(rule)
        graph = nx.DiGraph()
        graph.add_nodes_from(left)
        graph.add_edges_from((abs(b), atom) for atom in left for i in defining.get(atom, ())
                             for b in rules.body(i) if abs(b) in kept)
        condensed = nx.condensation(graph)
        for component in nx.topological_sort(condensed):
            atoms = sorted(condensed.nodes[component]["members"])
            rank = len(self.rank_node)
            if len(atoms) == 1 and not graph.has_edge(atoms[0], atoms[0]):
                self.rank_node.append(atoms[0])
            else:
                inside = set(atoms)
                own = [i for a in atoms for i in defining.get(a, ())]
                if any(-b in inside for i in own for b in rules.body(i) if b < 0):
                    raise Unstratified("a ground atom depends on its own negation (through "
                                       f"{len(atoms)} atoms): the rules are not stratified")
                self.loop_bodies.update((i, rules.body(i)) for i in own)
                self.rank_node.append(-1 - len(self.loops))
                self.loops.append((atoms, own))
                for atom in atoms:
                    self.looped[atom] = 1
            for atom in atoms:
                self.rank_of[atom] = rank

    # -- updates --------------------------------------------------------------

    def set_inputs(self, on: Iterable[int], off: Iterable[int]) -> None:
        """Make the input atoms `on` true and `off` false, and bring every other atom up to date."""
        value = self.value
        for atom in off:
            if value[atom]:
                self._flip(atom, 0)
        for atom in on:
            if not value[atom]:
                self._flip(atom, 1)
        self._settle()

    @property
    def violated(self) -> bool:
        """True when an integrity constraint's body holds (clingo would find no answer)."""
        return self.support[0] > 0

    def _supported(self, atom: int) -> None:
        """The atom's support went to or from zero (or changed at all, in a loop): evaluate it
        (or its loop) in its turn."""
        rank = self.rank_of[atom]
        if not self._queued[rank]:
            self._queued[rank] = 1
            heappush(self._heap, rank)

    def _flip(self, atom: int, holds: int) -> None:
        """Set the atom's value and update the counts of the rules that read it."""
        self.value[atom] = holds
        if self.watched[atom]:
            (self.true_watched.add if holds else self.true_watched.discard)(atom)
        missing, support, head, looped = self.missing, self.support, self.head, self.looped
        # _supported, written out: this loop is most of a transition's time
        rank_of, queued, heap = self.rank_of, self._queued, self._heap
        # a literal that starts to hold takes one from its rules' missing counts, one that stops adds one
        occ = self._occ.get(atom)
        if occ is None:
            # Copied out of the flat arrays once per atom that flips (few do, play after play):
            # iterating an array makes an int object per item, a tuple's are made once.
            occ = self._occ[atom] = (tuple(self.pos_rules[self.pos_start[atom]:self.pos_start[atom + 1]]),
                                     tuple(self.neg_rules[self.neg_start[atom]:self.neg_start[atom + 1]]))
        gained, lost = occ if holds else (occ[1], occ[0])
        for rule in gained:
            missing[rule] -= 1
            if missing[rule] == 0:
                h = head[rule]
                support[h] += 1
                if support[h] == 1 or looped[h]:
                    rank = rank_of[h]
                    if not queued[rank]:
                        queued[rank] = 1
                        heappush(heap, rank)
        for rule in lost:
            missing[rule] += 1
            if missing[rule] == 1:
                h = head[rule]
                support[h] -= 1
                if support[h] == 0 or looped[h]:
                    # a loop's atom may have lost the one rule that did not go through the loop
                    rank = rank_of[h]
                    if not queued[rank]:
                        queued[rank] = 1
                        heappush(heap, rank)

    def _settle(self) -> None:
        """Evaluate the queued atoms and loops, lowest rank first, until nothing changes."""
        heap, queued, rank_node, value, support = self._heap, self._queued, self.rank_node, self.value, self.support
        while heap:
            rank = heappop(heap)
            if not queued[rank]:
                continue
            node = rank_node[rank]
            if node >= 0:
                queued[rank] = 0
                holds = 1 if support[node] else 0
                if holds != value[node]:
                    self._flip(node, holds)
            else:
                self._loop(-1 - node)
                queued[rank] = 0   # the loop's own flips queued it again: it is settled

    def _loop(self, number: int) -> None:
        """Re-evaluate a loop as the least fixpoint of its rules over the atoms outside it."""
        atoms, own = self.loops[number]
        value, head = self.value, self.head
        inside = set(atoms)
        waiting: dict[int, int] = {}             # rule -> positive literals inside not yet derived
        readers: dict[int, list[int]] = {}
        derived: set[int] = set()
        stack = []
        for rule in own:
            body = self.loop_bodies[rule]
            if any(abs(b) not in inside and (value[abs(b)] == 0) == (b > 0) for b in body):
                continue
            need = [b for b in body if b in inside]
            if not need:
                if head[rule] not in derived:
                    derived.add(head[rule])
                    stack.append(head[rule])
            else:
                waiting[rule] = len(need)
                for b in need:
                    readers.setdefault(b, []).append(rule)
        while stack:
            for rule in readers.get(stack.pop(), ()):
                waiting[rule] -= 1
                if waiting[rule] == 0 and head[rule] not in derived:
                    derived.add(head[rule])
                    stack.append(head[rule])
        for atom in atoms:
            holds = 1 if atom in derived else 0
            if holds != value[atom]:
                self._flip(atom, holds)

