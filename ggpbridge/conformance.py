"""Running a set of game files through every stage: dialect, parse, check, seeded games."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .errors import PositionedError, only_errors
from .frontends import load_game
from .recycle.check import check
from .sim.machine import Program
from .sim.players import make_players
from .sim.playout import ERROR, play

SUFFIXES = (".rcy", ".gdl")


@dataclass
class Row:
    """One file's outcome."""

    file: str
    dialect: str | None = None
    stage: str = "ok"            # ok | syntax | check | compile | rules | internal
    message: str | None = None
    seed: int | None = None
    statuses: Counter = field(default_factory=Counter)
    translation: str | None = None   # "valid (R rules)", "unsupported: ...", "invalid: ..." (with --translate)
    lockstep: str | None = None      # "N/N agree" or the divergence (with --crosscheck)
    logged: str | None = None        # what sweep logs agree on for the current translation (with --lockstep-log)

    def as_dict(self) -> dict:
        return {"file": self.file, "dialect": self.dialect, "stage": self.stage, "message": self.message,
                "seed": self.seed, "games": dict(self.statuses), "translation": self.translation,
                "lockstep": self.lockstep, "logged": self.logged}


def files_under(paths) -> list[Path]:
    """Game files named or found (recursively) under the given paths."""
    out = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(x for x in p.rglob("*") if x.suffix in SUFFIXES)
        else:
            out.append(p)
    return out


def run_file(path: Path, games: int, max_steps: int = 20_000, translate: bool = False, lockstep: int = 0,
             lockstep_time: float | None = None, max_events: int = 2_000, fit: int = 0,
             logged: dict | None = None, unique_base: bool = True, twins=None) -> Row:
    """Parse, check and play `games` seeded games of one file; optionally translate and cross-check
    it, and tell what the sweep logs' runs `logged` (`ggpbridge.sweep_logs.read_logs`) agree on
    for its translation (`unique_base`: no other file has its base name), its twins' runs with
    its own when `twins` (a `ggpbridge.sweep_logs.TwinFinder`) is given."""
    row = _simulate_file(path, games, max_steps)
    if (translate or lockstep or logged is not None) and row.stage in ("ok", "rules"):
        loaded = load_game(path)
        row.translation = translation_status(loaded)
        if lockstep and row.translation.startswith("valid"):
            row.lockstep = lockstep_status(loaded, lockstep, lockstep_time, max_events, fit)
        if logged is not None and row.translation.startswith("valid"):
            from .sweep_logs import lockstep_logged
            row.logged = lockstep_logged(path, loaded, logged, unique_base, twins)
    return row


def lockstep_status(loaded, n: int, time_limit: float | None = None, max_events: int = 2_000, fit: int = 0) -> str:
    """'N/N agree', with runaway games, plays beyond a fit and a time limit noted, or the divergence and its seed."""
    from .crosscheck import crosscheck
    from .gdl.errors import GdlError
    try:
        rep = crosscheck(loaded, n, time_limit=time_limit, max_events=max_events, fit=fit)
    except MemoryError:
        return "error: out of memory grounding the translation"
    except GdlError as e:   # refused before grounding (too large) or by the validator
        return f"error: {e}"
    d = rep.divergence
    if d is not None:
        return f"diverged at seed {d['seed']}: {d['what']}"
    out = f"{rep.playouts}/{n} agree"
    if rep.capped:
        out += f" ({len(rep.capped)} runaway, agree to {max_events} events)"
    if rep.overflowed:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(rep.overflow_kinds.items()))
        out += f" ({len(rep.overflowed)} ended as overflow: {kinds}; agree up to it)"
    if rep.rule_errors:
        out += f" ({len(rep.rule_errors)} stop on a rule error of the game, first seed {rep.rule_errors[0]['seed']})"
    if rep.stopped:
        out += f" ({rep.stopped.split(' after')[0]})"
    return out


def translation_status(loaded) -> str:
    """Translate to GDL-II and validate: 'valid (R rules)' (with '; too large to ground: ...' when
    the clingo machine would refuse it), 'unsupported at ...', 'invalid: ...' or 'error: ...'."""
    from .errors import UnsupportedConstructError
    from .gdl.tables import TABLE_LIMIT, estimate
    from .gdl.validate import validate
    from .translate import translate_loaded
    try:
        desc = translate_loaded(loaded, 2)
    except UnsupportedConstructError as e:
        return f"unsupported at {loaded.source.name}:{e.pos.line}:{e.pos.col}: {e.message}"
    except PositionedError as e:   # the game's own errors (the checker's): nothing to translate
        return f"error: {e.with_source(loaded.source)}"
    except (Exception, RecursionError) as e:  # a bug of ours: the other files still get their row
        return f"internal error: {type(e).__name__}: {e}"
    errors = only_errors(validate(desc))
    if errors:
        return f"invalid: {errors[0].message}"
    _, tables = estimate(desc)
    if tables > TABLE_LIMIT:   # valid GDL, which the clingo machine refuses (ggpbridge.gdl.tables)
        return f"valid ({len(desc.rules)} rules; too large to ground: {tables:,} facts in its arithmetic tables)"
    return f"valid ({len(desc.rules)} rules)"


def _simulate_file(path: Path, games: int, max_steps: int) -> Row:
    row = Row(str(path))
    try:
        loaded = load_game(path)
    except PositionedError as e:
        row.stage, row.message = "syntax", str(e)
        return row
    row.dialect = loaded.dialect
    errors = only_errors(check(loaded.game, loaded.source))
    if errors:
        row.stage, row.message = "check", errors[0].format()
        return row
    try:
        prog = Program(loaded.game)
    except PositionedError as e:
        row.stage, row.message = "compile", str(e.with_source(loaded.source))
        return row
    prog.source = loaded.source
    for seed in range(games):
        r = play(prog, seed, make_players("random", prog.lay.n, seed), max_steps, record=False)
        row.statuses[r.status] += 1
        if r.status == ERROR and row.stage == "ok":
            row.stage = "internal" if r.internal else "rules"
            row.seed = seed
            row.message = r.error or ""
    return row
