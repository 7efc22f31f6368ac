"""Static checks of GDL / GDL-II descriptions (Love et al. 2008; Thielscher 2010)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Iterator

import networkx as nx

from .ast import (KEYWORD_ARITY, RANDOM, Const, Description, Distinct, Func, Not, Or, Rule, Var,
                  is_ground, relation, variables)
from .kif import to_kif
from .tables import TABLE_LIMIT, estimate

# Where a keyword may stand.
_NEVER_IN_HEAD = {"true", "does", "distinct", "not", "or"}
_NEVER_IN_BODY = {"init", "next", "base", "input", "sees"}
# Keyword -> relations it must not depend on, directly or through other rules.
_FORBIDDEN_DEPS = {
    "role": ("true", "does"), "init": ("true", "does"), "base": ("true", "does"),
    "input": ("true", "does"), "legal": ("does",), "goal": ("does",), "terminal": ("does",),
}
# Relations that are given by the game state or the moves, never by rules.
_BUILT_IN = {"true", "does", "distinct"}
_INTEGER = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding: severity 'error' or 'warning', the rule's line and KIF text."""

    severity: str
    message: str
    line: int = 0
    rule: str = ""

    def format(self, filename: str = "<string>") -> str:
        """`file:line: severity: message`, then the rule text indented."""
        where = f"{filename}:{self.line}" if self.line else filename
        text = f"{where}: {self.severity}: {self.message}"
        return f"{text}\n    {self.rule}" if self.rule else text

    def as_dict(self) -> dict:
        """A JSON-ready view."""
        return {"severity": self.severity, "message": self.message, "line": self.line, "rule": self.rule}


def is_valid(diags: Iterable[Diagnostic]) -> bool:
    """True when no diagnostic is an error (warnings are allowed)."""
    return all(d.severity != "error" for d in diags)


def detect_gdl_version(desc: Description) -> int:
    """2 when the description uses GDL-II (`sees` or the `random` role), else 1."""
    for rule in desc.rules:
        if _head_name(rule) == "sees" or _is_random_role(rule):
            return 2
    return 1


def validate(desc: Description, gdl_version: int | None = None) -> list[Diagnostic]:
    """Check a description; the result is ordered by line (0 = whole description)."""
    if gdl_version not in (None, 1, 2):
        raise ValueError(f"gdl_version must be 1, 2 or None, not {gdl_version!r}")
    ctx = _Context(desc)
    found: list[Diagnostic] = []
    for check in (_check_required, _check_keywords, _check_dependencies, _check_safety,
                  _check_stratification, _check_recursion, _check_arities, _check_goals,
                  _check_defined):
        found.extend(check(ctx))
    found.extend(_check_gdl2(ctx, gdl_version))
    found.extend(_check_tables(desc))
    # Stable sort: within one line, diagnostics keep the order of the checks.
    return sorted(dict.fromkeys(found), key=lambda d: d.line)


# -- helpers ----------------------------------------------------------------

def _head_name(rule: Rule) -> str | None:
    head = rule.head
    if isinstance(head, (Const, Func)):
        return head.name
    return {Distinct: "distinct", Not: "not", Or: "or"}.get(type(head))


def _is_random_role(rule: Rule) -> bool:
    head = rule.head
    return (isinstance(head, Func) and head.name == "role" and len(head.args) == 1
            and head.args[0] == Const(RANDOM))


def _literals(body: Iterable[object], positive: bool = True) -> Iterator[tuple[object, bool]]:
    """Atoms, `distinct`s and malformed items under a body, with their polarity."""
    for lit in body:
        if isinstance(lit, Not):
            yield from _literals((lit.arg,), not positive)
        elif isinstance(lit, Or):
            yield from _literals(lit.args, positive)
        else:
            yield lit, positive


def _atoms(rule: Rule) -> Iterator[tuple[object, bool]]:
    return ((lit, pos) for lit, pos in _literals(rule.body) if relation(lit))


def _terms(node: object) -> Iterator[Const | Func]:
    """Every constant and compound term nested inside a node's arguments."""
    if isinstance(node, Func):
        stack = list(node.args)
    elif isinstance(node, Distinct):
        stack = [node.a, node.b]
    else:
        stack = []
    while stack:
        term = stack.pop()
        if isinstance(term, (Const, Func)):
            yield term
        if isinstance(term, Func):
            stack.extend(term.args)


class _Context:
    """A description plus its predicate dependency graph, computed once."""

    def __init__(self, desc: Description):
        self.rules: tuple[Rule, ...] = desc.rules
        # Edge p -> q when q occurs in the body of a rule for p; 'neg'/'pos'
        # record the polarities seen, so a cycle can be told negative.
        self.graph = nx.DiGraph()
        for rule in self.rules:
            head = _head_name(rule)
            if head is None or head in _BUILT_IN:
                continue  # misplaced heads are reported elsewhere
            self.graph.add_node(head)
            for atom, positive in _atoms(rule):
                name = atom.name
                data = self.graph.get_edge_data(head, name) or {"pos": False, "neg": False}
                data["pos" if positive else "neg"] = True
                self.graph.add_edge(head, name, **data)
        self.scc: dict[str, int] = {}
        for index, component in enumerate(nx.strongly_connected_components(self.graph)):
            for name in component:
                self.scc[name] = index

    def recursive_with(self, head: str | None, name: str) -> bool:
        """For `name` in a body of `head`: true when it lies on a cycle through `head`."""
        # The edge head -> name exists, so sharing an SCC means sharing a cycle.
        return head in self.scc and self.scc.get(name) == self.scc[head]

    def diag(self, severity: str, message: str, rule: Rule | None = None) -> Diagnostic:
        if rule is None:
            return Diagnostic(severity, message)
        return Diagnostic(severity, message, rule.line, to_kif(rule))


# -- checks -----------------------------------------------------------------

def _check_required(ctx: _Context) -> Iterator[Diagnostic]:
    heads = {_head_name(rule) for rule in ctx.rules}
    for name in ("role", "legal", "goal", "terminal"):
        if name not in heads:
            yield ctx.diag("error", f"missing '{name}': the description has no rule or fact for it")
    if "init" not in heads:
        yield ctx.diag("warning", "no 'init' facts: every fluent is false in the initial state")


def _check_keywords(ctx: _Context) -> Iterator[Diagnostic]:
    for rule in ctx.rules:
        head, name = rule.head, _head_name(rule)
        if name is None:
            yield ctx.diag("error", f"rule head {to_kif(head)} is not an atom", rule)
            continue
        if name in _NEVER_IN_HEAD:
            yield ctx.diag("error", f"'{name}' may not appear in a rule head", rule)
        elif relation(head):
            yield from _keyword_arity(ctx, rule, head)
        if name == "role" and rule.body:
            yield ctx.diag("error", "'role' must be given by ground facts, not by a rule with a body", rule)
        elif name == "role" and not is_ground(head):
            yield ctx.diag("error", "'role' facts must be ground", rule)
        for lit, _ in _literals(rule.body):
            if isinstance(lit, Distinct):
                continue
            if not relation(lit):
                yield ctx.diag("error", f"{to_kif(lit)} is not a literal", rule)
            elif lit.name in _NEVER_IN_BODY:
                yield ctx.diag("error", f"'{lit.name}' may not appear in a rule body", rule)
            else:
                yield from _keyword_arity(ctx, rule, lit)
        for term in (head, *(lit for lit, _ in _literals(rule.body))):
            for node in (term, *_terms(term)):
                if isinstance(node, Func) and not node.args:
                    yield ctx.diag("warning", f"({node.name}) has no arguments; write the constant "
                                   f"{node.name} instead", rule)


def _keyword_arity(ctx: _Context, rule: Rule, atom: Const | Func) -> Iterator[Diagnostic]:
    name, arity = relation(atom)
    expected = KEYWORD_ARITY.get(name)
    if expected is not None and arity != expected:
        yield ctx.diag("error", f"'{name}' takes {expected} argument{'s' * (expected != 1)}, "
                       f"not {arity}", rule)


def _check_dependencies(ctx: _Context) -> Iterator[Diagnostic]:
    # Everything that reaches `true` / `does` in the graph, found once.
    reaching = {name: nx.ancestors(ctx.graph, name) | {name}
                for name in ("true", "does") if name in ctx.graph}
    for rule in ctx.rules:
        head = _head_name(rule)
        for forbidden in _FORBIDDEN_DEPS.get(head, ()):
            culprit = next((atom.name for atom, _ in _atoms(rule)
                            if atom.name in reaching.get(forbidden, ())), None)
            if culprit is not None:
                path = [head, *nx.shortest_path(ctx.graph, culprit, forbidden)]
                yield ctx.diag("error", f"'{head}' must not depend on '{forbidden}' "
                               f"({' -> '.join(path)})", rule)


def _check_safety(ctx: _Context) -> Iterator[Diagnostic]:
    for rule in ctx.rules:
        # A variable is bound when every way of satisfying the body binds it:
        # by a positive atom, or by all the branches of a disjunction.
        bound: set[Var] = set()
        for lit in rule.body:
            bound |= _surely_bound(lit)
        needed = list(variables(rule.head))
        for lit, positive in _literals(rule.body):
            if isinstance(lit, Distinct) or not positive:
                needed.extend(variables(lit))
        unsafe = [v for v in dict.fromkeys(needed) if v not in bound]
        if unsafe:
            names = ", ".join("?" + v.name for v in unsafe)
            yield ctx.diag("error", f"unsafe rule: {names} must occur in a positive literal "
                           "of the body (not only in the head, a negation or a distinct)", rule)


def _surely_bound(lit: object) -> set[Var]:
    if isinstance(lit, (Const, Func)):
        return set(variables(lit))
    if isinstance(lit, Or) and lit.args:
        return set.intersection(*map(_surely_bound, lit.args))
    return set()


def _check_stratification(ctx: _Context) -> Iterator[Diagnostic]:
    # One report per strongly connected component: a single change breaks it.
    reported: set[int] = set()
    for rule in ctx.rules:
        head = _head_name(rule)
        for atom, positive in _atoms(rule):
            if positive or not ctx.recursive_with(head, atom.name) or ctx.scc[head] in reported:
                continue
            reported.add(ctx.scc[head])
            back = nx.shortest_path(ctx.graph, atom.name, head)
            steps = [head, f"not {atom.name}"]
            for src, dst in zip(back, back[1:]):
                edge = ctx.graph.edges[src, dst]
                steps.append(dst if edge["pos"] else f"not {dst}")
            yield ctx.diag("error", "negation cycle, the rules are not stratified: "
                           + " -> ".join(steps), rule)


def _check_recursion(ctx: _Context) -> Iterator[Diagnostic]:
    for rule in ctx.rules:
        head = _head_name(rule)
        head_args = set(rule.head.args) if isinstance(rule.head, Func) else set()
        # Terms every way of satisfying the body provides outside the cycle.
        # The conjunct holding a recursive literal adds nothing: that literal,
        # or the disjunction branch it sits in, contributes the empty set.
        support: set[object] = set()
        for lit in rule.body:
            support |= _sure_terms(ctx, head, lit)
        for atom, positive in _literals(rule.body):
            if not (positive and relation(atom) and ctx.recursive_with(head, atom.name)):
                continue
            bad = [t for t in getattr(atom, "args", ())
                   if not is_ground(t) and t not in head_args and t not in support]
            if bad:
                yield ctx.diag("error", f"recursion restriction violated: in {to_kif(atom)}, "
                               f"{', '.join(map(to_kif, bad))} is neither ground, nor an argument "
                               f"of the head, nor an argument of a body literal outside the "
                               f"recursion through '{head}'", rule)


def _check_tables(desc: Description) -> Iterator[Diagnostic]:
    # Valid GDL, but a grounding reasoner (the clingo machine, queries) refuses it.
    tables, total = estimate(desc)
    if total > TABLE_LIMIT:
        for t in tables:
            yield Diagnostic("warning", f"'{t.relation[0]}' recurses over the chain '{t.chain[0]}' of "
                             f"{t.length:,} constants: at least {t.facts:,} ground facts, with the other "
                             f"tables {total:,}, over the {TABLE_LIMIT:,} a grounder is given here",
                             t.rule.line, to_kif(t.rule))


def _sure_terms(ctx: _Context, head: str, lit: object) -> set[object]:
    if isinstance(lit, Func) and not ctx.recursive_with(head, lit.name):
        return set(lit.args)
    if isinstance(lit, Or) and lit.args:
        return set.intersection(*(_sure_terms(ctx, head, arg) for arg in lit.args))
    return set()


def _check_arities(ctx: _Context) -> Iterator[Diagnostic]:
    # name -> (arity, rule) of its first use; keywords have fixed arities,
    # checked by _check_keywords.
    relations: dict[str, tuple[int, Rule]] = {}
    functions: dict[str, tuple[int, Rule]] = {}
    for rule in ctx.rules:
        atoms = [rule.head, *(lit for lit, _ in _literals(rule.body))]
        seen: set[tuple[str, str]] = set()
        for kind, table, symbols in (
            ("relation", relations, [a for a in atoms if relation(a) and a.name not in KEYWORD_ARITY]),
            ("function", functions, [t for a in atoms for t in _terms(a)]),
        ):
            for symbol in symbols:
                name, arity = relation(symbol)
                first, where = table.setdefault(name, (arity, rule))
                if first != arity and (kind, name) not in seen:
                    seen.add((kind, name))
                    yield ctx.diag("error", f"arity clash: {kind} '{name}' has {arity} argument(s) "
                                   f"here but {first} at line {where.line}", rule)
    for name in sorted(relations.keys() & functions.keys()):
        yield ctx.diag("warning", f"'{name}' is used both as a relation (line {relations[name][1].line}) "
                       "and as a function symbol; is a 'true' missing?", functions[name][1])


def _check_goals(ctx: _Context) -> Iterator[Diagnostic]:
    for rule in ctx.rules:
        head = rule.head
        if not (isinstance(head, Func) and head.name == "goal" and len(head.args) == 2):
            continue
        value = head.args[1]
        if not is_ground(value):
            continue
        if not (isinstance(value, Const) and _INTEGER.fullmatch(value.name)):
            yield ctx.diag("error", f"goal value {to_kif(value)} is not an integer", rule)
        elif int(value.name) > 100:
            yield ctx.diag("error", f"goal value {value.name} is outside 0..100", rule)


def _check_defined(ctx: _Context) -> Iterator[Diagnostic]:
    defined = {_head_name(rule) for rule in ctx.rules}
    warned: set[str] = set()
    for rule in ctx.rules:
        for atom, _ in _atoms(rule):
            name = atom.name
            if name not in defined and name not in _BUILT_IN | _NEVER_IN_BODY and name not in warned:
                warned.add(name)
                yield ctx.diag("warning", f"relation '{name}' is used but never defined "
                               "(it is always false)", rule)


def _check_gdl2(ctx: _Context, declared: int | None) -> Iterator[Diagnostic]:
    sees = [rule for rule in ctx.rules if _head_name(rule) == "sees"]
    randoms = [rule for rule in ctx.rules if _is_random_role(rule)]
    if declared == 1:
        if sees:
            yield ctx.diag("error", "'sees' belongs to GDL-II, but the description was "
                           "declared GDL version 1", sees[0])
        if randoms:
            yield ctx.diag("warning", "in GDL version 1 the role 'random' is an ordinary "
                           "player, not chance", randoms[0])
        return
    if randoms and not any(_goal_may_cover_random(rule) for rule in ctx.rules):
        yield ctx.diag("warning", "the 'random' role has no goal rule", randoms[0])


def _goal_may_cover_random(rule: Rule) -> bool:
    head = rule.head
    return (isinstance(head, Func) and head.name == "goal" and len(head.args) == 2
            and (head.args[0] == Const(RANDOM) or isinstance(head.args[0], Var)))
