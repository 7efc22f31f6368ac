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
"""
from __future__ import annotations

from typing import Iterable, Sequence

import clingo
from clingo import ast

from .asp import new_control, reporting
from .errors import AspError


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


class GroundProgram:
    """A state program grounded once, in a Control that keeps only the shown atoms' symbols."""

    def __init__(self, statements: Sequence[ast.AST], fluents: Iterable[clingo.Symbol],
                 moves: Iterable[tuple[clingo.Symbol, clingo.Symbol]]):
        scratch, messages = new_control(["--models=1"])
        recorder = _Recorder()
        scratch.register_observer(recorder)
        with reporting(messages):
            with ast.ProgramBuilder(scratch) as builder:
                for stm in statements:
                    builder.add(stm)
            scratch.ground([("base", [])])
        if recorder.unsupported:
            raise AspError("the state program has statements the clingo machine cannot load "
                           "(#show of terms, #minimize or theory atoms)")
        atoms = scratch.symbolic_atoms

        def literal(symbol):
            found = atoms[symbol]
            return None if found is None else found.literal
        fluent_atoms = {f: literal(clingo.Function("true", [f])) for f in fluents}
        move_atoms = {pair: literal(clingo.Function("does", list(pair))) for pair in moves}
        ahead = literal(clingo.Function("_lookahead"))
        inputs = [a for a in (*fluent_atoms.values(), *move_atoms.values(), ahead) if a is not None]
        self.ctl, renamed, self.rules = _load(recorder, inputs)
        self.fluent_lit = {f: renamed[a] for f, a in fluent_atoms.items() if a is not None}
        self.move_lit = {pair: renamed[a] for pair, a in move_atoms.items() if a is not None}
        self.ahead = renamed[ahead] if ahead is not None else None
        self.shown = [symbol for symbol, _ in recorder.shown]
        self.on: set[int] = set()   # the literals of the externals now assigned true

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


def _load(recorder: _Recorder, inputs: list[int]) -> tuple[clingo.Control, dict[int, int], int]:
    """A fresh Control with the recorded rules (facts that no rule reads left out), the
    recorded atoms' new numbers, and how many rules were kept."""
    ctl, _ = new_control(["--models=1"])
    renamed: dict[int, int] = {}
    kept = 0
    with ctl.backend() as backend:
        for symbol, atom in recorder.shown:
            if atom == 0:   # a shown fact
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
        for atom in inputs:
            new(atom)
        for atom, value in recorder.externals:
            backend.add_external(new(atom), value)
        # gringo takes facts out of the bodies it grounds, so a fact is rarely read; keep those that are
        read = {abs(b) for _, _, body in recorder.rules for b in body}
        read.update(abs(b) for _, _, _, body in recorder.weight_rules for b, _ in body)
        for choice, head, body in recorder.rules:
            if not body and not choice and len(head) == 1 and head[0] not in renamed and head[0] not in read:
                continue
            backend.add_rule([new(h) for h in head], [lit(b) for b in body], choice)
            kept += 1
        for choice, head, lower, body in recorder.weight_rules:
            backend.add_weight_rule([new(h) for h in head], lower, [(lit(b), w) for b, w in body], choice)
            kept += 1
    ctl.ground([("base", [])])
    return ctl, renamed, kept
