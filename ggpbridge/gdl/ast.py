"""Immutable AST for GDL and GDL-II descriptions written in KIF.

Case: GGP treats constants case-insensitively, so every name (constants,
function and relation symbols, variables) is lower-cased when a node is
built. `Const("XPlayer") == Const("xplayer")`, and printing then re-parsing a
description always gives back an equal AST. Keywords therefore need no
special treatment: they are lower case like everything else.

Every node carries the 1-based source line it started on (0 when unknown).
The line takes no part in equality or hashing, so a parsed AST compares equal
to one built by hand.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Union

# Relation symbols with a fixed meaning in GDL / GDL-II, with their arities.
KEYWORD_ARITY: dict[str, int] = {
    "role": 1, "init": 1, "true": 1, "next": 1, "legal": 2, "does": 2,
    "goal": 2, "terminal": 0, "base": 1, "input": 2, "sees": 2, "distinct": 2,
}
# Words the KIF reader treats as syntax: they cannot be plain constants.
RESERVED = frozenset({"<=", "not", "or", "distinct"})
RANDOM = "random"


def _lower(obj: object, attr: str) -> None:
    # Frozen dataclasses forbid plain assignment, hence object.__setattr__.
    object.__setattr__(obj, attr, getattr(obj, attr).lower())


def _tuple(obj: object, attr: str) -> None:
    value = getattr(obj, attr)
    if not isinstance(value, tuple):
        object.__setattr__(obj, attr, tuple(value))


@dataclass(frozen=True, slots=True)
class Const:
    """An object constant, or a 0-ary relation such as `terminal`."""

    name: str
    line: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        _lower(self, "name")


@dataclass(frozen=True, slots=True)
class Var:
    """A variable; `name` is written without the leading `?`."""

    name: str
    line: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        _lower(self, "name")


@dataclass(frozen=True, slots=True)
class Func:
    """A compound term `(name arg...)`, or a relation atom with arguments."""

    name: str
    args: tuple = ()
    line: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        _lower(self, "name")
        _tuple(self, "args")


@dataclass(frozen=True, slots=True)
class Not:
    """Negation as failure of a literal."""

    arg: "Literal"
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Or:
    """A disjunction of literals (the empty disjunction is false)."""

    args: tuple = ()
    line: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        _tuple(self, "args")


@dataclass(frozen=True, slots=True)
class Distinct:
    """The built-in inequality `(distinct a b)`."""

    a: "Term"
    b: "Term"
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Rule:
    """`(<= head body...)`; a fact is a rule whose body is empty."""

    head: "Atom"
    body: tuple = ()
    line: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        _tuple(self, "body")


@dataclass(frozen=True, slots=True)
class Description:
    """A whole game description: its rules in source order."""

    rules: tuple = ()

    def __post_init__(self) -> None:
        _tuple(self, "rules")


Term = Union[Const, Var, Func]
Atom = Union[Const, Func]
Literal = Union[Const, Func, Not, Or, Distinct]
Node = Union[Const, Var, Func, Not, Or, Distinct, Rule, Description]


def relation(atom: object) -> tuple[str, int] | None:
    """(name, arity) of a relation atom, or None for anything else."""
    if isinstance(atom, Const):
        return atom.name, 0
    if isinstance(atom, Func):
        return atom.name, len(atom.args)
    return None


def variables(node: object) -> Iterator[Var]:
    """Every variable occurrence under a node, left to right."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Var):
            yield item
        elif isinstance(item, Func):
            stack.extend(reversed(item.args))
        elif isinstance(item, Not):
            stack.append(item.arg)
        elif isinstance(item, Or):
            stack.extend(reversed(item.args))
        elif isinstance(item, Distinct):
            stack.extend((item.b, item.a))
        elif isinstance(item, Rule):
            stack.extend(reversed(item.body))
            stack.append(item.head)


def is_ground(node: object) -> bool:
    """True when the node contains no variable."""
    return next(variables(node), None) is None
