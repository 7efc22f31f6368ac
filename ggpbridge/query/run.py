"""Running a query on one engine or both, cross-checking their verdicts."""
from __future__ import annotations

import re

from ..errors import GgpBridgeError, UnsupportedConstructError
from .answer import NEEDS_ROLE, QUESTIONS, UNKNOWN, Answer

ENGINES = ("explicit", "asp", "both")


class EngineDisagreement(GgpBridgeError):
    """The two engines gave opposite definite verdicts: one of them is wrong. `answers` holds
    both, with the witness one of them has (what replays the disagreement)."""

    def __init__(self, message: str, answers: list):
        super().__init__(message)
        self.answers = answers


def parse_role(text: str | int | None, nplayers: int | None = None) -> int | None:
    """A seat number from `2`, `player2` or `p2` (None stays None)."""
    if text is None or isinstance(text, int):
        k = text
    else:
        mt = re.fullmatch(r"(?:player|p)?(\d+)", str(text).strip(), re.IGNORECASE)
        if not mt:
            raise GgpBridgeError(f"role {text!r}: expected a seat number such as 0, or player0")
        k = int(mt.group(1))
    if k is not None and nplayers is not None and not 0 <= k < nplayers:
        raise GgpBridgeError(f"role {text!r}: the game has players 0..{nplayers - 1}")
    return k


def run_query(game: str, question: str, role=None, engine: str = "explicit", horizon: int | None = None,
              overrides: dict | None = None, timeout: float | None = None, limit_states: int | None = None,
              progress=None, dialect: str | None = None, where: str | None = None,
              where_file: str | None = None) -> list[Answer]:
    """Answer `question` about the game file with the chosen engine(s): one Answer per engine run.

    `exists` asks for a whole play satisfying the condition `where` (ggpbridge/query/where.py)
    and the raw ASP of `where_file` (asp engine only).

    With engine 'both', opposite definite verdicts raise EngineDisagreement; an 'unknown'
    from either side is not a disagreement.
    """
    if question not in QUESTIONS:
        raise GgpBridgeError(f"unknown question {question!r} (one of: {', '.join(QUESTIONS)})")
    if engine not in ENGINES:
        raise GgpBridgeError(f"unknown engine {engine!r} (one of: {', '.join(ENGINES)})")
    if question in NEEDS_ROLE and role is None:
        raise GgpBridgeError(f"{question} needs a ROLE: a seat number such as 0, or player0")
    if question == "exists":
        if where is None and where_file is None:
            raise GgpBridgeError("exists needs a condition: --where 'CONDITION' (or --where-file FILE.lp)")
        return _run_exists(game, engine, horizon, dict(overrides or {}), timeout, limit_states, progress, dialect,
                           where, where_file)
    overrides = dict(overrides or {})
    out = []
    if engine in ("explicit", "both"):
        out.append(explicit_answer(game, question, role, horizon, overrides, timeout, limit_states, progress,
                                   dialect))
    if engine in ("asp", "both") and not _stopped(out):
        out.append(asp_answer(game, question, role, horizon, overrides, timeout, limit_states, dialect))
    _cross_check(out, question, game)
    return out


def _stopped(out: list) -> bool:
    """Ctrl-C or SIGTERM stopped the first engine: the user asked to stop, not for the other engine."""
    return bool(out) and (out[0].limit or "").startswith("interrupted")


def _cross_check(out: list, what: str, game) -> None:
    """Opposite definite verdicts of the two engines raise EngineDisagreement."""
    if len(out) == 2:
        a, b = out
        if UNKNOWN not in (a.verdict, b.verdict) and a.verdict != b.verdict:
            raise EngineDisagreement(f"the engines disagree on '{what}' for {game}: explicit says {a.verdict} "
                                     f"({a.method}); asp says {b.verdict} ({b.method})", out)


def _machine(game, dialect, overrides):
    """The explicit engine's stepwise machine for a game file: the simulator's for RECYCLE and G_cardgame,
    a deck-building game's `DeckMachine` through `MachineSteps` for a `.dbk` file."""
    from ..filekinds import is_deckbuild
    if is_deckbuild(game):
        from ..deckbuild.machine import DeckMachine
        from ..deckbuild.settings import read_dbk
        from .machine_steps import MachineSteps
        return MachineSteps(DeckMachine(read_dbk(game, overrides)))
    from ..frontends import load_game
    from ..sim import compile_loaded
    from ..sim.stepwise import StepMachine
    return StepMachine(compile_loaded(load_game(game, dialect), overrides))


def _replayable(ans: Answer, game, overrides) -> Answer:
    """What `ggpbridge replay` needs to rebuild the same description, on an asp answer's witness."""
    if ans.witness is not None:
        ans.witness.setdefault("game", str(game))
        ans.witness.setdefault("overrides", dict(overrides or {}))
    return ans


def explicit_answer(game, question, role=None, horizon=None, overrides=None, timeout=None, limit_states=None,
                    progress=None, dialect=None) -> Answer:
    """The explicit engine's answer for a game file."""
    from ..translate import is_kif
    from .explicit import answer_explicit
    if is_kif(game):
        raise GgpBridgeError(f"{game}: the explicit engine simulates RECYCLE games; for a GDL file use --engine asp")
    machine = _machine(game, dialect, overrides)
    seat = parse_role(role, len(machine.roles))
    if question == "forced-win" and not hasattr(machine, "prog"):
        raise GgpBridgeError(f"{game}: forced-win is answered on the simulator's compiled RECYCLE only (its "
                             f"strategy search reads the simulator's information sets); this game plays on another "
                             f"machine: ask terminates, cycle, always-ends, playable or winnable")
    if question == "forced-win":
        return _forced_win(machine, seat, limit_states, game, overrides, timeout)
    return answer_explicit(machine, question, seat, horizon, timeout, limit_states, progress, game, overrides)


def _forced_win(machine, seat, limit_states, game, overrides, timeout=None) -> Answer:
    from .forced_win import answer_forced_win
    from .witness import make_witness
    ans = answer_forced_win(machine, seat, limit_states, timeout)
    if ans.witness is not None:
        ans.witness = make_witness(game, overrides, "forced-win", seat, ans.verdict, **ans.witness)
    return ans


def asp_answer(game, question, role=None, horizon=None, overrides=None, timeout=None, limit_states=None,
               dialect=None) -> Answer:
    """The ASP engine's answer, or an 'unknown' saying why that engine could not answer."""
    def unavailable(why: str) -> Answer:
        return Answer(question, UNKNOWN, "asp", f"not answered: {why}", limit="asp engine unavailable")
    if question == "forced-win":
        return unavailable("forced-win is answered by the explicit engine only (it needs the game tree)")
    try:
        from .asp_engine import answer_asp
    except ImportError as e:   # the engine is written separately; its absence is not our crash
        return unavailable(f"ggpbridge.query.asp_engine cannot be imported ({e})")
    from ..translate import is_kif, load_description
    try:
        # A GDL file names its roles (`xplayer`); the translation of a RECYCLE game names seat k `player<k>`.
        role_name = role if role is None or is_kif(game) else f"player{parse_role(role)}"
        # without decks: every shuffle position is a chance step, as in the explicit engine's count
        desc = load_description(game, 2, overrides, dialect, decks=False, fold=False)
        ans = answer_asp(desc, question, role=role_name, horizon=horizon, timeout=timeout,
                         limit_states=limit_states)
    except NotImplementedError as e:
        return unavailable(f"{question} is not implemented ({e})" if str(e) else f"{question} is not implemented")
    except UnsupportedConstructError as e:
        return unavailable(f"the game uses a construct the translation does not support: {e}")
    return _replayable(ans, game, overrides)


def _run_exists(game, engine, horizon, overrides, timeout, limit_states, progress, dialect, where, where_file):
    from ..translate import is_kif
    from .where import TRUE, Condition, Names, parse
    if is_kif(game):
        raise GgpBridgeError(f"{game}: exists --where speaks of a RECYCLE game's locations and storages")
    machine = _machine(game, dialect, overrides)
    if not hasattr(machine, "prog"):
        raise GgpBridgeError(f"{game}: exists --where speaks of a RECYCLE game's locations and storages; this game "
                             f"plays on another machine")
    # parsed before any engine runs: a bad condition is an error, not an answer
    cond = parse(where, Names.of(machine.prog.lay, machine.prog.game)) if where is not None else Condition("true", TRUE)
    raw = _read_where_file(where_file) if where_file is not None else None
    if raw is not None and engine in ("asp", "both"):
        from .asp_where import where_file_statements
        where_file_statements(raw)   # a bad file is an error before any search
    out = []
    if engine in ("explicit", "both"):
        if raw is not None:
            out.append(Answer("exists", UNKNOWN, "explicit", "not answered: raw ASP (--where-file) is read by the "
                              "asp engine only", limit="explicit engine cannot read ASP"))
        else:
            from .exists import answer_exists
            out.append(answer_exists(machine, cond, horizon, timeout, limit_states, progress, game, overrides))
    if engine in ("asp", "both") and not _stopped(out):
        out.append(_asp_exists(game, machine, cond, raw, horizon, overrides, timeout, dialect))
    _cross_check(out, f"exists {cond.text}", game)
    return out


def _read_where_file(path: str):
    from ..errors import Source
    try:
        with open(path, encoding="utf-8") as f:
            return Source(str(path), f.read())
    except (OSError, UnicodeDecodeError) as e:
        raise GgpBridgeError(f"{path}: cannot be read as text ({e})") from None


def _asp_exists(game, machine, cond, raw, horizon, overrides, timeout, dialect) -> Answer:
    from ..translate import load_description
    try:
        from .asp_where import answer_exists_asp
    except ImportError as e:
        return Answer("exists", UNKNOWN, "asp", f"not answered: the asp engine cannot be imported ({e})",
                      limit="asp engine unavailable")
    try:
        desc = load_description(game, 2, overrides, dialect, decks=False, fold=False)
        ans = answer_exists_asp(desc, machine.prog.lay, cond, raw, horizon, timeout)
    except UnsupportedConstructError as e:
        return Answer("exists", UNKNOWN, "asp", f"not answered: the game uses a construct the translation does "
                      f"not support: {e}", limit="asp engine unavailable")
    return _replayable(ans, game, overrides)
