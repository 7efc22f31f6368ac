"""A fast path for Monte Carlo playouts: one generated Python function per game.

`compile_fast(prog)` turns a compiled `Program` into the source of one function
`play_fast(rng, choose, max_steps, trace)` whose stage loops are Python `while` loops and
whose locations, storages and point maps are local lists (integer card ids, top at the
end). It follows the closure engine (machine.Live, playout.play) step for step:

* stages push a copy of the cycle on entry, test the end before each pass, advance the
  cycle from the second pass after the test, pop on exit, and leave the copy pushed
  when they end on entry;
* options are enumerated in the order of `Live.options` (form order, then element order)
  and `choose(player, n)` is called only when there is more than one;
* chance draws the same numbers in the same order (`rng._randbelow(n)` is what
  `rng.randrange(n)` calls for n > 0, and nothing is drawn when n <= 1);
* steps are counted as Live counts them, and cycles are detected with Brent's method on
  the same states as play(): a snapshot of all data plus the choice site (which fixes the
  control stack, since choices only stand in stage bodies).

Option forms follow Program.simple: a simple form (conditions and `any`s around a body
that surely acts) is enumerated inline; a form whose body may not act and has no `any`
gets an inline "would it act" predicate when its guards draw no chance; any other form
becomes a generated function run tentatively on copies of the state with a branch driver
and an rng that always gives the first outcome (Live._enumerate), then for real.

So for one seed and the same decisions both engines play the same game. Any construct not
handled here makes `compile_fast` return None: the caller then uses the closure engine.
The generated function returns (status, scores or None, steps); status as in playout.

Known differences, all on games that break a rule: a rule error reports status ERROR with
steps 0 and no message; an option body that would raise while merely tested (the inline
predicate does not run it) raises only if that option is chosen.
"""
from __future__ import annotations

import re

from .. import ir
from ..recycle.check import TEAM, element
from .actions import _matching, static_points
from .exprs import _INT_OPS, fib, tri
from .machine import _PRIMITIVE, Program, _surely_acts
from .ops import OpError, counted, enumerate_paths, member, partition, run_sequence, runs, sequence, subsets, tuples
from .playout import CYCLE, ERROR, FINISHED, SAMPLE, UNFINISHED


class _Unsupported(Exception):
    """A construct the generator does not handle (the caller falls back)."""


# ---------------------------------------------------------------- run-time helpers
_RuleError = OpError  # a rule error met during a fast playout (reported as status ERROR)


def _shuffle(cards, rng, nc):
    """Fisher-Yates from the top down, as Runtime.shuffle draws it."""
    rb = rng._randbelow
    for n in range(len(cards) - 1, 0, -1):
        k = rb(n + 1)
        cards[n], cards[k] = cards[k], cards[n]
    if len(cards) > 1:
        nc[0] += len(cards) - 1


def _extreme(s, t, want_max, rng, nc):
    """max/min by score, bottom to top, equal scores kept on a coin flip (exprs.x_Extreme)."""
    if not s:
        raise _RuleError("extreme of an empty collection")
    best, card = (-1 if want_max else 2 ** 31 - 1), s[-1]
    for x in s:
        v = t[x] if t is not None else 0
        if v > best if want_max else v < best:
            best, card = v, x
        elif v == best:
            nc[0] += 1
            if rng._randbelow(2) == 0:
                best, card = v, x
    return card


def _random(a, b, rng, nc):
    """An integer in a..b drawn as exprs.x_Random does."""
    if b < a:
        raise _RuleError("empty random range")
    if b == a:
        return a
    nc[0] += 1
    return a + rng._randbelow(b - a + 1)


def _take(F, where, card):
    """Remove a card from the location it lies in (actions._take_physical)."""
    if card is None:
        raise _RuleError("no card to move")
    w = where[card]
    if w is None:
        raise _RuleError("card lies nowhere")
    F[w].remove(card)
    where[card] = None
    return card


def _score(t, k):
    """A card's score in a point map (0 when never set)."""
    if k is None:
        raise _RuleError("score of a card of an empty collection")
    return t[k] if t is not None else 0


def _sum(t, cards):
    return sum(t[x] for x in cards) if t is not None else 0


def _at(s, k):
    """Card k of a collection (None when empty), as exprs.x_CardAt."""
    if not s:
        return None
    if not 0 <= k < len(s):
        raise _RuleError("card index out of range")
    return s[k]


def _who(k, count):
    if not 0 <= k < count:
        raise _RuleError("no such player or team")
    return k


def _owner_of(w, owners, n):
    """The player holding a card, from its flat location index (exprs.x_OwnerOf)."""
    if w is None or not 1 <= w % owners <= n:
        raise _RuleError("this card is not held by a player")
    return w % owners - 1


class _Branch:
    """Which element each `any` takes: from a path, then the first (Runtime.branch)."""

    __slots__ = ("path", "pos", "trace")

    def __init__(self, path, trace):
        self.path, self.pos, self.trace = path, 0, trace

    def __call__(self, n):
        p = self.pos
        k = self.path[p] if p < len(self.path) else 0
        self.pos = p + 1
        if self.trace is not None:
            self.trace.append((k, n))
        return k


class _FirstOutcome:
    """While options are enumerated by tentative runs, chance takes its first outcome."""

    @staticmethod
    def _randbelow(n):
        return 0


_FIRST = _FirstOutcome()


def _enumerate(form, F, where, tables, cyc, tcyc):
    """Paths of a general option form, by tentative runs on copies (Live._enumerate)."""
    def run(prefix):
        trace: list = []
        acted = form(_Branch(list(prefix), trace), _FIRST, [0], [x[:] for x in F], where[:],
                     [t[:] for t in tables], [x[:] for x in cyc], [x[:] for x in tcyc])
        return trace, acted
    return enumerate_paths(run)


def _copy(v):
    return list(v) if isinstance(v, list) else v


_NONE = [None]
_HELPERS = {k: v for k, v in globals().items() if k.startswith("_") and callable(v) and k != "_Unsupported"}
_HELPERS.update(_sequence=sequence, _member=member, _tuples=tuples, _partition=partition, _subsets=subsets,
                _runs=runs, _run_sequence=run_sequence, _counted=counted, _NONE=_NONE, _INT_OPS=_INT_OPS, _tri=tri, _fib=fib, _matching=_matching,
                FINISHED=FINISHED, CYCLE=CYCLE, UNFINISHED=UNFINISHED, ERROR=ERROR, SAMPLE=SAMPLE)

_CHANCE = (ir.Random, ir.Extreme, ir.Shuffle)
_BOOLISH = (ir.Compare, ir.Not, ir.Quantified, ir.BoolOp, ir.TrueCond)   # evaluate to a bool


def _has_chance(*nodes) -> bool:
    return any(isinstance(x, _CHANCE) for n in nodes if n is not None for x in n.walk())


# ---------------------------------------------------------------- the generator
class _Gen:
    """Builds the source of play_fast for one Program."""

    UNROLL = 8   # quantifiers over every player are unrolled up to this many players

    def __init__(self, prog: Program):
        self.prog = prog
        lay = self.lay = prog.lay
        self.n, self.O, self.nteams = lay.n, lay.owners, len(lay.teams)
        self.locs: dict = {}     # (vis, name) -> flat base index
        self.ints: dict = {}     # storage name -> local name
        self.strs: dict = {}
        self.pts: dict = {}
        self.consts: dict = {}   # name -> object, injected into the generated module
        self.fresh = 0
        self.sites = 0
        self.counting = False    # inside a general option form: count actions, `any` branches
        self.forms: list = []    # sources of the general option form functions

    # ------------------------------------------------------------ names
    def tmp(self, stem="t") -> str:
        self.fresh += 1
        return f"{stem}{self.fresh}"

    def const(self, obj, stem="K") -> str:
        name = self.tmp(stem)
        self.consts[name] = obj
        return name

    def loc_base(self, vis, name) -> int:
        key = (vis, name)
        if key not in self.locs:
            self.locs[key] = len(self.locs) * self.O
        return self.locs[key]

    def table(self, d: dict, name: str, stem: str) -> str:
        if name not in d:
            d[name] = f"{stem}{len(d)}"
        return d[name]

    def ty(self, n, env):
        tenv = dict(self.prog.env)
        tenv.update({k: t for k, (t, _) in env.items()})
        return self.prog.sc.type_of(n, tenv)

    def bind(self, coll, var, env, src):
        return {**env, var: (element(self.ty(coll, env)), src)}

    # ------------------------------------------------------------ expressions
    def x(self, n, env) -> str:
        """Python source computing expression n."""
        m = getattr(self, "x_" + type(n).__name__, None)
        if m is None:
            raise _Unsupported(type(n).__name__)
        return m(n, env)

    def x_Var(self, n, env):
        if n.name in env:
            return env[n.name][1]
        if n.name in self.prog.values:
            return self.const(self.prog.values[n.name], "D") if isinstance(self.prog.values[n.name], list) \
                else repr(self.prog.values[n.name])
        raise _Unsupported("unbound variable")

    def x_IntLit(self, n, env):
        return repr(n.value)

    x_Name = x_IntLit

    def x_TrueCond(self, n, env):
        return "True"

    def owner(self, n, env) -> str:
        """Source of the owner column: 0 the table, 1+p a player, 1+n+t a team."""
        if isinstance(n, ir.GameOwner):
            return "0"
        s = self.x(n, env)
        if self.ty(n, env) == TEAM:
            return f"{1 + self.n} + {s}" if not s.isdigit() else str(1 + self.n + int(s))
        return f"1 + {s}" if not s.isdigit() else str(1 + int(s))

    def x_PlayerRef(self, n, env):
        return self.who(n, env, "cyc", self.n)

    def x_TeamRef(self, n, env):
        return self.who(n, env, "tcyc", self.nteams)

    def who(self, n, env, cyc, count):
        w = n.which
        if w == "current":
            return f"{cyc}[-1][0]"
        if w == "next":
            return f"({cyc}[-1][1] if {cyc}[-1][1] != -1 else ({cyc}[-1][0] + 1) % {count})"
        if w == "previous":
            return f"(({cyc}[-1][0] - 1) % {count})"
        if isinstance(w, ir.IntLit):
            if not 0 <= w.value < count:
                raise _Unsupported("player out of range")
            return str(w.value)
        return f"_who({self.x(w, env)}, {count})"

    def x_TeamOf(self, n, env):
        return f"{self.const(list(self.lay.team_of), 'TO')}[{self.x(n.player, env)}]"

    def x_OwnerOf(self, n, env):
        return f"_owner_of(where[{self.x(n.card, env)}], {self.O}, {self.n})"

    def x_StrStorage(self, n, env):
        if not isinstance(n.key, ir.Name):
            raise _Unsupported("computed storage name")
        return f"{self.table(self.strs, n.key.value, 'S')}[{self.owner(n.owner, env)}]"

    def x_IntStorage(self, n, env):
        if not isinstance(n.key, ir.Name):
            raise _Unsupported("computed storage name")
        return f"{self.table(self.ints, n.key.value, 'I')}[{self.owner(n.owner, env)}]"

    def points(self, n: ir.PointsRef, env) -> str:
        if not isinstance(n.name, ir.Name):
            raise _Unsupported("computed point map name")
        return f"{self.table(self.pts, n.name.value, 'P')}[{self.owner(n.owner, env)}]"

    x_PointsRef = points

    def x_CardAtt(self, n, env):
        if not isinstance(n.attr, ir.Name):
            raise _Unsupported("computed attribute")
        col = self.lay.attr.get(n.attr.value)
        if col is None:
            return '""'
        # a dict so that the None of an empty collection's card reads "" as in CardStock
        d = {i: (v or "") for i, v in enumerate(col)}
        d[None] = ""
        return f"{self.const(d, 'A')}[{self.x(n.card, env)}]"

    def x_Arith(self, n, env):
        a, b = self.x(n.left, env), self.x(n.right, env)
        if n.op in ("+", "-", "*"):
            return f"({a} {n.op} {b})"
        return f"_INT_OPS[{n.op!r}]({a}, {b})"

    def x_Tri(self, n, env):
        return f"_tri({self.x(n.arg, env)})"

    def x_Fib(self, n, env):
        return f"_fib({self.x(n.arg, env)})"

    def x_Random(self, n, env):
        return f"_random({self.x(n.lo, env)}, {self.x(n.hi, env)}, rng, NC)"

    def x_Size(self, n, env):
        return f"len({self.coll(n.coll, env)})"

    def x_Sum(self, n, env):
        return f"_sum({self.points(n.points, env)}, {self.coll(n.cards, env)})"

    def x_Score(self, n, env):
        return f"_score({self.points(n.points, env)}, {self.x(n.card, env)})"

    def x_CardAt(self, n, env):
        s = self.coll(n.source, env)
        if n.where == "top":
            return f"({s} or _NONE)[-1]"
        if n.where == "bottom":
            return f"({s} or _NONE)[0]"
        return f"_at({s}, {self.x(n.where, env)})"

    def x_Extreme(self, n, env):
        return f"_extreme({self.coll(n.source, env)}, {self.points(n.points, env)}, {n.kind == 'max'}, rng, NC)"

    def x_Actual(self, n, env):
        return self.x(n.card, env)

    def coll(self, n, env) -> str:
        if self.ty(n, env) == TEAM:
            return f"{self.const([list(t) for t in self.lay.teams], 'TM')}[{self.x(n, env)}]"
        return self.x(n, env)

    def x_Location(self, n, env):
        if not isinstance(n.name, ir.Name):
            raise _Unsupported("computed location name")
        return f"F[{self.loc_index(n, env)}]"

    def loc_index(self, n, env) -> str:
        base = self.loc_base(n.vis, n.name.value)
        o = self.owner(n.owner, env)
        return str(base + int(o)) if o.isdigit() else f"{base} + {o}"

    def x_SetOp(self, n, env):
        args = [self.x(a, env) for a in n.args]
        if n.op == "union":
            return "[" + ", ".join(f"*{a}" for a in args) + "]"
        want = len(args) if n.op == "intersect" else 1
        return f"_counted(({', '.join(args)},), {want})"

    def every(self, coll):
        """The members of an `all player|team` to unroll over, else None."""
        if isinstance(coll, ir.AllOf):
            k = self.n if coll.kind == "player" else self.nteams
            if k <= self.UNROLL:
                return range(k)
        return None

    def x_AggCards(self, n, env):
        ev = self.every(n.coll)
        if ev is not None:
            parts = [self.x(n.body, self.bind(n.coll, n.var, env, str(p))) for p in ev]
            return "[" + ", ".join(f"*{b}" for b in parts) + "]"
        v = self.tmp("v")
        body = self.x(n.body, self.bind(n.coll, n.var, env, v))
        return f"[x for {v} in list({self.coll(n.coll, env)}) for x in {body}]"

    def x_Filter(self, n, env):
        v = self.tmp("v")
        cond = self.x(n.cond, self.bind(n.coll, n.var, env, v))
        return f"[{v} for {v} in {self.coll(n.coll, env)} if {cond}]"

    def x_Sort(self, n, env):
        t = self.tmp("t")
        return (f"(lambda {t}, s: sorted(s, key={t}.__getitem__) if {t} is not None else list(s))"
                f"({self.points(n.points, env)}, {self.coll(n.source, env)})")

    def x_Sequence(self, n, env):
        return f"_sequence({self.coll(n.source, env)}, {self.x(n.count, env)}, {n.end == 'top'})"

    def x_MemberOf(self, n, env):
        w = n.where if n.where in ("top", "bottom") else None
        return f"_member({self.coll(n.source, env)}, {repr(w) if w else self.x(n.where, env)})"

    def x_Tuples(self, n, env):
        return f"_tuples({self.points(n.points, env)}, {self.x(n.n, env)}, {self.coll(n.source, env)})"

    def x_Partition(self, n, env):
        if not isinstance(n.attr, ir.Name):
            raise _Unsupported("computed attribute")
        col = self.const(self.lay.attr.get(n.attr.value), "A")
        return f"_partition({col}, ({', '.join(self.x(s, env) for s in n.sources)},))"

    def x_Subsets(self, n, env):
        return f"_subsets({self.coll(n.source, env)})"

    def x_Runs(self, n, env):
        return (f"_runs({self.points(n.points, env)}, {self.x(n.n, env)}, {self.coll(n.source, env)}, "
                f"{n.mode == 'largest'})")

    def x_RunSequence(self, n, env):
        return (f"_run_sequence({self.points(n.points, env)}, {self.x(n.count, env)}, "
                f"{self.coll(n.source, env)}, {n.end == 'top'})")

    def x_NameList(self, n, env):
        return self.const(list(n.names), "N")

    def x_AllOf(self, n, env):
        return self.const(list(range(self.n if n.kind == "player" else self.nteams)), "ALL")

    def x_Other(self, n, env):
        cyc, k = ("cyc", self.n) if n.kind == "player" else ("tcyc", self.nteams)
        return f"[p for p in range({k}) if p != {cyc}[-1][0]]"

    def x_Range(self, n, env):
        return f"list(range({self.x(n.lo, env)}, {self.x(n.hi, env)} + 1))"

    def x_BoolOp(self, n, env):
        args = [self.x(a, env) for a in n.args]
        joined = f" {n.op} ".join(f"({a})" for a in args)
        return f"({joined})" if all(isinstance(a, _BOOLISH) for a in n.args) else f"bool({joined})"

    def x_Not(self, n, env):
        return f"(not {self.x(n.arg, env)})"

    def x_Compare(self, n, env):
        return f"({self.x(n.left, env)} {n.op} {self.x(n.right, env)})"

    def x_Quantified(self, n, env):
        joiner = " and " if n.quant == "all" else " or "
        ev = self.every(n.coll)
        if ev is not None:
            parts = [self.x(n.cond, self.bind(n.coll, n.var, env, str(p))) for p in ev]
            if isinstance(n.cond, _BOOLISH):   # already a bool: no wrapper call needed
                return "(" + joiner.join(parts) + ")" if parts else ("True" if n.quant == "all" else "False")
            return "(" + joiner.join(f"bool({p})" for p in parts) + ")" if parts else \
                ("True" if n.quant == "all" else "False")
        v = self.tmp("v")
        cond = self.x(n.cond, self.bind(n.coll, n.var, env, v))
        fn = "all" if n.quant == "all" else "any"
        return f"{fn}({cond} for {v} in list({self.coll(n.coll, env)}))"

    # ------------------------------------------------------------ statements
    def s(self, n, env, ind: str) -> list[str]:
        """Source lines executing statement n, indented by ind."""
        m = getattr(self, "s_" + type(n).__name__, None)
        if m is None:
            raise _Unsupported(type(n).__name__)
        lines = m(n, env, ind)
        if self.counting and isinstance(n, _PRIMITIVE):
            lines.append(f"{ind}acted += 1")
        return lines

    def s_Do(self, n, env, ind):
        out = []
        for i in n.items:
            out += self.s(i, env, ind)
        return out or [ind + "pass"]

    def s_CondAct(self, n, env, ind):
        cond = "True" if n.cond is None else self.x(n.cond, env)
        return [f"{ind}if {cond}:"] + self.s(n.body, env, ind + "    ")

    def s_ForAll(self, n, env, ind):
        ev = self.every(n.coll)
        if ev is not None:
            out = []
            for p in ev:
                out += self.s(n.body, self.bind(n.coll, n.var, env, str(p)), ind)
            return out or [ind + "pass"]
        v = self.tmp("v")
        return ([f"{ind}for {v} in list({self.coll(n.coll, env)}):"]
                + self.s(n.body, self.bind(n.coll, n.var, env, v), ind + "    "))

    def s_AnyOf(self, n, env, ind):
        # outside a choice an `any` takes its first element (Runtime.branch with no path);
        # in a general option form the branch driver says which
        v, items = self.tmp("v"), self.tmp("t")
        pick = f"{items}[br(len({items}))]" if self.counting else f"{items}[0]"
        return ([f"{ind}{items} = list({self.coll(n.coll, env)})", f"{ind}if {items}:",
                 f"{ind}    {v} = {pick}"] + self.s(n.body, self.bind(n.coll, n.var, env, v), ind + "    "))

    def s_Let(self, n, env, ind):
        v = self.tmp("v")
        t = self.ty(n.value, env)
        return [f"{ind}{v} = _copy({self.x(n.value, env)})"] + self.s(n.body, {**env, n.var: (t, v)}, ind)

    def s_Repeat(self, n, env, ind):
        return [f"{ind}for _ in range({self.x(n.count, env)}):"] + self.s(n.body, env, ind + "    ")

    def s_RepeatAll(self, n, env, ind):
        src = n.body.src if isinstance(n.body, ir.Move) else getattr(n.body, "card", None)
        if not (isinstance(src, ir.CardAt) and src.where in ("top", "bottom")):
            raise _Unsupported("repeat all")
        g = self.tmp("g")
        return ([f"{ind}{g} = {len(self.lay.cards) * 4 + 16}", f"{ind}while {self.coll(src.source, env)}:"]
                + self.s(n.body, env, ind + "    ")
                + [f"{ind}    {g} -= 1", f"{ind}    if {g} < 0:", f"{ind}        raise _RuleError('repeat all')"])

    def take(self, n, env, ind, physical=True) -> tuple[list[str], str]:
        """Lines removing the designated card, and the name holding it."""
        card = self.tmp("k")
        if isinstance(n, ir.CardAt) and isinstance(n.source, ir.Location):
            if not isinstance(n.source.name, ir.Name):
                raise _Unsupported("computed location name")
            lst = self.tmp("l")
            lines = [f"{ind}{lst} = F[{self.loc_index(n.source, env)}]"]
            if n.where == "top":
                lines.append(f"{ind}{card} = {lst}.pop()")
            elif n.where == "bottom":
                lines.append(f"{ind}{card} = {lst}.pop(0)")
            else:
                lines.append(f"{ind}{card} = {lst}.pop({self.x(n.where, env)})")
            if physical:
                lines.append(f"{ind}where[{card}] = None")
            return lines, card
        if not physical:
            raise _Unsupported("take")
        if isinstance(n, ir.CardAt) and isinstance(n.source, ir.Var):
            # a card taken from a variable's collection leaves that collection too (actions.taker)
            lst = self.tmp("l")
            return [f"{ind}{lst} = {self.x(n.source, env)}",
                    f"{ind}{card} = {self.x(n, env)}",
                    f"{ind}if isinstance({lst}, list) and {card} in {lst}:",
                    f"{ind}    {lst}.remove({card})",
                    f"{ind}_take(F, where, {card})"], card
        return [f"{ind}{card} = _take(F, where, {self.x(n, env)})"], card

    def put(self, n, env, ind, card, physical=True) -> list[str]:
        if not (isinstance(n, ir.CardAt) and isinstance(n.source, ir.Location)
                and isinstance(n.source.name, ir.Name)):
            raise _Unsupported("put")
        idx = self.loc_index(n.source, env)
        lines = []
        if not idx.isdigit():   # compute a dynamic index once
            lines.append(f"{ind}{(idx := self.tmp('i'))} = {self.loc_index(n.source, env)}")
        if n.where == "top":
            lines.append(f"{ind}F[{idx}].append({card})")
        elif n.where == "bottom":
            lines.append(f"{ind}F[{idx}].insert(0, {card})")
        else:
            lines.append(f"{ind}F[{idx}].insert({self.x(n.where, env)}, {card})")
        if physical and n.source.vis != "mem":
            lines.append(f"{ind}where[{card}] = {idx}")
        return lines

    def s_Move(self, n, env, ind):
        lines, card = self.take(n.src, env, ind)
        return lines + self.put(n.dst, env, ind, card)

    def s_Remember(self, n, env, ind):
        card = self.tmp("k")
        return [f"{ind}{card} = {self.x(n.src, env)}"] + self.put(n.dst, env, ind, card, physical=False)

    def s_Forget(self, n, env, ind):
        return self.take(n.card, env, ind, physical=False)[0]

    def s_Shuffle(self, n, env, ind):
        return [f"{ind}_shuffle({self.coll(n.target, env)}, rng, NC)"]

    def s_SetInt(self, n, env, ind):
        return [f"{ind}{self.x_IntStorage(n.target, env)} = {self.x(n.value, env)}"]

    def s_Inc(self, n, env, ind):
        return [f"{ind}{self.x_IntStorage(n.target, env)} += {self.x(n.value, env)}"]

    def s_Dec(self, n, env, ind):
        return [f"{ind}{self.x_IntStorage(n.target, env)} -= {self.x(n.value, env)}"]

    def s_SetStr(self, n, env, ind):
        return [f"{ind}{self.x_StrStorage(n.target, env)} = str({self.x(n.value, env)})"]

    def s_SetPoints(self, n, env, ind):
        # literal awards are summed once here; the others at run time (actions.static_points)
        base, dyn = static_points(self.lay, n.awards)
        t, ncards = self.tmp("t"), len(self.lay.cards)
        lines = [f"{ind}{t} = {self.const(base, 'B')}[:]"]
        ix = self.const(self.lay.attr_index, "IX")
        for a in dyn:
            pts, k = self.tmp("p"), self.tmp("k")
            conds = ", ".join(f"({self.x(k_, env)}, {self.x(v_, env)})" for k_, v_ in a.conds)
            lines += [f"{ind}{pts} = {self.x(a.value, env)}",
                      f"{ind}for {k} in _matching({ix}, [{conds}], {ncards}):",
                      f"{ind}    {t}[{k}] += {pts}"]
        lines.append(f"{ind}{self.points(n.target, env)} = {t}")
        return lines

    def s_Cycle(self, n, env, ind):
        t = n.target
        who = self.who(ir.PlayerRef(which=t), env, "cyc", self.n) if isinstance(t, str) else self.x(t, env)
        return [f"{ind}cyc[-1][{1 if n.when == 'next' else 0}] = {who}"]

    def s_TurnPass(self, n, env, ind):
        return [ind + "pass"]

    def s_CreateDeck(self, n, env, ind):
        blocks = self.const(self.prog.deck_cards[id(n)], "DK")
        b, k = self.tmp("b"), self.tmp("k")
        idx = self.loc_index(n.location, env)
        return [f"{ind}for {b} in {blocks}:",
                f"{ind}    if where[{b}[0]] is None:",
                f"{ind}        for {k} in {b}:",
                f"{ind}            F[{idx}].append({k})",
                f"{ind}            where[{k}] = {idx}" if n.location.vis != "mem" else f"{ind}            pass",
                f"{ind}        break",
                f"{ind}else:",
                f"{ind}    raise _RuleError('deck created too often')"]

    # ------------------------------------------------------------ control
    def item(self, n, ind) -> list[str]:
        """Lines for a game-body or stage item (Live.advance's units), counting steps as Live."""
        if isinstance(n, ir.Stage):
            return self.stage(n, ind)
        if isinstance(n, ir.Choice):
            return self.choice(n, ind)
        return self.s(n, {}, ind) + [f"{ind}steps += 1"]

    def stage(self, n, ind) -> list[str]:
        cyc, count = ("cyc", self.n) if n.kind == "player" else ("tcyc", self.nteams)
        end = self.x(n.end, {})
        cy = self.tmp("cy")
        i2 = ind + "    "
        body = []
        for it in n.body:
            body += self.item(it, i2 + "    ")
        return ([f"{ind}{cyc}.append([{cyc}[-1][0], -1])",
                 f"{ind}steps += 1",
                 f"{ind}if not {end}:",
                 f"{i2}while True:"] + (body or [i2 + "    pass"]) +
                [f"{i2}    steps += 1",
                 f"{i2}    if {end}:",
                 f"{i2}        {cyc}.pop()",
                 f"{i2}        break",
                 f"{i2}    {cy} = {cyc}[-1]",
                 f"{i2}    if {cy}[1] != -1:",
                 f"{i2}        {cy}[0], {cy}[1] = {cy}[1], -1",
                 f"{i2}    else:",
                 f"{i2}        {cy}[0] = ({cy}[0] + 1) % {count}"])

    def acts(self, n, env) -> str:
        """Source of a predicate: would statement n execute at least one action from here?

        Exact for bodies without `any` and without chance in the tested expressions: a part
        that does not act leaves the state unchanged, so later parts can be tested on the
        same state (what Live's tentative run would see).
        """
        if _surely_acts(n):
            return "True"
        if isinstance(n, ir.Do):
            parts = []
            for i in n.items:
                a = self.acts(i, env)
                parts.append(a)
                if a == "True":
                    break
            return "(" + " or ".join(parts) + ")" if parts else "False"
        if isinstance(n, ir.CondAct):
            return f"(bool({'True' if n.cond is None else self._pure(n.cond, env)}) and {self.acts(n.body, env)})"
        if isinstance(n, ir.RepeatAll):
            src = n.body.src if isinstance(n.body, ir.Move) else getattr(n.body, "card", None)
            if not (isinstance(src, ir.CardAt) and src.where in ("top", "bottom")):
                raise _Unsupported("repeat all")
            return f"bool({self._pure(src.source, env, coll=True)})"
        if isinstance(n, ir.Repeat):
            return f"({self._pure(n.count, env)} > 0 and {self.acts(n.body, env)})"
        if isinstance(n, ir.ForAll):
            ev = self.every(n.coll)
            if ev is not None:
                parts = [self.acts(n.body, self.bind(n.coll, n.var, env, str(p))) for p in ev]
                return "(" + " or ".join(parts) + ")" if parts else "False"
            v = self.tmp("v")
            body = self.acts(n.body, self.bind(n.coll, n.var, env, v))
            return f"any({body} for {v} in list({self._pure(n.coll, env, coll=True)}))"
        raise _Unsupported("general option form")

    def _pure(self, n, env, coll=False) -> str:
        """Source of an expression known to draw no chance (for tentative predicates)."""
        if _has_chance(n):
            raise _Unsupported("chance in a general option form")
        return self.coll(n, env) if coll else self.x(n, env)

    def general_form(self, o) -> str:
        """Name of a generated function running option form o; it returns the actions run."""
        name = self.tmp("_form")
        self.counting = True
        try:
            body = self.s(o, {}, "    ")
        finally:
            self.counting = False
        self.forms.append(f"def {name}(br, rng, NC, F, where, TABLES, cyc, tcyc):\n"
                          f"    UNPACK\n    acted = 0\n" + "\n".join(body) + "\n    return acted\n")
        return name

    def choice(self, n, ind) -> list[str]:
        """Inline option enumeration (Program.simple's paths), the decision, then the chosen body."""
        self.sites += 1
        site = self.sites
        i1 = ind + "    "
        lines = [f"{ind}if steps > max_steps:", f"{i1}return UNFINISHED, None, steps", f"{ind}opts = []"]
        execs = []
        for form, o in enumerate(n.options):
            conds, anys, node, env = [], [], o, {}
            envs = [env]   # the environment after binding the first d anys
            while isinstance(node, (ir.CondAct, ir.AnyOf)):
                if isinstance(node, ir.CondAct):
                    conds.append((len(anys), node.cond))
                else:
                    v = self.tmp("v")
                    anys.append((node.coll, v, env))
                    env = self.bind(node.coll, node.var, env, v)
                    envs.append(env)
                node = node.body
            general = any(isinstance(x, (ir.AnyOf, ir.Choice)) for x in node.walk())
            # with chance in the conditions or collections of a simple form, re-evaluate the
            # path on execution as Program.simple's run does, so that the same numbers are drawn
            rerun = _has_chance(*[c for _, c in conds], *[a[0] for a in anys])
            acts = "True"
            if not general and not _surely_acts(node):
                # Live enumerates such a form by tentative runs, where chance draws nothing:
                # without chance in its guards, whether the body acts is a pure predicate
                try:
                    if rerun:
                        raise _Unsupported("chance in a general option form")
                    acts = self.acts(node, env)
                except _Unsupported:
                    general = True
            if general:
                # Live enumerates this form by tentative runs: generate it as a function of
                # the state (branch driver, rng, state lists) and run it the same way
                fn = self.general_form(o)
                lines.append(f"{ind}for _path in _enumerate({fn}, F, where, TABLES, cyc, tcyc):")
                lines.append(f"{i1}opts.append(({form}, _path))")
                execs.append([f"{i1}{fn}(_Branch(list(opts[_k][1]), None), rng, NC, F, where, TABLES, cyc, tcyc)"])
                continue
            names = [v for _, v, _ in anys]
            cur = ind
            for depth in range(len(anys) + 1):
                for at, cond in conds:
                    if at == depth:
                        lines.append(f"{cur}if {'True' if cond is None else self.x(cond, envs[depth])}:")
                        cur += "    "
                if depth == len(anys):
                    if acts != "True":
                        lines.append(f"{cur}if {acts}:")
                        cur += "    "
                    if rerun:
                        ks = [f"{v}_k" for v in names]
                        lines.append(f"{cur}opts.append(({form}, {', '.join(ks)}{',' if ks else ''}))")
                    else:
                        lines.append(f"{cur}opts.append(({form}, {', '.join(names)}{',' if names else ''}))")
                    break
                coll, v, aenv = anys[depth]
                src = self.coll(coll, aenv)
                if rerun:
                    lines.append(f"{cur}for {v}_k, {v} in enumerate(list({src})):")
                else:
                    lines.append(f"{cur}for {v} in {src}:")
                cur += "    "
            ex = [f"{i1}_o = opts[_k]"]
            if rerun:
                for j, (coll, v, aenv) in enumerate(anys):
                    ex.append(f"{i1}{v} = list({self.coll(coll, aenv)})[_o[{j + 1}]]")
            else:
                for j, v in enumerate(names):
                    ex.append(f"{i1}{v} = _o[{j + 1}]")
            ex += self.s(node, env, i1)
            execs.append(ex)
        lines += [
            f"{ind}nopt = len(opts)",
            f"{ind}if not nopt:",
            f"{i1}raise _RuleError('no enabled option')",
            f"{ind}p = cyc[-1][0]",
            f"{ind}if trace is not None:",
            f"{i1}trace.append((p, nopt))",
            # Brent's cycle detection over quiet states, exactly as playout.play
            f"{ind}if nopt > 1 or NC[0] != quiet_since:",
            f"{i1}saved, power, lam, quiet_since, tick = None, 1, 0, NC[0], 0",
            f"{ind}else:",
            f"{i1}tick += 1",
            f"{i1}if tick % SAMPLE == 0:",
            f"{i1}    key = ({site}, {self.KEY})",
            f"{i1}    if saved is not None and key == saved:",
            f"{i1}        return CYCLE, None, steps",
            f"{i1}    lam += 1",
            f"{i1}    if saved is None or lam == power:",
            f"{i1}        saved, power, lam = key, power * 2, 0",
            f"{ind}_k = choose(p, nopt) if nopt > 1 else 0",
            f"{ind}if not 0 <= _k < nopt:",
            f"{i1}raise _RuleError('choice out of range')",
        ]
        for form, ex in enumerate(execs):
            lines.append(f"{ind}{'if' if form == 0 else 'elif'} opts[_k][0] == {form}:")
            lines += ex
        lines.append(f"{ind}steps += 1")
        return lines

    # ------------------------------------------------------------ the whole game
    def build(self) -> str:
        g = self.prog.game
        self.KEY = "KEYEXPR"   # filled in once every slot is known
        setup = []
        for d in g.setup.decks:
            setup += self.s(d, {}, "    ")
        body = []
        for it in g.body:
            body += self.item(it, "    ")
        score = self.x(g.scoring.value, {})
        ints = "".join(f"    {v} = [0] * {self.O}\n" for v in self.ints.values())
        strs = "".join(f"    {v} = [''] * {self.O}\n" for v in self.strs.values())
        pts = "".join(f"    {v} = [None] * {self.O}\n" for v in self.pts.values())
        key = ("tuple(map(tuple, F)), "
               + "".join(f"tuple({v}), " for v in self.ints.values())
               + "".join(f"tuple({v}), " for v in self.strs.values())
               + "".join(f"tuple(None if x is None else tuple(x) for x in {v}), " for v in self.pts.values())
               + "tuple(map(tuple, cyc)), tuple(map(tuple, tcyc))")
        tables = [*self.ints.values(), *self.strs.values(), *self.pts.values()]
        unpack = f"{', '.join(tables)}, = TABLES" if tables else "pass"
        forms = "".join(f.replace("UNPACK", unpack) + "\n\n" for f in self.forms)
        # locations at fixed indices become locals: their lists are never rebound in play_fast
        text = re.sub(r"\bF\[(\d+)\]", r"F_\1", "\n".join(setup + ["SPLIT"] + _merge_steps(body)))
        fixed = sorted({int(m) for m in re.findall(r"\bF_(\d+)", text)})
        setup_text, body_text = text.split("\nSPLIT\n") if setup else ("", text.split("SPLIT\n", 1)[1])
        bind = "".join(f"    F_{i} = F[{i}]\n" for i in fixed)
        src = forms + (
            "def play_fast(rng, choose, max_steps=100_000, trace=None):\n"
            "    \"\"\"One playout: (status, scores or None, steps).\"\"\"\n"
            f"    F = [[] for _ in range({len(self.locs) * self.O})]\n"
            f"    where = [None] * {len(self.lay.cards)}\n"
            + ints + strs + pts +
            f"    TABLES = [{', '.join(tables)}]\n"
            "    cyc = [[0, -1]]\n    tcyc = [[0, -1]]\n    NC = [0]\n    steps = 0\n"
            + bind + setup_text + "\n"
            "    saved, power, lam, quiet_since, tick = None, 1, 0, NC[0], 0\n" + body_text.replace("KEYEXPR", key) + "\n"
            f"    cyc.append([0, -1])\n"
            f"    scores = []\n"
            f"    for _p in range({self.n}):\n"
            f"        cyc[-1][0] = _p\n"
            f"        scores.append({score})\n"
            f"    return FINISHED, scores, steps\n")
        return src


def _merge_steps(lines: list[str]) -> list[str]:
    """Fold runs of `steps += 1` at one indentation into one addition."""
    out: list[str] = []
    for line in lines:
        if line.strip().startswith("steps += ") and out and out[-1].strip().startswith("steps += ") \
                and out[-1][:len(out[-1]) - len(out[-1].lstrip())] == line[:len(line) - len(line.lstrip())]:
            ind = line[:len(line) - len(line.lstrip())]
            out[-1] = f"{ind}steps += {int(out[-1].split('+=')[1]) + int(line.split('+=')[1])}"
        else:
            out.append(line)
    return out


def generate(prog: Program) -> str | None:
    """The source of play_fast for a program, or None when a construct is unsupported."""
    try:
        return _Gen(prog).build()
    except (_Unsupported, RecursionError):
        return None


def compile_fast(prog: Program):
    """A fast playout function for the program, or None (then use the closure engine).

    The function is `play(rng, choose, max_steps=100_000, trace=None) -> (status, scores, steps)`:
    `rng` a random.Random seeded as Runtime seeds it, `choose(player, n)` the index of the
    option taken (called only when n > 1), `trace` a list receiving (player, n) per decision.
    Rule errors and internal errors give status ERROR.
    """
    gen = _Gen(prog)
    try:
        src = gen.build()
    except (_Unsupported, RecursionError):
        return None
    ns = dict(_HELPERS)
    ns.update(gen.consts)
    try:
        exec(compile(src, f"<ggpbridge fast {id(prog):x}>", "exec"), ns)
    except (SyntaxError, RecursionError):   # e.g. too deeply nested source
        return None
    inner = ns["play_fast"]

    def play_fast(rng, choose, max_steps=100_000, trace=None):
        """One playout: (status, scores or None, steps)."""
        try:
            return inner(rng, choose, max_steps, trace)
        except Exception:   # a rule error of the game (or of ours): reported, never scored
            return ERROR, None, 0
    play_fast.source = src
    return play_fast
