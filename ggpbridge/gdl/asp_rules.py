"""GDL rules as clingo AST statements.

Every rule is built as `clingo.ast` nodes from the GDL AST, never by pasting
names into text: `distinct` becomes `!=`, a disjunction in a body becomes one
rule per way of satisfying it, negation stays negation as failure, and names
go through `asp_terms` (integers, plain names, escaped names).

A rule is rendered at a *time*: None for the time-free programs, or a clingo
term that is appended as a last argument to every atom of a relation that
depends on the state (see `dynamic_levels`).
"""
from __future__ import annotations

import itertools
from typing import Callable, Iterable, Iterator

import networkx as nx
from clingo import ast

from .ast import Const, Description, Distinct, Func, Not, Or, Rule, relation
from .asp_project import Aux, Projector
from .asp_terms import asp_name, term_ast
from .errors import AspError
from .kif import to_kif

Key = tuple[str, int]          # (relation name, arity)
TimeOf = Callable[[Key], "ast.AST | None"]

# Relations whose meaning is fixed by GDL and that change with the state.
_STATE_KEYWORDS: tuple[Key, ...] = (("true", 1), ("legal", 2), ("goal", 2), ("terminal", 0),
                                    ("next", 1), ("sees", 2))
_MOVE_KEYWORD: Key = ("does", 2)
_KEYWORDS = frozenset(("role", "init", "legal", "next", "goal", "terminal", "sees", "base", "input"))

# One body literal after expanding `or`: (sign, atom-or-comparison).
_Lit = tuple[ast.Sign, object]


def location(line: int, filename: str = "<gdl>") -> ast.Location:
    """A clingo source location for a GDL line (clingo reports errors with it)."""
    pos = ast.Position(filename, max(line, 1), 1)
    return ast.Location(pos, pos)


def dynamic_levels(desc: Description) -> dict[Key, str]:
    """'move' for relations that depend on `does`, 'state' for the others that depend on the state."""
    graph = nx.DiGraph()
    graph.add_nodes_from((*_STATE_KEYWORDS, _MOVE_KEYWORD))
    for rule in desc.rules:
        head = relation(rule.head)
        if head is None:
            continue
        graph.add_node(head)
        for lit in atoms_under(rule.body):
            graph.add_edge(head, relation(lit))
    levels: dict[Key, str] = {}
    for key in graph.nodes:
        reach = nx.descendants(graph, key) | {key}
        if _MOVE_KEYWORD in reach:
            levels[key] = "move"
        elif reach.intersection(_STATE_KEYWORDS):
            levels[key] = "state"
    return levels


def relations_needed(desc: Description, roots: Iterable[Key]) -> set[Key]:
    """The relations `roots` depend on through rule bodies, the roots included."""
    graph: dict[Key, set] = {}
    for rule in desc.rules:
        graph.setdefault(relation(rule.head), set()).update(map(relation, atoms_under(rule.body)))
    needed, todo = set(), list(roots)
    while todo:
        key = todo.pop()
        if key not in needed:
            needed.add(key)
            todo.extend(graph.get(key, ()))
    return needed


def restricted(desc: Description, keywords: Iterable[str]) -> Description:
    """The description with only the rules that the GDL keywords `keywords` depend on, and
    the declarations (`role`, `init`, `base`, `input`)."""
    wanted = set(keywords) | {"role", "init", "base", "input"}
    keep = relations_needed(desc, {relation(rule.head) for rule in desc.rules
                                   if rule.head.name in _KEYWORDS and rule.head.name in wanted})
    return Description(tuple(rule for rule in desc.rules if relation(rule.head) in keep))


def atoms_under(items: Iterable[object]) -> Iterator[Const | Func]:
    """The relation atoms of body literals, under `not` and `or` too."""
    for item in items:
        if isinstance(item, Not):
            yield from atoms_under((item.arg,))
        elif isinstance(item, Or):
            yield from atoms_under(item.args)
        elif relation(item):
            yield item


def render_rule(rule: Rule, time_of: TimeOf = lambda key: None, *,
                relaxed: bool = False, projector: Projector | None = None) -> list[ast.AST]:
    """The clingo rules for one GDL rule (several when its body holds an `or`, or is projected)."""
    loc = location(rule.line)
    owner = relation(rule.head)
    options: list[list[list[_Lit]]] = [_dnf(lit, rule) for lit in rule.body]
    # Auxiliary atoms take the head's time: the part they replace is evaluated
    # at the same time as the rule (static parts too, so that a step of the
    # temporal encoding never redefines an atom of an earlier step).
    time = time_of(owner) if owner is not None else None
    out: list[ast.AST] = []
    for choice in itertools.product(*options):
        body = [(sign, item) for sign, item in itertools.chain.from_iterable(choice)
                # the domain program over-approximates: negated atoms dropped
                if not (relaxed and sign != ast.Sign.NoSign and not isinstance(item, Distinct))]
        pairs = ([(rule.head, body)] if projector is None or owner is None
                 else projector.project(owner, rule.head, body, None if time is None else str(time)))
        for head, lits in pairs:
            out.append(ast.Rule(loc, ast.Literal(loc, ast.Sign.NoSign, _atom(head, loc, time_of, rule, time)),
                                [_literal(sign, item, loc, time_of, rule, time) for sign, item in lits]))
    return out


def render_rules(rules: Iterable[Rule], time_of: TimeOf = lambda key: None, *,
                 relaxed: bool = False, project: bool = False, aux_tag: str = "") -> list[ast.AST]:
    """`render_rule` over many rules, in order; `project` splits bodies (see `asp_project`).
    `aux_tag` (a digit and `_`, which no relation name starts with) keeps the auxiliary names
    of rules rendered for the same control apart from those of another rendering."""
    rules = tuple(rules)
    # One projector for the whole list: its auxiliary names are numbered per head
    # relation, so rendering the same rules again (at another time) gives the same names.
    # Static relations are computed by gringo into facts, whatever their rules look
    # like: projecting them would only add auxiliary facts (`plus` via `succ` doubles).
    dynamic = dynamic_levels(Description(rules)) if project else {}
    projector = Projector(dynamic, aux_tag) if project else None
    # A recursive rule stays whole: its parts join the relation being built, so their
    # tables grow with it (gops' running sum of points: 1.4M auxiliary atoms).
    loops = _recursive_rules(rules) if project else set()
    return [stm for i, rule in enumerate(rules)
            for stm in render_rule(rule, time_of, relaxed=relaxed,
                                   projector=projector if relation(rule.head) in dynamic and i not in loops
                                   else None)]


def _recursive_rules(rules: tuple[Rule, ...]) -> set[int]:
    """Indices of the rules whose body uses a relation that depends on their head."""
    graph = nx.DiGraph()
    for rule in rules:
        head = relation(rule.head)
        if head is not None:
            graph.add_edges_from((head, relation(lit)) for lit in atoms_under(rule.body))
    component = {key: i for i, keys in enumerate(nx.strongly_connected_components(graph)) for key in keys}
    return {i for i, rule in enumerate(rules) if relation(rule.head) is not None
            and any(component[relation(lit)] == component[relation(rule.head)] for lit in atoms_under(rule.body))}


def _dnf(lit: object, rule: Rule) -> list[list[_Lit]]:
    """A body literal as alternatives (a disjunction) of conjunctions of signed literals."""
    if isinstance(lit, Or):
        return [conj for arg in lit.args for conj in _dnf(arg, rule)]
    if isinstance(lit, Not):
        return [_negate(lit.arg, rule)]
    if isinstance(lit, Distinct) or relation(lit):
        return [[(ast.Sign.NoSign, lit)]]
    raise AspError(f"line {rule.line}: {to_kif(lit)} is not a literal: {to_kif(rule)}")


def _negate(lit: object, rule: Rule) -> list[_Lit]:
    """`(not lit)` as one conjunction (De Morgan for `or`, double negation for `not`)."""
    if isinstance(lit, Or):
        return [item for arg in lit.args for item in _negate(arg, rule)]
    if isinstance(lit, Not) and (isinstance(lit.arg, Distinct) or relation(lit.arg)):
        return [(ast.Sign.DoubleNegation, lit.arg)]
    if isinstance(lit, Distinct) or relation(lit):
        return [(ast.Sign.Negation, lit)]
    raise AspError(f"line {rule.line}: cannot translate the negation of {to_kif(lit)}: {to_kif(rule)}")


def _comparison(item: Distinct, loc: ast.Location, sign: ast.Sign) -> ast.AST:
    # `not a != b` is `a = b`; clingo also has double negation, but plain
    # comparisons read better in the generated program.
    op = ast.ComparisonOperator.Equal if sign == ast.Sign.Negation else ast.ComparisonOperator.NotEqual
    cmp = ast.Comparison(term_ast(item.a, loc), [ast.Guard(op, term_ast(item.b, loc))])
    return ast.Literal(loc, ast.Sign.NoSign, cmp)


def _literal(sign: ast.Sign, item: object, loc: ast.Location, time_of: TimeOf, rule: Rule,
             time: ast.AST | None) -> ast.AST:
    if isinstance(item, Distinct):
        return _comparison(item, loc, sign)
    return ast.Literal(loc, sign, _atom(item, loc, time_of, rule, time))


def _atom(atom: object, loc: ast.Location, time_of: TimeOf, rule: Rule,
          aux_time: ast.AST | None = None) -> ast.AST:
    if isinstance(atom, Aux):
        args = [term_ast(arg, loc) for arg in atom.args]
        name, time = atom.name, aux_time
    else:
        key = relation(atom)
        if key is None:
            raise AspError(f"line {rule.line}: {to_kif(atom)} is not an atom: {to_kif(rule)}")
        args = [term_ast(arg, loc) for arg in getattr(atom, "args", ())]
        name, time = asp_name(key[0]), time_of(key)
    if time is not None:
        args.append(time)
    return ast.SymbolicAtom(ast.Function(loc, name, args, False))
