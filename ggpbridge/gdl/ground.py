"""The ground program of ClingoMachine, in a Control that keeps symbols for the shown atoms only.

The state program (encoding "state" of `ggpbridge.gdl.asp`, with the lookahead copy) is
grounded in a scratch Control whose observer records the ground rules; the rules are then
loaded through the backend into a fresh Control in which only the shown atoms (legal, next,
sees, goal, terminal) have symbols, and the facts no rule reads are left out.
Why: in clingo 5.8 every solve, and the first `assign_external` after one, costs time in
proportion to the symbol table, static facts included (50,000 facts: about 1 ms per query),
and a translated card game's tables of cards, positions and numbers are mostly such facts.
On fitted translations a transition became 1.3 (Agram, 4 players) to 2.6 (Agram, 2 players)
times faster.

`GroundProgram.specialized` loads, the same way, a copy simplified for fixed values of some
fluents (`ggpbridge.gdl.specialize`), numbered like the whole program.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import clingo
from clingo import ast

from .asp import new_control, reporting
from .errors import AspError
from .flat_rules import FlatRules
from .specialize import Inconsistent, Simplifier


class _Recorder(clingo.Observer):
    """The ground program as gringo passes it on: rules, externals and shown atoms."""

    def __init__(self):
        self.rules: list = []
        self.weight_rules: list = []
        self.shown: list = []
        self.externals: list = []
        self.unsupported = 0

    def rule(self, choice, head, body):
        self.rules.append((choice, head, body))

    def weight_rule(self, choice, head, lower_bound, body):
        self.weight_rules.append((choice, head, lower_bound, body))

    def output_atom(self, symbol, atom):
        self.shown.append((symbol, atom))

    def external(self, atom, value):
        self.externals.append((atom, value))

    def output_term(self, symbol, condition):
        self.unsupported += 1

    def minimize(self, priority, literals):
        self.unsupported += 1

    def theory_atom(self, atom_id_or_zero, term_id, elements):
        self.unsupported += 1


class _FlatRecorder(_Recorder):
    """A `_Recorder` whose normal rules go into flat arrays (`rules` is a `FlatRules`): a tenth
    of the memory of a tuple of lists per rule. Choice and disjunctive rules are only counted
    (`rules.irregular`), for a caller that cannot evaluate them."""

    def __init__(self):
        super().__init__()
        self.rules = FlatRules()

    def rule(self, choice, head, body):
        if choice or len(head) > 1:
            self.rules.irregular += 1
        else:
            self.rules.add(head[0] if head else 0, body)


def ground_recorded(statements: Sequence[ast.AST], flat: bool = False):
    """Ground `statements` in a scratch Control with a `_Recorder` watching: (the recorder, with
    the ground rules, and `literal(symbol)`: the program literal of a ground atom, None when the
    grounding has no such atom). `flat`: the normal rules in a `FlatRules` (`_FlatRecorder`)."""
    scratch, messages = new_control(["--models=1"])
    recorder = _FlatRecorder() if flat else _Recorder()
    scratch.register_observer(recorder)
    with reporting(messages):
        with ast.ProgramBuilder(scratch) as builder:
            for stm in statements:
                builder.add(stm)
        scratch.ground([("base", [])])
    atoms = scratch.symbolic_atoms

    def literal(symbol, _control=scratch):   # the symbol table lives only as long as its Control
        found = atoms[symbol]
        return None if found is None else found.literal
    return recorder, literal


class GroundProgram:
    """A state program grounded once, in a Control that keeps only the shown atoms' symbols."""

    def __init__(self, statements: Sequence[ast.AST], fluents: Iterable[clingo.Symbol],
                 moves: Iterable[tuple[clingo.Symbol, clingo.Symbol]], specializable: bool = False):
        recorder, literal = ground_recorded(statements)
        if recorder.unsupported:
            raise AspError("the state program has statements the clingo machine cannot load "
                           "(#show of terms, #minimize or theory atoms)")
        fluent_atoms = {f: literal(clingo.Function("true", [f])) for f in fluents}
        move_atoms = {pair: literal(clingo.Function("does", list(pair))) for pair in moves}
        ahead = literal(clingo.Function("_lookahead"))
        inputs = [a for a in (*fluent_atoms.values(), *move_atoms.values(), ahead) if a is not None]
        rules = _useful_rules(recorder, inputs)
        self._shown_atoms, self._externals, self._weight_rules = recorder.shown, recorder.externals, \
            recorder.weight_rules
        # the rules are kept only for `specialized` (they are the program's size again)
        self._rules = rules if specializable else None
        self._simplifier: Simplifier | None = None
        self._inputs, self._fluent_atoms = inputs, fluent_atoms
        self.ctl, renamed, self.rules = _load(self, rules, recorder.weight_rules)
        self._input_lits = [renamed[a] for a in inputs]
        self.fluent_lit = {f: renamed[a] for f, a in fluent_atoms.items() if a is not None}
        self.move_lit = {pair: renamed[a] for pair, a in move_atoms.items() if a is not None}
        self.ahead = renamed[ahead] if ahead is not None else None
        self.shown = [symbol for symbol, _ in recorder.shown]
        self.on: set[int] = set()   # the literals of the externals now assigned true
        self.left_out: frozenset[str] = frozenset()   # names of shown atoms this program never derives

    def forget_rules(self) -> None:
        """Free the kept rules: no specialization from now on."""
        self._rules = self._simplifier = None

    def reads(self) -> dict[clingo.Symbol, int]:
        """How many ground rules read each fluent (of a specializable program)."""
        counts: dict[int, int] = {}
        for _, _, body in self._rules:
            for b in body:
                counts[abs(b)] = counts.get(abs(b), 0) + 1
        return {f: counts.get(a, 0) for f, a in self._fluent_atoms.items() if a is not None}

    def specialized(self, true: Iterable[clingo.Symbol], false: Iterable[clingo.Symbol],
                    leave_out: frozenset[str] = frozenset()) -> "GroundProgram | None":
        """The program for the states in which the fluents `true` hold and `false` do not:
        the rules that cannot apply then are left out (`ggpbridge.gdl.specialize`), and so
        are the shown atoms named in `leave_out` with the rules only they need. Its fluent,
        move and lookahead literals are this program's numbers; None when the simplification
        finds the fixed values contradictory."""
        atom = self._fluent_atoms
        if self._rules is None:
            raise AspError("this program was loaded without keeping its rules (specializable=False)")
        if self._simplifier is None:
            self._simplifier = Simplifier(self._rules, self._weight_rules, [a for a, _ in self._externals],
                                          [a for _, a in self._shown_atoms if a])
        try:
            kept = self._simplifier([atom[f] for f in true if atom.get(f)], [atom[f] for f in false if atom.get(f)],
                                    [a for s, a in self._shown_atoms if a and s.name not in leave_out])
        except Inconsistent:
            return None
        ctl, renamed, rules = _load(self, kept.rules, kept.weight_rules, kept.facts, leave_out)
        # Atoms are numbered in the order they are added, shown atoms and inputs first, so the
        # literals match this program's and the machine's decoding holds for both.
        if [renamed[a] for a in self._inputs] != self._input_lits:
            raise AspError("a specialized program numbered its inputs differently")
        # everything as in this program but its Control, its size and what is assigned in it
        program = object.__new__(GroundProgram)
        program.__dict__.update(self.__dict__, ctl=ctl, rules=rules, on=set(), _rules=None, _simplifier=None,
                                left_out=leave_out)
        return program

    def solve(self, wanted: set[int], ahead: bool) -> clingo.solving.SolveHandle:
        """Assign the externals (those in `wanted` true, the others false) and start the solve."""
        assign = self.ctl.assign_external
        for lit in self.on - wanted:
            assign(lit, False)
        for lit in wanted - self.on:
            assign(lit, True)
        self.on = wanted
        if self.ahead is not None:
            assign(self.ahead, ahead)
        return self.ctl.solve(yield_=True)


def _useful_rules(recorder: _Recorder, inputs: list[int]) -> list:
    """The recorded normal rules but the facts no rule reads: gringo takes facts out of the
    bodies it grounds, so a fact is rarely read, and a card game's tables are most of its rules."""
    read = {abs(b) for _, _, body in recorder.rules for b in body}
    read.update(abs(b) for _, _, _, body in recorder.weight_rules for b, _ in body)
    read.update(inputs)
    read.update(atom for _, atom in recorder.shown)
    return [(choice, head, body) for choice, head, body in recorder.rules
            if body or choice or len(head) != 1 or head[0] in read]


def _load(whole: GroundProgram, rules: list, weight_rules: list, facts: Iterable[int] = (),
          leave_out: frozenset[str] = frozenset()) -> tuple[clingo.Control, dict[int, int], int]:
    """A fresh Control with these rules (of `whole`'s recording, in its numbering) and facts,
    with `whole`'s shown atoms (those named in `leave_out` hidden), inputs and externals; the
    recorded atoms' new numbers, and how many rules were loaded."""
    ctl, _ = new_control(["--models=1"])
    renamed: dict[int, int] = {}
    with ctl.backend() as backend:
        for symbol, atom in whole._shown_atoms:
            if symbol.name in leave_out:
                # still numbered, so the inputs keep their numbers, but without a symbol: clingo
                # goes through every shown atom when it reads a model
                hidden = backend.add_atom()
                if atom != 0:
                    renamed[atom] = hidden
            elif atom == 0:   # a shown fact
                backend.add_rule([backend.add_atom(symbol)], [])
            else:
                renamed[atom] = backend.add_atom(symbol)

        def new(atom: int) -> int:
            found = renamed.get(atom)
            if found is None:
                found = renamed[atom] = backend.add_atom()
            return found

        def lit(literal: int) -> int:
            return new(literal) if literal > 0 else -new(-literal)
        for atom in whole._inputs:
            new(atom)
        for atom, value in whole._externals:
            backend.add_external(new(atom), value)
        for atom in facts:
            backend.add_rule([new(atom)], [])
        for choice, head, body in rules:
            backend.add_rule([new(h) for h in head], [lit(b) for b in body], choice)
        for choice, head, lower, body in weight_rules:
            backend.add_weight_rule([new(h) for h in head], lower, [(lit(b), w) for b, w in body], choice)
    ctl.ground([("base", [])])
    return ctl, renamed, len(rules) + len(weight_rules)
