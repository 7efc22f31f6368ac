"""Compiling IR expressions into Python closures over a `Runtime`.

Each `x_Node` method returns a function of the runtime `c`. Values: integers, names
(str), cards (int ids), players and teams (indices), collections (lists). Owners are
encoded as slot columns: 0 the table, 1+p player p, 1+n+t team t. Variable types come
from their binders, so `('P iloc HAND)` knows at compile time that 'P is a player.
"""
from __future__ import annotations

from .. import ir
from ..errors import GameDefinitionError
from ..recycle.check import TEAM, element
from .ops import (OpError, best_sum_of, counted, listed_extreme, member, partition, run_sequence, runs, sequence,
                  subsets, tuples)
from .plays import play_value_of

_INT_OPS = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    # C#'s integer division and remainder truncate toward zero
    "//": lambda a, b: _cdiv(a, b),
    "%": lambda a, b: a - b * _cdiv(a, b),
    # C# computes Math.Pow in doubles and rounds half to even (2 ^ -1 is 0)
    "^": lambda a, b: a ** b if b >= 0 else round(float(a) ** b),
}


def _cdiv(a: int, b: int) -> int:
    if b == 0:
        raise GameDefinitionError("division by zero")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def tri(n: int) -> int:
    """The n-th triangular number."""
    return n * (n + 1) // 2


def fib(n: int) -> int:
    """The n-th Fibonacci number, fib(0) = 0, fib(1) = 1, and fib(-n) = (-1)^(n+1) fib(n)."""
    a, b = 0, 1
    for _ in range(abs(n)):
        a, b = b, a + b
    return -a if n < 0 and n % 2 == 0 else a


_CMP = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b, ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b,
}


def relative(which: str, kind: str, count: int):
    """A closure for the current, next (queued or following) or previous member of a cycle."""
    top = (lambda c: c.cyc[-1]) if kind == "player" else (lambda c: c.tcyc[-1])
    if which == "current":
        if kind == "player":  # the hottest reference of all: keep it one call deep
            return lambda c: c.cyc[-1][0]
        return lambda c: c.tcyc[-1][0]
    if which == "next":
        def nxt(c):
            cy = top(c)
            return cy[1] if cy[1] != -1 else (cy[0] + 1) % count
        return nxt
    return lambda c: (top(c)[0] - 1) % count


def fail(msg: str, node: ir.Node):
    """A run-time rule error at a node."""
    return GameDefinitionError(msg, node.pos)


class ExprCompiler:
    """Turns IR expressions into closures; `env` maps variables to their types."""

    def __init__(self, lay):
        self.lay = lay
        # compiling the conditions and `any` ranges that list a simple option form's options
        # (machine.Program.simple): a max/min there draws no coin (ops.listed_extreme)
        self.listing = False

    # ------------------------------------------------------------ typing
    def type_of(self, n, env) -> str | None:
        """The static type of an expression (None when unknown)."""
        from ..recycle.check import _FIXED
        if isinstance(n, ir.Var):
            return env.get(n.name)
        if isinstance(n, ir.Filter):
            t = self.type_of(n.coll, env)
            return "coll:player" if t == TEAM else t   # a filtered team is a list of its players
        if isinstance(n, (ir.AllOf, ir.Other)):
            return f"coll:{n.kind}"
        return _FIXED.get(type(n))

    def bind(self, coll, var: str, env: dict) -> dict:
        return {**env, var: element(self.type_of(coll, env))}

    # ------------------------------------------------------------ dispatch
    def x(self, n, env):
        """A closure computing the value of expression n."""
        m = getattr(self, "x_" + type(n).__name__, None)
        if m is None:
            raise fail(f"{type(n).__name__} cannot be evaluated here", n)
        return m(n, env)

    def x_Var(self, n, env):
        name = n.name
        return lambda c: c.vars[name]

    def x_IntLit(self, n, env):
        v = n.value
        return lambda c: v

    def x_Name(self, n, env):
        v = n.value
        return lambda c: v

    # ------------------------------------------------------------ owners and players
    def owner(self, n, env):
        """A closure giving the owner column (0 table, 1+p player, 1+n+t team)."""
        if isinstance(n, ir.GameOwner):
            return lambda c: 0
        t = self.type_of(n, env)
        f = self.x(n, env)
        if t == TEAM:
            base = 1 + self.lay.n
            return lambda c: base + f(c)
        return lambda c: 1 + f(c)

    def x_PlayerRef(self, n, env):
        return self.who(n, env, "player")

    def x_TeamRef(self, n, env):
        return self.who(n, env, "team")

    def who(self, n, env, kind: str):
        """(current|next|previous|N player|team), relative to the innermost player (team) cycle."""
        count = self.lay.n if kind == "player" else len(self.lay.teams)
        if isinstance(n.which, str):
            return relative(n.which, kind, count)
        f = self.x(n.which, env)

        def idx(c):
            k = f(c)
            if not 0 <= k < count:
                raise fail(f"{kind} {k} does not exist ({kind}s are 0..{count - 1})", n)
            return k
        return idx

    def x_OwnerOf(self, n, env):
        card = self.x(n.card, env)
        np = self.lay.n

        def owner_of(c):
            w = c.where[card(c)]
            if w is None or not 1 <= w[1] <= np:
                raise fail("this card is not held by a player, so it has no owner", n)
            return w[1] - 1
        return owner_of

    def x_TeamOf(self, n, env):
        p = self.x(n.player, env)
        team_of = self.lay.team_of
        return lambda c: team_of[p(c)]

    def x_GameOwner(self, n, env):
        return lambda c: 0

    # ------------------------------------------------------------ strings
    def x_StrStorage(self, n, env):
        if isinstance(n.key, ir.Name):
            return self.cell("S", self.lay.slot(self.lay.str_slots, n.key.value), n.owner, env)
        owner = self.owner(n.owner, env)
        key = self.slot_of(self.lay.str_slots, n.key, env)
        return lambda c: c.strs(key(c))[owner(c)]

    def x_CardAtt(self, n, env):
        card = self.x(n.card, env)
        attr = self.lay.attr
        if isinstance(n.attr, ir.Name):
            col = attr.get(n.attr.value)
            if col is None:
                return lambda c: ""

            def att_lit(c):
                k = card(c)
                return "" if k is None else col[k] or ""
            return att_lit
        name = self.x(n.attr, env)

        def att(c):
            col, k = attr.get(name(c)), card(c)
            return (col[k] or "") if col and k is not None else ""
        return att

    def slot_of(self, table: dict, key, env):
        """A closure giving a storage slot for a (possibly computed) name."""
        if isinstance(key, ir.Name):
            s = self.lay.slot(table, key.value)
            return lambda c: s
        f = self.x(key, env)
        slot = self.lay.slot
        return lambda c: slot(table, str(f(c)))

    # ------------------------------------------------------------ integers
    def x_Arith(self, n, env):
        op, a, b = _INT_OPS[n.op], self.x(n.left, env), self.x(n.right, env)
        return lambda c: op(a(c), b(c))

    def x_Tri(self, n, env):
        a = self.x(n.arg, env)
        return lambda c: tri(a(c))

    def x_Fib(self, n, env):
        a = self.x(n.arg, env)
        return lambda c: fib(a(c))

    def x_Random(self, n, env):
        lo, hi = self.x(n.lo, env), self.x(n.hi, env)

        def rnd(c):
            a, b = lo(c), hi(c)
            if b < a:
                raise fail(f"random range {a}..{b} is empty", n)
            return a + c.pick(b - a + 1, "random", f"{a}..{b}")
        return rnd

    def x_Size(self, n, env):
        slot = self.static_location(n.coll)
        src = self.cell_source("L", slot, n.coll.owner, env) if slot is not None else None
        if src is not None:
            return eval(f"lambda c: len({src})")
        f = self.coll(n.coll, env)
        return lambda c: len(f(c))

    def x_IntStorage(self, n, env):
        if isinstance(n.key, ir.Name):
            return self.cell("I", self.lay.slot(self.lay.sto_slots, n.key.value), n.owner, env)
        owner = self.owner(n.owner, env)
        key = self.slot_of(self.lay.sto_slots, n.key, env)
        return lambda c: c.ints(key(c))[owner(c)]

    def points_table(self, n: ir.PointsRef, env):
        """A closure giving the per-card score list of a point map (None when never set)."""
        owner = self.owner(n.owner, env)
        key = self.slot_of(self.lay.pts_slots, n.name, env)
        return lambda c: c.points(key(c))[owner(c)]

    def x_Sum(self, n, env):
        cards, table = self.coll(n.cards, env), self.points_table(n.points, env)

        def total(c):
            t = table(c)
            return sum(t[x] for x in cards(c)) if t is not None else 0
        return total

    def x_BestSum(self, n, env):
        cards, bound = self.coll(n.cards, env), self.x(n.bound, env)
        low, high = self.points_table(n.low, env), self.points_table(n.high, env)

        def total(c):
            got = cards(c)
            return best_sum_of(low(c), high(c), got, bound(c))
        return total

    def x_Score(self, n, env):
        card, table = self.x(n.card, env), self.points_table(n.points, env)

        def score(c):
            t, k = table(c), card(c)
            if k is None:
                raise fail("the score of a card of an empty collection", n)
            return t[k] if t is not None else 0
        return score

    def x_PlayValue(self, n, env):
        cards, table = self.coll(n.cards, env), self.points_table(n.points, env)
        attr, count = self.lay.attr, len(self.lay.cards)
        scores = [(play, self.x(score, env)) for play, score in n.ranking]

        suit, columns = self.x(n.suit, env), {}   # the lowering's SUIT, or a computed attribute name

        def suits(c):
            # each card's suit; "" for every card without the attribute (as codegen_exprs.x_PlayValue),
            # made once per attribute name, not per evaluation
            name = suit(c)
            got = columns.get(name)
            if got is None:
                col = attr.get(name)
                got = columns[name] = [v or "" for v in col] if col else [""] * count
            return got

        def value(c):
            return play_value_of(table(c), suits(c), cards(c), [(play, score(c)) for play, score in scores])
        return value

    # ------------------------------------------------------------ cards
    def x_CardAt(self, n, env):
        src = self.coll(n.source, env)
        w = n.where
        # A card of an empty collection is None, as CardStock's lazy card references are:
        # reading its attribute gives "" (ProcessCardatt); moving it is an error.
        if w == "top":
            return lambda c: (src(c) or _NONE)[-1]
        if w == "bottom":
            return lambda c: (src(c) or _NONE)[0]
        i = self.x(w, env)

        def at(c):
            s, k = src(c), i(c)
            if not s:
                return None
            if not 0 <= k < len(s):
                raise fail(f"card {k} of a collection of {len(s)}", n)
            return s[k]
        return at

    def x_Extreme(self, n, env):
        src, table = self.coll(n.source, env), self.points_table(n.points, env)
        want_max = n.kind == "max"
        if self.listing:
            def listed(c):
                try:
                    return listed_extreme(src(c), table(c), want_max)
                except OpError as e:
                    raise fail(f"{n.kind} of an empty collection", n) from e
            return listed

        def extreme(c):
            # CardStock scans bottom to top and, on an equal score, keeps the newcomer on a
            # coin flip (GameIterator.ProcessCard): not uniform, and reproduced as such.
            s = src(c)
            if not s:
                raise fail(f"{n.kind} of an empty collection", n)
            t = table(c)
            best, card = (-1 if want_max else 2 ** 31 - 1), s[-1]
            for x in s:
                v = t[x] if t is not None else 0
                if (v > best if want_max else v < best) or (v == best and c.pick(2, "tie", n.kind) == 0):
                    best, card = v, x
            return card
        return extreme

    def x_Actual(self, n, env):
        return self.x(n.card, env)

    # ------------------------------------------------------------ collections
    def coll(self, n, env):
        """A closure giving a collection as a list (a location's own list: do not mutate)."""
        if self.type_of(n, env) == TEAM:  # a team stands for its players
            team, teams = self.x(n, env), self.lay.teams
            return lambda c: teams[team(c)]
        return self.x(n, env)

    def cell_source(self, rows: str, slot: int, owner_node, env) -> str | None:
        """Python source reading c.<rows>[slot][owner] for the common owners, else None.

        Rows for names known at compile time exist from the start of every run, so the hot
        references (the table's, the current player's, a player variable's) compile to one
        expression, which callers may embed in a larger one.
        """
        o = owner_node
        if isinstance(o, ir.GameOwner):
            return f"c.{rows}[{slot}][0]"
        if isinstance(o, ir.PlayerRef) and o.which == "current":
            return f"c.{rows}[{slot}][1 + c.cyc[-1][0]]"
        if isinstance(o, ir.Var) and self.type_of(o, env) == "player":
            return f"c.{rows}[{slot}][1 + c.vars[{o.name!r}]]"
        return None

    def cell(self, rows: str, slot: int, owner_node, env):
        """A closure reading c.<rows>[slot][owner]."""
        src = self.cell_source(rows, slot, owner_node, env)
        if src is not None:
            return eval(f"lambda c: {src}")
        owner = self.owner(owner_node, env)
        table = {"L": lambda c: c.L, "I": lambda c: c.I, "S": lambda c: c.S}[rows]
        return lambda c: table(c)[slot][owner(c)]

    def static_location(self, n) -> int | None:
        """The slot of a location whose name is a literal (else None)."""
        if isinstance(n, ir.Location) and isinstance(n.name, ir.Name):
            return self.lay.loc_slot(n.vis, n.name.value)
        return None

    def x_Location(self, n, env):
        owner = self.owner(n.owner, env)
        lay = self.lay
        if isinstance(n.name, ir.Name) or isinstance(n.name, str):
            slot = lay.loc_slot(n.vis, n.name.value if isinstance(n.name, ir.Name) else n.name)
            return self.cell("L", slot, n.owner, env)
        name = self.x(n.name, env)
        vis = n.vis
        return lambda c: c.loc(lay.loc_slot(vis, str(name(c))), owner(c))

    def loc_ref(self, n: ir.Location, env):
        """A closure giving (slot, owner) of a location."""
        owner = self.owner(n.owner, env)
        lay = self.lay
        if isinstance(n.name, ir.Name):
            slot = lay.loc_slot(n.vis, n.name.value)
            return lambda c: (slot, owner(c))
        name = self.x(n.name, env)
        vis = n.vis
        return lambda c: (lay.loc_slot(vis, str(name(c))), owner(c))

    def x_SetOp(self, n, env):
        args = [self.x(a, env) for a in n.args]
        if n.op == "union":
            def union(c):
                out = []
                for a in args:
                    out.extend(a(c))
                return out
            return union
        # intersect: as often as there are collections; disjunction: exactly once (ops.counted)
        if n.op != "intersect":
            return lambda c: counted([a(c) for a in args], 1)
        # an `(all COLL 'V CARDS)` argument is one collection per element of COLL (CardStock
        # counts it as none, so its intersect is always empty: docs/cardstock-semantics.md)
        per = [self.coll(a.coll, env) if isinstance(a, ir.AggCards) else None for a in n.args]
        if all(k is None for k in per):
            want = len(args)
            return lambda c: counted([a(c) for a in args], want)
        return lambda c: counted([a(c) for a in args], sum(1 if k is None else len(list(k(c))) for k in per))

    def x_AggCards(self, n, env):
        coll = self.coll(n.coll, env)
        body = self.x(n.body, self.bind(n.coll, n.var, env))
        var = n.var

        def agg(c):
            out = []
            vs = c.vars
            old = vs.get(var, _MISSING)
            for e in list(coll(c)):
                vs[var] = e
                out.extend(body(c))
            _restore(vs, var, old)
            return out
        return agg

    def x_Sort(self, n, env):
        src, table = self.coll(n.source, env), self.points_table(n.points, env)

        def srt(c):
            t = table(c)
            s = list(src(c))
            return sorted(s, key=t.__getitem__) if t is not None else s
        return srt

    def x_IntSum(self, n, env):
        coll, body, var = self.coll(n.coll, env), self.x(n.body, self.bind(n.coll, n.var, env)), n.var

        def total(c):
            vs = c.vars
            old, out = vs.get(var, _MISSING), 0
            for e in list(coll(c)):
                vs[var] = e
                out += body(c)
            _restore(vs, var, old)
            return out
        return total

    def x_Filter(self, n, env):
        coll = self.coll(n.coll, env)
        cond = self.x(n.cond, self.bind(n.coll, n.var, env))
        var = n.var

        def filt(c):
            vs = c.vars
            old = vs.get(var, _MISSING)
            out = []
            for e in coll(c):
                vs[var] = e
                if cond(c):
                    out.append(e)
            _restore(vs, var, old)
            return out
        return filt

    def x_Sequence(self, n, env):
        count, src = self.x(n.count, env), self.coll(n.source, env)
        top = n.end == "top"
        return _positioned(lambda c: sequence(src(c), count(c), top), n)

    def x_MemberOf(self, n, env):
        src = self.coll(n.source, env)
        w = n.where
        if w in ("top", "bottom"):
            return _positioned(lambda c: member(src(c), w), n)
        i = self.x(w, env)
        return _positioned(lambda c: member(src(c), i(c)), n)

    def x_NameList(self, n, env):
        names = list(n.names)
        return lambda c: names

    def x_AllOf(self, n, env):
        every = list(range(self.lay.n if n.kind == "player" else len(self.lay.teams)))
        return lambda c: every

    def x_Other(self, n, env):
        if n.kind == "player":
            np = self.lay.n
            return lambda c: [p for p in range(np) if p != c.cyc[-1][0]]
        nt = len(self.lay.teams)
        return lambda c: [t for t in range(nt) if t != c.tcyc[-1][0]]

    def x_Range(self, n, env):
        lo, hi = self.x(n.lo, env), self.x(n.hi, env)
        return lambda c: list(range(lo(c), hi(c) + 1))

    def x_Tuples(self, n, env):
        k, src, table = self.x(n.n, env), self.coll(n.source, env), self.points_table(n.points, env)
        return _positioned(lambda c: tuples(table(c), k(c), src(c)), n)

    def x_Partition(self, n, env):
        attr = self.x(n.attr, env)
        srcs = [self.x(s, env) for s in n.sources]
        table = self.lay.attr
        return lambda c: partition(table.get(attr(c)), [s(c) for s in srcs])

    def x_Subsets(self, n, env):
        src = self.coll(n.source, env)
        return lambda c: subsets(src(c))

    def x_Runs(self, n, env):
        k, src, table = self.x(n.n, env), self.coll(n.source, env), self.points_table(n.points, env)
        largest = n.mode == "largest"
        return lambda c: runs(table(c), k(c), src(c), largest)

    def x_RunSequence(self, n, env):
        count, src, table = self.x(n.count, env), self.coll(n.source, env), self.points_table(n.points, env)
        from_top = n.end == "top"
        return _positioned(lambda c: run_sequence(table(c), count(c), src(c), from_top), n)

    def x_PointsRef(self, n, env):
        return self.points_table(n, env)

    # ------------------------------------------------------------ booleans
    def x_BoolOp(self, n, env):
        args = [self.x(a, env) for a in n.args]
        if n.op == "and":
            if len(args) == 2:
                a, b = args
                return lambda c: a(c) and b(c)
            return lambda c: all(f(c) for f in args)
        if len(args) == 2:
            a, b = args
            return lambda c: a(c) or b(c)
        return lambda c: any(f(c) for f in args)

    def x_Not(self, n, env):
        a = self.x(n.arg, env)
        return lambda c: not a(c)

    def x_Compare(self, n, env):
        op, a, b = _CMP[n.op], self.x(n.left, env), self.x(n.right, env)
        if isinstance(n.right, ir.IntLit):  # the usual (OP EXPR 0): one call fewer
            return eval(f"lambda c: a(c) {n.op} {n.right.value}", {"a": a})
        if n.op == "==":
            return lambda c: a(c) == b(c)
        if n.op == "!=":
            return lambda c: a(c) != b(c)
        return lambda c: op(a(c), b(c))

    def x_Quantified(self, n, env):
        coll = self.coll(n.coll, env)
        cond = self.x(n.cond, self.bind(n.coll, n.var, env))
        var = n.var
        want_all = n.quant == "all"

        if isinstance(n.coll, ir.AllOf):  # every player/team: a fixed range
            every = range(self.lay.n if n.coll.kind == "player" else len(self.lay.teams))
            coll = lambda c: every  # noqa: E731

        def quant(c):
            vs = c.vars
            old = vs.get(var, _MISSING)
            result = want_all
            for e in list(coll(c)):
                vs[var] = e
                if bool(cond(c)) != want_all:
                    result = not want_all
                    break
            _restore(vs, var, old)
            return result
        return quant

    def x_TrueCond(self, n, env):
        return lambda c: True


_MISSING = object()
_NONE = [None]


def _restore(vs: dict, var: str, old) -> None:
    if old is _MISSING:
        vs.pop(var, None)
    else:
        vs[var] = old


def _positioned(f, n):
    """f, with its operation errors turned into rule errors at node n."""
    def g(c):
        try:
            return f(c)
        except OpError as e:
            raise fail(str(e), n) from None
    return g
