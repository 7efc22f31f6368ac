"""One entry from a game file to the IR the engines take, whatever front-end reads it.

A `.gcg` file is G_cardgame (`ggpbridge.gcardgame`, checked and lowered); any other is RECYCLE
in whichever dialect its content shows (a GGP KIF file is refused there: NotRecycleError).
"""
from __future__ import annotations

from pathlib import Path


def load_game(path: str | Path, dialect: str | None = None, count: bool = False):
    """The game file as a `recycle.Loaded` (its IR, source and warnings). `dialect` is RECYCLE's
    and must be None for a G_cardgame file. `count` asks a front-end that has statistics of its
    own for them (G_cardgame's turns: `Loaded.tallies`); RECYCLE has none and ignores it."""
    from .filekinds import is_deckbuild
    if is_deckbuild(path):
        from .errors import GgpBridgeError
        raise GgpBridgeError(f"{path}: a deck-building game module (docs/deckbuilding.md), not a card-game "
                             f"language file: check, simulate, show, report, translate, crosscheck, query, "
                             f"replay and match take it; this command does not")
    if is_gcardgame(path):
        from . import gcardgame
        if dialect is not None:
            from .errors import GgpBridgeError
            raise GgpBridgeError(f"--dialect {dialect} names a RECYCLE dialect; {path} is a G_cardgame file")
        return gcardgame.to_recycle(gcardgame.parse_file(path), count)
    from .recycle import parse_file
    return parse_file(path, dialect)


def language(dialect: str) -> str:
    """How outputs name the language a `Loaded` was read in: `RECYCLE v0.5.10`, `G_cardgame`."""
    return "G_cardgame" if dialect == "gcardgame" else f"RECYCLE v{dialect}"


def is_gcardgame(path: str | Path) -> bool:
    """Whether a file is read by the G_cardgame front-end (by its suffix, `.gcg`)."""
    return Path(path).suffix.lower() == ".gcg"
