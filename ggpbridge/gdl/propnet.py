"""A propositional network: a ground, stratified program evaluated in Python by change propagation.

`Propnet(rules, inputs)` takes the normal rules of a ground program as clingo's observer
reports them (`(choice, head, body)`, atoms as positive integers, negative literals as
negative ones) and the input atoms (the `true` and `does` externals), whose values the
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

from heapq import heappop, heappush
from typing import Iterable, Sequence

import networkx as nx


class Unstratified(ValueError):
    """A ground atom depends negatively on itself: the program has no single answer to compute."""


class Propnet:
    """The network of a ground program; `value[atom]` is 1 when the atom holds now."""

    def __init__(self, rules: Sequence[tuple], inputs: Iterable[int], watched: Iterable[int] = ()):
        # Integrity constraints (no head, not a choice) are kept as rules of atom 0: the program
        # has no answer while atom 0 holds (`violated`). Choice rules cannot occur in a GDL state
        # program; the caller refuses them.
        inputs, watched = set(inputs), list(watched)
        size = 1 + max([0, *inputs, *watched] + [abs(x) for _, head, body in rules for x in (*head, *body)])
        self.size = size
        self.inputs = inputs
        self.value = bytearray(size)
        self.support = [0] * size            # rules of the atom whose bodies hold
        self.head: list[int] = []
        self.missing: list[int] = []         # body literals of the rule that do not hold
        self.pos_occ: list[list[int]] = [[] for _ in range(size)]   # rules reading the atom
        self.neg_occ: list[list[int]] = [[] for _ in range(size)]   # rules reading its negation
        self.defining: list[list[int]] = [[] for _ in range(size)]
        for choice, head, body in rules:
            index = len(self.head)
            h = head[0] if head else 0
            if h in inputs:
                raise ValueError(f"input atom {h} is the head of a rule")
            self.head.append(h)
            self.defining[h].append(index)
            self.missing.append(sum(1 for b in body if b > 0))   # every atom starts false
            for b in body:
                (self.pos_occ if b > 0 else self.neg_occ)[abs(b)].append(index)
        self._order(rules)
        # memory: a million-rule program has millions of atoms, most read by no rule or one sign only
        del self.defining
        self.pos_occ = [occ or () for occ in self.pos_occ]
        self.neg_occ = [occ or () for occ in self.neg_occ]
        # atoms whose flips are recorded in `true_watched`, for reading the shown atoms cheaply
        self.watched = bytearray(size)
        for atom in watched:
            self.watched[atom] = 1
        self.true_watched: set[int] = set()
        self._queued = bytearray(len(self.rank_node))
        self._heap: list[int] = []
        for index, missing in enumerate(self.missing):
            if missing == 0:
                self.support[self.head[index]] += 1
                self._supported(self.head[index])
        self._settle()

    def _order(self, rules: Sequence[tuple]) -> None:
        """Rank every atom (or its loop) in a topological order; note the loops' atoms and rules."""
        self.rank_of = [0] * self.size                  # atom -> rank of its node
        self.rank_node: list[int] = []                  # rank -> atom, or -(1 + loop number)
        self.loops: list[tuple[list[int], list[int]]] = []   # (atoms, their rules)
        self.loop_bodies: dict[int, Sequence[int]] = {}      # the bodies of the loops' rules
        self.looped = bytearray(self.size)                    # 1 for the atoms of loops
        # Most of a ground program is acyclic: it is ranked here, by removing atoms whose rules read
        # only ranked atoms, and networkx finds the loops in what is left (usually nothing). Why not
        # networkx on everything: its graph holds a dict per edge, gigabytes for Whist's program.
        waiting = [sum(len(rules[i][2]) for i in self.defining[atom]) for atom in range(self.size)]
        ready = [atom for atom in range(self.size) if waiting[atom] == 0]
        pos_occ, neg_occ, head = self.pos_occ, self.neg_occ, self.head
        while ready:
            atom = ready.pop()
            self.rank_of[atom] = len(self.rank_node)
            self.rank_node.append(atom)
            for rule in (*pos_occ[atom], *neg_occ[atom]):
                h = head[rule]
                waiting[h] -= 1
                if waiting[h] == 0:
                    ready.append(h)
        left = [atom for atom in range(self.size) if waiting[atom]]
        if left:
            self._order_loops(rules, left)

    def _order_loops(self, rules: Sequence[tuple], left: list[int]) -> None:
        """Rank the atoms the acyclic pass left, in loops or after them, by their components."""
        graph = nx.DiGraph()
        graph.add_nodes_from(left)
        kept = set(left)
        graph.add_edges_from((abs(b), atom) for atom in left for i in self.defining[atom]
                             for b in rules[i][2] if abs(b) in kept)
        condensed = nx.condensation(graph)
        for component in nx.topological_sort(condensed):
            atoms = sorted(condensed.nodes[component]["members"])
            rank = len(self.rank_node)
            if len(atoms) == 1 and not graph.has_edge(atoms[0], atoms[0]):
                self.rank_node.append(atoms[0])
            else:
                inside = set(atoms)
                own = [i for a in atoms for i in self.defining[a]]
                if any(-b in inside for i in own for b in rules[i][2] if b < 0):
                    raise Unstratified("a ground atom depends on its own negation (through "
                                       f"{len(atoms)} atoms): the rules are not stratified")
                self.loop_bodies.update((i, rules[i][2]) for i in own)
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
        gained, lost = (self.pos_occ[atom], self.neg_occ[atom]) if holds else (self.neg_occ[atom], self.pos_occ[atom])
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

