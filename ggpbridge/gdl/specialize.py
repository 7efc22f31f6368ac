"""Simplify a ground program for fixed values of some of its externals.

Used by `GroundProgram.specialized`: when the machine's state has a control fluent (the
program counter of a translated card game, `control` in tic-tac-toe), most rules belong to
stages other than the current one, yet clingo propagates every rule at every solve. With
that fluent's externals fixed, the rules whose bodies can no longer hold go, so do the
atoms left without a rule, and then every rule nothing shown depends on.

The simplification is the well-founded one restricted to what is certain: an atom is
true when a normal rule derives it from true literals, false when every rule for it is
gone (and it is not a free external). Positive loops, choice and weight rules are kept
as they are, for clingo to decide. The answer of the simplified program, for any values
of the free externals, is that of the whole program on the shown atoms.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Sequence


@dataclass(frozen=True)
class Simplified:
    """The rules to load: normal rules (choice, head, body), weight rules as recorded, and
    the atoms to add as facts (true atoms that something kept still reads, or shown)."""

    rules: list[tuple[bool, Sequence[int], list[int]]]
    weight_rules: list
    facts: list[int]


class Simplifier:
    """`Simplifier(rules, weight_rules, externals, shown)(true, false)`: the part of the rules
    the `shown` atoms depend on once the external atoms `true` and `false` have those values
    (the other externals stay free). The indexes, and what holds whatever the externals, are
    worked out once; each call then costs what it touches and keeps."""

    def __init__(self, rules: Sequence[tuple], weight_rules: Sequence[tuple], externals: Iterable[int],
                 shown: Iterable[int]):
        self.rules, self.weight_rules = rules, weight_rules
        self.externals = frozenset(externals)
        self.shown = list(shown)
        support: dict[int, int] = defaultdict(int)       # live rules with the atom in their head
        self.defining: dict[int, list[int]] = defaultdict(list)
        for i, (_, head, _) in enumerate(rules):
            for h in head:
                support[h] += 1
                self.defining[h].append(i)
        self.weighing: dict[int, list[int]] = defaultdict(list)
        for k, (_, head, _, _) in enumerate(weight_rules):
            for h in head:
                support[h] += _FOREVER
                self.weighing[h].append(k)
        self.constraints = [i for i, (choice, head, _) in enumerate(rules) if not head and not choice]
        self.occurs: dict[int, list[int]] = defaultdict(list)   # atom -> rules reading it
        missing = []                                            # body literals not yet known to hold
        for i, (_, _, body) in enumerate(rules):
            for b in body:
                self.occurs[abs(b)].append(i)
            missing.append(len(body))
        state = _State({}, support, missing, bytearray(len(rules)))
        # atoms that no rule defines and that are not externals are false from the start
        for atom in list(self.occurs):
            if atom not in support and atom not in self.externals:
                self._set(state, atom, False, self.externals)
        for choice, head, body in rules:
            if not body and not choice and len(head) == 1:
                self._set(state, head[0], True, self.externals)
        self._propagate(state, self.externals)
        self._base = state

    def __call__(self, true: Iterable[int], false: Iterable[int], shown: Iterable[int] | None = None) -> Simplified:
        """The rules to load with `true` and `false` fixed; `shown` replaces the atoms wanted."""
        base = self._base
        state = _State(dict(base.value), dict(base.support), list(base.missing), bytearray(base.dead))
        fixed = [(a, True) for a in true] + [(a, False) for a in false]
        if any(a in self.defining or a in self.weighing for a, _ in fixed):
            # a rule may still make it true whatever it is assigned (GDL's `true` and `does` head no rule)
            raise Inconsistent("a fixed atom is the head of a rule")
        free = self.externals.difference(a for a, _ in fixed)
        for atom, holds in fixed:
            self._set(state, atom, holds, free)
        self._propagate(state, free)
        return self._relevant(state, self.shown if shown is None else shown)

    def _set(self, state: "_State", atom: int, holds: bool, free: frozenset) -> None:
        if atom in free:
            return
        known = state.value.get(atom)
        if known is None:
            state.value[atom] = holds
            state.queue.append(atom)
        elif known != holds:
            # derived and unsupported at once: not a program whose externals can take these values
            raise Inconsistent(atom)

    def _propagate(self, state: "_State", free: frozenset) -> None:
        rules, occurs, value, support, missing, dead = (self.rules, self.occurs, state.value, state.support,
                                                        state.missing, state.dead)
        queue = state.queue
        while queue:
            atom = queue.pop()
            holds = value[atom]
            for i in occurs.get(atom, ()):
                if dead[i]:
                    continue
                choice, head, body = rules[i]
                for b in body:
                    if abs(b) != atom:
                        continue
                    if (b > 0) == holds:
                        missing[i] -= 1
                        if missing[i] == 0 and not choice and len(head) == 1:
                            self._set(state, head[0], True, free)
                    else:
                        dead[i] = 1
                        for h in head:
                            support[h] -= 1
                            if support[h] == 0:
                                self._set(state, h, False, free)
                        break

    def _relevant(self, state: "_State", shown: Iterable[int]) -> Simplified:
        """The live rules the shown atoms (and the integrity constraints) depend on."""
        rules, weight_rules, value, dead = self.rules, self.weight_rules, state.value, state.dead
        needed: set[int] = set()      # atoms whose rules are kept, or that become facts
        stack: list[int] = []

        def need(atom: int) -> None:
            if atom not in needed:
                needed.add(atom)
                stack.append(atom)
        for atom in shown:
            need(atom)
        kept_rules, kept_weights = set(), set()

        def keep(i: int) -> None:
            kept_rules.add(i)
            for b in rules[i][2]:
                if abs(b) not in value:   # known literals leave the body
                    need(abs(b))
        for i in self.constraints:
            if not dead[i]:
                keep(i)
        while stack:
            atom = stack.pop()
            if atom in value:         # known: a fact at most, no rule needed
                continue
            for i in self.defining.get(atom, ()):
                if not dead[i] and i not in kept_rules:
                    keep(i)
            for k in self.weighing.get(atom, ()):
                if k not in kept_weights:
                    kept_weights.add(k)
                    for b, _ in weight_rules[k][3]:
                        need(abs(b))
        out = []
        for i in sorted(kept_rules):
            choice, head, body = rules[i]
            out.append((choice, head, [b for b in body if abs(b) not in value]))
        # externals keep their values from the state; other true atoms still read become facts
        facts = sorted(a for a in needed if value.get(a) is True and a not in self.externals)
        return Simplified(out, [weight_rules[k] for k in sorted(kept_weights)], facts)


_FOREVER = 1 << 40   # the support a weight rule gives: never withdrawn, weight rules are kept


@dataclass
class _State:
    value: dict
    support: dict
    missing: list
    dead: bytearray
    queue: list = field(default_factory=list)


class Inconsistent(Exception):
    """The simplification met an atom both true and false (the caller keeps the whole program)."""
