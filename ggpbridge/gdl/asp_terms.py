"""GDL names and terms as clingo names, AST terms and Symbols, and back.

Naming (deterministic and reversible, so a Symbol read from a model names the
GDL term it came from):

- a constant in canonical decimal form that fits clingo's 32-bit integers
  (`0`, `17`, not `007`) becomes the integer;
- a name matching `[a-z][a-z0-9_]*` keeps its spelling (`not`, the one
  identifier clingo reserves, excepted);
- any other name (`x-pos`, `1+`, `_a`, `007`) is escaped: `_q` followed by the
  name's UTF-8 bytes, `[a-z0-9]` as they are and every other byte as `_` plus
  two upper-case hex digits (`x-pos` -> `_qx_2Dpos`). Plain names never start
  with `_`, so escaped names cannot clash with them; and neither can the
  helper predicates of the encodings in `asp/`, which start with `_` and a
  letter other than `q`;
- a variable `?x` becomes `X` (first letter upper-cased), or `_V` plus the
  escaped name when the name is not plain.
"""
from __future__ import annotations

import re
from functools import lru_cache

import clingo
from clingo import ast

from .ast import Const, Description, Func, Var, is_ground
from .errors import GdlError
from .kif import parse_kif, to_kif

_PLAIN = re.compile(r"[a-z][a-z0-9_]*")
_INTEGER = re.compile(r"0|[1-9][0-9]*")
_ESCAPED = re.compile(r"_q((?:[a-z0-9]|_[0-9A-F]{2})*)")
_RESERVED = frozenset({"not"})
_KEEP = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789")
_INT_MAX = 2**31 - 1
_LOCATION = ast.Location(ast.Position("<gdl>", 0, 0), ast.Position("<gdl>", 0, 0))


def _escape(name: str) -> str:
    return "".join(chr(b) if b in _KEEP else f"_{b:02X}" for b in name.encode())


def asp_name(name: str) -> str:
    """The clingo identifier for a GDL relation, function or constant name."""
    if _PLAIN.fullmatch(name) and name not in _RESERVED:
        return name
    return "_q" + _escape(name)


def gdl_name(name: str) -> str:
    """The GDL name behind a clingo identifier made by `asp_name`."""
    match = _ESCAPED.fullmatch(name)
    if not match:
        return name
    body, out = match.group(1), bytearray()
    i = 0
    while i < len(body):
        if body[i] == "_":
            out.append(int(body[i + 1:i + 3], 16))
            i += 3
        else:
            out.append(ord(body[i]))
            i += 1
    return out.decode()


def asp_variable(name: str) -> str:
    """The clingo variable for a GDL variable name (written without `?`)."""
    if _PLAIN.fullmatch(name):
        return name[0].upper() + name[1:]
    return "_V" + _escape(name)


def as_integer(name: str) -> int | None:
    """The integer a GDL constant stands for in clingo, or None."""
    if _INTEGER.fullmatch(name) and int(name) <= _INT_MAX:
        return int(name)
    return None


@lru_cache(maxsize=1 << 16)
def term_symbol(term: Const | Func) -> clingo.Symbol:
    """The clingo Symbol of a ground GDL term."""
    # cached: the lockstep converts the simulator's whole state at every decision
    if isinstance(term, Const):
        number = as_integer(term.name)
        return clingo.Number(number) if number is not None else clingo.Function(asp_name(term.name))
    if isinstance(term, Func):
        return clingo.Function(asp_name(term.name), [term_symbol(arg) for arg in term.args])
    raise GdlError(f"not a ground term: {to_kif(term)}")


def symbol_term(symbol: clingo.Symbol) -> Const | Func:
    """The GDL term behind a Symbol made by `term_symbol`."""
    if symbol.type == clingo.SymbolType.Number:
        return Const(str(symbol.number))
    if symbol.type == clingo.SymbolType.Function and symbol.name and symbol.positive:
        name = gdl_name(symbol.name)
        return Func(name, tuple(map(symbol_term, symbol.arguments))) if symbol.arguments else Const(name)
    raise GdlError(f"{symbol} does not stand for a GDL term")


def symbol_kif(symbol: clingo.Symbol) -> str:
    """KIF text of a Symbol, e.g. `(mark 1 1)`."""
    return to_kif(symbol_term(symbol))


def kif_symbol(text: str) -> clingo.Symbol:
    """The Symbol of one ground KIF term, e.g. `kif_symbol("(mark 1 1)")`."""
    desc: Description = parse_kif(text)
    if len(desc.rules) != 1 or desc.rules[0].body or not is_ground(desc.rules[0].head):
        raise GdlError(f"not a single ground term: {text!r}")
    return term_symbol(desc.rules[0].head)


def term_ast(term: Const | Var | Func, location: ast.Location = _LOCATION) -> ast.AST:
    """The clingo AST term of a GDL term."""
    if isinstance(term, Var):
        return ast.Variable(location, asp_variable(term.name))
    if isinstance(term, Const):
        number = as_integer(term.name)
        if number is not None:
            return ast.SymbolicTerm(location, clingo.Number(number))
        return ast.SymbolicTerm(location, clingo.Function(asp_name(term.name)))
    if isinstance(term, Func):
        args = [term_ast(arg, location) for arg in term.args]
        return ast.Function(location, asp_name(term.name), args, False)
    raise GdlError(f"not a GDL term: {term!r}")
