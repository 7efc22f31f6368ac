"""A fast reader for well-formed KIF: the lark parser of kif.py costs about 5 µs a token, so a
generated description of 200,000 facts took seconds to read before any check ran.

It reads exactly the grammar of kif.py and builds the same AST with the same lines. It only
has to be right on text that grammar accepts: at the first thing it does not expect it gives
up (None), and the lark parser reads the text again, for its positioned error message.
"""
from __future__ import annotations

import re

from .ast import Const, Description, Distinct, Func, Not, Or, Rule, Var

# The tokens of one line (kif.py's terminals), blanks before them skipped.
_TOKEN = re.compile(r'[ \t\f\r]*([()]|\?[^\s()";]+|[^\s()";?][^\s()";]*)')
# What no token takes, and lark's reader reports: a '"', a lone '?', a blank its WS does not
# take (a vertical tab, a no-break space...). Also found inside comments: then lark reads the text.
_UNREAD = re.compile(r'"|\?(?![^\s()";])|[^\S \t\f\r\n]')
_KEYWORDS = frozenset({"<=", "not", "or", "distinct"})


class _GiveUp(Exception):
    pass


def read_fast(text: str) -> Description | None:
    """The description in `text`, or None where the text is not plain well-formed KIF."""
    if _UNREAD.search(text):
        return None
    tokens: list[str] = []
    lines: list[int] = []
    for number, line in enumerate(text.split("\n"), 1):
        if ";" in line:
            line = line[:line.index(";")]   # a comment: KIF has no strings a ';' could be in
        found = _TOKEN.findall(line)   # every character is a blank or starts a token, _UNREAD aside
        if found:
            tokens += found
            lines += [number] * len(found)
    try:
        return _Reader(tokens, lines).description()
    except (_GiveUp, IndexError):   # IndexError: the text ends inside a form
        return None


class _Reader:
    """Recursive descent over the tokens; the nesting is bounded by nesting.MAX_DEPTH beforehand."""

    def __init__(self, tokens: list[str], lines: list[int]):
        self.tokens, self.lines = tokens, lines
        self.at = 0

    def next(self) -> tuple[str, int]:
        at = self.at
        self.at = at + 1
        return self.tokens[at], self.lines[at]

    def name(self, allow: frozenset = frozenset()) -> str:
        tok = self.tokens[self.at]
        self.at += 1
        if tok in "()" or tok[0] == "?" or (tok.lower() in _KEYWORDS and tok.lower() not in allow):
            raise _GiveUp
        return tok

    def description(self) -> Description:
        rules = []
        while self.at < len(self.tokens):
            tok, line = self.next()
            if tok != "(":
                rules.append(Rule(self.const(tok, line), (), line))
            elif self.tokens[self.at].lower() == "<=":
                self.at += 1
                head = self.head()
                body = []
                while self.tokens[self.at] != ")":
                    body.append(self.literal())
                self.at += 1
                rules.append(Rule(head, tuple(body), line))
            else:
                rules.append(Rule(self.func_head(line), (), line))
        return Description(tuple(rules))

    def const(self, tok: str, line: int) -> Const:
        if tok == ")" or tok[0] == "?" or tok.lower() in _KEYWORDS:
            raise _GiveUp
        return Const(tok, line)

    def head(self) -> Const | Func:
        tok, line = self.next()
        return self.func_head(line) if tok == "(" else self.const(tok, line)

    def func_head(self, line: int) -> Func:
        # a head may be named not, or, distinct: the validator explains why that is wrong
        name = self.name(allow=frozenset({"not", "or", "distinct"}))
        return Func(name, self.terms(), line)

    def terms(self) -> tuple:
        args = []
        while self.tokens[self.at] != ")":
            args.append(self.term())
        self.at += 1
        return tuple(args)

    def term(self) -> Const | Var | Func:
        tok, line = self.next()
        if tok == "(":
            return Func(self.name(), self.terms(), line)
        if tok[0] == "?":
            return Var(tok[1:], line)
        return self.const(tok, line)

    def literal(self):
        tok, line = self.next()
        if tok != "(":
            return self.const(tok, line)
        word = self.tokens[self.at].lower()
        if word == "not":
            self.at += 1
            arg = self.literal()
            if self.next()[0] != ")":
                raise _GiveUp
            return Not(arg, line)
        if word == "or":
            self.at += 1
            args = []
            while self.tokens[self.at] != ")":
                args.append(self.literal())
            self.at += 1
            return Or(tuple(args), line)
        if word == "distinct":
            self.at += 1
            a, b = self.term(), self.term()
            if self.next()[0] != ")":
                raise _GiveUp
            return Distinct(a, b, line)
        return Func(self.name(), self.terms(), line)
