"""Which language a game file is written in, told by its suffix (ground layer: imports nothing)."""
from __future__ import annotations

from pathlib import Path

# CardStock's `.gdl` is RECYCLE v0.5.0, not GGP's GDL: it is deliberately absent here.
KIF_SUFFIXES = (".kif", ".gdl2", ".gdlii")


def is_kif(path: str | Path) -> bool:
    """True for files read as GGP KIF rather than RECYCLE (CardStock's `.gdl` is RECYCLE)."""
    return Path(path).suffix.lower() in KIF_SUFFIXES


DECKBUILD_SUFFIX = ".dbk"


def is_deckbuild(path: str | Path) -> bool:
    """True for a deck-building game module's settings file (`games/rpn.dbk`: docs/deckbuilding.md)."""
    return Path(path).suffix.lower() == DECKBUILD_SUFFIX
