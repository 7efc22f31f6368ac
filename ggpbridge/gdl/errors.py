"""Exceptions raised by the GDL layer."""
from __future__ import annotations

from ..errors import MoveError


class GdlError(Exception):
    """Base of every error the GDL layer raises on purpose."""


class KifSyntaxError(GdlError):
    """The text is not well-formed KIF/GDL; positions are 1-based."""

    def __init__(self, message: str, filename: str, line: int, col: int, source_line: str = ""):
        super().__init__(message)
        self.message = message
        self.filename = filename
        self.line = line
        self.col = col
        self.source_line = source_line

    def __str__(self) -> str:
        head = f"{self.filename}:{self.line}:{self.col}: error: {self.message}"
        text = self.source_line.expandtabs(1).rstrip()
        if not text.strip():
            return head
        # expandtabs(1) keeps one column per character, so the caret lines up.
        caret = " " * max(self.col - 1, 0) + "^"
        return f"{head}\n    {text}\n    {caret}"

    def __reduce__(self):
        # Keep the exception picklable despite the extra constructor arguments.
        return (type(self), (self.message, self.filename, self.line, self.col, self.source_line))


class AspError(GdlError):
    """clingo rejected a translated description (the message carries clingo's own report)."""


class GameError(GdlError, MoveError):
    """A state machine query that the game's rules do not allow."""


class UnknownRoleError(GameError):
    """A role that the description does not declare."""


class IllegalMoveError(GameError):
    """A joint move that is incomplete or holds a move that is not legal in the state."""
