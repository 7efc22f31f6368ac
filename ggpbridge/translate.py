"""One entry point from a game file (RECYCLE or KIF) to a GDL / GDL-II description."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .gdl.ast import Const, Description
from .filekinds import KIF_SUFFIXES, is_kif  # noqa: F401  (re-exported: callers above the front-ends)
from .gdl.kif import read_kif


def load_description(path: str | Path, version: int = 2, overrides: dict | None = None,
                     dialect: str | None = None, fit: int = 0, decks: bool = True, fold: bool = True) -> Description:
    """The GDL description of a game file: KIF is parsed as is; RECYCLE is translated.

    `version` 2 gives GDL-II (with `random` and `sees`), 1 the GDL relaxation.
    `overrides` sets declared RECYCLE variables (ignored for KIF files).
    `fit` > 0 sizes the tables to that many random plays (`measured_fit`); `decks` False
    keeps every shuffle position by position (translators/recycle_gdl/order.py). `fold` leaves
    out the cards the setup puts aside for good (sim/fold.py): the simulator must then play
    `fold_loaded`'s game too, as the lockstep does; the queries, whose witnesses the
    simulator replays on the game as written, ask for False.
    """
    if is_kif(path):
        return read_kif(path)
    from .filekinds import is_deckbuild
    if is_deckbuild(path):
        return deckbuild_description(path, version, overrides)
    from .frontends import load_game
    return translate_loaded(load_game(path, dialect), version, overrides, fit, decks, fold)


def deckbuild_description(path: str | Path, version: int = 2, overrides: dict | None = None) -> Description:
    """The generated GDL-II of a deck-building game file (`ggpbridge/deckbuild/gdl.py`)."""
    from .deckbuild.gdl import describe
    from .deckbuild.settings import read_dbk
    from .errors import Source, UnsupportedConstructError
    from .gdl.kif import parse_kif
    src = Source(str(path), Path(path).read_text(encoding="utf-8"))
    if version != 2:
        raise UnsupportedConstructError("a deck-building game is translated to GDL-II only (--to gdl2)", source=src)
    try:
        return parse_kif(describe(read_dbk(path, overrides)), str(path))
    except UnsupportedConstructError as e:
        raise e.with_source(src) from None


def derives_score_lost(desc: Description) -> bool:
    """Whether a translation may lose a score: its scoring computes through the tables (a product,
    a difference) and gives every goal 0 where a result leaves them (`score_lost`). A max/min
    scoring otherwise gives some player 100, so a terminal state with every goal 0 is such a play."""
    return any(rule.head == _SCORE_LOST for rule in desc.rules)


_SCORE_LOST = Const("score_lost")


def overflowed(state) -> bool:
    """True for a clingo state of a translated game that ended as `overflow`: it left the
    translation's tables, or drew from a deck not shuffled since cards were put back in."""
    return isinstance(state, frozenset) and _overflow_symbol() in state


STALE_DRAW = "the play drew from a deck not shuffled since cards were put back in"
BEYOND_TABLES = "the play went beyond the translation's tables"
SCORE_OFF_TABLES = "the play's scoring left the translation's integers"
# translators/recycle_gdl/runloops.py: CardStock lists a variant of a run per card of equal score
RUN_VARIANTS = "the play looped over runs of cards with equal scores (variants the translation does not list)"
# translators/recycle_gdl/subsetsums.py: subsets of a sum counted over a bounded number of cards
MANY_SUBSETS = "the play counted the subsets of more cards than the translation counts"
# translators/recycle_gdl/subsetopts.py: an option over the subsets of a location of more cards
MANY_SUBSET_OPTIONS = "the play offered options over the subsets of more cards than the translation lists"


def overflow_reason(state) -> str | None:
    """Why a clingo state of a translated game ended as `overflow`; None if it did not."""
    if not overflowed(state):
        return None
    if any(x.name == "stale_draw" for x in state):   # translators/recycle_gdl/order.py, decks
        return STALE_DRAW
    if any(x.name == "run_variants" for x in state):
        return RUN_VARIANTS
    if any(x.name == "many_subsets" for x in state):
        return MANY_SUBSETS
    if any(x.name == "many_subset_options" for x in state):
        return MANY_SUBSET_OPTIONS
    return BEYOND_TABLES


@lru_cache(maxsize=1)
def _overflow_symbol():
    from .gdl.asp_terms import term_symbol   # clingo is imported only when a state is asked about
    return term_symbol(Const("overflow"))


def measured_fit(loaded, plays: int = 200, overrides: dict | None = None, seed: int = 0):
    """A `Fit` from `plays` uniformly random simulator plays (seeds seed..seed+plays-1).

    The translation it gives is exact on every play that stays inside what those plays
    reached, and ends any other as `overflow` (goals 0)."""
    from .sim import compile_loaded
    from .sim.extent import measure
    from .translators.recycle_gdl import Fit
    prog = compile_loaded(loaded, overrides)
    sizes, ints = measure(prog, plays, seed).named(prog)
    return Fit(sizes, ints)


def translate_loaded(loaded, version: int = 2, overrides: dict | None = None, fit: int = 0,
                     decks: bool = True, fold: bool = True) -> Description:
    """Translate a parsed RECYCLE game (`recycle.Loaded`) into GDL-II (2) or GDL (1); see `load_description`."""
    from .errors import GameDefinitionError, PositionedError, only_errors
    from .recycle.check import check
    from .translators.recycle_gdl import to_gdl

    errors = only_errors(check(loaded.game, loaded.source))
    if errors:
        e = errors[0]
        raise GameDefinitionError(f"the game has {len(errors)} error(s) and cannot be translated; first: "
                                  f"{e.message}", e.pos, loaded.source)
    loaded.check_overrides(overrides)
    try:
        if fold:
            from .sim.fold import fold_loaded
            loaded = fold_loaded(loaded, overrides)
        sized = measured_fit(loaded, fit, overrides) if fit > 0 else None
        return to_gdl(loaded.game, version=version, overrides=overrides, fit=sized, decks=decks)
    except PositionedError as e:
        raise e.with_source(loaded.source)
