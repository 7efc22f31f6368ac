"""The policy player (`--players policy:FILE`): plays a policy file written by `ggpbridge solve -o`.

A policy file (format `ggpbridge-policy/1`, docs/solve.md) lists information sets: a seat,
what it saw and which option it took at each of its earlier decisions with a real choice,
what it sees now (`views.view_text`), and a probability per option. The player keeps the same
record while it plays: the simulator asks it only at such decisions, and there it sees the
same observation the solver keyed the set on. It draws an option with those probabilities.
A situation the file does not list means the file is for another game or other `--set`
values: that is an error of the play, not a silent random move.
"""
from __future__ import annotations

import json
import os
import random
from functools import lru_cache

from ..errors import GameDefinitionError
from .views import view_text

FORMAT = "ggpbridge-policy/1"


class PolicyFileError(ValueError):
    """A policy file that cannot be read or is not one."""


def set_key(seat: int, earlier, sees: str) -> tuple:
    """How an information set is looked up: seat, ((view, option index), ...), current view."""
    return (seat, tuple((str(v), int(k)) for v, k in earlier), sees)


@lru_cache(maxsize=8)
def _load(path: str, mtime: float) -> dict:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as e:
        raise PolicyFileError(f"policy file {path}: {e.strerror or e}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise PolicyFileError(f"policy file {path}: not JSON ({e})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PolicyFileError(f"policy file {path}: not a {FORMAT} file (written by `ggpbridge solve -o`)")
    entries = data.get("information_sets")
    if not isinstance(entries, list):
        raise PolicyFileError(f"policy file {path}: no list of information sets ('information_sets')")
    table = {}
    i = 0
    try:
        for i, entry in enumerate(entries):
            earlier = [(e["saw"], e["took"]["option"]) for e in entry["earlier"]]
            probs = [(a["option"]["form"], tuple(a["option"]["path"]), float(a["probability"]))
                     for a in entry["actions"]]
            table[set_key(int(entry["seat"]), earlier, entry["sees"])] = probs
    except (KeyError, TypeError, ValueError) as e:
        raise PolicyFileError(f"policy file {path}: information set {i} is malformed ({e!r})") from None
    settings = data.get("overrides", {})
    if not isinstance(settings, dict):
        raise PolicyFileError(f"policy file {path}: its 'overrides' are not a table of --set values")
    return {"table": table, "overrides": settings}


def _policy(path: str) -> dict:
    try:
        mtime = os.path.getmtime(path)
    except OSError as e:
        raise PolicyFileError(f"policy file {path}: {e.strerror or e}") from None
    return _load(os.path.abspath(path), mtime)


def load_policy(path: str) -> dict:
    """The information sets of a policy file: key -> [(form, path, probability)]; PolicyFileError if bad."""
    return _policy(path)["table"]


def check_fits(path: str, prog) -> None:
    """Refuse a policy solved under other `--set` values than the program `prog` is compiled
    with (PolicyFileError): its information sets would be of another game, and where some of
    them happen to match, it would play them as if nothing had changed."""
    from .machine import declared_values
    settings = _policy(path)["overrides"]
    try:
        solved = declared_values(prog.game, settings)
    except GameDefinitionError as e:
        raise PolicyFileError(f"policy file {path} was solved for another game: {e.message}") from None
    changed = [k for k in prog.values if solved.get(k) != prog.values[k]]
    if changed:
        raise PolicyFileError(f"policy file {path} was solved with "
                              + ", ".join(f"{k}={solved.get(k)}" for k in changed) + "; this game is played with "
                              + ", ".join(f"{k}={prog.values[k]}" for k in changed)
                              + " (solve it again with these --set values)")


class PolicyPlayer:
    """Plays the probabilities of a policy file for its seat; one per seat and game (it keeps the game's record)."""

    def __init__(self, path: str, rng: random.Random):
        self.path = path
        self.table = load_policy(path)
        self.rng = rng
        self.earlier: list = []

    def choose(self, view, options: list) -> int:
        if not self.earlier:   # once a game: a policy of other --set values ends it here
            try:
                check_fits(self.path, view.live.prog)
            except PolicyFileError as e:
                raise GameDefinitionError(str(e)) from None
        lay = view.live.prog.lay
        sees = view_text(lay, view.observation())
        probs = self.table.get(set_key(view.player, self.earlier, sees))
        if probs is None:
            raise GameDefinitionError(f"policy {self.path} has no information set for player {view.player} "
                                      f"seeing: {sees} (a policy for another game or other --set values?)")
        weight = {(form, path): p for form, path, p in probs}
        w = [weight.get((o.form, tuple(o.path)), 0.0) for o in options]
        if sum(w) <= 0:
            raise GameDefinitionError(f"policy {self.path}: none of the options offered to player {view.player} "
                                      f"has a probability (seeing: {sees})")
        k = self.rng.choices(range(len(options)), weights=w)[0]
        self.earlier.append((sees, k))
        return k
