"""Typed errors and diagnostics, all positioned as file:line:col with a caret excerpt."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, TypeVar

_D = TypeVar("_D")


@dataclass(frozen=True, slots=True)
class Pos:
    """A source position (1-based line and column)."""

    line: int = 0
    col: int = 0

    def __bool__(self) -> bool:
        return self.line > 0


NOPOS = Pos()


@dataclass(frozen=True, slots=True)
class Source:
    """A named text, kept so that messages can quote the offending line."""

    name: str
    text: str

    def line(self, n: int) -> str:
        """The n-th line (1-based) without its newline, or '' when out of range.

        Lines end at '\\n' only, as the lexers count them (a form feed or a lone '\\r'
        inside a comment does not start one), and only the lines up to n are split.
        """
        lines = self.text.split("\n", n) if n > 0 else []
        return lines[n - 1].rstrip("\r") if 0 < n <= len(lines) else ""


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One message about a source: severity is 'error' or 'warning'."""

    severity: str
    message: str
    pos: Pos = NOPOS
    source: Source | None = field(default=None, compare=False)

    def format(self) -> str:
        """`file:line:col: severity: message`, then the line and a caret."""
        return format_message(self.severity, self.message, self.pos, self.source)

    def as_dict(self) -> dict:
        """A JSON-ready view."""
        return {
            "severity": self.severity,
            "message": self.message,
            "file": self.source.name if self.source else None,
            "line": self.pos.line,
            "col": self.pos.col,
        }


def only_errors(diags: Iterable[_D]) -> list[_D]:
    """The diagnostics of severity 'error' (the checker's and the GDL validator's alike):
    the ones that refuse a game, where warnings let it through."""
    return [d for d in diags if d.severity == "error"]


# control characters in a quoted line are shown as '?', one column each, so the caret stays
# under its character and binary data does not drive the terminal
_UNPRINTABLE = {c: "?" for c in [*range(32), 127]}


def format_message(severity: str, message: str, pos: Pos, source: Source | None) -> str:
    """Render a positioned message the way compilers do."""
    name = source.name if source else "<input>"
    head = f"{name}:{pos.line}:{pos.col}: {severity}: {message}" if pos else f"{name}: {severity}: {message}"
    if not (pos and source):
        return head
    text = source.line(pos.line).expandtabs(1).translate(_UNPRINTABLE)
    if not text.strip():
        return head
    caret = " " * max(pos.col - 1, 0) + "^"
    return f"{head}\n    {text}\n    {caret}"


def interrupted_by(stop: BaseException) -> str:
    """What stopped an interrupted search, for its `stopped by:` line: Ctrl-C, or the signal a
    KeyboardInterrupt subclass names (`cli.common.Terminated`: SIGTERM)."""
    return f"interrupted ({getattr(stop, 'signal_name', 'Ctrl-C')})"


class GgpBridgeError(Exception):
    """Base of every error the library raises on purpose."""


class MoveError(GgpBridgeError):
    """A state-machine query the game's rules refuse: an unknown role, an illegal or missing move, a move after the end."""


class PositionedError(GgpBridgeError):
    """An error located in a source file."""

    severity = "error"

    def __init__(self, message: str, pos: Pos = NOPOS, source: Source | None = None):
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.source = source

    def with_source(self, source: Source) -> "PositionedError":
        """Attach the source once it is known (errors raised deep down lack it)."""
        if self.source is None:
            self.source = source
        return self

    def diagnostic(self) -> Diagnostic:
        """The error as a Diagnostic."""
        return Diagnostic("error", self.message, self.pos, self.source)

    def __str__(self) -> str:
        return format_message(self.severity, self.message, self.pos, self.source)


class RecycleSyntaxError(PositionedError):
    """The text is not well-formed RECYCLE of the dialect being read."""


class NotTextError(RecycleSyntaxError):
    """Bytes that are no text (not UTF-8, or control characters): no dialect is tried on them."""


class NotRecycleError(PositionedError):
    """A GDL (KIF) file, by its suffix, given where a RECYCLE game is read."""


class GameDefinitionError(PositionedError):
    """The game is well-formed but its rules are inconsistent (found by the checker or at run time)."""


class UnsupportedConstructError(PositionedError):
    """A well-formed construct that a translation does not handle (yet): never wrong output."""

    severity = "unsupported"
