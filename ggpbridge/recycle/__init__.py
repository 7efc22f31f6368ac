"""RECYCLE front-end: read any dialect into the one IR, check it, describe it."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from .. import ir
from ..errors import Diagnostic, GameDefinitionError, NotRecycleError, PositionedError, Pos, Source
from ..filekinds import is_kif
from ..nesting import MAX_DEPTH, first_too_deep, line_col
from .dialects import DIALECTS, V03, detect, strip_comments


@dataclass
class Loaded:
    """A game read from a source, with what was learnt on the way."""

    game: ir.Game
    source: Source
    dialect: str
    dialect_reason: str
    warnings: list = field(default_factory=list)
    # what the simulator reads at the end of each play, label -> an integer expression of the
    # final state (a front-end's own statistics, e.g. G_cardgame's turns); empty for RECYCLE
    tallies: dict = field(default_factory=dict)
    # (tally label, bound): a play whose tally exceeds the bound is a crash (Table 5's limit)
    tally_limit: tuple | None = None
    # declared integer -> (lo, hi, what it is): the values a front-end's own declarations work
    # with (G_cardgame's deck size); empty for RECYCLE, whose designer states no range
    bounds: dict = field(default_factory=dict)

    def check_overrides(self, overrides: dict | None) -> None:
        """Refuse a --set integer outside its declaration's `bounds`: `--set SUITS=5` would
        otherwise keep the four suits silently, and SUITS=0 fail in every game at the deal.
        A value of the wrong kind is left to the simulator's check, which names the kind."""
        for var, value in (overrides or {}).items():
            if var in self.bounds and isinstance(value, int):
                lo, hi, what = self.bounds[var]
                if not lo <= value <= hi:
                    raise GameDefinitionError(f"--set {var}={value}: '{var} is declared as an integer in "
                                              f"{lo}..{hi} ({what}), not {value}", source=self.source)

    @cached_property
    def comments(self) -> list:
        """The `;;` comments as (Pos, text), scanned when first asked for: few commands keep them."""
        from .reader import scan_comments
        return scan_comments(self.source.text)


def parse_text(text: str, name: str = "<string>", dialect: str | None = None) -> Loaded:
    """Parse RECYCLE text of any dialect (detected unless given) into the IR."""
    from .builder import Builder
    from .builder03 import Builder03
    from .reader import read, refuse_binary

    source = Source(name, text)
    refuse_binary(source)  # before anything reads the whole text: binary data fails at once
    body = strip_comments(text)  # once: detection and the reader both skip the comments
    too_deep = first_too_deep(text)
    if too_deep is not None:   # before any recursive walk over the expressions can overflow
        from ..errors import RecycleSyntaxError
        raise RecycleSyntaxError(f"the game is nested deeper than {MAX_DEPTH} levels",
                                 Pos(*line_col(text, too_deep)), source)
    if dialect is None:
        det = detect(text, body)
        dialect, reason = det.dialect, det.reason
    elif dialect not in DIALECTS:
        raise ValueError(f"unknown dialect {dialect!r}; known: {', '.join(DIALECTS)}")
    else:
        reason = "given explicitly"
    try:
        parsed = read(source, dialect, body)
        warnings = list(parsed.warnings)
        cls = Builder03 if dialect == V03 else Builder
        game = cls(source, dialect, warnings).game(parsed.form)
    except PositionedError as e:
        raise e.with_source(source)
    except RecursionError:
        from ..errors import RecycleSyntaxError
        raise RecycleSyntaxError("the game is nested too deeply to read", source=source) from None
    return Loaded(game, source, dialect, reason, warnings)


# Re-reading an unreadable text in every dialect is cheap for a game and pointless for
# megabytes of something else: beyond this many characters only the detection is named.
_RETRY_UP_TO = 1_000_000


def why_unreadable(source: Source, given: str | None = None) -> str:
    """For a text that did not read: the dialect it was read as, and why no dialect fits it
    (where each one fails), or the dialect it does read as."""
    if given is not None:
        return f"v{given}, as given"
    det = detect(source.text)
    if not source.text.strip():
        return "no dialect fits: the file is empty"
    if len(source.text) > _RETRY_UP_TO:
        return f"v{det.dialect} by its content ({det.reason}); the other dialects not tried on so long a text"
    fails = []
    for d in (det.dialect, *(x for x in DIALECTS if x != det.dialect)):
        try:
            parse_text(source.text, source.name, d)
        except PositionedError as e:
            fails.append(f"v{d} at {e.pos.line}:{e.pos.col}" if e.pos else f"v{d}")
            continue
        if d != det.dialect:
            return f"v{det.dialect} by its content ({det.reason}), but it reads as v{d}: try --dialect {d}"
    first = fails[0].replace(" at ", " fails at ", 1)
    return f"no dialect fits: {first} (detected: {det.reason}), " + ", ".join(fails[1:])


def parse_file(path: str | Path, dialect: str | None = None) -> Loaded:
    """Read and parse a RECYCLE file (a KIF file is refused: NotRecycleError)."""
    p = Path(path)
    if is_kif(p):
        # read as RECYCLE, its first `;` comment would be the error: say what the file is instead
        raise NotRecycleError(f"a GDL (KIF) file, by its suffix {p.suffix}: this reads RECYCLE games (.rcy, and "
                              f"CardStock's .gdl)", source=Source(str(path), ""))
    from .reader import decode
    return parse_text(decode(p.read_bytes(), str(path)), str(path), dialect)


__all__ = ["Loaded", "parse_text", "parse_file", "why_unreadable", "Diagnostic", "V03"]
