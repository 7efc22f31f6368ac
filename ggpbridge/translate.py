"""One entry point from a game file (RECYCLE or KIF) to a GDL / GDL-II description."""
from __future__ import annotations

from pathlib import Path

from .gdl.ast import Description
from .gdl.kif import parse_kif

KIF_SUFFIXES = (".kif", ".gdl2", ".gdlii")


def is_kif(path: str | Path) -> bool:
    """True for files read as GGP KIF rather than RECYCLE (CardStock's `.gdl` is RECYCLE)."""
    return Path(path).suffix.lower() in KIF_SUFFIXES


def load_description(path: str | Path, version: int = 2, overrides: dict | None = None,
                     dialect: str | None = None) -> Description:
    """The GDL description of a game file: KIF is parsed as is; RECYCLE is translated.

    `version` 2 gives GDL-II (with `random` and `sees`), 1 the GDL relaxation.
    `overrides` sets declared RECYCLE variables (ignored for KIF files).
    """
    if is_kif(path):
        return parse_kif(Path(path).read_text(encoding="utf-8"), str(path))
    from .recycle import parse_file
    return translate_loaded(parse_file(path, dialect), version, overrides)


def translate_loaded(loaded, version: int = 2, overrides: dict | None = None) -> Description:
    """Translate a parsed RECYCLE game (`recycle.Loaded`) into GDL-II (2) or GDL (1)."""
    from .errors import GameDefinitionError, PositionedError
    from .recycle.check import check
    from .translators.recycle_gdl import to_gdl

    errors = [d for d in check(loaded.game, loaded.source) if d.severity == "error"]
    if errors:
        e = errors[0]
        raise GameDefinitionError(f"the game has {len(errors)} error(s) and cannot be translated; first: "
                                  f"{e.message}", e.pos, loaded.source)
    try:
        return to_gdl(loaded.game, version=version, overrides=overrides)
    except PositionedError as e:
        raise e.with_source(loaded.source)
