"""A state machine for any GDL / GDL-II description, answered by clingo.

The game is grounded (encoding "state" of `ggpbridge.gdl.asp`) with the state
as `#external true(F)` atoms and the joint move as `#external does(R,M)` atoms.
A query assigns the externals that differ from the previous query and solves;
the program with its externals fixed is stratified, so the one answer set holds
the legal moves, goals, terminal, next state and percepts. Nothing is reground
per state, so a query costs the same at any depth of the game.

The ground program is kept in a Control of its own with symbols for the shown atoms
only (`ggpbridge.gdl.ground`): clingo's per-query cost grows with its symbol table, and
a translated card game's static tables would otherwise dominate it.

Lookahead: the rules that legal, goal and terminal depend on are grounded a second
time over the next state (`asp/gdl_lookahead.lp`), so the solve that makes a
transition also answers the queries about the state it leads to: a playout costs
one solve per transition, not two. A solve costs in proportion to the whole ground
program (clingo resets and propagates every atom), which is why fewer solves matter.

Percepts: the rules that only `sees` needs are left out of the ground program until
`sees` is first asked (or from the start with `percepts=True`, as the lockstep and the
GGP manager and player use it); a random playout that never asks saves their share of
every solve.

A machine that has the `sees` rules still solves a transition asked without its percepts
(`next_state` before or without `sees`) on specialized programs that leave them out: the
lockstep needs the percepts before a decision only (`benchmarks/percept_programs.py`).

Goals: the rules that only `goal` needs are grounded apart, in a second program that is
solved only when goals are asked, which a playout does once, at its end. A card game's
scores (sums of card points over every position of a hand) can be most of its rules
(Crazy Eights, fitted: 814,000 of 994,000), and every transition would propagate them.

Specialized programs: a state usually has one fluent of a family that tells the stage of
the game (the program counter `pc` of a translated card game, `control` in tic-tac-toe),
and most rules only apply at some stages. For each value of that fluent met in play, the
machine loads a program simplified for it (`ggpbridge.gdl.specialize`) and solves on that
one: on Agram (4 players, fitted) 3,700 to 6,500 rules instead of 19,500, about 3 times
the transitions per second (`benchmarks/engines_speed.py`). The numbering of the externals
is the same in every program, so a state's literals hold in all of them.

Terms: roles, moves, fluents and percepts are `clingo.Symbol`s (immutable,
hashable, ordered), named as in `ggpbridge.gdl.asp_terms`: `mark(1,1)` is the
GDL term `(mark 1 1)`; `kif_symbol` / `symbol_kif` convert. A state is a
frozenset of fluent Symbols. Where a role or a move is expected, a str is also
accepted and read as KIF (`"xplayer"`, `"(mark 1 1)"`).
"""
from __future__ import annotations

import random as _random
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Mapping, Union

import clingo
from clingo import ast

from ..machine import Playout, Policy, UnfinishedPlay, joint_moves, uniform  # noqa: F401 (re-exported)
from ..machine import playout as _playout
from .asp import game_domain, lookahead_rules, new_control, program_statements, reporting
from .asp_rules import dynamic_levels, render_rules, restricted
from .ast import Description, Func, is_ground, relation
from .ground import GroundProgram
from .asp_terms import kif_symbol, symbol_kif, term_symbol
from ..errors import only_errors
from .errors import GameError, GdlError, IllegalMoveError, UnknownRoleError
from .tables import check_groundable
from .validate import validate

State = frozenset  # of fluent Symbols
_SPECIALIZE_FROM = 1_000   # rules: below, the fixed cost of a solve dominates and one program does
# The most values a control family may have, and so programs a machine makes (with and as many
# without percepts): 22 CardStock games have 65 to 122 program counter values, and with a cap of
# 64 they were played on the whole program (BottleImp3.rcy: see benchmarks/lockstep_warmup.py).
MAX_PROGRAMS = 128
_SHOWN_AHEAD = (("legal", 2), ("goal", 2), ("terminal", 0))   # shown again by the lookahead, at time 1
TermLike = Union[clingo.Symbol, str]


@dataclass(frozen=True)
class _StateInfo:
    legal: dict[clingo.Symbol, tuple[clingo.Symbol, ...]]
    terminal: bool
    goals: dict[clingo.Symbol, int]


class _Cache(OrderedDict):
    """A small LRU map: the most recent `size` entries."""

    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def put(self, key, value):
        self[key] = value
        if len(self) > self.size:
            self.popitem(last=False)
        return value

    def lookup(self, key):
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value


class GdlMachineBase:
    """What every machine over a GDL description shares: the interface's plain queries over
    `_info(state)` (legal moves and terminal), and the checks of roles and joint moves.
    A subclass sets `_desc`, `_roles` and `_initial`, and defines `_info`."""

    _desc: Description
    _roles: tuple
    _initial: State

    @property
    def description(self) -> Description:
        """The GDL description the machine plays."""
        return self._desc

    def roles(self) -> tuple[clingo.Symbol, ...]:
        """The roles, in the order of the description."""
        return self._roles

    def initial_state(self) -> State:
        """The fluents of `init`."""
        return self._initial

    def legal_moves(self, state: State, role: TermLike) -> tuple[clingo.Symbol, ...]:
        """The moves `role` may make in `state`, sorted."""
        return self._info(state).legal.get(self._role(role), ())

    def is_terminal(self, state: State) -> bool:
        """True when `state` is terminal."""
        return self._info(state).terminal

    def options(self, state: State) -> tuple[bool, tuple[tuple[clingo.Symbol, ...], ...]]:
        """Whether `state` is terminal, and every role's legal moves in role order (one lookup)."""
        info = self._info(state)
        return info.terminal, tuple(info.legal.get(r, ()) for r in self._roles)

    def next_unchecked(self, state: State, joint: tuple) -> State:
        """The state after `joint`, the moves in role order, each one that `options(state)` gave
        (a machine may skip its checks)."""
        return self.next_state(state, dict(zip(self._roles, joint)))

    def joint_moves(self, state: State) -> list[dict[clingo.Symbol, clingo.Symbol]]:
        """Every combination of legal moves in `state`, in a fixed order."""
        return joint_moves(self, state)

    @staticmethod
    def kif(symbol: clingo.Symbol) -> str:
        """KIF text of a role, move, fluent or percept."""
        return symbol_kif(symbol)

    def _info(self, state: State) -> "_StateInfo":
        raise NotImplementedError

    def _role(self, role: TermLike) -> clingo.Symbol:
        symbol = kif_symbol(role) if isinstance(role, str) else role
        if symbol not in self._roles:
            raise UnknownRoleError(f"unknown role {_show(symbol)}; the roles are "
                                   + ", ".join(map(symbol_kif, self._roles)))
        return symbol

    def _chosen(self, joint_moves: Mapping[TermLike, TermLike]) -> tuple:
        """The moves in role order, one for every role."""
        chosen: dict[clingo.Symbol, clingo.Symbol] = {}
        for role, move in joint_moves.items():
            chosen[self._role(role)] = kif_symbol(move) if isinstance(move, str) else move
        missing = [symbol_kif(r) for r in self._roles if r not in chosen]
        if missing:
            raise IllegalMoveError(f"no move for {', '.join(missing)}: every role moves in every state")
        return tuple(chosen[role] for role in self._roles)

    def _check_legal(self, state: State, joint: tuple) -> None:
        """Refuse a joint move in a terminal state or with a move the rules do not allow."""
        info = self._info(state)
        if info.terminal:
            raise GameError("the state is terminal: the game is over")
        for role, move in zip(self._roles, joint):
            if move not in info.legal.get(role, ()):
                raise IllegalMoveError(f"{_show(move)} is not a legal move of "
                                       f"{symbol_kif(role)} in this state")


class ClingoMachine(GdlMachineBase):
    """`ClingoMachine(desc)`: roles, initial state, legal moves, transitions, goals, percepts."""

    # cache_size bounds each LRU cache (state -> legal/terminal/goals, and
    # (state, joint move) -> next state/percepts); check=False skips the validator and the
    # estimate of the static tables (`ggpbridge.gdl.tables`);
    # project=False grounds the rules without body projection (ggpbridge.gdl.asp_project);
    # lookahead=False leaves out the copy of legal/goal/terminal at the next state, which
    # lets a transition's solve also answer the next state's queries (one solve per step);
    # percepts=True grounds the `sees` rules from the start. Without it they are left out
    # until `sees` is first asked (a playout that never asks costs less per solve), and
    # the whole program is grounded then. split_goals=False keeps the goal rules in the
    # program of every query (and in the lookahead), for callers that ask the goals of
    # every state: one solve instead of two. specialize=True / False / None (the default:
    # when the whole program has 1,000 rules or more) loads a program per value of the
    # control fluent, at most max_programs of them (MAX_PROGRAMS by default), with and as many
    # without the `sees` rules (then the whole one answers).

    def __init__(self, desc: Description, cache_size: int = 200_000, check: bool = True,
                 project: bool = True, lookahead: bool = True, percepts: bool = False,
                 split_goals: bool = True, specialize: bool | None = None,
                 max_programs: int | None = None):
        if check:
            # Unstratified or unsafe rules would give clingo several answers, or none:
            # refuse them up front with the validator's explanation.
            errors = only_errors(validate(desc))
            if errors:
                raise GdlError("the description is not valid GDL:\n"
                               + "\n".join(d.format("<description>") for d in errors))
            check_groundable(desc)   # tables too large for memory: refused before grounding
        self._roles = _roles(desc)
        self.domain = game_domain(desc, project=project)
        self._initial = _initial_state(desc, project)
        self.split_goals = split_goals
        ahead = lookahead_rules(desc, project, ("legal", "terminal") + (() if split_goals else ("goal",))) \
            if lookahead else None
        self.lookahead = ahead is not None
        self._desc, self._project, self._ahead = desc, project, ahead or []
        # Whether the loaded program computes percepts; a game without `sees` rules always does.
        self._has_sees = any(relation(rule.head) == ("sees", 2) for rule in desc.rules)
        self.percepts = percepts or not self._has_sees
        self.ground_seconds = 0.0
        self.specialize = specialize
        self.max_programs = MAX_PROGRAMS if max_programs is None else max_programs
        self._load()
        self._goal_program: tuple | None = None   # (program, decoded atoms), grounded when goals are first asked
        self._goal_cache = _Cache(cache_size)
        self._info_cache = _Cache(cache_size)
        self._step_cache = _Cache(cache_size)
        self.solves = 0  # how many times clingo was asked (cache misses)

    def goals(self, state: State) -> dict[clingo.Symbol, int]:
        """Goal value of each role that has one in `state` (GDL demands one in terminal states)."""
        if not self.split_goals:
            return dict(self._info(state).goals)
        state = _frozen(state)
        goals = self._goal_cache.lookup(state)
        if goals is None:
            goals = self._goal_cache.put(state, self._solve_goals(state))
        return dict(goals)

    def next_state(self, state: State, joint_moves: Mapping[TermLike, TermLike]) -> State:
        """The state after every role makes its move in `joint_moves`."""
        return self._step(state, joint_moves, False)[0]

    def sees(self, state: State, joint_moves: Mapping[TermLike, TermLike]) -> dict[clingo.Symbol, frozenset]:
        """GDL-II percepts of every role when `joint_moves` is made in `state`."""
        if not self.percepts:
            self.percepts = True
            self._load()
        return dict(self._step(state, joint_moves, True)[1])

    # -- internals ----------------------------------------------------------

    def _load(self) -> None:
        """Ground the program every query is asked of: the rules of the keywords wanted (see
        `__init__`), with the lookahead."""
        keywords = {"legal", "next", "terminal"} | ({"sees"} if self.percepts else set()) \
            | (set() if self.split_goals else {"goal"})
        self._program = self._ground(restricted(self._desc, keywords), self._ahead, self.domain.moves,
                                     specializable=self.specialize is not False)
        self._meaning = self._decoded(self._program)
        # Literals are the program's own numbers: nothing remembered from another program holds.
        self._fluent_of = {lit: f for f, lit in self._program.fluent_lit.items()}
        self._last: tuple = (None, frozenset())  # the last state and its literals
        self._made: tuple = (None, None)   # the last state a transition made, and its literals
        # (percepts, control fluents) -> program; percepts False: without the `sees` rules
        self._programs: dict[tuple[bool, frozenset], GroundProgram] = {}
        self._family = frozenset()
        if self.specialize or (self.specialize is None and self._program.rules >= _SPECIALIZE_FROM):
            self._family = _control_family(self._program.reads(), self._initial, self.max_programs)
        if not self._family:
            self._program.forget_rules()

    def _program_for(self, state: State, percepts: bool) -> GroundProgram:
        """The program specialized to the state's control fluents (grounded at the first state
        that has them), or the whole one (no control fluent, or `max_programs` reached).
        Without `percepts` the specialized program leaves out the `sees` rules (25 to 45% of
        the rules of Hearts' and Lost Cities' specialized programs)."""
        if not self._family:
            return self._program
        percepts = percepts or not self._has_sees
        control = self._family.intersection(state)
        key = (percepts, control)
        program = self._programs.get(key)
        if program is None:
            if sum(k[0] == percepts for k in self._programs) >= self.max_programs:
                return self._program
            start = time.perf_counter()
            try:
                program = self._programs[key] = self._program.specialized(
                    control, self._family - control, frozenset() if percepts else frozenset({"sees"})) \
                    or self._program
            except MemoryError:
                # the whole program answers on: slower, but the game still plays
                self._programs.clear()
                self._family = frozenset()
                self._program.forget_rules()
                program = self._program
            self.ground_seconds += time.perf_counter() - start
        return program

    def _ground(self, desc: Description, extra: list, moves, specializable: bool = False) -> GroundProgram:
        start = time.perf_counter()
        program = GroundProgram(program_statements(desc, "state", domain=self.domain, project=self._project)
                                + extra, self.domain.fluents, moves, specializable)
        self.ground_seconds += time.perf_counter() - start
        return program

    def _solve_goals(self, state: State) -> dict[clingo.Symbol, int]:
        """The goals of `state`, from the program of the goal rules alone (grounded at the first call)."""
        if self._goal_program is None:
            program = self._ground(restricted(self._desc, {"goal"}), [], ())
            self._goal_program = (program, self._decoded(program))
        program, meaning = self._goal_program
        try:
            wanted = frozenset(program.fluent_lit[f] for f in state)
        except KeyError as exc:
            raise GameError(f"{_show(exc.args[0])} can never hold in this game") from None
        self.solves += 1
        with program.solve(wanted, False) as handle:
            model = handle.model()
            if model is None:
                raise GameError("the rules have no answer in this state (are they stratified?)")
            return self._read_info([meaning[rep] for rep in _shown_reps(model)], "").goals

    def _info(self, state: State) -> _StateInfo:
        state = _frozen(state)
        info = self._info_cache.lookup(state)
        if info is not None:
            return info
        return self._info_cache.put(state, self._read_info(self._solve(state, (), False)[0], ""))

    def _read_info(self, shown: list[tuple], mark: str) -> _StateInfo:
        """Legal moves, terminal and goals from decoded atoms named with `mark` ("" or "'")."""
        roles = self._roles
        legal: list[list] = [[] for _ in roles]
        goals: list = [None] * len(roles)
        terminal = False
        names = ("legal" + mark, "terminal" + mark, "goal" + mark)
        for entry in shown:
            name = entry[0]
            if name == names[0]:
                if entry[1] is not None:   # legal moves of something that is not a role are no one's
                    legal[entry[1]].append((entry[3], entry[2]))
            elif name == names[1]:
                terminal = True
            elif name == names[2]:
                take_goal(goals, entry)
        return _StateInfo({r: tuple(m for _, m in sorted(ms)) for r, ms in zip(roles, legal) if ms}, terminal,
                          {r: g for r, g in zip(roles, goals) if g is not None})

    def _step(self, state: State, joint_moves: Mapping[TermLike, TermLike], percepts_wanted: bool):
        """(next state, percepts or None); the percepts are computed when wanted (or come free)."""
        state = _frozen(state)
        joint = self._chosen(joint_moves)
        key = (state, joint)
        found = self._step_cache.lookup(key)
        if found is not None and (found[1] is not None or not percepts_wanted):
            return found  # checked when it was computed
        self._check_legal(state, joint)
        shown, with_percepts = self._solve(state, tuple(zip(self._roles, joint)), percepts_wanted)
        lits, percepts = [], [[] for _ in self._roles] if with_percepts else None
        for entry in shown:
            name = entry[0]
            if name == "next":
                lits.append(entry[2])
            elif name == "sees" and percepts is not None and entry[1] is not None:
                percepts[entry[1]].append(entry[2])
        if None in lits:   # a fluent outside the domain: cannot be told by its literal
            made, following = None, frozenset(entry[1] for entry in shown if entry[0] == "next")
        else:
            # From the state's literals, only the fluents that change are hashed as Symbols
            # (a call into clingo each), not the whole next state.
            made, before, fluent_of = frozenset(lits), self._last[1], self._fluent_of
            following = state.difference([fluent_of[lit] for lit in before - made]).union(
                [fluent_of[lit] for lit in made - before])
        result = (following, None if percepts is None else
                  {r: frozenset(p) for r, p in zip(self._roles, percepts)})
        self._made = (following, made)   # the next query is most likely about this state
        if self.lookahead and self._info_cache.get(following) is None:
            self._info_cache.put(following, self._read_info(shown, "'"))
        return self._step_cache.put(key, result)

    def _solve(self, state: State, moves: tuple, percepts: bool) -> tuple[list[tuple], bool]:
        """The shown atoms of the answer set, decoded (see `_decoded`), and whether they hold
        the percepts (asked for with `percepts`, or in the program anyway)."""
        program, wanted = self._program_for(state, percepts), self._state_literals(state)
        if moves:
            wanted = wanted.union(program.move_lit[pair] for pair in moves)  # legal moves are in the domain
        self.solves += 1
        # The copy at the next state is only worth its cost when there is a next state.
        with program.solve(wanted, bool(moves)) as handle:
            model = handle.model()
            if model is None:
                raise GameError("the rules have no answer in this state (are they stratified?)")
            meaning = self._meaning
            return [meaning[rep] for rep in _shown_reps(model)], self.percepts and "sees" not in program.left_out

    def _state_literals(self, state: State) -> frozenset[int]:
        # Queries come in runs on one state (its info, then each joint move): remember the last.
        if state is not self._last[0]:
            made, lits = self._made
            if state is made and lits is not None:
                self._last = (state, lits)
                return lits
            try:
                self._last = (state, frozenset(self._program.fluent_lit[f] for f in state))
            except KeyError as exc:
                raise GameError(f"{_show(exc.args[0])} can never hold in this game") from None
        return self._last[1]

    def _decoded(self, program: GroundProgram) -> dict[int, tuple]:
        """Each shown atom, keyed by its symbol's number, decoded once rather than after every
        solve (reading a Symbol's parts, even hashing it, is a call into clingo):
        ("legal" or "legal'", role index, move, rank), ("terminal" or "terminal'",),
        ("goal" or "goal'", role index, value or None, the value's Symbol, role),
        ("next", fluent, literal), ("sees", role index, percept).
        The role index is None for a name that is not a role."""
        # The fluents are the very objects that key the literal map, so lookups hit on identity.
        same = {f: f for f in program.fluent_lit}
        index = {r: k for k, r in enumerate(self._roles)}
        decoded = {}
        for symbol in program.shown:
            name, args = symbol.name, [same.get(a, a) for a in symbol.arguments]
            if (name, len(args) - 1) in _SHOWN_AHEAD:   # the lookahead's copy: one more argument
                name, args = name + "'", args[:-1]
            if name in ("legal", "legal'", "sees"):
                args[0] = index.get(args[0])
            elif name in ("goal", "goal'"):
                value = args[1].number if args[1].type == clingo.SymbolType.Number else None
                args = [index.get(args[0]), value, args[1], args[0]]
            elif name == "next":                       # with its literal, for the state it makes
                args.append(program.fluent_lit.get(args[0]))
            decoded[symbol._rep] = (name, *args)
        # legal moves are sorted by their rank among all moves, not by comparing Symbols
        moves = sorted({d[2] for d in decoded.values() if d[0] in ("legal", "legal'")})
        rank = {m: k for k, m in enumerate(moves)}
        return {rep: (*d, rank[d[2]]) if d[0] in ("legal", "legal'") else d for rep, d in decoded.items()}

    def sizes(self) -> dict[str, int]:
        """The rules of the program every transition is solved on (not the goal program's), and the
        solver's variables and constraints (after a solve)."""
        stats = self._program.ctl.statistics.get("problem", {})
        generator = stats.get("generator", {})
        return {"rules": self._program.rules, "programs": len(self._programs),   # of both kinds
                "specialized_rules": max((p.rules for p in self._programs.values()), default=0),
                "vars": int(generator.get("vars", 0)),
                "constraints": int(sum(generator.get(k, 0) for k in
                                       ("constraints", "constraints_binary", "constraints_ternary")))}


def _control_family(reads: dict[clingo.Symbol, int], initial: State, most: int = MAX_PROGRAMS) -> frozenset:
    """The fluents of the family (name and arity) that holds once in the initial state, has
    2 to `most` values, and is read by the most ground rules: a program counter, a `control`
    (a step counter of a long game has too many values to be worth a program each)."""
    families: dict[tuple, list] = {}
    for fluent in reads:
        families.setdefault((fluent.name, len(fluent.arguments)), []).append(fluent)
    best, score = None, 0
    for name, fluents in sorted(families.items()):
        if 1 < len(fluents) <= most and sum(f in initial for f in fluents) == 1:
            read = sum(reads[f] for f in fluents)
            if read > score:
                best, score = fluents, read
    return frozenset(best or ())


def _initial_state(desc: Description, project: bool) -> State:
    """The fluents of `init`, from the static rules alone."""
    levels = dynamic_levels(desc)
    if ("init", 1) in levels:
        raise GdlError("'init' depends on something other than static facts")
    ctl, messages = new_control()
    with reporting(messages):
        with ast.ProgramBuilder(ctl) as builder:
            for stm in render_rules([r for r in desc.rules if relation(r.head) not in levels], project=project):
                builder.add(stm)
        ctl.ground([("base", [])])
    inits = list(ctl.symbolic_atoms.by_signature("init", 1))
    if any(not a.is_fact for a in inits):
        raise GdlError("'init' depends on something other than static facts")
    return frozenset(a.symbol.arguments[0] for a in inits)


def _shown_reps(model: clingo.Model):
    """The numbers of the model's shown symbols, without making a Symbol object of each."""
    symbols = model.symbols(shown=True)
    # clingo >= 5.6 returns a view of the C array (private); older ones a list of Symbols.
    reps = getattr(symbols, "_p_symbols", None)
    return reps if reps is not None else [symbol._rep for symbol in symbols]


def take_goal(goals: list, entry: tuple) -> None:
    """Record a decoded `goal` atom (`(name, role index or None, value or None, symbol, role)`)
    in `goals`, by role index; a goal that is not an integer, or a second value for the same
    role, is an ill-formed game."""
    _, k, value, symbol, role = entry
    if value is None or (k is not None and goals[k] not in (None, value)):
        raise GameError(f"ill-formed goal for {symbol_kif(role)} in this state: "
                        f"{_show(symbol)} (and maybe others)")
    if k is not None:
        goals[k] = value


def _show(item: object) -> str:
    try:
        return symbol_kif(item)
    except (GdlError, AttributeError, RuntimeError):
        return repr(item)


def _frozen(state: State) -> State:
    if isinstance(state, frozenset):
        return state
    if isinstance(state, (set, list, tuple)):
        return frozenset(state)
    raise GameError(f"a state is a frozenset of fluent Symbols, not {type(state).__name__}")


def _roles(desc: Description) -> tuple[clingo.Symbol, ...]:
    roles = [rule.head.args[0] for rule in desc.rules
             if isinstance(rule.head, Func) and rule.head.name == "role" and len(rule.head.args) == 1
             and not rule.body and is_ground(rule.head)]
    if not roles:
        raise GdlError("the description declares no role")
    return tuple(dict.fromkeys(term_symbol(role) for role in roles))


def playout(machine: ClingoMachine, rng: _random.Random, policies: Mapping[TermLike, Policy] | None = None,
            max_steps: int = 10_000, percepts: bool = True) -> Playout:
    """Play from the initial state to a terminal one (`ggpbridge.machine.playout`); roles may be KIF text."""
    policies = {machine._role(r): p for r, p in (policies or {}).items()}
    try:
        return _playout(machine, rng, policies, max_steps, percepts)
    except UnfinishedPlay as exc:
        raise GameError(str(exc)) from exc
