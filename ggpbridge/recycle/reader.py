"""Surface parsing of RECYCLE text into positioned S-expressions, with lark (LALR).

The three dialects share one bracket structure and differ in their lexicon, so each
gets a grammar built from the shared rules below plus its own terminals. The typed
reading of these lists into the IR is done by `builder`.

CardStock's ANTLR lexer skips white space between the one-character tokens of
`INTNUM+` and `LETT+`, so `6 7` can be read as the number 67; whether it is depends
on the parse, so the builder (not this lexer) joins such runs where CardStock would.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

import lark

from ..errors import Diagnostic, NotTextError, Pos, RecycleSyntaxError, Source
from ..nesting import line_col
from ..textfiles import NotUtf8, decode_utf8
from .dialects import COMMENT, KEYWORDS, V03, strip_comments


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
    """The outcome of surface parsing: the game form and warnings."""

    form: SList
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


def decode(data: bytes, name: str) -> str:
    """The text of a file's bytes (UTF-8, an optional BOM); RecycleSyntaxError at the first byte that is not."""
    try:
        return decode_utf8(data)
    except NotUtf8 as e:
        source = Source(name, e.text)   # the text up to the bad byte locates it and lets the diagnostic quote its line
        refuse_binary(source)  # an earlier control character is the first bad byte
        raise NotTextError(f"{e} (is this a RECYCLE file? save it as UTF-8)", Pos(e.line, e.col),
                                 source) from None


# C0 control characters other than white space: no RECYCLE text has them, binary data does
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


def refuse_binary(source: Source) -> None:
    """RecycleSyntaxError at the first control character: the text is not a game, whatever follows."""
    m = _CONTROL.search(source.text)
    if m:
        raise NotTextError(f"binary data: the control character U+{ord(m.group()):04X} cannot appear "
                                 "in a RECYCLE file", _pos_at(source.text, m.start()), source)


def _pos_at(text: str, offset: int) -> Pos:
    return Pos(*line_col(text, offset))


def read(source: Source, dialect: str, body: str | None = None) -> Parsed:
    """Parse the text into its game form, collecting lexical warnings.

    `body` is the text already stripped of its comments (`dialects.strip_comments`), when known.
    """
    warnings: list = []
    # Deleting the comments moves no token, and the lexer then meets one white-space run
    # where it met a token per comment.
    text = strip_comments(source.text) if body is None else body
    text = text[1:] if text.startswith("\ufeff") else text  # positions count from after a BOM, as the lexer's do
    try:
        top = _parse(text, dialect)
    except lark.UnexpectedInput as e:
        if dialect == V03 and _unclosed(text) == 1:
            # v0.3's grammar let `scoring` swallow the game's final ')'; files relied on it.
            try:
                top = _parse(text + "\n)", dialect)
            except lark.UnexpectedInput:   # not the one missing ')' after all: report the text as it is
                raise _syntax_error(e, text, source) from None
            warnings.append(Diagnostic("warning", "the game form is not closed: a final ')' is assumed (v0.3 files often lack it)",
                                       _pos_at(source.text, len(source.text)), source))
        else:
            raise _syntax_error(e, text, source) from None
    forms = [x for x in top if isinstance(x, SList)]
    if not forms:
        raise RecycleSyntaxError("no game form: the file holds no '(game ...)'", Pos(1, 1), source)
    form = forms[0]
    extra = [x for x in top if x is not form]
    if extra:
        first = extra[0]
        p = first.pos if isinstance(first, (SList, Atom)) else Pos(first.line, first.column)
        warnings.append(Diagnostic("warning", "text after the game form is ignored", p, source))
    return Parsed(form, warnings)


def _parse(text: str, dialect: str) -> list:
    return _parser(dialect).parse(text)


def scan_comments(text: str) -> list:
    """The `;;` comments of a text as (Pos, text after ';;'), in order.

    The parser is shared and cached, so comments are gathered by a scan, not lexer
    callbacks; lines are counted between comments, so the cost is linear in the text.
    """
    out = []
    line, counted = 1, 0
    for m in COMMENT.finditer(text):
        start = m.start()
        line += text.count("\n", counted, start)
        counted = start
        out.append((Pos(line, start - text.rfind("\n", 0, start)), m.group()[2:].rstrip()))
    return out


_BRACKET = re.compile(r"[()]")


def _unclosed(text: str) -> int:
    # With the comments gone every '(' and ')' is a bracket token (no other token holds
    # one), so brackets are counted without lexing again.
    return text.count("(") - text.count(")")


def _syntax_error(e: lark.UnexpectedInput, text: str, source: Source) -> RecycleSyntaxError:
    if isinstance(e, lark.UnexpectedCharacters):
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else "?"
        hint = " (a single ';' is not a comment: RECYCLE comments start with ';;')" if ch == ";" else ""
        return RecycleSyntaxError(f"unexpected character {ch!r}{hint}", Pos(e.line, e.column), source)
    # Only an unbalanced bracket can fail this grammar, and the whole text lexed: find the unclosed '('.
    stack = []
    for m in _BRACKET.finditer(text):
        if m.group() == "(":
            stack.append(m.start())
        elif stack:
            stack.pop()
    if stack:
        at = stack[-1] if len(stack) == 1 else stack[0]
        return RecycleSyntaxError(f"'(' is never closed ({len(stack)} unclosed at end of file)", _pos_at(text, at), source)
    return RecycleSyntaxError(f"unexpected {getattr(e, 'token', 'end of input')!s}", Pos(getattr(e, "line", 1), getattr(e, "column", 1)), source)
