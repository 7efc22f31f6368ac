"""`exists --where` on the asp engine: the condition as facts (clingo Symbols) read by asp/query_where.lp.

The condition is compiled node by node into facts (`_wand(N,A,B)`, `_wsize(E,L,O)`, ...) whose
arguments are Symbols made from the game's resolved names: the locations, owners, storages and
cards as the GDL translation names its fluents (`true(in(iloc_hand,0,c3),T)`, `true(int(won,0,1),T)`,
translators/recycle_gdl). No text of the user's condition reaches clingo. A `--where-file`
is parsed by clingo's own parser into the part ask(t); each of its integrity constraints gets
`ask(where,t)` added to its body (a clingo.ast transformation), so it narrows only the plays
asked for, never the proof that no play is left running.

"yes" is a play that ends and satisfies the condition (witness: its joint moves); "no" needs
every play to end (or be cut at --horizon) first: `ask(running,T)` unsatisfiable.
"""
from __future__ import annotations

import re
import time

import clingo
from clingo import ast

from ..errors import Pos, PositionedError, interrupted_by
from ..gdl.asp_rules import relations_needed, render_rules, restricted
from ..gdl.asp_terms import kif_symbol, symbol_kif, term_symbol
from ..gdl.ast import Description, relation
from ..gdl.errors import GdlError
from ..gdl.machine import ClingoMachine
from ..translators.recycle_gdl.export import card, owner_term
from ..translators.recycle_gdl.exprs import loc_name
from ..translators.recycle_gdl.terms import name as gdl_name
from . import where as W
from .answer import NO, UNKNOWN, YES, Answer
from .asp_engine import (DEFAULT_MAX_HORIZON, ENGINE, AspQueryError, Unrolling, _may_overflow, _proof, _search,
                         _Stop, _witness, _EXHAUSTED, describe_moves, resolve_role, top_goal)

_CMP = {"==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}
_NEG_RANGE = 1000   # the constants m1..m1000 stand for -1..-1000 (translators/recycle_gdl/terms.py)


class WhereFileError(PositionedError):
    """A --where-file that clingo cannot parse, or that tries to leave its program part."""


class _Facts:
    """The facts of one condition: each distinct node and expression gets a number."""

    def __init__(self, lay, desc: Description):
        self.lay, self.desc = lay, desc
        self.out: list = []
        self.ids: dict = {}

    def add(self, name: str, *args) -> None:
        self.out.append((name, tuple(a if isinstance(a, clingo.Symbol) else clingo.Number(a)
                                     if isinstance(a, int) else clingo.Function(a) for a in args)))

    def node(self, f) -> int:
        if ("f", f) in self.ids:
            return self.ids[("f", f)]
        n = self.ids[("f", f)] = len(self.ids)
        self.add("_wnode", n)
        if isinstance(f, W.Const):
            self.add("_wtrue" if f.value else "_wfalse", n)
        elif isinstance(f, W.Compare):
            self.add("_wcmp", n, _CMP[f.op], self.expr(f.left), self.expr(f.right))
        elif isinstance(f, W.Wins):
            role = resolve_role(self.desc, f"player{f.player}")
            top = top_goal(self.desc, role)
            self.add("_wwins", n, role)
            if top is not None:
                self.add("_wtop", role, top)
        elif isinstance(f, W.Over):
            self.add("_wover", n)
        elif isinstance(f, W.StrIs):
            self.add("_wstr", n, term_symbol(gdl_name(f.sto.name)), term_symbol(owner_term(self.lay, f.sto.owner)),
                     term_symbol(gdl_name(f.word.text)))
        elif isinstance(f, (W.And, W.Or, W.Until)):
            kind = {W.And: "_wand", W.Or: "_wor", W.Until: "_wuntil"}[type(f)]
            self.add(kind, n, self.node(f.left), self.node(f.right))
        else:
            kind = {W.Not: "_wnot", W.Next: "_wnext", W.Eventually: "_wev", W.Always: "_wal",
                    W.AtEnd: "_wend"}[type(f)]
            self.add(kind, n, self.node(f.arg))
        return n

    def expr(self, e) -> int:
        if ("e", e) in self.ids:
            return self.ids[("e", e)]
        n = self.ids[("e", e)] = len(self.ids)
        if isinstance(e, W.Num):
            self.add("_wnum", n, e.value)
        elif isinstance(e, W.Arith):
            self.add("_wadd" if e.op == "+" else "_wsub", n, self.expr(e.left), self.expr(e.right))
        elif isinstance(e, W.Size):
            self.add("_wsize", n, *location_symbols(self.lay, e))
        elif isinstance(e, W.Count):
            self.add("_wcount", n, *location_symbols(self.lay, e.where))
            for c in sorted(e.cards):
                self.add("_wcard", n, term_symbol(card(c)))
        elif isinstance(e, W.Score):
            # the translation's player_score(K,V): seat K's value of the game's scoring expression
            self.add("_wscore", n, e.player)
        elif isinstance(e, W.Sto):
            self.add("_wsto", n, term_symbol(gdl_name(e.name)), term_symbol(owner_term(self.lay, e.owner)))
        return n


def location_symbols(lay, loc: W.Size) -> tuple:
    """(location, owner) as the translation names them: (iloc_hand, 0), (vloc_gathered, table)."""
    return term_symbol(loc_name(loc.vis, loc.name)), term_symbol(owner_term(lay, loc.owner))


def condition_facts(cond: W.Condition, lay, desc: Description) -> list:
    """The facts (name, Symbols) of a condition for asp/query_where.lp."""
    fs = _Facts(lay, desc)
    fs.add("_wroot", fs.node(cond.formula))
    if not W.score_read_mid_play(cond.formula):
        fs.add("_wscore_at_end")   # a score missing mid-play is never read: only the final one counts
    for k in range(1, _NEG_RANGE + 1):
        fs.add("_wneg", clingo.Function(f"m{k}"), -k)
    return fs.out


def where_file_statements(source) -> list:
    """The statements of a --where-file, for the part ask(t), with `ask(where,t)` added to its constraints."""
    messages: list = []
    stms: list = []
    try:
        ast.parse_string(source.text, stms.append, logger=lambda code, msg: messages.append(msg))
    except RuntimeError:
        raise _file_error(source, messages) from None
    out = []
    guard = ast.Literal(_loc(source), ast.Sign.NoSign, ast.SymbolicAtom(ast.Function(
        _loc(source), "ask", [ast.SymbolicTerm(_loc(source), clingo.Function("where")),
                              ast.Function(_loc(source), "t", [], False)], False)))
    for s in stms:
        if s.ast_type == ast.ASTType.Program:
            if s.name != "base" or s.parameters:
                raise WhereFileError("a --where-file is one program part: leave out #program",
                                     Pos(s.location.begin.line, s.location.begin.column), source)
            continue   # the implicit `#program base.` clingo puts first
        if s.ast_type == ast.ASTType.Rule and s.head.ast_type == ast.ASTType.Literal and \
                s.head.atom.ast_type == ast.ASTType.BooleanConstant and not s.head.atom.value:
            s = ast.Rule(s.location, s.head, list(s.body) + [guard])
        out.append(s)
    return out


def _loc(source):
    pos = ast.Position(source.name, 1, 1)
    return ast.Location(pos, pos)


def _file_error(source, messages) -> WhereFileError:
    for msg in messages:
        mt = re.search(r":(\d+):(\d+)(?:-\d+(?::\d+)?)?: error: (.*)", msg)
        if mt:
            return WhereFileError(mt.group(3).strip(), Pos(int(mt.group(1)), int(mt.group(2))), source)
    return WhereFileError("clingo cannot parse it: " + " ".join(messages), Pos(1, 1), source)


def answer_exists_asp(desc: Description, lay, cond: W.Condition, raw=None, horizon: int | None = None,
                      timeout: float | None = None) -> Answer:
    """Is there a play that ends and satisfies `cond` (and the constraints of `raw`, a Source)?"""
    start = time.perf_counter()
    deadline = None if timeout is None else start + timeout
    extra = where_file_statements(raw) if raw is not None else []
    try:
        asked = restricted(desc, ("legal", "next", "terminal", "goal"))
        files = ["query_common", "query_where"]
        facts = condition_facts(cond, lay, desc)
        if horizon is not None:
            files.append("query_budget")
            facts.append(("_budget", (clingo.Number(horizon),)))
        overflow = _may_overflow(asked)
        if overflow:
            files.append("query_overflow")
        u = Unrolling(asked, files, facts, deadline)
        if extra:
            with ast.ProgramBuilder(u.ctl) as b:
                b.add(ast.Program(_loc(raw), "ask", [ast.Id(_loc(raw), "t")]))
                for s in extra:
                    b.add(s)
        result = _search(u, DEFAULT_MAX_HORIZON, [
            ("where", _found, None, "find"),
            ("running", None, _proof(NO, "; none satisfies the condition"), "proof")])
        if result is _EXHAUSTED:
            verdict, method, witness, limit = (UNKNOWN, f"incremental clingo: no play satisfying the condition "
                                               f"within {DEFAULT_MAX_HORIZON} moves", None,
                                               f"{DEFAULT_MAX_HORIZON} moves unrolled")
        else:
            verdict, method, witness, limit = result
            if horizon is not None and verdict == NO:
                method += f" (plays cut after {horizon} steps: no play of at most {horizon} steps)"
            if overflow and verdict == NO and u.ask("overflow") is not None:
                verdict, limit = UNKNOWN, "the translation's bounded tables"
                method += "; but some plays leave the translation's tables"
            elif _reads_score(cond) and verdict == NO and u.ask("score_lost") is not None:
                verdict, limit = UNKNOWN, "the translation's bounded tables"
                method += "; but in some play a score(...) read has no value in the translation (off its " \
                          "integer tables, or undefined mid-game)"
    except _Stop as stop:
        return Answer("exists", UNKNOWN, ENGINE, "clingo stopped before an answer",
                      round(time.perf_counter() - start, 3), limit=stop.limit)
    except KeyboardInterrupt as stop:
        return Answer("exists", UNKNOWN, ENGINE, "the search was interrupted", round(time.perf_counter() - start, 3),
                      limit=interrupted_by(stop))
    except GdlError as e:
        raise AspQueryError(str(e)) from e
    if witness is not None:
        witness["where"] = cond.text
        if raw is not None:
            witness["where_file"] = raw.name
        describe_moves(desc, witness)
    return Answer("exists", verdict, ENGINE, method, round(time.perf_counter() - start, 3), limit, witness,
                  u.stats())


def _reads_score(cond: W.Condition) -> bool:
    return any(isinstance(x, W.Score) for x in W.parts(cond.formula))


def _found(u: Unrolling, model, t: int):
    moves = u.play(model, t)
    w = _witness("exists", YES, "satisfies", moves)
    return YES, f"incremental clingo: a play of {len(moves)} moves ends and satisfies the condition", w, None


# -- replay on the translation ---------------------------------------------------------

def confirm_gdl(m: ClingoMachine, desc: Description, lay, w: dict, states: list) -> tuple[bool, str]:
    """Recompute the condition of a `satisfies` witness on the GDL states of its play: the
    observation points are the states where some role has a move other than noop, and the last."""
    n = len(states) - 1
    if not m.is_terminal(states[-1]):
        return False, f"after {n} moves the game is not over: a condition is about whole plays"
    cond = W.parse(w["where"], W.Names.of(lay), "witness where")
    noop = kif_symbol("noop")
    players = {k: resolve_role_symbol(m, k) for k in range(lay.n)}
    points = []
    for s in states[:-1]:
        if any(mv != noop for r in m.roles() for mv in m.legal_moves(s, r)):
            points.append((s, None))
    goals = m.goals(states[-1])
    # a win is the role's top goal, as `winnable` and the asp engine read it
    winners = tuple(k for k, r in players.items() if goals.get(r) is not None and goals.get(r) == top_goal(desc, r))
    points.append((states[-1], winners))
    r = cond.formula
    scores = _GdlScores(desc)
    try:
        for i, (s, win) in enumerate(points):
            r = W.progress(r, lambda a: _gdl_atom(a, s, lay, win, scores), i == len(points) - 1)
    except W.ScoreUndefined as e:
        return False, f"the play of {n} moves cannot be checked: {e} (in the translation)"
    extra = " (the raw ASP of its --where-file is not re-checked)" if w.get("where_file") else ""
    if r == W.TRUE:
        return True, f"the game is over after {n} moves and the play satisfies: {cond.text}{extra}"
    return False, f"the play of {n} moves does not satisfy: {cond.text}"


def resolve_role_symbol(m: ClingoMachine, k: int):
    return [r for r in m.roles() if symbol_kif(r) != "random"][k]


class _GdlScores:
    """The translation's `player_score(K,V)` in a GDL state: its rules alone, grounded with the state as facts."""

    def __init__(self, desc: Description):
        self.desc = desc
        self.rules = None

    def __call__(self, state, seat: int) -> int:
        if self.rules is None:
            keep = relations_needed(self.desc, {("player_score", 2)})
            self.rules = "".join(f"{x}\n" for x in render_rules(
                [r for r in self.desc.rules if relation(r.head) in keep]))
        ctl = clingo.Control(["--warn=none"])
        ctl.add("base", [], self.rules + "".join(f"true({f}).\n" for f in state) + "#show player_score/2.")
        ctl.ground([("base", [])])
        got: list = []
        ctl.solve(on_model=lambda m: got.extend(m.symbols(shown=True)))
        for sym in got:
            if sym.arguments[0] == clingo.Number(seat):
                v = sym.arguments[1]
                return v.number if v.type == clingo.SymbolType.Number else -int(v.name[1:])
        raise W.ScoreUndefined(f"player {seat} has no player_score in a state where score(...) is read")


def _gdl_atom(a, state, lay, winners, scores) -> bool:
    if isinstance(a, W.Wins):
        return winners is not None and a.player in winners
    if isinstance(a, W.Over):
        return winners is not None
    if isinstance(a, W.StrIs):
        held = [f.arguments[2] for f in state if f.name == "str" and len(f.arguments) == 3
                and f.arguments[0] == term_symbol(gdl_name(a.sto.name))
                and f.arguments[1] == term_symbol(owner_term(lay, a.sto.owner))]
        return term_symbol(gdl_name(a.word.text)) in held
    return W._compare(a.op, _gdl_value(a.left, state, lay, scores), _gdl_value(a.right, state, lay, scores))


def _gdl_value(e, state, lay, scores) -> int:
    if isinstance(e, W.Num):
        return e.value
    if isinstance(e, W.Arith):
        x, y = _gdl_value(e.left, state, lay, scores), _gdl_value(e.right, state, lay, scores)
        return x + y if e.op == "+" else x - y
    if isinstance(e, W.Score):
        return scores(state, e.player)
    if isinstance(e, (W.Size, W.Count)):
        loc = e if isinstance(e, W.Size) else e.where
        lsym, osym = location_symbols(lay, loc)
        held = {f.arguments[-1] for f in state if f.name in ("in", "at") and f.arguments[0] == lsym
                and f.arguments[1] == osym}
        if isinstance(e, W.Size):
            return len(held)
        want = {term_symbol(card(c)) for c in e.cards}
        return len(held & want)
    ksym, osym = term_symbol(gdl_name(e.name)), term_symbol(owner_term(lay, e.owner))
    for f in state:
        if f.name == "int" and f.arguments[0] == ksym and f.arguments[1] == osym:
            v = f.arguments[2]
            return v.number if v.type == clingo.SymbolType.Number else -int(v.name[1:])
    return 0
