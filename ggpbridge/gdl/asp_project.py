"""Body projection: split rule bodies so that gringo grounds fewer rules.

gringo grounds a rule once per instantiation of *all* its variables. When some
variables occur only in a part of the body, and not in the head, that part can
be replaced by an auxiliary atom over the variables it shares with the rest
(existential projection):

    h(V,C) :- s(P,I,B,K), e(P,I,C), p(C,V).
becomes
    _aux_h_2_1(P,I) :- s(P,I,B,K).
    h(V,C) :- _aux_h_2_1(P,I), e(P,I,C), p(C,V).

and the instantiations of B and K no longer multiply those of C and V. The
answer sets restricted to the game's own predicates stay the same: the
auxiliary atom holds exactly when the part it replaces has a match, and it only
occurs positively, so no negative dependency and no stratum changes.

The choice is greedy bucket elimination: repeatedly take a variable that is not
in the head, whose literals (the *group*) leave the fewest *free* shared
variables, then form the smallest set of variables. A shared variable is free
when no literal of the group that reads the state binds it, nor a static one
whose other variables are bound (`plus(K,1,R)` once K is): a free variable
ranges over a whole table, and the auxiliary atom with it (lost_cities' score
product: 4.4 million auxiliary atoms when the product's table was taken before
the count that fixes its factor, 140,000 after). Project the group when

- the rest of the body is not empty (otherwise the split only copies the rule),
- the rest has a variable the group lacks (otherwise nothing multiplies the
  eliminated variables, and the auxiliary rule only adds to the program),
- the group is safe alone: every variable of a negative literal or comparison
  of the group occurs in a positive literal of the group (the positive literals
  that bind such a variable join the group, which may then take the whole body),
- the group reads the state, or shares at most one variable with the rest (when
  the projector is told which relations depend on the state): a part made only
  of static relations is a join gringo computes into facts anyway, and its
  auxiliary table over two or more variables can be as large as the join itself
  (`plus` with its sum dropped is `plus` again).

The rest stays safe: a variable it shares with the group is an argument of the
auxiliary atom. Auxiliary rules are projected in turn, and a group met again,
up to the names of its variables, reuses its auxiliary predicate.

This module works on rule bodies after `or` is expanded, as lists of signed
literals (`clingo.ast.Sign`, and a GDL atom, a `Distinct` or an `Aux`); turning
them into clingo statements, with the time argument, is `asp_rules`'s job.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from clingo import ast

from .ast import Distinct, Func, Var, relation, variables
from .asp_terms import asp_name

# Every auxiliary predicate is `_aux_` + its owner's clingo name + arity + a
# number: game names are plain (a lower-case letter first) or escaped (`_q`
# first), and the encodings' helpers never start with `_aux_`, so none clashes.
AUX_PREFIX = "_aux_"


@dataclass(frozen=True)
class Aux:
    """An atom of an auxiliary predicate: a clingo name over GDL variables."""

    name: str
    args: tuple = ()


Lit = tuple  # (ast.Sign, GDL atom | Distinct | Aux)


def literal_variables(lit: Lit) -> frozenset:
    """The variables of a signed literal."""
    item = lit[1]
    return frozenset(item.args) if isinstance(item, Aux) else frozenset(variables(item))


def binds(lit: Lit) -> bool:
    """True for the literals that bind their variables in clingo: positive atoms."""
    return lit[0] == ast.Sign.NoSign and not isinstance(lit[1], Distinct)


class Projector:
    """Projects the rules of one program; names and shares their auxiliary predicates."""

    def __init__(self, dynamic=None, tag: str = "") -> None:
        # the relations (name, arity) that depend on the state; None: treat every one so
        self._dynamic = None if dynamic is None else frozenset(dynamic)
        # put after AUX_PREFIX: a program rendered apart from another one it is grounded with
        # (the lookahead's copy) numbers its auxiliaries apart (see render_rules)
        self._tag = tag
        self._static_aux: set[str] = set()
        self._count: Counter = Counter()
        # (group, arguments, time key), variables renamed -> name: one auxiliary
        # predicate per part, even when several rules (or several `or` alternatives)
        # contain it under different variable names.
        self._known: dict[tuple, str] = {}

    def project(self, owner: tuple[str, int], head: object, body: list[Lit],
                time_key: object = None) -> list[tuple[object, list[Lit]]]:
        """`head :- body` as new auxiliary rules followed by the rule itself, rewritten."""
        # `owner` names the auxiliary predicates; `time_key` tells apart renderings
        # whose auxiliary atoms get different time arguments.
        out: list[tuple[object, list[Lit]]] = []
        self._split(owner, head, list(body), time_key, out)
        return out

    def _split(self, owner, head, body: list[Lit], time_key, out: list) -> None:
        head_vars = frozenset(variables(head)) if not isinstance(head, Aux) else frozenset(head.args)
        while True:
            step = _best_group(head_vars, body, self._reads_state)
            if step is None:
                break
            group, shared = step
            key = (_canonical(group, shared), len(shared), time_key)
            name = self._known.get(key)
            aux = Aux(name or self._fresh(owner), shared)
            if name is None:
                self._known[key] = aux.name
                if not any(self._reads_state(lit) for lit in group):
                    self._static_aux.add(aux.name)
                self._split(owner, aux, group, time_key, out)
            first = body.index(group[0])
            rest = [lit for lit in body if lit not in group]
            rest.insert(min(first, len(rest)), (ast.Sign.NoSign, aux))
            body = rest
        out.append((head, body))

    def _reads_state(self, lit: Lit) -> bool:
        item = lit[1]
        if self._dynamic is None:
            return True
        if isinstance(item, Aux):
            return item.name not in self._static_aux
        if isinstance(item, Distinct):
            return False
        return relation(item) in self._dynamic

    def _fresh(self, owner: tuple[str, int]) -> str:
        self._count[owner] += 1
        return f"{AUX_PREFIX}{self._tag}{asp_name(owner[0])}_{owner[1]}_{self._count[owner]}"


def _best_group(head_vars: frozenset, body: list[Lit], reads_state=lambda lit: True):
    """The group to project next and its shared variables (in order), or None."""
    lit_vars = [literal_variables(lit) for lit in body]
    order: dict[Var, int] = {}
    for lit in body:
        for v in _ordered(lit):
            order.setdefault(v, len(order))
    bound = frozenset().union(*(vs for vs, lit in zip(lit_vars, body) if binds(lit)))
    if not head_vars | frozenset(order) <= bound:
        return None  # an unsafe rule stays whole, so that clingo reports it as it was written
    best = None
    for var in sorted(set(order) - head_vars, key=order.__getitem__):
        inside = _safe_group(var, body, lit_vars)
        group_vars = frozenset().union(*(lit_vars[i] for i in inside))
        # A comparison over the group's variables filters it early and may leave a
        # variable local; a negative literal stays put, as it may read the state
        # and turn a static group (facts) into rules the solver sees.
        inside |= {i for i, vs in enumerate(lit_vars)
                   if vs and vs <= group_vars and isinstance(body[i][1], Distinct)}
        if len(inside) == len(body):
            continue
        rest_vars = frozenset().union(*(vs for i, vs in enumerate(lit_vars) if i not in inside))
        if rest_vars <= group_vars:
            continue
        if (not any(reads_state(body[i]) for i in inside)
                and len(group_vars & (rest_vars | head_vars)) > 1):
            continue  # a static join: its table over two or more variables may be as big as the join
        shared = group_vars & (rest_vars | head_vars)
        rank = (len(shared - _determined(inside, body, lit_vars, reads_state)), len(group_vars), order[var])
        if best is None or rank < best[0]:
            best = (rank, [body[i] for i in sorted(inside)], tuple(sorted(shared, key=order.__getitem__)))
    return None if best is None else best[1:]


def _determined(inside: set[int], body: list[Lit], lit_vars: list[frozenset], reads_state) -> frozenset:
    """The group's variables that its state-reading literals bind, or static ones then fix."""
    # A static literal with a single variable left (`plus(K,1,R)` once K is known) is
    # taken to fix it, as the arithmetic tables do; a variable that only a static
    # table binds ranges over the whole table, and so does the auxiliary atom.
    known = frozenset().union(*(lit_vars[i] for i in inside if binds(body[i]) and reads_state(body[i])))
    static = [lit_vars[i] for i in inside if binds(body[i]) and not reads_state(body[i])]
    while True:
        more = frozenset().union(*(vs - known for vs in static if len(vs - known) == 1))
        if not more:
            return known
        known |= more


def _safe_group(var: Var, body: list[Lit], lit_vars: list[frozenset]) -> set[int]:
    """Indices of the literals with `var`, and of the positive ones their comparisons and negations need."""
    inside = {i for i, vs in enumerate(lit_vars) if var in vs}
    while True:
        bound = frozenset().union(*(lit_vars[i] for i in inside if binds(body[i])))
        needed = frozenset().union(*(lit_vars[i] for i in inside if not binds(body[i])))
        # A positive literal of the rest that binds a needed variable joins the group;
        # the variable, if the rest still has it, becomes an argument of the auxiliary atom.
        more = {i for i, vs in enumerate(lit_vars) if binds(body[i]) and vs & (needed - bound)} - inside
        if not more:
            return inside
        inside |= more


def _canonical(group: list[Lit], shared: tuple) -> tuple:
    """The group with its variables renamed by first occurrence, the shared ones first."""
    names: dict[Var, Var] = {}
    for var in shared:
        names[var] = Var(f"v{len(names)}")
    for lit in group:
        for var in _ordered(lit):
            names.setdefault(var, Var(f"v{len(names)}"))
    return tuple((sign, _rename(item, names)) for sign, item in group)


def _rename(item: object, names: dict[Var, Var]) -> object:
    if isinstance(item, Var):
        return names[item]
    if isinstance(item, Func):
        return Func(item.name, tuple(_rename(arg, names) for arg in item.args))
    if isinstance(item, Distinct):
        return Distinct(_rename(item.a, names), _rename(item.b, names))
    if isinstance(item, Aux):
        return Aux(item.name, tuple(names[arg] for arg in item.args))
    return item


def _ordered(lit: Lit):
    item = lit[1]
    return item.args if isinstance(item, Aux) else variables(item)
