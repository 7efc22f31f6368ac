"""GGP messages: reading and printing the S-expressions of the GGP HTTP protocol.

A message is one S-expression: `(info)`, `(start id role (rules...) sc pc)`,
`(play id moves)` or, in GDL-II, `(play id turn lastmove percepts)`, the
same two forms of `stop`, `(abort id)` and `(preview (rules...) clock)`.
Keywords and names are case-insensitive (everything is lower-cased as it is
read, like the KIF reader does); `nil` and `()` both stand for "nothing".
The rules inside `start`/`preview` are handed to the KIF reader as the text
between their outer parentheses, so a description reads exactly as a file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from ..errors import GgpBridgeError
from ..gdl.ast import Const, Description, Func
from ..gdl.errors import GdlError
from ..gdl.kif import parse_kif, to_kif
from ..nesting import MAX_DEPTH


class GgpError(GgpBridgeError):
    """Base of the errors of the GGP bridge (player, manager, export)."""


class ProtocolError(GgpError):
    """A message that is not a well-formed GGP message."""


class SList(tuple):
    """A parenthesised list of the message, with its (start, end) offsets in the text."""

    span: tuple[int, int] = (0, 0)


SExpr = Union[str, SList]
_TOKEN = re.compile(r'\s+|;[^\n]*|\(|\)|"(?:[^"\\]|\\.)*"|[^\s()";]+|"')


def read_sexpr(text: str) -> SExpr:
    """The one S-expression of `text` (atoms keep their spelling)."""
    stack: list[tuple[int, list]] = []
    result: SExpr | None = None
    for match in _TOKEN.finditer(text):
        token, at = match.group(), match.start()
        if token[0].isspace() or token[0] == ";":
            continue
        if result is not None:
            raise ProtocolError(f"text after the end of the message at offset {at}: {_excerpt(token)}")
        if token == "(":
            if len(stack) == MAX_DEPTH:   # as the KIF reader: the walks over terms recurse
                raise ProtocolError(f"terms nested deeper than {MAX_DEPTH} levels at offset {at}")
            stack.append((at, []))
        elif token == ")":
            if not stack:
                raise ProtocolError(f"unmatched ')' at offset {at}")
            start, items = stack.pop()
            node = SList(items)
            node.span = (start, match.end())
            if stack:
                stack[-1][1].append(node)
            else:
                result = node
        elif token == '"':
            raise ProtocolError(f"unterminated string at offset {at}")
        elif stack:
            stack[-1][1].append(token)
        else:
            result = token
    if stack:
        raise ProtocolError(f"unexpected end of message: the '(' at offset {stack[-1][0]} is never closed")
    if result is None:
        raise ProtocolError("empty message")
    return result


def sexpr_term(node: SExpr) -> Const | Func:
    """The ground GDL term written by an S-expression (`(mark 1 1)`, `noop`)."""
    if isinstance(node, str):
        if node.startswith("?") or node.startswith('"'):
            raise ProtocolError(f"not a ground term: {_excerpt(node)}")
        return Const(node)
    if not node or not isinstance(node[0], str):
        raise ProtocolError(f"not a term: a list must start with a name: {_excerpt(node)}")
    return Func(node[0], tuple(sexpr_term(arg) for arg in node[1:]))


def print_sexpr(node: SExpr) -> str:
    """The S-expression as text, single spaces."""
    if isinstance(node, str):
        return node
    return "(" + " ".join(map(print_sexpr, node)) + ")"


def _excerpt(node: SExpr, limit: int = 60) -> str:
    """The node as text for an error message, cut to `limit` characters (a message may be megabytes)."""
    text = print_sexpr(node)
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def _is_nil(node: SExpr) -> bool:
    return (isinstance(node, str) and node.lower() == "nil") or node == ()


# -- the messages -----------------------------------------------------------

Term = Union[Const, Func]


@dataclass(frozen=True)
class Info:
    """`(info)`: is the player there, and is it free?"""


@dataclass(frozen=True)
class Start:
    """`(start id role (rules) startclock playclock)`."""

    match_id: str
    role: str
    rules: str  # the description as KIF text (the inside of the rules list)
    startclock: float
    playclock: float

    def description(self) -> Description:
        """The rules, read by the KIF reader."""
        return read_rules(self.rules)


@dataclass(frozen=True)
class Play:
    """`(play id moves)` (GDL) or `(play id turn lastmove percepts)` (GDL-II); also `stop`."""

    match_id: str
    moves: tuple[Term, ...] | None = None       # GDL: the joint move, None at the first turn
    turn: int | None = None                     # GDL-II only from here on
    last_move: Term | None = None
    percepts: tuple[Term, ...] | None = None

    def __post_init__(self):
        if self.turn is not None and self.percepts is None:
            object.__setattr__(self, "percepts", ())  # NIL and () are the same empty list

    @property
    def gdl2(self) -> bool:
        """True for the GDL-II form."""
        return self.turn is not None


@dataclass(frozen=True)
class Stop(Play):
    """`(stop ...)`: the same two forms as `play`."""


@dataclass(frozen=True)
class Abort:
    """`(abort id)`."""

    match_id: str


@dataclass(frozen=True)
class Preview:
    """`(preview (rules) previewclock)`."""

    rules: str
    clock: float


Message = Union[Info, Start, Play, Stop, Abort, Preview]


def read_rules(text: str) -> Description:
    """A description sent in a message, as the KIF reader reads it."""
    try:
        return parse_kif(text, "<rules>")
    except GdlError as exc:
        raise ProtocolError(f"the rules are not well-formed KIF: {exc}") from None


def parse_message(text: str) -> Message:
    """Read one GGP message; a ProtocolError says what is wrong."""
    node = read_sexpr(text)
    if isinstance(node, str) or not node or not isinstance(node[0], str):
        raise ProtocolError("a message is a list that starts with a keyword, such as (info)")
    keyword, args = node[0].lower(), node[1:]
    reader = _READERS.get(keyword)
    if reader is None:
        raise ProtocolError(f"unknown message {_excerpt(node[0])}; expected one of "
                            + ", ".join(sorted(_READERS)))
    return reader(text, args)


def _match_id(node: SExpr) -> str:
    if not isinstance(node, str):
        raise ProtocolError(f"a match id is a name, not {_excerpt(node)}")
    return node.lower()


def _clock(node: SExpr, what: str) -> float:
    try:
        value = float(node) if isinstance(node, str) else None
    except ValueError:
        value = None
    if value is None or not value > 0 or value != value or value == float("inf"):
        raise ProtocolError(f"the {what} must be a positive number of seconds, not {_excerpt(node)}")
    return value


def _arity(name: str, args: tuple, *counts: int) -> None:
    if len(args) not in counts:
        forms = {"start": "(start id role (rules) startclock playclock)",
                 "play": "(play id moves) or (play id turn lastmove percepts)",
                 "stop": "(stop id moves) or (stop id turn lastmove percepts)",
                 "abort": "(abort id)", "info": "(info)", "preview": "(preview (rules) clock)"}
        raise ProtocolError(f"{name} takes {' or '.join(map(str, counts))} argument(s), got {len(args)}; "
                            f"the form is {forms[name]}")


def _rules_text(text: str, node: SExpr) -> str:
    if isinstance(node, str):
        raise ProtocolError(f"the rules must be a list of sentences, not {_excerpt(node)}")
    # ggp-base's runner (the Dresden GameController's) wraps the rules in one more list:
    # (start id role (((role a) ...)) sc pc). No sentence starts with a list, so a list
    # whose only item is a list of lists is a wrapper.
    while len(node) == 1 and isinstance(node[0], SList) and node[0] and isinstance(node[0][0], SList):
        node = node[0]
    start, end = node.span
    return text[start + 1:end - 1]


def _read_info(text, args):
    _arity("info", args, 0)
    return Info()


def _read_start(text, args):
    _arity("start", args, 5)
    match_id, role, rules, sc, pc = args
    if not isinstance(role, str):
        raise ProtocolError(f"a role is a name, not {_excerpt(role)}")
    return Start(_match_id(match_id), role.lower(), _rules_text(text, rules),
                 _clock(sc, "start clock"), _clock(pc, "play clock"))


def _term_list(node: SExpr, what: str) -> tuple[Term, ...]:
    if _is_nil(node):
        return ()
    if isinstance(node, str):
        raise ProtocolError(f"the {what} must be a list, not {_excerpt(node)}")
    return tuple(sexpr_term(item) for item in node)


def _read_play(text, args, cls=Play):
    name = cls.__name__.lower()
    _arity(name, args, 2, 4)
    match_id = _match_id(args[0])
    if len(args) == 2:
        moves = None if _is_nil(args[1]) else _term_list(args[1], "joint move")
        return cls(match_id, moves=moves)
    turn, last, percepts = args[1:]
    if not (isinstance(turn, str) and turn.isdigit()):
        raise ProtocolError(f"the turn must be a natural number, not {_excerpt(turn)}")
    last_move = None if _is_nil(last) else sexpr_term(last)
    return cls(match_id, turn=int(turn), last_move=last_move, percepts=_term_list(percepts, "percepts"))


def _read_stop(text, args):
    return _read_play(text, args, Stop)


def _read_abort(text, args):
    _arity("abort", args, 1)
    return Abort(_match_id(args[0]))


def _read_preview(text, args):
    _arity("preview", args, 2)
    return Preview(_rules_text(text, args[0]), _clock(args[1], "preview clock"))


_READERS = {"info": _read_info, "start": _read_start, "play": _read_play, "stop": _read_stop,
            "abort": _read_abort, "preview": _read_preview}


# -- printing ---------------------------------------------------------------

def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _terms(terms) -> str:
    return "(" + " ".join(map(to_kif, terms)) + ")"


def rules_list(desc: Description) -> str:
    """The description as the rules list of a START message, one line."""
    return "(" + " ".join(to_kif(rule) for rule in desc.rules) + ")"


def print_message(message: Message) -> str:
    """The canonical text of a message, lower case (upper-case it for managers that shout)."""
    if isinstance(message, Info):
        return "(info)"
    if isinstance(message, Start):
        return (f"(start {message.match_id} {message.role} ({message.rules}) "
                f"{_num(message.startclock)} {_num(message.playclock)})")
    if isinstance(message, Play):
        head = f"({type(message).__name__.lower()} {message.match_id}"
        if not message.gdl2:
            return f"{head} {'nil' if message.moves is None else _terms(message.moves)})"
        if message.turn == 0 and message.last_move is None:
            return f"{head} 0 nil nil)"  # the GDL-II protocol writes both as NIL at turn 0
        last = "nil" if message.last_move is None else to_kif(message.last_move)
        return f"{head} {message.turn} {last} {_terms(message.percepts or ())})"
    if isinstance(message, Abort):
        return f"(abort {message.match_id})"
    if isinstance(message, Preview):
        return f"(preview ({message.rules}) {_num(message.clock)})"
    raise TypeError(f"not a GGP message: {message!r}")


def info_reply(name: str, busy: bool) -> str:
    """The reply to INFO."""
    return f"((name {name}) (status {'busy' if busy else 'available'}))"


def error_reply(message: str) -> str:
    """The reply to a message the player cannot take: `(error "...")`, one line."""
    clean = " ".join(message.replace("\\", "/").replace('"', "'").split())
    return f'(error "{clean}")'


def parse_move_reply(text: str) -> Term:
    """The move a player answered (one ground term)."""
    node = read_sexpr(text)
    if isinstance(node, SList) and node and isinstance(node[0], str) and node[0].lower() == "error":
        raise ProtocolError(f"the player answered with an error: {_excerpt(node, 300)}")
    return sexpr_term(node)
