"""Surface parsing of RECYCLE text into positioned S-expressions, with lark (LALR).

The three dialects share one bracket structure and differ in their lexicon, so each
gets a grammar built from the shared rules below plus its own terminals. The typed
reading of these lists into the IR is done by `builder`.

CardStock's ANTLR lexer skips white space between the one-character tokens of
`INTNUM+` and `LETT+`, so `6 7` can be read as the number 67; whether it is depends
on the parse, so the builder (not this lexer) joins such runs where CardStock would.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache

import lark

from ..errors import Diagnostic, Pos, RecycleSyntaxError, Source
from .dialects import KEYWORDS, V03


@dataclass(slots=True)
class Atom:
    """A token: kind is 'kw', 'name', 'int', 'var' or 'op'."""

    kind: str
    text: str
    pos: Pos
    joined: bool = False

    def __repr__(self) -> str:
        return self.text


@dataclass(slots=True)
class SList:
    """A parenthesised list with the positions of its brackets."""

    items: list
    pos: Pos
    end: Pos = field(default_factory=Pos)

    def __repr__(self) -> str:
        return "(" + " ".join(map(repr, self.items)) + ")"


@dataclass
class Parsed:
    """The outcome of surface parsing: the game form, comments and warnings."""

    form: SList
    comments: list  # of (Pos, text)
    warnings: list  # of Diagnostic


_SHARED = r"""
start: _top*
_top: list | _atom | RPAR
list: LPAR (list | KW | NAME | INT | VAR | OP)* RPAR
_atom: KW | NAME | INT | VAR | OP
LPAR: "("
RPAR: ")"
OP: "==" | "!=" | "<=" | ">=" | "<" | ">" | "+" | "-" | "*" | "//" | "%" | "^" | ".." | "," | ":"
COMMENT: /;;[^\n]*/
%ignore /[ \t\r\n\f]+/
%ignore COMMENT
"""

_V05_TERMINALS = r"""
KW: /[a-z]+/
NAME: /[A-Z]+/
INT: /[0-9]+/
VAR: /'[ \t\r\n]*[A-Z]+/
"""


def _v03_terminals() -> str:
    # v0.3 names may be lowercase or digits (`rank`, `3`); keywords are the reserved words.
    kws = "|".join(sorted(KEYWORDS[V03], key=len, reverse=True))
    word = rf"(?!(?:{kws})(?![A-Za-z0-9_]))[A-Za-z0-9_]+"
    return (
        f"KW.2: /(?:{kws})(?![A-Za-z0-9_])/\n"
        r"INT.1: /[0-9]+(?![A-Za-z_])/" "\n"
        f"NAME: /{word}/\n"
        r"VAR: /'[ \t\r\n]*[A-Za-z]+/" "\n"
    )


@lru_cache(maxsize=None)
def _parser(dialect: str) -> lark.Lark:
    terms = _v03_terminals() if dialect == V03 else _V05_TERMINALS
    return lark.Lark(_SHARED + terms, parser="lalr", lexer="basic", transformer=_ToSExpr(), maybe_placeholders=False)


class _ToSExpr(lark.Transformer):
    """Turns lark trees into SList/Atom while parsing (no tree is kept)."""

    def start(self, items):
        return items

    def list(self, items):
        lpar, rpar = items[0], items[-1]
        return SList([_atom(t) if isinstance(t, lark.Token) else t for t in items[1:-1]],
                     Pos(lpar.line, lpar.column), Pos(rpar.line, rpar.column))


_WS = re.compile(r"\s+")


def _atom(tok: lark.Token) -> Atom:
    kind = {"KW": "kw", "NAME": "name", "INT": "int", "VAR": "var", "OP": "op"}[tok.type]
    text = str(tok)
    if kind == "var":
        text = _WS.sub("", text[1:])
    return Atom(kind, text, Pos(tok.line, tok.column))


def read(source: Source, dialect: str) -> Parsed:
    """Parse the text into its game form, collecting comments and lexical warnings."""
    comments: list = []
    warnings: list = []
    text = source.text
    try:
        top = _parse(text, dialect, comments)
    except lark.UnexpectedInput as e:
        if dialect == V03 and _unclosed(text, dialect) == 1:
            # v0.3's grammar let `scoring` swallow the game's final ')'; files relied on it.
            comments.clear()
            try:
                top = _parse(text + "\n)", dialect, comments)
            except lark.UnexpectedInput:   # not the one missing ')' after all: report the text as it is
                raise _syntax_error(e, text, dialect, source) from None
            line = text.count("\n") + 1
            warnings.append(Diagnostic("warning", "the game form is not closed: a final ')' is assumed (v0.3 files often lack it)",
                                       Pos(line, len(text.rsplit("\n", 1)[-1]) + 1), source))
        else:
            raise _syntax_error(e, text, dialect, source) from None
    forms = [x for x in top if isinstance(x, SList)]
    if not forms:
        raise RecycleSyntaxError("no game form: the file holds no '(game ...)'", Pos(1, 1), source)
    form = forms[0]
    extra = [x for x in top if x is not form]
    if extra:
        first = extra[0]
        p = first.pos if isinstance(first, (SList, Atom)) else Pos(first.line, first.column)
        warnings.append(Diagnostic("warning", "text after the game form is ignored", p, source))
    return Parsed(form, comments, warnings)


def _parse(text: str, dialect: str, comments: list) -> list:
    p = _parser(dialect)
    # the parser is shared and cached, so comments are gathered by a scan, not lexer callbacks
    result = p.parse(text[1:] if text.startswith("\ufeff") else text)
    comments.extend(_scan_comments(text))
    return result


_COMMENT_RE = re.compile(r";;[^\n]*")


def _scan_comments(text: str) -> list:
    out = []
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    for m in _COMMENT_RE.finditer(text):
        line = bisect.bisect_right(line_starts, m.start())
        out.append((Pos(line, m.start() - line_starts[line - 1] + 1), m.group()[2:].rstrip()))
    return out


def _paren_tokens(text: str, dialect: str):
    """Positions of '(' and ')' outside comments, via the dialect's own lexer."""
    p = _parser(dialect)
    try:
        for t in p.lex(text):
            if t.type in ("LPAR", "RPAR"):
                yield t
    except lark.UnexpectedInput:
        return


def _unclosed(text: str, dialect: str) -> int:
    depth = 0
    for t in _paren_tokens(text, dialect):
        depth += 1 if t.type == "LPAR" else -1
    return depth


def _syntax_error(e: lark.UnexpectedInput, text: str, dialect: str, source: Source) -> RecycleSyntaxError:
    if isinstance(e, lark.UnexpectedCharacters):
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else "?"
        hint = " (a single ';' is not a comment: RECYCLE comments start with ';;')" if ch == ";" else ""
        return RecycleSyntaxError(f"unexpected character {ch!r}{hint}", Pos(e.line, e.column), source)
    # Only an unbalanced bracket can fail this grammar: find the unclosed '('.
    stack = []
    for t in _paren_tokens(text, dialect):
        if t.type == "LPAR":
            stack.append(t)
        elif stack:
            stack.pop()
    if stack:
        t = stack[-1] if len(stack) == 1 else stack[0]
        return RecycleSyntaxError(f"'(' is never closed ({len(stack)} unclosed at end of file)", Pos(t.line, t.column), source)
    return RecycleSyntaxError(f"unexpected {getattr(e, 'token', 'end of input')!s}", Pos(getattr(e, "line", 1), getattr(e, "column", 1)), source)
