"""Reading the logs of lockstep sweeps (`benchmarks/crosscheck_all.py --log`): what agreed, per
file and translation.

A log line is one run: a file (named from the checkout, `games/war.rcy`, or from the folder the
checkout is in, `shared/corpus/cardstock/rcy/Whist4.rcy`; older logs used the base name for files
outside the checkout), the SHA-256 of the translation it checked, the fit and event cap, the
first seed and the playouts that agreed from it. A seed counts once however many runs played it,
and only for the translation it was played on: after a change to the translator, a file's
earlier runs say nothing about the translation it has now.

Two files can hold the same game: the corpus has most games both as `.rcy` and in the older
`.gdl` dialect. Where they read into the same IR (`same_game`) and translate to the same text,
the lockstep of a seed is the same computation on both (the simulator and the translation are
functions of the IR; the file only names positions in errors), so their seeds are counted
together: they are *twins* (`TwinFinder`), and a sweep plays one of them.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable

from . import ir
from .errors import GgpBridgeError, only_errors
from .recycle.check import check


@dataclass
class Logged:
    """The runs of one file on one translation, fit and event cap, added up."""

    agree: set = field(default_factory=set)      # seeds that agreed
    runaway: set = field(default_factory=set)    # of them, games stopped at the event cap
    overflow: set = field(default_factory=set)   # of them, plays that ended as `overflow` (Report.overflowed)
    diverged: list = field(default_factory=list)  # seeds of divergences
    runs: int = 0
    played: int = 0          # playouts over every run (a seed played twice counts twice)
    seconds: float = 0.0     # the seconds those playouts took


def read_logs(*logs: Path, rename=None) -> tuple[dict, dict]:
    """(file, first 12 hex digits of the translation's SHA-256, fit, event cap) -> Logged, and
    file -> why its runs played nothing (no translation, out of memory, timeout); `rename`
    maps a logged file name to the one to count it under."""
    groups: dict[tuple, Logged] = {}
    unplayed: dict[str, str] = {}
    for log in logs:
        for number, line in enumerate(Path(log).read_text(encoding="utf-8").splitlines(), 1):
            try:
                _add(json.loads(line), groups, unplayed, rename)
            except (ValueError, KeyError, TypeError, AttributeError) as e:
                raise SweepLogError(f"{log}:{number}: not a sweep log line ({type(e).__name__}: {e})") from None
    return groups, unplayed


class SweepLogError(GgpBridgeError):
    """A line of a sweep log that is not one."""


def _add(r: dict, groups: dict, unplayed: dict, rename) -> None:
    """Count one log line."""
    name = rename(r["file"]) if rename else r["file"]
    if "kif_sha256" not in r:
        unplayed[name] = r.get("error") or r.get("translation", "?")
        return
    g = groups.setdefault((name, r["kif_sha256"][:12], r["fit"], r["max_events"]), Logged())
    g.runs += 1
    g.played += r["playouts"]
    g.seconds += r.get("seconds") or 0.0
    g.agree.update(range(r["seed"], r["seed"] + r["playouts"]))
    g.runaway.update(r["capped"])
    g.overflow.update(r["overflowed"])
    if r["divergence"]:
        g.diverged.append(r["divergence"]["seed"])


@dataclass(frozen=True)
class Remaining:
    """What a sweep still has to play of one file, by its logs."""

    spans: tuple[tuple[int, int], ...]   # (first seed, how many) of the seeds no run agreed on yet
    diverged: tuple[int, ...]            # seeds of logged divergences on the current translation
    cost: float | None                   # logged seconds a playout (any translation); None: never played


def remaining(groups: dict, name: str | tuple, sha: str, fit: int, events: int, seeds: range) -> Remaining:
    """The seeds of `seeds` that the logs (`read_logs` groups) do not yet have agreeing for file
    `name` on the translation `sha` (its first 12 hex digits), fitted to `fit` plays, at the event
    cap `events`; the divergences logged on that translation at any fit or cap. `name` may be a
    tuple of twins' names (`TwinFinder.twins`): the runs of each count."""
    names = {name} if isinstance(name, str) else set(name)
    mine = [(key, g) for key, g in groups.items() if key[0] in names]
    agreed = merged(groups, names, sha, fit, events).agree
    diverged = sorted(d for (_, s, _, _), g in mine if s == sha for d in g.diverged)
    played = sum(g.played for _, g in mine)
    cost = sum(g.seconds for _, g in mine) / played if played else None
    return Remaining(seed_spans(s for s in seeds if s not in agreed), tuple(diverged), cost)


def same_game(a, b) -> bool:
    """Whether two read games run the same lockstep: the same IR (source positions, which only
    name places in errors, aside) and tallies, and no checker error in either (the lockstep
    refuses a game with one, and the checker reads what `_plain` leaves out)."""
    return (_plain(a.game), a.tallies, a.tally_limit) == (_plain(b.game), b.tallies, b.tally_limit) \
        and checks_clean(a) and checks_clean(b)


def checks_clean(loaded) -> bool:
    """Whether a read game has no checker error (the lockstep refuses one that has)."""
    return not only_errors(check(loaded.game, loaded.source))


def _plain(game: ir.Game) -> ir.Game:
    """The game without what one dialect spells out and the other leaves to the engines, which
    play it the same either way: teams of one player each, in player order (no teams), and the
    setup's deck names (which the checker alone reads)."""
    setup, n = game.setup, _players(game)
    if setup.teams and n is not None and setup.teams.teams == tuple((i,) for i in range(n)):
        setup = replace(setup, teams=None)
    return replace(game, setup=replace(setup, decks=tuple(map(_nameless, setup.decks))))


def _players(game: ir.Game) -> int | None:
    """The number of players when it is a literal or a constant declared once: sweeps set no
    declared value, and of several declarations the simulator takes the last (no guess here)."""
    p = game.setup.players
    if isinstance(p, ir.Var):
        values = [d.value for d in game.declares if d.var == p.name]
        p = values[0] if len(values) == 1 else None
    return p.value if isinstance(p, ir.IntLit) else None


def _nameless(deck):
    """A setup's deck creation without its name."""
    if isinstance(deck, ir.CreateDeck):
        return replace(deck, name=None)
    if isinstance(deck, ir.Repeat):
        return replace(deck, body=_nameless(deck.body))
    return deck


class TwinFinder:
    """The twins of a file: the other files with the same game (`same_game`) whose runs (logged,
    at any fit, or registered here) checked the same translation. A seed agreeing on one agrees
    on them all.

    Candidates are the files the logs name with that translation, and those `register`ed;
    `load(name)` reads a candidate (None: it cannot be found or read, so it is no twin). Like a
    file's own runs, a twin's are taken to be of the file as it is now: corpus files do not change."""

    def __init__(self, groups: dict, load: Callable[[str], object | None]):
        self._candidates: dict[str, set] = {}
        for name, sha, _, _ in groups:
            self._candidates.setdefault(sha, set()).add(name)
        self._load = load
        self._loaded: dict[str, object | None] = {}

    def register(self, name: str, sha: str, loaded) -> None:
        """Make a file that has not been logged with this translation a candidate twin of later ones."""
        self._candidates.setdefault(sha, set()).add(name)
        self._loaded[name] = loaded

    def twins(self, name: str, sha: str, loaded) -> tuple[str, ...]:
        """`name`, then the names of its twins in name order, for the translation `sha` (first 12
        hex digits) of the game `loaded` (the file as read now)."""
        return (name, *sorted(self._alike(self._candidates.get(sha, set()) - {name}, loaded)))

    def kin(self, loaded, besides: Iterable[str] = ()) -> set[str]:
        """The candidates but `besides` that hold the same game as `loaded` (`same_game`),
        whatever translation their runs checked: those whose runs checked the translation
        `loaded` has now are its twins."""
        if not checks_clean(loaded):   # nobody's twin (and no file to compare it with)
            return set()
        return self._alike(set().union(*self._candidates.values()) - set(besides), loaded)

    def _alike(self, names: set, loaded) -> set[str]:
        """Those of `names` whose file holds the same game as `loaded`."""
        return {name for name in names if (game := self._read(name)) is not None and same_game(game, loaded)}

    def _read(self, name: str):
        if name not in self._loaded:
            try:
                self._loaded[name] = self._load(name)
            except Exception:   # noqa: BLE001 - a file that cannot be read now is nobody's twin
                self._loaded[name] = None
        return self._loaded[name]


def merged(groups: dict, names: Iterable[str], sha: str, fit: int, events: int) -> Logged:
    """The runs of several files (twins: `TwinFinder.twins`) on one translation, fit and event
    cap, added up as one file's: a seed counts once whichever of them played it."""
    out = Logged()
    for name in dict.fromkeys(names):
        g = groups.get((name, sha, fit, events))
        if g is not None:
            out.agree |= g.agree
            out.runaway |= g.runaway
            out.overflow |= g.overflow
            out.diverged += g.diverged
            out.runs += g.runs
            out.played += g.played
            out.seconds += g.seconds
    return out


def seed_spans(seeds: Iterable[int]) -> tuple[tuple[int, int], ...]:
    """Seeds as (first, how many) spans of consecutive seeds, in increasing order."""
    out: list[list[int]] = []
    for s in sorted(set(seeds)):
        if out and out[-1][0] + out[-1][1] == s:
            out[-1][1] += 1
        else:
            out.append([s, 1])
    return tuple((first, n) for first, n in out)


def current_sha(loaded, fit: int) -> str:
    """The first 12 hex digits of the SHA-256 of the translation a loaded game has now, fitted
    to `fit` plays as a log's runs were: what a log's `kif_sha256` is compared with."""
    from .crosscheck import checked_translation
    return short_sha(checked_translation(loaded, None, fit).description)


def short_sha(desc) -> str:
    """The first 12 hex digits of the SHA-256 of a description's KIF text, as logs are compared."""
    from .crosscheck import kif_sha256
    return kif_sha256(desc)[:12]


def names_file(name: str, path: Path, unique_base: bool = True) -> bool:
    """Whether a logged file name names the file at `path`: the name's parts end its resolved
    path's (a bare base name only when `unique_base`: no other file of the run has it)."""
    mine, parts = Path(name).parts, Path(path).resolve().parts
    return parts[-len(mine):] == mine and (unique_base or len(mine) > 1)


def lockstep_logged(path: Path, loaded, groups: dict, unique_base: bool = True,
                    finder: TwinFinder | None = None) -> str:
    """A conformance cell: the seeds the logs agree on for the translation `loaded` has now
    (each logged fit translated again to tell), a divergence on it, or why none counts.
    `unique_base`: a log's bare base name may stand for this file (no other file has it).
    With `finder`, the runs of the file's twins count as its own, as in a sweep's summary."""
    own = {name for name, *_ in groups if names_file(name, path, unique_base)}
    names = own | (finder.kin(loaded, besides=own) if finder is not None else set())
    mine = {key: g for key, g in groups.items() if key[0] in names}
    if not mine:
        return "-"
    now = {}
    for fit in sorted({fit for _, _, fit, _ in mine}):
        try:
            now[fit] = current_sha(loaded, fit)
        except Exception as e:   # noqa: BLE001 - the cell says it; the table goes on
            return f"error translating: {type(e).__name__}: {e}"[:120]
    # the same game translated alike: twins (kin whose runs checked another translation are not)
    current = {key: g for key, g in mine.items() if now[key[2]] == key[1]}
    if not current:   # (other files' runs on another translation say nothing of this one)
        runs = sum(g.runs for (who, *_), g in mine.items() if who in own)
        return f"logged runs are of older translations ({runs} runs)" if runs else "-"
    diverged = sorted(s for g in current.values() for s in g.diverged)
    if diverged:
        return f"DIVERGED at seed {diverged[0]} (logged)"
    counts = {(fit, events): merged(groups, sorted(names), sha, fit, events)
              for (_, sha, fit, events) in current}
    (fit, events), best = max(counts.items(), key=lambda kv: (len(kv[1].agree), kv[0]))
    out = f"{len(best.agree)} seeds agree (logged; fit {fit}, {events} events)"
    if best.runaway:
        out += f" ({len(best.runaway)} runaway)"
    if best.overflow:
        out += f" ({len(best.overflow)} ended as overflow)"
    twins = sorted({who for who, sha, f, e in current if (f, e) == (fit, events) and who not in own})
    if twins:
        out += f" (with the runs of its twin{'s' if len(twins) > 1 else ''} {', '.join(twins)})"
    return out
