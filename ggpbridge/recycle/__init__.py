"""RECYCLE front-end: read any dialect into the one IR, check it, describe it."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .. import ir
from ..errors import Diagnostic, NotRecycleError, PositionedError, Pos, Source
from ..nesting import MAX_DEPTH, first_too_deep, line_col
from .dialects import DIALECTS, V03, detect


@dataclass
class Loaded:
    """A game read from a source, with what was learnt on the way."""

    game: ir.Game
    source: Source
    dialect: str
    dialect_reason: str
    comments: list = field(default_factory=list)
    warnings: list = field(default_factory=list)


def parse_text(text: str, name: str = "<string>", dialect: str | None = None) -> Loaded:
    """Parse RECYCLE text of any dialect (detected unless given) into the IR."""
    from .builder import Builder
    from .builder03 import Builder03
    from .reader import read

    source = Source(name, text)
    too_deep = first_too_deep(text)
    if too_deep is not None:   # before any recursive walk over the expressions can overflow
        from ..errors import RecycleSyntaxError
        raise RecycleSyntaxError(f"the game is nested deeper than {MAX_DEPTH} levels",
                                 Pos(*line_col(text, too_deep)), source)
    if dialect is None:
        det = detect(text)
        dialect, reason = det.dialect, det.reason
    elif dialect not in DIALECTS:
        raise ValueError(f"unknown dialect {dialect!r}; known: {', '.join(DIALECTS)}")
    else:
        reason = "given explicitly"
    try:
        parsed = read(source, dialect)
        warnings = list(parsed.warnings)
        cls = Builder03 if dialect == V03 else Builder
        game = cls(source, dialect, warnings).game(parsed.form)
    except PositionedError as e:
        raise e.with_source(source)
    except RecursionError:
        from ..errors import RecycleSyntaxError
        raise RecycleSyntaxError("the game is nested too deeply to read", source=source) from None
    return Loaded(game, source, dialect, reason, parsed.comments, warnings)


def parse_file(path: str | Path, dialect: str | None = None) -> Loaded:
    """Read and parse a RECYCLE file (a KIF file is refused: NotRecycleError)."""
    from ..translate import is_kif
    p = Path(path)
    if is_kif(p):
        # read as RECYCLE, its first `;` comment would be the error: say what the file is instead
        raise NotRecycleError(f"a GDL (KIF) file, by its suffix {p.suffix}: this reads RECYCLE games (.rcy, and "
                              f"CardStock's .gdl)", source=Source(str(path), ""))
    data = p.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return parse_text(text, str(path), dialect)


__all__ = ["Loaded", "parse_text", "parse_file", "Diagnostic", "V03"]
