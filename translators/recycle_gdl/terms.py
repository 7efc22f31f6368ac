"""Small constructors for the GDL AST, and how RECYCLE values are spelt as GDL terms.

Every name is made of `[a-z0-9_]`: RECYCLE names are lower-cased (they are `[A-Z]+` in
v0.5.10, letters and digits in v0.3); our own constants contain an underscore or a
digit after a letter so that they cannot meet a RECYCLE name; negative integers are
`m<digits>`; the empty string (an unset storage, a missing attribute) is `no_value`.
"""
from __future__ import annotations

import re

from ggpbridge.gdl.ast import Const, Distinct, Func, Not, Rule, Var

NO_VALUE = "no_value"
NONE = "no_one"           # the empty `next` slot of a player cycle
TABLE = "table"           # the owner `game`
RESERVED = {"noop", "random", "table", "terminal", "true", "next", "init", "legal", "does", "goal", "role",
            "base", "input", "sees", "distinct", "not", "or",
            # function symbols of our own fluents, moves and percepts
            "at", "int", "str", "points", "parg", "cyc", "cycdepth", "pc", "var", "sc", "team", "pick", "count",
            "inf", "done", "nx", "in", "tally", "el",
            # relations of the translation with one-word names
            "current", "size", "occupied", "keep", "shifted", "succ", "less", "leq", "plus", "times", "num",
            "index", "isucc", "depth", "dsucc", "label", "swapped", "grows", "shrinks", "reached", "beaten",
            "put", "take", "ins", "rm", "swap", "physical", "ordered", "bag", "busy", "mine", "overflow", "deeper", "room", "draw",
            "stale", "stale_draw", "shuffling", "positive", "negative"}


def const(x) -> Const:
    """A constant for an int, a RECYCLE name or one of our own words."""
    if isinstance(x, bool):
        raise TypeError("booleans are not GDL values")
    if isinstance(x, int):
        return Const(str(x) if x >= 0 else f"m{-x}")
    return Const(x)


def name(value: str) -> Const:
    """A RECYCLE name (an attribute value, a storage or location name) as a constant."""
    if value == "":
        return Const(NO_VALUE)
    s = re.sub(r"[^a-z0-9]", "_", str(value).lower())
    if s in RESERVED or "_" in s or re.fullmatch(r"(option|pat|l)\d*", s):
        s = "n_" + s
    return Const(s)


def term(x):
    """A term from an AST node, an int or a string (strings are our own words)."""
    if isinstance(x, (Const, Var, Func)):
        return x
    return const(x)


def f(fn: str, *args):
    """A function term or relation atom; with no arguments a constant."""
    if not args:
        return Const(fn)
    return Func(fn, tuple(term(a) for a in args))


def true(x) -> Func:
    return Func("true", (x,))


def neg(x) -> Not:
    return Not(x)


def distinct(a, b) -> Distinct:
    return Distinct(term(a), term(b))


def rule(head, *body) -> Rule:
    return Rule(head, tuple(body))


class Fresh:
    """Fresh variable and helper-predicate names, deterministic per translation."""

    def __init__(self):
        self.nv = 0
        self.np = 0

    def var(self, hint: str = "x") -> Var:
        self.nv += 1
        return Var(f"{hint.lower()}{self.nv}")

    def pred(self, hint: str) -> str:
        self.np += 1
        return f"h{self.np}_{hint}"
