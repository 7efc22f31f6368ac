"""What the tests of `exists --where` on both engines share: the games and the asp witness's replay."""
from __future__ import annotations

from pathlib import Path

from conftest import GAMES
from ggpbridge.frontends import load_game
from ggpbridge.query.asp_engine import replay_gdl
from ggpbridge.sim import compile_loaded
from ggpbridge.translate import load_description

TRICKS = str(Path(__file__).resolve().parents[1] / "data" / "tricks_mini.rcy")
AGRAM3 = str(GAMES / "agram2_c3.rcy")
ONE = {"HANDSIZE": 1}


def replay_asp(game, w, overrides=ONE):
    """An asp engine's `satisfies` witness replayed on the translation the query made (unfolded, as
    `ggpbridge replay` builds it), read through the game's layout."""
    desc = load_description(game, 2, overrides, decks=False, fold=False)
    return replay_gdl(desc, w, lay=compile_loaded(load_game(game), overrides).lay)
