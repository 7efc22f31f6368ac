"""Expressions of the generated playout function: Python source computing each IR value."""
from __future__ import annotations

from .. import ir
from ..recycle.check import TEAM

CHANCE = (ir.Random, ir.Extreme, ir.Shuffle)
BOOLISH = (ir.Compare, ir.Not, ir.Quantified, ir.BoolOp, ir.TrueCond)   # evaluate to a bool


def has_chance(*nodes) -> bool:
    return any(isinstance(x, CHANCE) for n in nodes if n is not None for x in n.walk())



class Unsupported(Exception):
    """A construct the generator does not handle (the caller falls back)."""



class Expressions:
    """The expression part of the generator (`codegen._Gen`, a mixin)."""

    def x(self, n, env) -> str:
        """Python source computing expression n."""
        m = getattr(self, "x_" + type(n).__name__, None)
        if m is None:
            raise Unsupported(type(n).__name__)
        return m(n, env)

    def x_Var(self, n, env):
        if n.name in env:
            return env[n.name][1]
        if n.name in self.prog.values:
            return self.const(self.prog.values[n.name], "D") if isinstance(self.prog.values[n.name], list) \
                else repr(self.prog.values[n.name])
        raise Unsupported("unbound variable")

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
                raise Unsupported("player out of range")
            return str(w.value)
        return f"_who({self.x(w, env)}, {count})"

    def x_TeamOf(self, n, env):
        return f"{self.const(list(self.lay.team_of), 'TO')}[{self.x(n.player, env)}]"

    def x_OwnerOf(self, n, env):
        return f"_owner_of(where[{self.x(n.card, env)}], {self.O}, {self.n})"

    def x_StrStorage(self, n, env):
        if not isinstance(n.key, ir.Name):
            raise Unsupported("computed storage name")
        return f"{self.table(self.strs, n.key.value, 'S')}[{self.owner(n.owner, env)}]"

    def x_IntStorage(self, n, env):
        if not isinstance(n.key, ir.Name):
            raise Unsupported("computed storage name")
        return f"{self.table(self.ints, n.key.value, 'I')}[{self.owner(n.owner, env)}]"

    def points(self, n: ir.PointsRef, env) -> str:
        if not isinstance(n.name, ir.Name):
            raise Unsupported("computed point map name")
        return f"{self.table(self.pts, n.name.value, 'P')}[{self.owner(n.owner, env)}]"

    x_PointsRef = points

    def x_CardAtt(self, n, env):
        if not isinstance(n.attr, ir.Name):
            raise Unsupported("computed attribute")
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

    def x_IntSum(self, n, env):
        v = self.tmp("v")
        body = self.x(n.body, self.bind(n.coll, n.var, env, v))
        return f"sum({body} for {v} in list({self.coll(n.coll, env)}))"

    def x_BestSum(self, n, env):
        return (f"_best_sum({self.points(n.low, env)}, {self.points(n.high, env)}, {self.coll(n.cards, env)}, "
                f"{self.x(n.bound, env)})")

    def x_Score(self, n, env):
        return f"_score({self.points(n.points, env)}, {self.x(n.card, env)})"

    def x_PlayValue(self, n, env):
        if not isinstance(n.suit, ir.Name):
            raise Unsupported("computed attribute")
        # a card's suit; "" for every card without the attribute, as exprs.x_PlayValue reads it
        col = self.lay.attr.get(n.suit.value) or [None] * len(self.lay.cards)
        suits = self.const([v or "" for v in col], "A")
        ranking = "".join(f"({play!r}, {self.x(score, env)}), " for play, score in n.ranking)
        return f"_play_value({self.points(n.points, env)}, {suits}, {self.coll(n.cards, env)}, ({ranking}))"

    def x_CardAt(self, n, env):
        s = self.coll(n.source, env)
        if n.where == "top":
            return f"({s} or _NONE)[-1]"
        if n.where == "bottom":
            return f"({s} or _NONE)[0]"
        return f"_at({s}, {self.x(n.where, env)})"

    def x_Extreme(self, n, env):
        if self.listing:
            return f"_listed_extreme({self.coll(n.source, env)}, {self.points(n.points, env)}, {n.kind == 'max'})"
        return f"_extreme({self.coll(n.source, env)}, {self.points(n.points, env)}, {n.kind == 'max'}, rng, NC)"

    def x_Actual(self, n, env):
        return self.x(n.card, env)

    def coll(self, n, env) -> str:
        if self.ty(n, env) == TEAM:
            return f"{self.const([list(t) for t in self.lay.teams], 'TM')}[{self.x(n, env)}]"
        return self.x(n, env)

    def x_Location(self, n, env):
        if not isinstance(n.name, ir.Name):
            raise Unsupported("computed location name")
        return f"F[{self.loc_index(n, env)}]"

    def loc_index(self, n, env) -> str:
        base = self.loc_base(n.vis, n.name.value)
        o = self.owner(n.owner, env)
        return str(base + int(o)) if o.isdigit() else f"{base} + {o}"

    def x_SetOp(self, n, env):
        args = [self.x(a, env) for a in n.args]
        if n.op == "union":
            return "[" + ", ".join(f"*{a}" for a in args) + "]"
        want = str(len(args)) if n.op == "intersect" else "1"
        if n.op == "intersect" and any(isinstance(a, ir.AggCards) for a in n.args):
            # an `(all COLL ...)` argument is one collection per element (sim/exprs.x_SetOp)
            terms = []
            for a in n.args:
                ev = self.every(a.coll) if isinstance(a, ir.AggCards) else None
                terms.append("1" if not isinstance(a, ir.AggCards) else str(len(ev)) if ev is not None
                             else f"len(list({self.coll(a.coll, env)}))")
            want = "(" + " + ".join(terms) + ")"
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
            raise Unsupported("computed attribute")
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
        return f"({joined})" if all(isinstance(a, BOOLISH) for a in n.args) else f"bool({joined})"

    def x_Not(self, n, env):
        return f"(not {self.x(n.arg, env)})"

    def x_Compare(self, n, env):
        return f"({self.x(n.left, env)} {n.op} {self.x(n.right, env)})"

    def x_Quantified(self, n, env):
        joiner = " and " if n.quant == "all" else " or "
        ev = self.every(n.coll)
        if ev is not None:
            parts = [self.x(n.cond, self.bind(n.coll, n.var, env, str(p))) for p in ev]
            if isinstance(n.cond, BOOLISH):   # already a bool: no wrapper call needed
                return "(" + joiner.join(parts) + ")" if parts else ("True" if n.quant == "all" else "False")
            return "(" + joiner.join(f"bool({p})" for p in parts) + ")" if parts else \
                ("True" if n.quant == "all" else "False")
        v = self.tmp("v")
        cond = self.x(n.cond, self.bind(n.coll, n.var, env, v))
        fn = "all" if n.quant == "all" else "any"
        return f"{fn}({cond} for {v} in list({self.coll(n.coll, env)}))"

