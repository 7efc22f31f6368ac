"""A game as one self-contained ASP program for plain clingo (`ggpbridge translate --to asp`).

Two forms, both built as `clingo.ast` statements by `ggpbridge.gdl.asp` (see docs/asp.md):

- "temporal" (the default): the game unrolled over `horizon` joint moves
  (`#const horizon = H.`, overridable with `clingo -c horizon=N`); a choice rule picks one
  legal move per role (`random` included) at every time, so each answer set is a play.
  `#const must_end = 1.` keeps only plays that have ended by the horizon; with
  `-c must_end=0` plays are cut at the horizon instead.
- "state": the time-free rules with the state and the joint move as `#external true/1,
  does/2` (what ClingoMachine grounds); plain clingo starts them at the initial state.
"""
from __future__ import annotations

import clingo
from clingo import ast

from .ast import Description
from .asp import flatten, program_statements
from .asp_rules import location
from .asp_terms import symbol_kif
from .machine import _roles

FORMS = ("temporal", "state")
DEFAULT_HORIZON = 100
_LOC = location(1, "<ggpbridge>")
_QUERY = clingo.Function("query", [clingo.Function("horizon")])

_TEMPORAL_HEADER = """\
% {title}
% Written by ggpbridge: the game unrolled over time, for plain clingo.
%   clingo THIS.lp                      one play that ends within `horizon` joint moves
%   clingo THIS.lp 0 -c horizon=N       every such play, with N instead of {horizon}
%   clingo THIS.lp -c must_end=0        plays cut at the horizon, ended or not
%   clingo THIS.lp --rand-freq=1 --seed=S   a different play for each seed S
% Roles: {roles}
% Horizon {horizon}: {horizon_note}
% Time-indexed interface (T = 0 is the initial state; T ranges over 0..horizon):
%   true(F,T)       fluent F holds at T
%   does(R,M,T)     role R makes move M at T (one legal move per role until the end)
%   legal(R,M,T)    M is legal for R at T          next(F,T)    F holds at T+1
%   sees(R,P,T)     R perceives P after the move at T
%   goal(R,V,T)     R's goal value at T            terminal(T)  the state at T is terminal
%   _terminated(T)  the play ended at or before T; the state is then kept unchanged
% Shown: does/3, and outcome(R,V) = goal(R,V,horizon) when plays must end.
% Names: GDL constants stay as they are when plain ([a-z][a-z0-9_]*); others are escaped
% as `_q` + bytes (`x-pos` -> `_qx_2Dpos`); `?x` -> `X`.
"""

_STATE_HEADER = """\
% {title}
% Written by ggpbridge: one state of the game at a time, for plain clingo or multi-shot use.
%   clingo THIS.lp     the legal moves, goals and terminal of the initial state
% Roles: {roles}
% Interface (time-free; the game's own relations):
%   #external true(F)   F holds in the state (default: true exactly for init(F))
%   #external does(R,M) R makes M in the joint move (default: false)
%   shown: legal(R,M), next(F), sees(R,P), goal(R,V), terminal
%   From Python assign the externals (Control.assign_external) and solve again.
%   _fluent(F), _move(R,M): every fluent and move the game can ever use.
"""


def asp_program_text(desc: Description, horizon: int | None = None, *, form: str = "temporal",
                     title: str = "a GDL game", horizon_note: str = "") -> str:
    """The self-contained clingo program of a game (`form` "temporal" or "state"), with a header;
    `horizon_note` says in the header how the horizon was chosen."""
    if form not in FORMS:
        raise ValueError(f"form must be one of {', '.join(FORMS)}, not {form!r}")
    roles = " ".join(symbol_kif(r) for r in _roles(desc))
    if form == "state":
        if horizon is not None:
            raise ValueError("horizon needs the temporal form")
        header = _STATE_HEADER.format(title=title, roles=roles)
        statements = _start_at_init(program_statements(desc, "state"))
    else:
        if not horizon_note:
            horizon_note = ("the default; not known to fit the game's plays (a horizon shorter than every "
                            "play makes the program unsatisfiable)" if horizon is None else "as asked")
        horizon_note = " ".join(horizon_note.split())   # one comment line, whatever the note holds
        horizon = DEFAULT_HORIZON if horizon is None else horizon
        header = _TEMPORAL_HEADER.format(title=title, roles=roles, horizon=horizon, horizon_note=horizon_note)
        statements = _optional_end(flatten(program_statements(desc, "temporal"), horizon))
    return header + "".join(f"{stm}\n" for stm in statements)


def _optional_end(statements: list[ast.AST]) -> list[ast.AST]:
    """`query(horizon).` becomes `query(horizon) :- must_end != 0.`, with `#const must_end = 1.`"""
    # The temporal encoding demands an ended play when query(horizon) holds; making that
    # fact conditional lets a user ask for plays cut at the horizon without editing the file.
    must_end = ast.SymbolicTerm(_LOC, clingo.Function("must_end"))
    condition = ast.Literal(_LOC, ast.Sign.NoSign, ast.Comparison(
        must_end, [ast.Guard(ast.ComparisonOperator.NotEqual, ast.SymbolicTerm(_LOC, clingo.Number(0)))]))
    out = []
    for stm in statements:
        if (stm.ast_type == ast.ASTType.Rule and not stm.body
                and str(stm.head) == str(_QUERY)):
            stm = stm.update(body=[condition])
        out.append(stm)
        if stm.ast_type == ast.ASTType.Definition and stm.name == "horizon":
            out.append(ast.Definition(_LOC, "must_end", ast.SymbolicTerm(_LOC, clingo.Number(1)), True))
    return out


def _start_at_init(statements: list[ast.AST]) -> list[ast.AST]:
    """Split `#external true(F) : _fluent(F).` so the initial fluents default to true."""
    out = []
    for stm in statements:
        if stm.ast_type == ast.ASTType.External and stm.atom.symbol.name == "true":
            init = ast.SymbolicAtom(ast.Function(_LOC, "init", list(stm.atom.symbol.arguments), False))
            for sign, default in ((ast.Sign.NoSign, "true"), (ast.Sign.Negation, "false")):
                out.append(stm.update(body=[*stm.body, ast.Literal(_LOC, sign, init)],
                                      external_type=ast.SymbolicTerm(_LOC, clingo.Function(default))))
            continue
        out.append(stm)
    return out
