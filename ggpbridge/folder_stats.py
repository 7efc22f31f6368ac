"""Table 5 of the G_cardgame paper over a folder of games: per game and in total, the plays
won by each seat, the draws, the crashes and the mean length.

Built on the simulator's own statistics (`sim.simulate` and its `Stats`): each play is one
`simulate` call, so its outcome is read off a one-play `Stats`. All the column arithmetic is
in `table5_columns`, one function, so that a richer definition (the `table5` work: crashes
over the paper's 100-turn limit, turns in the paper's unit) can replace it alone.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .errors import GgpBridgeError
from .sim import compile_loaded, simulate
from .sim.machine import CYCLE, ERROR, FINISHED, UNFINISHED

GAME_SUFFIXES = (".gcg", ".rcy", ".gdl")
_CRASH = {ERROR: "game error", CYCLE: "cycle", UNFINISHED: "step cap"}


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
    """Table 5's columns for one game: plays won by each seat alone, draws (a tie for the
    best score), crashes by cause (a game error, a cycle, the step cap) and the mean turns
    of the plays that did not crash, counted as the choices made (forced ones included).
    Won, draws and crashes add up to the plays; `interrupted` when stopped early."""
    won, draws, crashes, turns, plays = [0] * prog.lay.n, 0, Counter(), 0, 0
    interrupted = False
    for i in range(n):
        st = simulate(prog, 1, seed + i, players, max_steps)
        if st.interrupted or not st.games:
            interrupted = True
            break
        plays += 1
        if not st.status[FINISHED]:
            cause = next(_CRASH[k] for k in _CRASH if st.status[k])
            if st.errors and st.errors[0][1]:   # its first line: the rule's line:col, what went wrong
                cause += ": " + re.sub(r"^.*?:(\d+:\d+): error: ", r"line \1: ", st.errors[0][1].splitlines()[0])
            crashes[cause] += 1
            continue
        sole = [p for p, share in enumerate(st.win_share) if share == 1.0]
        if sole:
            won[sole[0]] += 1
        else:
            draws += 1
        turns += st.choices.total
    ok = plays - sum(crashes.values())
    return {"plays": plays, "won": won, "draws": draws, "crashes": sum(crashes.values()),
            "crash_causes": dict(crashes.most_common()), "turns": round(turns / ok, 2) if ok else None,
            "interrupted": interrupted}


@dataclass
class Summary:
    """Rows per game (or the reason it could not be played) and their total."""

    rows: list = field(default_factory=list)
    interrupted: bool = False

    def total(self) -> dict:
        """The columns added over the games played: wins per seat over the games that have that
        seat, draws and crashes summed, turns the mean over every play that did not crash."""
        played = [r for r in self.rows if "error" not in r]
        seats = max((len(r["won"]) for r in played), default=0)
        won = [sum(r["won"][k] for r in played if k < len(r["won"])) for k in range(seats)]
        ok = [(r["plays"] - r["crashes"], r["turns"]) for r in played if r["turns"] is not None]
        weight = sum(w for w, _ in ok)
        return {"games": len(played), "unplayable": len(self.rows) - len(played),
                "plays": sum(r["plays"] for r in played), "won": won,
                "draws": sum(r["draws"] for r in played), "crashes": sum(r["crashes"] for r in played),
                "turns": round(sum(w * t for w, t in ok) / weight, 2) if weight else None}


def summarise(paths, n: int, seed: int = 0, players: str = "random", max_steps: int = 100_000,
              progress=None) -> Summary:
    """Play every game under `paths` n times (seeds seed..seed+n-1) and gather its Table 5 row.
    A game that does not load or compile gets a row with its error and the run goes on; a
    KeyboardInterrupt stops the run, keeping the rows so far."""
    from .frontends import load_game
    out = Summary()
    for path in game_files(paths):
        try:
            prog = compile_loaded(load_game(path))
        except GgpBridgeError as e:
            out.rows.append({"file": str(path), "error": str(e).splitlines()[0]})
        else:
            row = {"file": str(path), **table5_columns(prog, n, seed, players, max_steps)}
            out.rows.append(row)
            if row["interrupted"]:
                out.interrupted = True
                break
        if progress is not None:
            progress(1)
    return out
