"""Witnesses of query answers: a play as JSON, and its replay in the simulator.

(The asp engine writes joint GDL moves instead, format "gdl-joint-moves"; `ggpbridge
replay` hands those to `asp_engine.replay_gdl`.)

A witness file holds the game path, the `--set` overrides, the question and verdict, and
`steps`: from the initial state, each step is `{"chance": k}` (outcome k of a chance
event) or `{"player": p, "option": i, "label": "..."}` (player p takes option i, in the
simulator's order). `kind` says what the replay must confirm after the last step:

- recurrence: the state equals the one after step `recur_from` (0 = the initial state);
- dead-end: the game is not over and the player to move has no enabled option;
- no-end-within: the game is not over after the `horizon` steps;
- trapped: no terminal state is reachable any more (re-checked by a search from there);
- win: the game is over with `role` among the winners;
- loop: the game runs on from there without any decision or chance event, and the
  simulator proves it endless (its state recurs);
- strategy (forced-win): no steps; `strategy` lists `role`'s option at each of its decisions,
  keyed by the moves from the start (`after`: chance outcomes and option indices). Replay
  follows it and every other move and chance outcome: every play must end with `role` among
  the winners.

Each decision step also has `move`: what the option does, cards named by their attributes
(`ggpbridge.moves`); it is for people, and replay does not rely on it. A confirmed kind
establishes a verdict (`ESTABLISHES`): replay compares it with the witness's own, so a
witness whose verdict was edited is not confirmed.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..errors import GameDefinitionError, GgpBridgeError
from ..moves import option_text
from ..sim.stepwise import Chance, Decision, Runaway, StepMachine, Terminal
from .answer import NO, QUESTIONS, YES

FORMAT = "ggpbridge-witness/1"
ASP_FORMAT = "gdl-joint-moves"   # witnesses of the asp engine, replayed on the GDL translation
KINDS = ("recurrence", "dead-end", "no-end-within", "trapped", "win", "loop", "strategy", "satisfies")

# (question, kind) -> the verdict a confirmed witness of that kind establishes for the question:
# a recurrence is a cycle, so not every play ends; a dead end or a trapped state cannot reach
# the end; a win shows the role can win. Other pairs say nothing about the question.
ESTABLISHES = {
    ("cycle", "recurrence"): YES,
    ("cycle", "loop"): YES,
    ("terminates", "loop"): NO,
    ("always-ends", "loop"): NO,
    ("terminates", "recurrence"): NO,
    ("terminates", "dead-end"): NO,
    ("terminates", "no-end-within"): NO,
    ("terminates", "trapped"): NO,
    ("always-ends", "dead-end"): NO,
    ("always-ends", "trapped"): NO,
    ("playable", "dead-end"): NO,
    ("winnable", "win"): YES,
    ("forced-win", "strategy"): YES,
    ("exists", "satisfies"): YES,
}


class WitnessError(GgpBridgeError):
    """A witness file that is malformed or does not fit the game."""


def step_record(node, move: int) -> dict:
    """The JSON step for `move` taken at `node` (a Chance or a Decision)."""
    if isinstance(node, Chance):
        return {"chance": move}
    return {"player": node.player, "option": move, "label": option_label(node.options[move])}


def option_label(opt) -> str:
    """A name for an option that tells it apart from the others of its choice: its form and `any` branches
    (a simulator option), or the move's own text (a move of another GameMachine, `machine_steps.py`)."""
    if not hasattr(opt, "form"):
        return str(opt)
    # the simulator gives options no text; form and branch indices identify one exactly
    return opt.label or f"form {opt.form}" + (f" any {'.'.join(map(str, opt.path))}" if opt.path else "")


def describe_steps(machine: StepMachine, steps: list) -> list:
    """The steps with each decision's `move` added: what the option taken does, for people."""
    s = machine.initial_state()
    for st in steps:
        nd = machine.node(s)
        k = st["chance"] if "chance" in st else st["option"]
        if isinstance(nd, Decision):
            st["move"] = _move_text(machine, s, nd.options[k])
        s = machine.next_state(s, k)
    return steps


def _move_text(machine, state, opt) -> str:
    """What an option does: the simulator's text of its action, or another machine's own (`move_text`)."""
    text = getattr(machine, "move_text", None)
    return text(state, opt) if text is not None else option_text(machine, state, opt)


def make_witness(game, overrides, question: str, role, verdict: str, kind: str, steps: list, **extra) -> dict:
    """The JSON-ready witness of an answer."""
    if kind not in KINDS:
        raise ValueError(f"unknown witness kind {kind!r}")
    return {"format": FORMAT, "game": None if game is None else str(game), "overrides": dict(overrides or {}),
            "question": question, "role": role, "verdict": verdict, "kind": kind, "steps": steps, **extra}


def save(witness: dict, path: str) -> None:
    """Write a witness file."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(witness, f, indent=1)
        f.write("\n")


def load(path: str) -> dict:
    """Read a witness file, checking its shape: every malformed file is a WitnessError naming it."""
    try:
        with open(path, encoding="utf-8") as f:
            w = json.load(f)
    except UnicodeDecodeError:
        raise WitnessError(f"{path}: not a witness (not UTF-8 text: a binary file?)") from None
    except json.JSONDecodeError as e:
        raise WitnessError(f"{path}: not JSON ({e})") from None
    except RecursionError:
        raise WitnessError(f"{path}: not a witness (JSON nested too deeply)") from None
    if not isinstance(w, dict) or w.get("format") not in (FORMAT, ASP_FORMAT):
        raise WitnessError(f"{path}: not a {FORMAT} (or {ASP_FORMAT}) witness")
    problem = _shape_problem(w)
    if problem:
        raise WitnessError(f"{path}: {problem}")
    return w


def _is_index(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


def _shape_problem(w: dict) -> str | None:
    """What is wrong with a witness's shape (both formats), or None."""
    q, kind = w.get("question"), w.get("kind")
    if q not in QUESTIONS:
        return f"unknown question {q!r} (one of: {', '.join(QUESTIONS)})"
    if w.get("verdict") not in (YES, NO):
        return f"the verdict must be {YES!r} or {NO!r}, not {w.get('verdict')!r}"
    if kind not in KINDS:
        return f"a witness needs a kind among {', '.join(KINDS)}, not {kind!r}"
    if (q, kind) not in ESTABLISHES:
        return f"a {kind} witness says nothing about '{q}'"
    overrides = w.get("overrides")
    if overrides is not None and not (isinstance(overrides, dict) and all(
            isinstance(v, (int, str)) and not isinstance(v, bool) for v in overrides.values())):
        return "overrides must map names to integers or names"
    if w["format"] == ASP_FORMAT:
        moves = w.get("moves")
        if not isinstance(moves, list):
            return "an asp witness needs a list of moves"
        for i, joint in enumerate(moves, 1):
            if not (isinstance(joint, list) and all(isinstance(x, dict) and isinstance(x.get("role"), str)
                                                    and isinstance(x.get("move"), str) for x in joint)):
                return f"step {i}: expected a list of {{\"role\": ..., \"move\": ...}}, got {joint!r}"
        rec = w.get("recurs")
        if kind == "recurrence" and not (isinstance(rec, list) and len(rec) == 2 and all(map(_is_index, rec))):
            return "a recurrence needs `recurs`: [i, j], two step numbers"
        return None
    steps = w.get("steps")
    if not isinstance(steps, list):
        return "a witness needs a list of steps"
    for i, st in enumerate(steps, 1):
        ok = isinstance(st, dict) and (
            _is_index(st.get("chance")) if "chance" in st
            else _is_index(st.get("player")) and _is_index(st.get("option"))
            and isinstance(st.get("label", ""), str))
        if not ok:
            return (f"step {i}: expected {{\"chance\": k}} or {{\"player\": p, \"option\": i, \"label\": ...}} "
                    f"with numbers k, p, i >= 0; got {st!r}")
    if kind == "satisfies" and not isinstance(w.get("where"), str):
        return "a satisfies witness needs `where`: the condition's text"
    if kind == "recurrence" and not _is_index(w.get("recur_from")):
        return "a recurrence needs `recur_from`: a step number"
    if kind in ("win", "strategy") and not _is_index(w.get("role")):
        return f"a {kind} needs `role`: a seat number"
    if kind == "strategy":
        plan = w.get("strategy")
        if not isinstance(plan, list) or not all(
                isinstance(e, dict) and _is_index(e.get("option")) and isinstance(e.get("after"), list)
                and all(map(_is_index, e["after"])) for e in plan):
            return "a strategy needs `strategy`: a list of {\"after\": [moves], \"option\": i}"
    return None


def judge(witness: dict, r: "Replay") -> "Replay":
    """The replay's conclusion with the verdict recomputed: what the confirmed play establishes for
    the witness's question must be the verdict it claims, or it is not confirmed."""
    if not r.confirmed:
        return r
    shown = ESTABLISHES[(witness["question"], witness["kind"])]
    if shown != witness["verdict"]:
        return Replay(False, f"{r.message}; that shows '{witness['question']} {shown}', but the witness "
                             f"claims '{witness['question']} {witness['verdict']}'", r.log)
    return r


@dataclass
class Replay:
    """What replaying a witness showed."""

    confirmed: bool
    message: str
    log: list = field(default_factory=list)   # one line per step
    error: str = ""   # the rule error that stopped the replay (file:line:col and caret), if any


def replay(machine: StepMachine, witness: dict) -> Replay:
    """Play the witness's steps in the simulator and check what its kind claims.

    A rule error on the way (a card taken from an empty location) does not confirm the claim: the
    Replay keeps the steps replayed before it and the error, named by its file, in `error`."""
    log: list = []
    try:
        return _replay(machine, witness, log)
    except GameDefinitionError as e:
        source = getattr(getattr(machine, "prog", None), "source", None)   # a game module's machine has none
        error = str(e.with_source(source) if source is not None else e)
        return Replay(False, error, log, error)


def _replay(machine: StepMachine, witness: dict, log: list) -> Replay:
    # `log` is the caller's: the lines of the steps replayed survive a rule error
    m = machine
    s = m.initial_state()
    keys = [m.key(s)]
    states = [s]
    for i, st in enumerate(witness["steps"], 1):
        nd = m.node(s)
        if isinstance(nd, Terminal):
            raise WitnessError(f"step {i}: the game is already over")
        if isinstance(nd, Runaway):
            raise WitnessError(f"step {i}: the game runs on without any decision from here")
        if "chance" in st:
            if not isinstance(nd, Chance):
                raise WitnessError(f"step {i}: the witness draws chance, the game waits for player {nd.player}")
            k = st["chance"]
            if not isinstance(k, int) or not 0 <= k < nd.n:
                raise WitnessError(f"step {i}: chance outcome {k!r} is outside 0..{nd.n - 1}")
            told = getattr(m, "chance_text", None)   # a machine whose outcomes have names (a card picked)
            log.append(f"{i:4}  chance {nd.kind} {nd.detail}: outcome {k} of {nd.n}"
                       + (f" ({told(s, k)})" if told is not None else ""))
        else:
            if not isinstance(nd, Decision):
                raise WitnessError(f"step {i}: the witness has player {st.get('player')} move, the game draws chance")
            k = st.get("option")
            if st.get("player") != nd.player or not isinstance(k, int) or not 0 <= k < len(nd.options):
                raise WitnessError(f"step {i}: player {nd.player} is to choose among {len(nd.options)} options; "
                                   f"the witness has player {st.get('player')} take option {k!r}")
            label = option_label(nd.options[k])
            if st.get("label") not in (None, label):
                raise WitnessError(f"step {i}: option {k} is {label!r} here, the witness says {st['label']!r}")
            log.append(f"{i:4}  player {nd.player}: {_move_text(m, s, nd.options[k])}   "
                       f"(option {k} of {len(nd.options)})")
        s = m.next_state(s, k)
        keys.append(m.key(s))
        states.append(s)
    r = Replay(*_confirm(m, witness, s, keys, states), log)
    return judge(witness, r) if (witness.get("question"), witness["kind"]) in ESTABLISHES else r


def _confirm(m: StepMachine, w: dict, s, keys: list, states: list) -> tuple[bool, str]:
    kind, n = w["kind"], len(keys) - 1
    nd = m.node(s)
    if kind == "recurrence":
        k = w.get("recur_from")
        if not isinstance(k, int) or not 0 <= k < n:
            raise WitnessError(f"recur_from must be a step number in 0..{n - 1}")
        if keys[k] == keys[n]:
            return True, f"the state after step {n} is the state after step {k}: play can repeat forever"
        return False, f"the state after step {n} differs from the state after step {k}"
    if kind == "dead-end":
        if isinstance(nd, Decision) and not nd.options:
            return True, f"after step {n} player {nd.player} must choose and has no enabled option"
        return False, f"after step {n} the game can go on or is over"
    if kind == "no-end-within":
        if isinstance(nd, Terminal):
            return False, f"the game is over after step {n}"
        return True, f"the game is still running after {n} steps"
    if kind == "loop":
        if isinstance(nd, Runaway) and nd.proven:
            return True, f"after step {n} the game runs on without a decision for ever: {nd.message}"
        return False, f"after step {n} the game does not run into an endless stretch without decisions"
    if kind == "win":
        role = w.get("role")
        if isinstance(nd, Terminal) and role in nd.winners:
            return True, f"the game is over after step {n}; winners {list(nd.winners)}, scores {list(nd.scores)}"
        return False, f"after step {n} player {role} has not won"
    if kind == "strategy":
        return _confirm_strategy(m, s, w)
    if kind == "satisfies":
        return _confirm_satisfies(m, w, states)
    return _confirm_trapped(m, s, n)


def _confirm_strategy(m: StepMachine, s, w: dict) -> tuple[bool, str]:
    # every play in which the role follows the strategy: all chance outcomes, all other moves
    role = w["role"]
    plan = {tuple(e["after"]): e["option"] for e in w["strategy"]}
    todo, ends = [(s, ())], 0
    while todo:
        t, path = todo.pop()
        nd = m.node(t)
        if isinstance(nd, Terminal):
            if role not in nd.winners:
                return False, f"after the moves {list(path)} the game ends with winners {list(nd.winners)}"
            ends += 1
            continue
        if isinstance(nd, Runaway):
            return False, f"after the moves {list(path)} the game runs on without end"
        if isinstance(nd, Decision) and not nd.options:   # a game error, not a play that ends
            return False, f"after the moves {list(path)} player {nd.player} must choose but has no enabled option"
        if isinstance(nd, Decision) and nd.player == role:
            k = plan.get(path)
            if k is None or not 0 <= k < len(nd.options):
                return False, f"the strategy has no valid option for player {role} after the moves {list(path)}"
            moves = [k]
        else:
            moves = range(nd.n) if isinstance(nd, Chance) else range(len(nd.options))
        if len(path) > 100_000:   # a play that long under a finite strategy is a cycle
            return False, f"a play following the strategy runs past {len(path)} steps"
        todo.extend((m.next_state(t, k), path + (k,)) for k in moves)
    return True, f"player {role} wins all {ends} plays that follow the strategy (every chance outcome, every " \
                 f"other move)"


def _confirm_satisfies(m: StepMachine, w: dict, states: list) -> tuple[bool, str]:
    # the condition is parsed again against this game and evaluated on the replayed play
    from .exists import trace_points
    from .where import Names, ScoreUndefined, holds_on, parse
    n = len(states) - 1
    if not isinstance(m.node(states[-1]), Terminal):
        return False, f"after step {n} the game is not over: a condition is about whole plays"
    try:
        cond = parse(w["where"], Names.of(m.prog.lay, m.prog.game), "witness where")
    except GgpBridgeError as e:
        raise WitnessError(f"the witness's condition does not fit the game: {e}") from None
    try:
        ok = holds_on(cond.formula, trace_points(m, states))
    except ScoreUndefined as e:
        return False, f"the play of {n} steps cannot be checked: {e}"
    if ok:
        return True, f"the game is over after step {n} and the play satisfies: {cond.text}"
    return False, f"the play of {n} steps does not satisfy: {cond.text}"


def _confirm_trapped(m: StepMachine, s, n: int) -> tuple[bool, str]:
    # no terminal reachable from s: a plain reachability search from there
    seen = {m.key(s)}
    todo = [s]
    while todo:
        t = todo.pop()
        nd = m.node(t)
        if isinstance(nd, Terminal):
            return False, f"a terminal state is still reachable after step {n}"
        if isinstance(nd, Runaway):
            if not nd.proven:
                return False, f"after step {n} a stretch of play runs past the step limit: it may still end"
            continue
        moves = range(nd.n) if isinstance(nd, Chance) else range(len(nd.options))
        for k in moves:
            u = m.next_state(t, k)
            key = m.key(u)
            if key not in seen:
                seen.add(key)
                todo.append(u)
    return True, f"after step {n} none of the {len(seen)} reachable states is terminal: the game cannot end"
