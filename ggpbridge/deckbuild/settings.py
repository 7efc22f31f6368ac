"""A game's settings: which game, and section 5's variations as `--set` switches.

A `.dbk` file is TOML: `game = "rpn"` or `"golomb"` and a `[set]` table of these settings;
`--set NAME=VALUE` overrides them (docs/deckbuilding.md, decisions 17, 21, 23).
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from pathlib import Path

from .. import tomlfile
from ..errors import GameDefinitionError, Pos, Source

GAMES = ("rpn", "golomb")
STARTS = {"rpn": ("same", "hearts_clubs", "draft"), "golomb": ("paper",)}


@dataclass(frozen=True)
class Settings:
    """Everything that tells one variant from another; the defaults are the paper's first game."""

    game: str = "rpn"
    players: int = 2
    start: str = ""        # "" : the game's first entry of STARTS
    stacks: int = 3        # store stacks
    stack: int = 0         # cards per stack; 0: the whole main deck dealt out
    end: str = "one"       # "one": the first empty stack ends the game; "all": the last
    clock: int = 0         # 0, or 12 / 13: every operation modulo it (section 5.2)
    ranks: int = 13        # cards A..ranks of each suit exist
    turns: int = 200       # turns in all before the game stops (decision 8)
    kings: int = 0         # 1: kings with powers (section 5.4)
    hand: int = 5          # hand size (small variants); Golomb's extra turn needs all of them played

    @property
    def start_deck(self) -> str:
        return self.start or STARTS[self.game][0]

    @property
    def decks(self) -> int:
        """Decks in the main deck: one for two players, two for three or four."""
        return 1 if self.players <= 2 else 2


_RANGES = {"players": (2, 4), "stacks": (1, 13), "stack": (0, 52), "ranks": (3, 13), "turns": (1, 100_000), "hand": (2, 5), "kings": (0, 1)}


def settings(game: str, values: dict, where=None) -> Settings:
    """Settings from NAME -> VALUE; a bad name or value is a GameDefinitionError (at `where(name)`:
    its (Pos, Source) in a file, when known)."""
    names = {f.name for f in fields(Settings)} - {"game"}
    s = Settings(game=game)
    for name, value in values.items():
        pos, source = where(name) if where else (Pos(), None)
        if name not in names:
            raise GameDefinitionError(f"unknown setting {name!r} of {game}; the settings are "
                                      f"{', '.join(sorted(names))}", pos, source)
        kind = type(getattr(s, name))
        if kind is int and not isinstance(value, int):
            raise GameDefinitionError(f"{name} must be an integer, not {value!r}", pos, source)
        if kind is str:
            value = str(value)
        if name in _RANGES and not _RANGES[name][0] <= value <= _RANGES[name][1]:
            lo, hi = _RANGES[name]
            raise GameDefinitionError(f"{name}={value}: must be between {lo} and {hi}", pos, source)
        ok = {"start": STARTS[game], "end": ("one", "all"), "clock": (0, 12, 13)}.get(name)
        if ok is not None and value not in ok:
            raise GameDefinitionError(f"{name}={value}: one of {', '.join(map(str, ok))}", pos, source)
        s = replace(s, **{name: value})
    if s.start_deck == "hearts_clubs" and s.ranks * s.decks < 6 * s.players:
        raise GameDefinitionError(f"start=hearts_clubs deals six hearts to each of {s.players} players: "
                                  f"needs ranks >= {-(-6 * s.players // s.decks)}", *where("start") if where else ())
    if s.start_deck == "draft" and s.players not in (2, 4):
        raise GameDefinitionError("start=draft is the paper's for two or four players",
                                  *where("players") if where else ())
    return s


def read_dbk(path: str | Path, overrides: dict | None = None) -> Settings:
    """The settings of a `.dbk` file, `--set` overrides applied; errors name file:line:col."""
    source = tomlfile.read_source(path, GameDefinitionError)
    text = source.text
    data = tomlfile.loads(source, GameDefinitionError)

    def where(name: str) -> tuple:
        return tomlfile.key_pos(text, name), source

    game = data.get("game")
    if game not in GAMES:
        raise GameDefinitionError(f"`game` must be one of {', '.join(GAMES)} (got {game!r})", *where("game"))
    extra = set(data) - {"game", "set"}
    if extra:
        raise GameDefinitionError(f"unknown key {sorted(extra)[0]!r}: a .dbk file has `game` and `[set]`",
                                  *where(sorted(extra)[0]))
    values = dict(data.get("set", {}))
    s = settings(game, values, where)
    if overrides:
        try:
            s = settings(game, {**values, **overrides})
        except GameDefinitionError as e:
            raise GameDefinitionError(f"--set: {e.message}", source=source) from None
    return s
