"""A ground program's normal rules in three flat typed arrays, for the propositional network.

A million-rule program held as clingo's observer hands it over, a tuple of two lists per
rule, costs about a kilobyte of Python objects per rule. `FlatRules` keeps the same rules
in `heads` (the head atom, 0 for an integrity constraint), `ends` (where each rule's body
ends in `literals`) and `literals` (every body, one after the other, negative literals as
negative numbers): 16 bytes a rule and 4 a literal. The observer appends to it
(`ggpbridge.gdl.ground.ground_recorded(..., flat=True)`), and `csr` turns a key per
literal into offsets + one flat array (compressed sparse rows), which is how
`ggpbridge.gdl.propnet.Propnet` stores which rules read an atom.
"""
from __future__ import annotations

from array import array
from typing import Iterable, Sequence

import numpy as np


class FlatRules:
    """Normal rules as flat arrays: rule i is `heads[i] :- literals[ends[i-1]:ends[i]]`."""

    def __init__(self):
        self.heads = array("i")
        self.ends = array("q")
        self.literals = array("i")
        self.irregular = 0   # choice and disjunctive rules: not kept, the network cannot evaluate them

    @classmethod
    def of(cls, rules: Iterable[tuple]) -> "FlatRules":
        """The flat copy of `(choice, head, body)` rules (a choice flag is not kept)."""
        flat = cls()
        for _, head, body in rules:
            flat.add(head[0] if head else 0, body)
        return flat

    def add(self, head: int, body: Sequence[int]) -> None:
        """Append the rule `head :- body` (head 0: an integrity constraint)."""
        self.heads.append(head)
        self.literals.extend(body)
        self.ends.append(len(self.literals))

    def __len__(self) -> int:
        return len(self.heads)

    def body(self, rule: int) -> tuple[int, ...]:
        """The body literals of one rule."""
        return tuple(self.literals[self.ends[rule - 1] if rule else 0:self.ends[rule]])

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(heads, body lengths, literals) as numpy arrays over this object's memory (no copy)."""
        heads = np.frombuffer(self.heads, dtype=np.int32) if self.heads else np.zeros(0, np.int32)
        ends = np.frombuffer(self.ends, dtype=np.int64) if self.ends else np.zeros(0, np.int64)
        literals = np.frombuffer(self.literals, dtype=np.int32) if self.literals else np.zeros(0, np.int32)
        return heads, np.diff(ends, prepend=0), literals

    def useful(self, also_read: Iterable[int]) -> "FlatRules":
        """The rules but the facts that no rule reads and that are not in `also_read` (the
        inputs and the shown atoms): gringo takes facts out of the bodies it grounds, so a fact
        is rarely read, and a card game's tables are most of its rules."""
        heads, lengths, literals = self.arrays()
        also = np.fromiter(also_read, dtype=np.int64)
        size = 1 + int(max(heads.max(initial=0), np.abs(literals).max(initial=0), also.max(initial=0)))
        read = np.zeros(size, dtype=bool)
        read[np.abs(literals)] = True
        read[also] = True
        # an integrity constraint (head 0) is kept even bodiless: the program then has no answer
        keep = (lengths > 0) | read[heads] | (heads == 0)
        kept = FlatRules()
        kept.heads = array("i", heads[keep].tobytes())
        kept.literals = array("i", literals[np.repeat(keep, lengths)].tobytes())
        kept.ends = array("q", np.cumsum(lengths[keep], dtype=np.int64).tobytes())
        kept.irregular = self.irregular
        return kept


def csr(keys: np.ndarray, values: np.ndarray, size: int) -> tuple[array, array]:
    """Group `values` by `keys` (each in range(size)), keeping their order within a key:
    (offsets, grouped), so that key k's values are grouped[offsets[k]:offsets[k + 1]]."""
    order = np.argsort(keys, kind="stable")
    grouped = array("i", values[order].astype(np.int32, copy=False).tobytes())
    del order
    offsets = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(np.bincount(keys, minlength=size), out=offsets[1:])
    return array("q", offsets.tobytes()), grouped
