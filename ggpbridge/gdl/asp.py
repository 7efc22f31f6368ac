"""GDL -> ASP: a game description as a clingo program, as text or in a `clingo.Control`.

Encodings (each pairs the rendered game rules with a file of `asp/`, whose
header documents its interface):

- "rules"    the game rules alone, time-free;
- "domain"   the rules relaxed (negative literals dropped) + `asp/gdl_domain.lp`:
             its least model over-approximates the fluents and moves (`game_domain`);
- "state"    the rules + the domain as `_fluent/1`, `_move/2` facts + `asp/gdl_state.lp`:
             one state at a time through `#external true/1, does/2` (ClingoMachine);
- "temporal" the rules with a time argument + `asp/gdl_temporal.lp`, in the `#program`
             parts base, step(t), check(t) for incremental grounding (`ground_horizon`);
             with `horizon=H` the parts are flattened into one base program that plain
             clingo runs (`#const horizon = H.`, overridable with `-c horizon=N`).

Everything is built as `clingo.ast` statements; the text is their canonical printing.
"""
from __future__ import annotations

import importlib.resources
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator

import clingo
from clingo import ast

from .ast import Description, relation
from .asp_rules import dynamic_levels, location, relations_needed, render_rules
from .errors import AspError

ENCODINGS = ("rules", "domain", "state", "temporal")
_LOC = location(1, "<ggpbridge>")
_PARAM = clingo.Function("t")          # the parameter of step(t) and check(t)
_TIME_VAR = "_T"                       # replaces t when the parts are flattened
_HORIZON = clingo.Function("horizon")


@dataclass(frozen=True)
class Domain:
    """The fluents and (role, move) pairs a game can ever use, as clingo Symbols."""

    fluents: frozenset[clingo.Symbol]
    moves: frozenset[tuple[clingo.Symbol, clingo.Symbol]]


class Messages(list):
    """A clingo logger that keeps the messages instead of printing them."""

    def __call__(self, code: clingo.MessageCode, message: str) -> None:
        self.append(message.strip())


def new_control(arguments: Iterable[str] = ()) -> tuple[clingo.Control, Messages]:
    """A Control whose messages are collected (for `reporting`), not printed."""
    messages = Messages()
    return clingo.Control(list(arguments), logger=messages), messages


@contextmanager
def reporting(messages: Messages) -> Iterator[None]:
    """Turn clingo's RuntimeError into an AspError that carries clingo's messages."""
    try:
        yield
    except RuntimeError as exc:
        details = "\n".join(m for m in messages if "error" in m) or "\n".join(messages)
        raise AspError(f"clingo: {exc}\n{details}".rstrip()) from exc


def encoding_text(name: str) -> str:
    """The text of `asp/<name>.lp` (from the package when installed, else the checkout)."""
    try:
        resource = importlib.resources.files("ggpbridge.asp") / f"{name}.lp"
        if resource.is_file():
            return resource.read_text(encoding="utf-8")
    except ModuleNotFoundError:
        pass
    return (Path(__file__).resolve().parents[2] / "asp" / f"{name}.lp").read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def _encoding(name: str) -> tuple[ast.AST, ...]:
    out: list[ast.AST] = []
    ast.parse_string(encoding_text(name), out.append)
    return tuple(out)


def program_statements(desc: Description, encoding: str = "state", *, horizon: int | None = None,
                       domain: Domain | None = None, project: bool = True) -> list[ast.AST]:
    """The clingo AST statements of a description under one of the ENCODINGS."""
    # project=False renders every GDL rule as one clingo rule (per `or` alternative),
    # without the auxiliary predicates of `asp_project`: for comparisons and debugging.
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding must be one of {', '.join(ENCODINGS)}, not {encoding!r}")
    if horizon is not None and (encoding != "temporal" or horizon < 0):
        raise ValueError("horizon needs the temporal encoding and must be at least 0")
    base = [ast.Program(_LOC, "base", [])]
    if encoding == "rules":
        return base + render_rules(desc.rules, project=project)
    if encoding == "domain":
        return base + render_rules(desc.rules, relaxed=True, project=project) + list(_encoding("gdl_domain"))
    if encoding == "state":
        domain = domain or game_domain(desc, project=project)
        return (base + render_rules(desc.rules, project=project) + _domain_facts(domain)
                + list(_encoding("gdl_state")))
    parts = _temporal_parts(desc, project) + list(_encoding("gdl_temporal"))
    return parts if horizon is None else flatten(parts, horizon)


def to_asp_program(desc: Description, encoding: str = "state", *, horizon: int | None = None,
                   project: bool = True) -> str:
    """The program as text for plain clingo (see the module docstring for the encodings)."""
    return "".join(f"{stm}\n" for stm in program_statements(desc, encoding, horizon=horizon, project=project))


def add_to_control(ctl: clingo.Control, desc: Description, encoding: str = "state", *,
                   horizon: int | None = None, domain: Domain | None = None, project: bool = True) -> None:
    """Add the program's statements to a Control (grounding is up to the caller)."""
    statements = program_statements(desc, encoding, horizon=horizon, domain=domain, project=project)
    with ast.ProgramBuilder(ctl) as builder:
        for stm in statements:
            builder.add(stm)


def ground_horizon(ctl: clingo.Control, horizon: int, grounded: int | None = None) -> None:
    """Ground the temporal parts up to `horizon` (on top of `grounded`, if any) and ask query(horizon)."""
    # `grounded` is the horizon ctl was already grounded to; None grounds base as well.
    # Deepening one step at a time grounds only the new steps.
    if horizon < 0 or (grounded is not None and not 0 <= grounded <= horizon):
        raise ValueError(f"cannot ground up to {horizon} from {grounded}")
    if grounded == horizon:
        return
    parts = [("base", [])] if grounded is None else []
    parts += [("step", [clingo.Number(t)]) for t in range((grounded or 0) + 1, horizon + 1)]
    parts.append(("check", [clingo.Number(horizon)]))
    if grounded is not None:
        # Releasing makes query(grounded) false for good: the old check is switched off.
        ctl.release_external(clingo.Function("query", [clingo.Number(grounded)]))
    ctl.ground(parts)
    ctl.assign_external(clingo.Function("query", [clingo.Number(horizon)]), True)


def game_domain(desc: Description, project: bool = True) -> Domain:
    """Ground the relaxed game (encoding "domain") to over-approximate its fluents and moves."""
    ctl, messages = new_control()
    with reporting(messages):
        add_to_control(ctl, desc, "domain", project=project)
        ctl.ground([("base", [])])
    atoms = ctl.symbolic_atoms
    # A positive program: gringo derives its least model as facts, no solving needed.
    fluents = frozenset(a.symbol.arguments[0] for a in atoms.by_signature("true", 1))
    moves = frozenset(tuple(a.symbol.arguments) for a in atoms.by_signature("does", 2))
    return Domain(fluents, moves)


def fact(name: str, args: Iterable[clingo.Symbol]) -> ast.AST:
    """The fact `name(args...)` as a clingo AST statement."""
    terms = [ast.SymbolicTerm(_LOC, arg) for arg in args]
    return ast.Rule(_LOC, ast.Literal(_LOC, ast.Sign.NoSign,
                                      ast.SymbolicAtom(ast.Function(_LOC, name, terms, False))), [])


def _domain_facts(domain: Domain) -> list[ast.AST]:
    # Sorted, so the program text is the same from run to run.
    return ([fact("_fluent", [f]) for f in sorted(domain.fluents)]
            + [fact("_move", pair) for pair in sorted(domain.moves)])


def _temporal_parts(desc: Description, project: bool) -> list[ast.AST]:
    levels = dynamic_levels(desc)
    static, state, move = [], [], []
    for rule in desc.rules:
        level = levels.get(relation(rule.head))
        (move if level == "move" else state if level == "state" else static).append(rule)

    def at(term: ast.AST):
        return lambda key: term if key in levels else None

    zero = ast.SymbolicTerm(_LOC, clingo.Number(0))
    t = ast.SymbolicTerm(_LOC, _PARAM)
    before = ast.BinaryOperation(_LOC, ast.BinaryOperator.Minus, t, ast.SymbolicTerm(_LOC, clingo.Number(1)))
    # State rules describe each state: time 0 in base, time t in step(t). Rules that
    # read the joint move belong to the move at t-1, which step(t) makes.
    # Static, state and move rules have disjoint heads, so the auxiliary names of the
    # three renderings (numbered per head) cannot meet; the state rules at 0 and at t
    # share theirs, with different time arguments.
    return ([ast.Program(_LOC, "base", [])] + render_rules(static, project=project)
            + render_rules(state, at(zero), project=project)
            + [ast.Program(_LOC, "step", [ast.Id(_LOC, "t")])]
            + render_rules(state, at(t), project=project) + render_rules(move, at(before), project=project))


class _Substitute(ast.Transformer):
    """Replace the part parameter `t` by a given term."""

    def __init__(self, replacement: ast.AST):
        self.replacement = replacement

    def visit_SymbolicTerm(self, node: ast.AST) -> ast.AST:
        return self.replacement if node.symbol == _PARAM else node


def flatten(statements: Iterable[ast.AST], horizon: int) -> list[ast.AST]:
    """One base program from base, step(t), check(t): steps 1..horizon, the check at horizon."""
    time = ast.Variable(_LOC, _TIME_VAR)
    guard = ast.Literal(_LOC, ast.Sign.NoSign, ast.SymbolicAtom(ast.Function(_LOC, "_step", [time], False)))
    steps = ast.Interval(_LOC, ast.SymbolicTerm(_LOC, clingo.Number(1)), ast.SymbolicTerm(_LOC, _HORIZON))
    out = [ast.Program(_LOC, "base", []),
           ast.Definition(_LOC, "horizon", ast.SymbolicTerm(_LOC, clingo.Number(horizon)), True),
           ast.Rule(_LOC, ast.Literal(_LOC, ast.Sign.NoSign, ast.SymbolicAtom(
               ast.Function(_LOC, "_step", [steps], False))), [])]
    part = "base"
    for stm in statements:
        kind = stm.ast_type
        if kind == ast.ASTType.Program:
            part = stm.name
            continue
        if kind == ast.ASTType.Comment or part == "base":
            out.extend([] if kind == ast.ASTType.Comment else [stm])
        elif part == "step":
            stm = _Substitute(time)(stm)
            # Every statement of step(t) is guarded by _step(_T), which binds _T.
            out.append(stm if kind == ast.ASTType.ShowSignature else stm.update(body=[*stm.body, guard]))
        elif part == "check":
            stm = _Substitute(ast.SymbolicTerm(_LOC, _HORIZON))(stm)
            if kind == ast.ASTType.External:
                # Plain clingo cannot set externals: the query at the horizon is a fact.
                stm = ast.Rule(stm.location, ast.Literal(_LOC, ast.Sign.NoSign, stm.atom), list(stm.body))
            out.append(stm)
        else:
            raise AspError(f"cannot flatten the program part {part!r}")
    return out


def lookahead_rules(desc: Description, project: bool = True,
                    keywords: Iterable[str] = ("legal", "goal", "terminal")) -> list[ast.AST] | None:
    """The rules that `keywords` (some of legal, goal, terminal) depend on, at time 1, with
    `asp/gdl_lookahead.lp`; None if they read `does`."""
    # Only a description that breaks GDL's restrictions (legal, goal and terminal
    # independent of does) gives None: a copy at time 1 would read moves nobody makes.
    levels = dynamic_levels(desc)
    # A static relation depends on static ones only: keeping the dynamic ones loses nothing.
    arity = {"legal": 2, "goal": 2, "terminal": 0}
    wanted = {key for key in relations_needed(desc, [(k, arity[k]) for k in keywords]) if key in levels}
    if any(levels[key] == "move" for key in wanted):
        return None
    one = ast.SymbolicTerm(_LOC, clingo.Number(1))
    rules = [rule for rule in desc.rules if relation(rule.head) in wanted]
    # The copy's auxiliary predicates are named apart: numbered over a subset of the rules,
    # the same name could stand for another part of another rule in the time-free program
    # (a static part, which carries no time argument), and each would derive the other's
    # atoms (Texas's bets: a `not` over such a part offered bets the state rules out).
    return ([ast.Program(_LOC, "base", [])]
            + render_rules(rules, lambda key: one if key in levels else None, project=project, aux_tag="1_")
            + list(_encoding("gdl_lookahead")))


def temporal_rules(desc: Description, project: bool = True) -> list[ast.AST]:
    """The game rules of the "temporal" encoding (parts base and step(t)) without asp/gdl_temporal.lp."""
    # For encodings that define their own play rules (asp/query_common.lp stops plays at dead ends).
    return _temporal_parts(desc, project)
