"""Bounds on what a game's declarations may ask of the simulator and the translators.

A declared value sizes the game (`(create players 'NUMP)`, `(repeat 'N (create deck ...))`)
or counts iterations (`(repeat 'N ...)`); `--set` overrides it. An absurd value
(`--set NUMP=99999999999999999999`) would allocate or loop without end, so every game
compiled (`sim.machine.Program`, which the translators build too) is held to:

- at most MAX_PLAYERS players;
- at most MAX_CARDS cards over all decks the setup creates;
- declared integers within -MAX_VALUE..MAX_VALUE (this bounds the `repeat` counts and
  `range` lists built from them), and ranges of at most MAX_VALUE values.

Far beyond any card game (CardStock's corpus declares at most 100), and small enough to
be allocated at once. A breach is a GameDefinitionError that names the `--set` setting
or the declaration responsible.
"""
from __future__ import annotations

from .. import ir
from ..errors import NOPOS, GameDefinitionError

MAX_PLAYERS = 1_000
MAX_CARDS = 100_000
MAX_VALUE = 1_000_000


def blame(overrides: dict, name: str | None = None) -> str:
    """The settings to name in a message: `--set NAME=V` for the variable itself when it was
    set, else every --set in effect (one of them may have led to the value)."""
    if name is not None and name in overrides:
        return f"--set {name}={overrides[name]}: "
    if overrides:
        return "with " + ", ".join(f"--set {k}={v}" for k, v in overrides.items()) + ": "
    return ""


def check_players(game: ir.Game, n: int, overrides: dict) -> None:
    """The number of players is at most MAX_PLAYERS."""
    if n > MAX_PLAYERS:
        p = game.setup.players
        name = p.name if isinstance(p, ir.Var) else None
        raise GameDefinitionError(f"{blame(overrides, name)}the game would have {n} players; at most "
                                  f"{MAX_PLAYERS} are supported", p.pos)


def check_cards(total: int, overrides: dict, pos=NOPOS) -> None:
    """The decks of the setup hold at most MAX_CARDS cards."""
    if total > MAX_CARDS:
        raise GameDefinitionError(f"{blame(overrides)}the setup would create {total} cards; at most "
                                  f"{MAX_CARDS} are supported", pos)


def check_value(name: str, value, overrides: dict, pos=NOPOS) -> None:
    """A declared integer is within -MAX_VALUE..MAX_VALUE."""
    if isinstance(value, int) and not -MAX_VALUE <= value <= MAX_VALUE:
        shown = value if abs(value) < 10 ** 30 else f"a number of {len(str(abs(value)))} digits"
        raise GameDefinitionError(f"{blame(overrides, name)}'{name} would be {shown}; a declared integer "
                                  f"must lie within -{MAX_VALUE}..{MAX_VALUE}", pos)


def check_range(lo: int, hi: int, overrides: dict, pos=NOPOS) -> None:
    """A declared range has at most MAX_VALUE values."""
    if hi - lo + 1 > MAX_VALUE:
        raise GameDefinitionError(f"{blame(overrides)}the range {lo}..{hi} would have {hi - lo + 1} values; "
                                  f"at most {MAX_VALUE} are supported", pos)
