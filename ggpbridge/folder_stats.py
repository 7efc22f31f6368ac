"""Table 5 of the G_cardgame paper over a folder of games: per game and in total, the plays
won by each seat, the draws, the crashes and the mean length.

One computation with `ggpbridge simulate`: each game is played by `sim.simulate` and its row
is `Stats.outcomes()`, so a G_cardgame game is counted in the paper's unit (rules played,
decision 22) and crashes over the 100-rule limit exactly as `simulate` says. A game whose
front-end has no such count (RECYCLE, GDL) keeps the simulator's own unit, choices per play,
and the row says which unit it is in.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .errors import GgpBridgeError
from .sim import compile_loaded, simulate

GAME_SUFFIXES = (".gcg", ".rcy", ".gdl")
# the column Table 5 calls "turns", per unit the game counts (decision 22: rules played)
TURN_UNIT = "rules"


def game_files(paths) -> list[Path]:
    """The game files named, folders expanded (sorted) to the files with a game suffix."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(f for f in p.iterdir() if f.suffix.lower() in GAME_SUFFIXES and f.is_file())
        else:
            out.append(p)
    return out


def table5_columns(prog, n: int, seed: int, players: str, max_steps: int) -> dict:
    """Table 5's columns for one game, read off `Stats.outcomes()`: plays won by each seat
    alone, draws (a tie for the best score), crashes by cause and the mean length of the
    plays that did not crash, in `unit` (rules played for a game that counts them, else
    choices). Won, draws and crashes add up to the plays; `interrupted` when stopped early."""
    st = simulate(prog, n, seed, players, max_steps)
    o = st.outcomes(own_unit=True)
    unit = TURN_UNIT if TURN_UNIT in o["mean"] else next(iter(o["mean"]))
    turns = o["mean"][unit]
    return {"plays": st.games, "won": o["won"], "draws": o["draws"], "crashes": o["crashed"],
            "crash_causes": o["crashes"], "turns": None if turns is None else round(turns, 2),
            "unit": unit, "limit": o["limit"]["bound"], "interrupted": st.interrupted}


@dataclass
class Summary:
    """Rows per game (or the reason it could not be played) and their total."""

    rows: list = field(default_factory=list)
    interrupted: bool = False

    def total(self) -> dict:
        """The columns added over the games played: wins per seat over the games that have that
        seat, draws and crashes summed, turns the mean over every play that did not crash
        (None when the games are counted in different units)."""
        played = [r for r in self.rows if "error" not in r]
        seats = max((len(r["won"]) for r in played), default=0)
        won = [sum(r["won"][k] for r in played if k < len(r["won"])) for k in range(seats)]
        units = sorted({r["unit"] for r in played})
        # a mean over plays counted in different units would mean nothing
        ok = [(r["plays"] - r["crashes"], r["turns"]) for r in played if r["turns"] is not None]
        weight = sum(w for w, _ in ok) if len(units) == 1 else 0
        return {"games": len(played), "unplayable": len(self.rows) - len(played),
                "plays": sum(r["plays"] for r in played), "won": won,
                "draws": sum(r["draws"] for r in played), "crashes": sum(r["crashes"] for r in played),
                "turns": round(sum(w * t for w, t in ok) / weight, 2) if weight else None,
                "unit": units[0] if len(units) == 1 else "+".join(units) or None}


def summarise(paths, n: int, seed: int = 0, players: str = "random", max_steps: int = 100_000,
              progress=None, spread: bool = False) -> Summary:
    """Play every game under `paths` n times (seeds seed..seed+n-1) and gather its Table 5 row.
    With `spread`, game k (in file order) plays seeds seed+k*n .. seed+k*n+n-1 instead: a
    population of near-identical games (mutants of one parent) then does not replay one deal.
    A game that does not load or compile gets a row with its error and the run goes on; a
    KeyboardInterrupt stops the run, keeping the rows so far."""
    from .frontends import load_game
    out = Summary()
    for k, path in enumerate(game_files(paths)):
        first = seed + k * n if spread else seed
        try:
            prog = compile_loaded(load_game(path, count=True))
        except GgpBridgeError as e:
            out.rows.append({"file": str(path), "error": str(e).splitlines()[0]})
        else:
            row = {"file": str(path), **table5_columns(prog, n, first, players, max_steps), "seed": first}
            out.rows.append(row)
            if row["interrupted"]:
                out.interrupted = True
                break
        if progress is not None:
            progress(1)
    return out
