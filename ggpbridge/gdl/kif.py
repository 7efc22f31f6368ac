"""KIF reader and printer for GDL and GDL-II descriptions."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..nesting import MAX_DEPTH, first_too_deep, line_col
from ..textfiles import NotUtf8, decode_utf8
from .ast import Const, Description, Distinct, Func, Not, Or, Rule, Var
from .errors import KifSyntaxError

# NAME takes any run of characters KIF does not reserve, so numbers, `<=` and
# names such as `x-player` or `1+` are all NAMEs; the lexer callback below
# then retypes the four syntactic words. Doing it by hand (rather than with
# string terminals) keeps keyword matching case-insensitive and whole-word.
# A head may be named `not`, `or` or `distinct` so that the validator, not the
# parser, explains why such a rule is wrong.
_GRAMMAR = r"""
start: sentence*

?sentence: rule | fact
fact: head

rule: LPAR IMPLIES head literal* RPAR

head: NAME                         -> head_const
    | LPAR headname term* RPAR     -> head_func
!headname: NAME | NOT | OR | DISTINCT

?literal: atom | negation | disjunction | distinct
?atom: NAME                        -> const
     | LPAR NAME term* RPAR        -> func
negation: LPAR NOT literal RPAR
disjunction: LPAR OR literal* RPAR
distinct: LPAR DISTINCT term term RPAR

?term: NAME                        -> const
     | VAR                         -> var
     | LPAR NAME term* RPAR        -> func

LPAR: "("
RPAR: ")"
NAME: /[^\s()";?][^\s()";]*/
VAR: /\?[^\s()";]+/
COMMENT: /;[^\n]*/
%declare IMPLIES NOT OR DISTINCT
%import common.WS
%ignore WS
%ignore COMMENT
"""

_KEYWORDS = {"<=": "IMPLIES", "not": "NOT", "or": "OR", "distinct": "DISTINCT"}

_TOKEN_NAMES = {
    "NAME": "a name", "VAR": "a variable", "LPAR": "'('", "RPAR": "')'",
    "IMPLIES": "'<='", "NOT": "'not'", "OR": "'or'", "DISTINCT": "'distinct'",
    "$END": "end of input",
}


def _retype(token: Token) -> Token:
    kind = _KEYWORDS.get(token.value.lower())
    return Token.new_borrow_pos(kind, token.value, token) if kind else token


class _ToAst(Transformer):
    """Builds AST nodes while the LALR parser reduces (no recursion)."""

    def start(self, items):
        return Description(tuple(items))

    def rule(self, items):
        lpar, _, head, *rest = items
        return Rule(head, tuple(rest[:-1]), lpar.line)

    def fact(self, items):
        return Rule(items[0], (), items[0].line)

    def head_const(self, items):
        return Const(items[0].value, items[0].line)

    def head_func(self, items):
        lpar, name, *rest = items
        return Func(name.value, tuple(rest[:-1]), lpar.line)

    def headname(self, items):
        return items[0]

    def const(self, items):
        return Const(items[0].value, items[0].line)

    def var(self, items):
        return Var(items[0].value[1:], items[0].line)

    def func(self, items):
        lpar, name, *rest = items
        return Func(name.value, tuple(rest[:-1]), lpar.line)

    def negation(self, items):
        return Not(items[2], items[0].line)

    def disjunction(self, items):
        return Or(tuple(items[2:-1]), items[0].line)

    def distinct(self, items):
        return Distinct(items[2], items[3], items[0].line)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(_GRAMMAR, parser="lalr", lexer="basic", transformer=_ToAst(),
                lexer_callbacks={"NAME": _retype}, maybe_placeholders=False)


def read_kif(path: str | Path) -> Description:
    """Read and parse a KIF file; a file that is not UTF-8 is a KifSyntaxError at its first bad byte."""
    try:
        text = decode_utf8(Path(path).read_bytes(), strip_bom=False)   # parse_kif keeps a BOM's column
    except NotUtf8 as e:
        line = e.text[e.text.rfind("\n") + 1:]
        raise KifSyntaxError(f"the file is {e}", str(path), e.line, e.col, line) from None
    return parse_kif(text, str(path))


def parse_kif(text: str, filename: str = "<string>") -> Description:
    """Parse a GDL / GDL-II description written in KIF; nesting beyond MAX_DEPTH is a KifSyntaxError."""
    if text.startswith("\ufeff"):
        text = " " + text[1:]  # drop a byte-order mark, keeping columns
    _check_depth(text, filename)
    try:
        return _parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, filename) from None


def _check_depth(text: str, filename: str) -> None:
    at = first_too_deep(text)
    if at is not None:
        line, col = line_col(text, at)
        end = text.find("\n", at)
        raise KifSyntaxError(f"terms nested deeper than {MAX_DEPTH} levels", filename, line, col,
                             text[at - col + 1:end if end >= 0 else len(text)])


def _syntax_error(exc: UnexpectedInput, text: str, filename: str) -> KifSyntaxError:
    lines = text.splitlines()
    if isinstance(exc, UnexpectedCharacters):
        line, col = exc.line, exc.column
        char = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else "?"
        message = f"unexpected character {char!r}"
    elif isinstance(exc, UnexpectedEOF) or (
        isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
    ):
        line, col = _unclosed_paren(text)
        message = "unexpected end of input: this '(' is never closed"
    elif isinstance(exc, UnexpectedToken):
        line, col = exc.token.line, exc.token.column
        if exc.token.type == "RPAR" and "$END" in exc.expected:
            message = "unmatched ')': no '(' is open here"
        else:
            message = f"unexpected {_describe(exc.token)}, expected {_expected(exc.expected)}"
    else:  # pragma: no cover - lark has no other UnexpectedInput subclasses
        line, col, message = exc.line, exc.column, str(exc)
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    return KifSyntaxError(message, filename, line, col, source)


def _describe(token: Token) -> str:
    if token.type in ("NAME", "VAR"):
        return f"{token.type.lower().replace('var', 'variable')} {token.value!r}"
    if token.type in _KEYWORDS.values():
        return f"keyword {token.value!r}"
    return _TOKEN_NAMES.get(token.type, repr(token.value))


def _expected(kinds) -> str:
    words = sorted({_TOKEN_NAMES.get(k, k) for k in kinds})
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _unclosed_paren(text: str) -> tuple[int, int]:
    """Line and column of the innermost '(' still open at the end of text."""
    stack: list[tuple[int, int]] = []
    line, col, in_comment = 1, 0, False
    for char in text:
        col += 1
        if char == "\n":
            line, col, in_comment = line + 1, 0, False
        elif in_comment:
            continue
        elif char == ";":
            in_comment = True
        elif char == "(":
            stack.append((line, col))
        elif char == ")" and stack:
            stack.pop()
    return stack[-1] if stack else (line, col + 1)


def to_kif(node: object) -> str:
    """Canonical KIF text of any AST node (a Description gives one rule a line)."""
    if isinstance(node, Const):
        return node.name
    if isinstance(node, Var):
        return "?" + node.name
    if isinstance(node, Func):
        return "(" + " ".join([node.name, *map(to_kif, node.args)]) + ")"
    if isinstance(node, Not):
        return f"(not {to_kif(node.arg)})"
    if isinstance(node, Or):
        return "(" + " ".join(["or", *map(to_kif, node.args)]) + ")"
    if isinstance(node, Distinct):
        return f"(distinct {to_kif(node.a)} {to_kif(node.b)})"
    if isinstance(node, Rule):
        if not node.body:
            return to_kif(node.head)
        return "(" + " ".join(["<=", *map(to_kif, (node.head, *node.body))]) + ")"
    if isinstance(node, Description):
        return "".join(to_kif(rule) + "\n" for rule in node.rules)
    raise TypeError(f"not a GDL node: {node!r}")


def print_kif(desc: Description) -> str:
    """Print a description canonically: one rule a line, single spaces."""
    return to_kif(desc)
