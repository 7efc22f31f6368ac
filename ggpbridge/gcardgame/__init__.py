"""G_cardgame front-end (Font et al. 2013): read `.gcg` text into its syntax tree, check it,
and lower it into the one IR (`to_recycle`).

The language, the concrete syntax, every decision the paper leaves open and the lowering
(done, and still to do) are in docs/gcardgame.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Diagnostic, GameDefinitionError, Pos, PositionedError, Source, only_errors
from ..textfiles import NotUtf8, decode_utf8
from . import syntax
from .check import check
from .reader import GcardgameSyntaxError, read

SUFFIX = ".gcg"
# Table 5's crash rule: a play not finished within 100 turns, counted in the unit of
# decision 22 that our measurements settled on (docs/gcardgame.md, "Table 5")
TURN_LIMIT = ("rules", 100)


@dataclass
class Loaded:
    """A G_cardgame file read and checked: its syntax tree and the checker's diagnostics."""

    game: syntax.Game
    source: Source
    diagnostics: list = field(default_factory=list)

    @property
    def warnings(self) -> list:
        """The diagnostics that are warnings."""
        return [d for d in self.diagnostics if d.severity == "warning"]


def parse_text(text: str, name: str = "<string>", strict: bool = True) -> Loaded:
    """Read and check `.gcg` text. A syntax error raises GcardgameSyntaxError; with `strict`,
    the first checker error raises GameDefinitionError (else errors stay in `diagnostics`)."""
    source = Source(name, text)
    try:
        game = read(source)
    except PositionedError as e:
        raise e.with_source(source)
    except RecursionError:   # `+` chains are the only recursion; a pathological one is a syntax error
        raise GcardgameSyntaxError("the text is nested too deeply to read", source=source) from None
    diags = check(game, source)
    if strict:
        first = next(iter(only_errors(diags)), None)
        if first is not None:
            raise GameDefinitionError(first.message, first.pos, source)
    return Loaded(game, source, diags)


def to_recycle(loaded: Loaded, count: bool = False):
    """The game lowered to the IR, as the `recycle.Loaded` that the simulator, the translator
    and the lockstep check take (dialect 'gcardgame'). A construct not lowered (a `puin` of
    several cards, docs/gcardgame.md) raises UnsupportedConstructError at its position. With `count` (the simulator's
    statistics), the game counts its turns in both units of decision 22, and the result names
    the counters (`tallies`) and Table 5's limit (`tally_limit`)."""
    from ..recycle import Loaded as RecycleLoaded
    from .lower import DECK_BOUNDS, lower, tallies
    try:
        game = lower(loaded.game, count)
    except PositionedError as e:
        raise e.with_source(loaded.source)
    return RecycleLoaded(game, loaded.source, "gcardgame", "a G_cardgame file, lowered",
                         warnings=list(loaded.warnings), tallies=tallies() if count else {},
                         tally_limit=TURN_LIMIT if count else None, bounds=dict(DECK_BOUNDS))


def parse_file(path: str | Path, strict: bool = True) -> Loaded:
    """Read and check a `.gcg` file (UTF-8, a byte-order mark skipped; other bytes are an error)."""
    try:
        text = decode_utf8(Path(path).read_bytes())
    except NotUtf8 as e:   # as RECYCLE and KIF files: refused at the first bad byte, not guessed
        raise GcardgameSyntaxError(f"{e} (save the file as UTF-8)", Pos(e.line, e.col),
                                   Source(str(path), e.text)) from None
    return parse_text(text, str(path), strict)


__all__ = ["Loaded", "parse_text", "parse_file", "to_recycle", "check", "read", "GcardgameSyntaxError",
           "Diagnostic", "SUFFIX", "TURN_LIMIT", "syntax"]
