"""RECYCLE expressions and conditions as GDL rule bodies (relational compilation).

`val(n, env)` gives (literals, term): the literals bind `term` to the value of `n` in
the current state. `cond(n, env)` gives literals that hold when `n` is true, and
`member(coll, env, x)` literals that bind `x` to each element of a collection.
Sub-conditions that need negation or disjunction (`all`, `not`, `or`, sizes compared
with zero) become helper relations whose arguments are the logic variables of the
enclosing rule; each argument gets a domain literal so that every helper rule is safe.

Variables bound by an action (`all`, `let`, a chosen `any`) live in `(var ID VALUE)`
fluents; variables bound inside a condition (`any`/`all`/`filter`) are logic variables.
"""
from __future__ import annotations

from dataclasses import dataclass

from ggpbridge import ir
from ggpbridge.errors import UnsupportedConstructError
from ggpbridge.gdl.ast import Const, Not, Var, variables
from ggpbridge.recycle.check import TEAM, _FIXED, element

from .flatten import merged_filter, unrolled_union
from .nodes import scan_parts
from .subsetopts import InMask, Masks, MaskSize, MaskSum
from .terms import TABLE, const, distinct, f, name, neg, rule, true

DOMAIN = {"player": "player_id", "team": "team_id", "card": "card_id", "int": "num", "str": "name_value",
          "mask": "subset_mask"}   # subsetopts.py: a subset of a location named by its mask


def unsupported(what: str, n) -> UnsupportedConstructError:
    """The error for a construct the translation does not handle."""
    return UnsupportedConstructError(what, getattr(n, "pos", None) or ir.Pos())


@dataclass(frozen=True)
class Binding:
    """How a RECYCLE variable is reached: a `(var ID X)` fluent, or a logic variable."""

    kind: str          # "fluent", "logic", "const", "list", "snapshot" or "alias"
    term: object       # the fluent's id constant, the logic Var; a snapshot's register;
    #                    an alias's (collection, env): a `let` judged where it was bound
    type: str | None
    none: bool = False  # a `let` of a card that is none when its collection is empty (may_be_none)


class Env(dict):
    """Variable bindings; `cur` overrides how the current player is found (scoring, stage entry)."""

    def __init__(self, *a, cur=None, fresh_next: bool = False, **k):
        super().__init__(*a, **k)
        self.cur = cur
        self.fresh_next = fresh_next

    def child(self, **binds) -> "Env":
        e = Env(self, cur=self.cur, fresh_next=self.fresh_next)
        e.update(binds)
        return e


def declared_env(values: dict) -> Env:
    """The declared game variables, as constants."""
    env = Env()
    for k, v in values.items():
        if isinstance(v, int):
            env[k] = Binding("const", const(v), "int")
        elif isinstance(v, str):
            env[k] = Binding("const", name(v), "str")
        else:
            env[k] = Binding("list", tuple(v), "coll:str")
    return env


class ExprCompiler:
    """Compiles expressions against one game's layout, collecting helper rules."""

    bags: frozenset = frozenset()   # locations without order (order.py): `(in L O C)` fluents
    wide = None                     # a wide.Wide: integers too many for tables, added by digits
    capped = False                  # fitted storages beyond any table (capped.py): a missing value is `overflow`
    decks: frozenset = frozenset()  # bags drawn from at random (order.py)

    def __init__(self, lay, fresh, rules: list, pre: dict):
        self.lay = lay
        self.fresh = fresh
        self.rules = rules          # helper rules are appended here
        self.pre = pre              # id(node) -> tmp id of values computed by earlier steps
        self.untied_ids: set = set()   # max/min values read in place: they never tie (untied.py)
        self.listed_ids: set = set()   # max/min values of option heads: no coin (listedmax.py)
        self.used: set = set()      # features the emitter must define (tables, kernels)
        self.divisors: set = set()  # (times|div|mod, k): tables of an operation with a constant
        self.sums: set = set()      # (points map, location) terms that a `sum` adds up
        self.sum_maps: set = set()  # points maps any sum reads (filtered ones too): they bound the integers
        self.best_sums: dict = {}   # (low map, high map, bound) -> a BestSum node (bestsum.py)
        self.best_sum_memo: dict = {}   # (BestSum, its variables' bindings) -> (relation, their names)
        # what plays.py records of the play values: those read as integers ("general"), those
        # compared through play_less/play_leq, the values and point maps these range over
        self.plays: dict = {"general": [], "compared": [], "values": set(), "maps": set()}
        # tuples (kernel.tuples): (points map, location) -> the tuple sizes N whose N-th card of a
        # score bin is looked for, and those whose number of tuples is counted; the nodes, by map
        self.tuples: dict = {}
        self.tuple_nodes: list = []
        self.card_numbers = False   # counted.py's facts numbering the cards: made once
        self.binders: dict = {}     # logic variable -> the literals binding it (condguard.py's tests)

    def note(self, operand, lits: list, env) -> None:
        """A value's literals (a comparison's operand, a `let` value, a `repeat` count, a `range`
        end), for a test that its value is in the tables (condguard.py, in the game's flow);
        nothing to do elsewhere."""

    # ------------------------------------------------------------ types
    def type_of(self, n, env: Env) -> str | None:
        """The static type of an expression (as the checker names them)."""
        if isinstance(n, ir.Var):
            b = env.get(n.name)
            return b.type if b else None
        if isinstance(n, ir.Filter):
            return self.type_of(n.coll, env)
        if isinstance(n, (ir.AllOf, ir.Other)):
            return f"coll:{n.kind}"
        if isinstance(n, Masks):
            return "coll:mask"
        if isinstance(n, (MaskSize, MaskSum)):
            return "int"
        return _FIXED.get(type(n))

    def bind_type(self, coll, env) -> str | None:
        return element(self.type_of(coll, env))

    # ------------------------------------------------------------ helpers
    def helper(self, hint: str, env: Env, bodies: list[list]) -> object:
        """A helper relation over the logic variables of env used in `bodies` (one rule each)."""
        logic = {b.term: b.type for b in env.values() if b.kind == "logic"}
        cur = env.cur
        if cur is not None:
            logic[cur[1]] = "player"
        used = []
        for body in bodies:
            for lit in body:
                for v in variables(lit):
                    if v in logic and v not in used:
                        used.append(v)
        pred = self.fresh.pred(hint)
        head = f(pred, *used)
        for body in bodies:
            dom = [f(DOMAIN.get(logic[v], "value_any"), v) for v in used]
            self.rules.append(rule(head, *dom, *body))
        return head

    def exists(self, hint, env, body) -> object:
        return self.helper(hint, env, [body])

    # ------------------------------------------------------------ values
    def val(self, n, env: Env):
        """(literals, term) giving the value of expression n."""
        if id(n) in self.pre:
            v = self.fresh.var("t")
            return [true(f("var", self.pre[id(n)], v))], v
        m = getattr(self, "v_" + type(n).__name__, None)
        if m is None and isinstance(n, (MaskSize, MaskSum)):   # made by the rewriting of options over subsets
            return n.value(self, env)
        if m is None:
            raise unsupported(f"{_what(n)}", n)
        return m(n, env)

    def v_IntLit(self, n, env):
        return [], const(n.value)

    def v_Name(self, n, env):
        return [], name(n.value)

    def v_Var(self, n, env):
        b = env.get(n.name)
        if b is None:
            raise unsupported(f"variable '{n.name} here", n)
        if b.kind in ("logic", "const"):
            return [], b.term
        if b.kind in ("snapshot", "alias"):
            raise unsupported(f"the 'let' collection '{n.name} here", n)
        v = self.fresh.var("v")
        return [true(f("var", b.term, v))], v

    def v_Actual(self, n, env):
        return self.val(n.card, env)

    def v_GameOwner(self, n, env):
        return [], const(TABLE)

    def current(self, env: Env, kind: str = "player"):
        """(literals, term) of the current player (team)."""
        if kind == "player" and env.cur is not None:
            return list(env.cur[0]), env.cur[1]
        v = self.fresh.var("c")
        return [f("current" if kind == "player" else "current_team", v)], v

    def v_PlayerRef(self, n, env):
        return self._who(n, env, "player")

    def v_TeamRef(self, n, env):
        return self._who(n, env, "team")

    def _who(self, n, env, kind):
        w = n.which
        if w == "current":
            return self.current(env, kind)
        if w in ("next", "previous"):
            if env.cur is not None and kind == "player":
                lits, c = self.current(env, kind)
                v = self.fresh.var("n")
                return lits + [f("succ_seat" if w == "next" else "pred_seat", c, v)], v
            v = self.fresh.var("n")
            if env.fresh_next and w == "next":   # a freshly pushed cycle has no queued next
                lits, c = self.current(env, kind)
                return lits + [f("succ_seat" if kind == "player" else "succ_team", c, v)], v
            pred = {("next", "player"): "next_player", ("previous", "player"): "previous_player",
                    ("next", "team"): "next_team", ("previous", "team"): "previous_team"}[(w, kind)]
            return [f(pred, v)], v
        lits, t = self.val(w, env)
        return lits + [f("player_id" if kind == "player" else "team_id", t)], t

    def v_OwnerOf(self, n, env):
        lits, c = self.val(n.card, env)
        o = self.fresh.var("o")
        return lits + [f("held_by", c, o)], o

    def v_TeamOf(self, n, env):
        lits, p = self.val(n.player, env)
        t = self.fresh.var("t")
        return lits + [f("team_of", p, t)], t

    def v_StrStorage(self, n, env):
        return self._storage("str_value", n, env)

    def v_IntStorage(self, n, env):
        return self._storage("int_value", n, env)

    def _storage(self, rel: str, n, env):
        """The value of an integer or name storage (0 / no_value when never set)."""
        lk, key = self.storage_key(n.key, n, env)
        lits, o = self.owner(n.owner, env)
        v = self.fresh.var("s")
        return lk + lits + [f(rel, key, o, v)], v

    def storage_key(self, k, n, env):
        """(literals, term) of an integer or name storage's key, which may be computed at run
        time (keys.py declares a storage for every name it may take)."""
        if isinstance(k, ir.Name):
            return [], name(k.value)
        return self.val(k, env)

    def _key(self, k, n):
        if not isinstance(k, ir.Name):
            raise unsupported("a storage name computed at run time", n)
        return name(k.value)

    def v_CardAtt(self, n, env):
        if not isinstance(n.attr, ir.Name):
            raise unsupported("an attribute name computed at run time", n)
        lits, c = self.val(n.card, env)
        v = self.fresh.var("a")
        return lits + [f("card_att", c, name(n.attr.value), v)], v

    def v_Arith(self, n, env):
        la, a = self.val(n.left, env)
        lb, b = self.val(n.right, env)
        ca, cb = _number(la, a), _number(lb, b)
        if ca is not None and cb is not None:  # constant folding (declared values, literals)
            from ggpbridge.sim.exprs import _INT_OPS
            return [], const(_INT_OPS[n.op](ca, cb))
        if ca is not None and n.op == "*":  # products commute: the constant goes right
            la, a, lb, b, ca, cb = lb, b, la, a, cb, ca
        if cb is not None and (n.op == "*" or (n.op in ("//", "%") and cb > 0)):
            op = {"*": "times", "//": "div", "%": "mod"}[n.op]
            self.divisors.add((op, cb))
            v = self.fresh.var("r")
            return la + [f(f"{op}_{const(cb).name}", a, v)], v
        v = self.fresh.var("r")
        if n.op == "+":
            self.used.add("plus")
            return self.plus(la, a, lb, b, env, v=v)
        if n.op == "-":
            self.used.add("plus")
            return self.plus(la, a, lb, b, env, sign=-1, v=v)
        if n.op == "*":  # two run-time factors: the product table over the whole integer range
            self.used.update({"plus", "times"})
            return la + lb + [f("times", a, b, v)], v
        raise unsupported(f"the operator {n.op}", n)

    def v_Size(self, n, env):
        c = n.coll
        flat = unrolled_union(c, lambda x: self.list_names(x, env))
        if flat is not None:
            return self.v_Size(ir.Size(flat, pos=n.pos), env)
        b = env.get(c.name) if isinstance(c, ir.Var) else None
        if b is not None and b.kind == "alias":
            src, senv = b.term
            return self.v_Size(ir.Size(src, pos=n.pos), senv)
        if b is not None and b.kind == "snapshot":
            return self._snapshot_size(b.term)
        if isinstance(c, ir.Location):
            lits, l, o = self.loc(c, env)
            v = self.fresh.var("z")
            return lits + [f("size", l, o, v)], v
        if isinstance(c, ir.Filter) and isinstance(c.coll, ir.Location):
            return self._count_filter(c, env)
        if isinstance(c, (ir.AllOf, ir.Other)):
            k = self.lay.n if c.kind == "player" else len(self.lay.teams)
            return [], const(k - (1 if isinstance(c, ir.Other) else 0))
        if isinstance(c, ir.SetOp) and c.op == "union" and len(c.args) > 1:
            # a concatenation: its size is the sum of the sizes
            self.used.add("plus")
            lits, total = self.v_Size(ir.Size(c.args[0], pos=n.pos), env)
            for a in c.args[1:]:
                la, z = self.v_Size(ir.Size(a, pos=n.pos), env)
                lits, total = self.plus(lits, total, la, z, env, v=self.fresh.var("s"))
            return lits, total
        parts = scan_parts(c)
        if parts is not None:
            return self._size_of_parts(parts, env)
        if isinstance(c, ir.Filter) and isinstance(c.coll, ir.AllOf):
            return self._count_players(c, env)
        if isinstance(c, ir.Filter) and isinstance(c.coll, ir.SetOp) and c.coll.op == "union":
            # a concatenation: the cards passing in each part, added up
            self.used.add("plus")
            return self.added_up((self.v_Size(ir.Size(ir.Filter(a, c.var, c.cond, pos=c.pos), pos=n.pos), env)
                                  for a in c.coll.args), env)
        if isinstance(c, ir.Filter) and scan_parts(c.coll) is not None:
            return self._count_filter_parts(c, env)
        if isinstance(c, ir.Filter) and isinstance(c.coll, ir.Filter):
            merged = merged_filter(c)
            if merged is not None:
                return self.v_Size(ir.Size(merged, pos=n.pos), env)
        if isinstance(c, ir.MemberOf) and isinstance(c.source, (ir.Partition, ir.Subsets)):
            from .groups import group_size   # groups.py builds on this module
            return group_size(self, c, n, env)
        if isinstance(c, ir.SetOp) and c.op in ("intersect", "disjunction"):
            from .counted import counted_size   # counted.py builds on this module
            return counted_size(self, c, n, env)
        if isinstance(c, ir.Tuples):
            lits, args, k = self.tuple_source(c, env, "count")
            v = self.fresh.var("z")
            return lits + [f("tup_total", *args, k, const(12), v)], v
        if isinstance(c, ir.RunSequence):
            from .runseq import run_size   # runseq.py builds on this module
            return run_size(self, c, n, env)
        raise unsupported(f"the size of {_what(c)}", n)

    def _snapshot_size(self, sid):
        """The number of cards in a snapshot register, counted up its keys (positions)."""
        keys, count = self.fresh.pred("snap_key"), self.fresh.pred("snap_count")
        i, i2, k, k2, c = (self.fresh.var(h) for h in "iijjc")
        # count(I, K): K cards have keys below I
        self.rules.append(rule(f(keys, i), true(f("var", sid, f("el", i, c)))))
        self.rules.append(rule(f(count, const(0), const(0))))
        self.rules.append(rule(f(count, i2, k2), f(count, i, k), f(keys, i), f("isucc", i, i2), f("isucc", k, k2)))
        self.rules.append(rule(f(count, i2, k), f(count, i, k), f("isucc", i, i2), neg(f(keys, i))))
        total = self.fresh.var("k")
        return [f(count, const(len(self.lay.cards)), total)], total

    def tuple_source(self, n: ir.Tuples, env, use: str):
        """(literals, (map, map owner, location, owner), N) of `(tuples N LOCATION using POINTS)`,
        recording what the tuple kernel must compute for it: `use` is "nth" (which card of a score
        bin is the N-th) or "count" (how many tuples there are)."""
        k = _number(*self.val(n.n, env))
        if k is None or k < 1:
            raise unsupported("tuples of a size other than a positive constant", n)
        if not isinstance(n.source, ir.Location):
            raise unsupported(f"tuples of {_what(n.source)}", n)
        lits, l, o = self.loc(n.source, env)
        if not isinstance(l, Const):
            raise unsupported("tuples of a location named at run time", n)
        pl, key, po = self.points(n.points, env)
        uses = self.tuples.setdefault((key, l), {"nth": set(), "count": set()})
        uses[use].add(k)
        self.tuple_nodes.append((key, n))
        self.used.add("tuples")
        if use == "count":
            self.used.add("plus")
        return lits + pl, (key, po, l, o), const(k)

    def has_tuple(self, n: ir.Tuples, env) -> list:
        """Literals that hold when `(tuples N ...)` is not empty: some score bin has N cards."""
        lits, args, k = self.tuple_source(n, env, "nth")
        b, i = self.fresh.var("b"), self.fresh.var("i")
        return [self.exists("some_tuple", env, lits + [f("tup_nth", *args, k, b, i)])]

    def tuple_card(self, src: ir.MemberOf, where, env):
        """(literals, card) of `(top|bottom|W (top TUPLES))`: a card of the first tuple, the first
        N cards (in list order) of the lowest score bin that has N cards."""
        if src.where != "top":
            raise unsupported(f"a tuple other than the first of {_what(src.source)}", src)
        lits, args, k = self.tuple_source(src.source, env, "nth")
        n = int(k.name)
        w = {"top": n - 1, "bottom": 0}.get(where) if isinstance(where, str) else _number(*self.val(where, env))
        if w is None or not 0 <= w < n:
            raise unsupported(f"card {_what(where)} of a tuple of {n}", src)
        b, i, c = self.fresh.var("b"), self.fresh.var("i"), self.fresh.var("c")
        key, po, l, o = args
        # the w-th card of bin B: it scores B and w cards of bin B lie below it
        return lits + [f("tup_first_bin", *args, k, b), f("tup_score", *args, i, b),
                       f("tup_count", *args, b, i, const(w)), true(f("at", l, o, i, c))], c

    def _count_players(self, c: ir.Filter, env):
        """How many players (teams) pass a filter, counted in seat order."""
        kinds = const(c.coll.kind + "s")
        self.used.update({"loops", "plus"})
        args, dom = self.context(env)
        acc = self.fresh.pred("count_players")

        def passes(p):
            inner = env.child(**{c.var: Binding("logic", p, c.coll.kind)})
            return self.exists("passes", inner, self.cond(c.cond, inner))
        first, x, y, k, k2 = (self.fresh.var(h) for h in ("p", "p", "p", "k", "k"))
        ok = passes(first)
        self.rules.append(rule(f(acc, *args, first, const(1)), *dom, f("first_of", kinds, first), ok))
        self.rules.append(rule(f(acc, *args, first, const(0)), *dom, f("first_of", kinds, first), Not(ok)))
        ok = passes(y)
        self.rules.append(rule(f(acc, *args, y, k2), f(acc, *args, x, k), f("after_of", kinds, x, y), ok,
                               f("succ", k, k2)))
        self.rules.append(rule(f(acc, *args, y, k), f(acc, *args, x, k), f("after_of", kinds, x, y), Not(ok)))
        last, total = self.fresh.var("p"), self.fresh.var("k")
        return [f(acc, *args, last, total), f("last_of", kinds, last)], total

    def _size_of_parts(self, parts, env):
        """The size of a union (a concatenation in CardStock): the sizes of its parts added up."""
        self.used.add("plus")
        if parts[0][0] == "loc":
            return self.added_up((self._loc_size(part, env) for _, part in parts), env)
        agg = parts[0][1]
        return self._add_up_per_element(agg, env, "union_size", lambda sub: self._loc_size(agg.body, sub))

    def _loc_size(self, loc, env):
        """(literals, size) of one location."""
        pl, l, o = self.loc(loc, env)
        z = self.fresh.var("z")
        return pl + [f("size", l, o, z)], z

    def added_up(self, parts, env):
        """(literals, total) of (literals, number) pairs added up with `plus`, in order."""
        # parts may be a generator: each part's variables are made before the sum that takes it
        lits, total = [], None
        for la, z in parts:
            if total is None:
                lits, total = lits + la, z
            else:
                lits, total = self.plus(lits, total, la, z, env, v=self.fresh.var("s"))
        return lits, total

    def plus(self, la, a, lb, b, env, v, sign: int = 1):
        """(literals, v) with v = a + b (a - b with sign -1): the `plus` table, or digits (wide.py)."""
        if self.wide is not None:
            from .wide import add
            lits, v, _ = add(self, env, la, a, lb, b, sign)
            return lits, v
        return la + lb + [f("plus", a, b, v) if sign > 0 else f("plus", b, v, a)], v

    def _add_up_per_element(self, agg: ir.AggCards, env, name: str, part):
        """(literals, total) of `part(env with agg's variable bound)`, a (literals, number) pair,
        added up over the players (teams) of `agg` in seat order."""
        if self.wide is not None:
            raise unsupported("adding up over players integers too many for the digit tables", agg)
        kinds = const(agg.coll.kind + "s")
        self.used.add("loops")
        args, dom = self.context(env)
        acc = self.fresh.pred(name)

        def part_at(p):
            return part(env.child(**{agg.var: Binding("logic", p, agg.coll.kind)}))
        # acc(.., P, S): S added up over the players (teams) up to P, in seat order
        first = self.fresh.var("p")
        lits, z = part_at(first)
        self.rules.append(rule(f(acc, *args, first, z), *dom, f("first_of", kinds, first), *lits))
        x, y, s1, s2 = (self.fresh.var(h) for h in ("p", "p", "s", "s"))
        lits, z = part_at(y)
        self.rules.append(rule(f(acc, *args, y, s2), f(acc, *args, x, s1), f("after_of", kinds, x, y), *lits,
                               f("plus", s1, z, s2)))
        last, total = self.fresh.var("p"), self.fresh.var("s")
        return [f(acc, *args, last, total), f("last_of", kinds, last)], total

    def _count_filter_parts(self, c: ir.Filter, env):
        """The number of cards of `(all player 'P LOC)` passing a filter: each player's (team's)
        count, added up in seat order."""
        parts = scan_parts(c.coll)
        if parts[0][0] == "loc":   # one location
            return self._count_filter(ir.Filter(parts[0][1], c.var, c.cond, pos=c.pos), env)
        self.used.add("plus")
        agg = parts[0][1]
        return self._add_up_per_element(
            agg, env, "union_count", lambda sub: self._count_filter(ir.Filter(agg.body, c.var, c.cond, pos=c.pos), sub))

    def context(self, env: Env) -> tuple[list, list]:
        """The logic variables of env (arguments of a helper) and their domain literals."""
        args, dom = [], []
        for b in env.values():
            if b.kind == "logic" and b.term not in args:
                args.append(b.term)
                dom.append(f(DOMAIN.get(b.type, "value_any"), b.term))
        if env.cur is not None and env.cur[1] not in args:
            args.append(env.cur[1])
            dom.append(f("player_id", env.cur[1]))
        return args, dom

    def _count_filter(self, c: ir.Filter, env):
        """The number of cards of a location passing a filter, counted up the positions."""
        lits, l, o = self.loc(c.coll, env)
        x, ov = self.fresh.var("x"), self.fresh.var("o")
        inner = env.child(**{c.var: Binding("logic", x, "card")})
        ok = self.cond(c.cond, inner)
        args, dom = self.context(env)
        args, dom = args + [ov], dom + [f("owner_id", ov)]
        ok = subst(ok, {o: ov}) if isinstance(o, Var) else ok
        own = ov if isinstance(o, Var) else o
        if isinstance(l, Var):
            # a name computed at run time is bound by `lits`, which stay with the caller: the
            # helper takes the name as an argument (else it would count over every location)
            args, dom = args + [l], dom + [f("loc_named", const(c.coll.vis), self.fresh.var("n"), l)]
        i, i2, k, k2 = (self.fresh.var(h) for h in "iijj")
        passes, count = self.fresh.pred("pass"), self.fresh.pred("count")
        # pass(.., I): the card at position I passes; count(.., I, K): K cards below I pass
        self.rules.append(rule(f(passes, *args, i), *dom, true(f("at", l, own, i, x)), *ok))
        self.rules.append(rule(f(count, *args, const(0), const(0)), *dom))
        self.rules.append(rule(f(count, *args, i2, k2), f(count, *args, i, k), f(passes, *args, i),
                               f("isucc", i, i2), f("isucc", k, k2)))
        self.rules.append(rule(f(count, *args, i2, k), f(count, *args, i, k), f("occupied", l, own, i),
                               neg(f(passes, *args, i)), f("isucc", i, i2)))
        total, size = self.fresh.var("k"), self.fresh.var("z")
        call = [a if a is not ov else o for a in args]
        return lits + [f("size", l, o, size), f(count, *call, size, total)], total

    def v_Score(self, n, env):
        lits, c = self.val(n.card, env)
        pl, key, o = self.points(n.points, env)
        v = self.fresh.var("s")
        return lits + pl + [f("card_points", key, o, c, v)], v

    def list_names(self, coll, env):
        """The names of a literal or declared list of names, else None."""
        if isinstance(coll, ir.NameList):
            return coll.names
        b = env.get(coll.name) if isinstance(coll, ir.Var) else None
        return tuple(b.term) if b is not None and b.kind == "list" else None

    def v_Sum(self, n, env):
        c = n.cards
        flat = unrolled_union(c, lambda x: self.list_names(x, env))
        if flat is not None:
            return self.v_Sum(ir.Sum(flat, n.points, pos=n.pos), env)
        parts = scan_parts(c) if isinstance(c, ir.SetOp) else None
        if parts is not None and parts[0][0] == "each":
            # one location per player (team): their sums added up in seat order
            agg = parts[0][1]
            self.used.add("plus")
            return self._add_up_per_element(agg, env, "union_sum",
                                            lambda sub: self.v_Sum(ir.Sum(agg.body, n.points, pos=n.pos), sub))
        if isinstance(c, ir.SetOp) and c.op == "union" and c.args and all(isinstance(a, ir.Location) for a in c.args):
            # a concatenation: its sum is the sum of its parts' sums
            return self.added_up((self.v_Sum(ir.Sum(a, n.points, pos=n.pos), env) for a in c.args), env)
        if isinstance(c, ir.Filter) and isinstance(c.coll, ir.Location):
            from .filtersum import filtered_sum   # filtersum.py builds on this module
            return filtered_sum(self, n, env)
        if not isinstance(n.cards, ir.Location):
            raise unsupported(f"the sum of {_what(n.cards)}", n)
        lits, l, o = self.loc(n.cards, env)
        pl, key, po = self.points(n.points, env)
        v = self.fresh.var("s")
        self.used.update({"sum", "plus"})
        self.sums.add((key, l))
        self.sum_maps.add(key)
        z = self.fresh.var("z")
        if self.wide is not None:   # the sum at the location's size, put together once (kernel)
            return lits + pl + [f("points_total", key, po, l, o, v)], v
        return lits + pl + [f("size", l, o, z), f("points_sum", key, po, l, o, z, v)], v

    def v_BestSum(self, n, env):
        # one relation per best sum and binding of its variables, however often it is read
        # (Blackjack reads each hand's in four places): each is grounded once
        memo = self.best_sum_memo
        free = {x.name for x in n.walk() if isinstance(x, ir.Var)}
        key = (n, tuple(sorted((k, b.kind, b.type, b.term if b.kind != "logic" else None)
                               for k, b in env.items() if k in free)), env.cur is not None, env.fresh_next)
        if key in memo:
            pred, names = memo[key]
            v = self.fresh.var("s")
            terms = [env.cur[1] if nm is None else env[nm].term for nm in names]
            return [f(pred, *terms, v)], v
        lb, b = self.val(n.bound, env)
        bound = _number(lb, b)
        if bound is None:
            raise unsupported("a best sum whose bound is computed at run time", n)
        ll, low = self.v_Sum(ir.Sum(n.cards, n.low, pos=n.pos), env)
        # the cards counting more in the high map: counted, not added up (sums up to 4 here,
        # where a second running sum would span every total of the high map)
        c = ir.Var("best sum card", pos=n.pos)   # no RECYCLE variable can be spelt so
        raised = ir.Compare(">", ir.Score(c, n.high, pos=n.pos), ir.Score(c, n.low, pos=n.pos), pos=n.pos)
        lk, k = self.v_Size(ir.Size(ir.Filter(n.cards, c.name, raised, pos=n.pos), pos=n.pos), env)
        keys = (self._key(n.low.name, n), self._key(n.high.name, n), bound)
        self.best_sums.setdefault(keys, n)
        self.used.add("best_sum")
        v = self.fresh.var("s")
        lits = ll + lk + [f("best_sum", keys[0], keys[1], const(bound), low, k, v)]
        # A relation of its own, over the players (logic variables) it depends on: inside a
        # quantifier over the other players (Blackjack's `sum HX > HA`) the two hands' sums
        # would otherwise be joined position by position, every sum of one hand with every
        # sum of the other (beyond 4 GB); this way each hand's value is grounded once.
        args, dom = self.context(env)
        seen = {x for lit in lits for x in variables(lit)}
        keep = [(a, d) for a, d in zip(args, dom) if a in seen]
        pred = self.fresh.pred("best")
        self.rules.append(rule(f(pred, *(a for a, _ in keep), v), *(d for _, d in keep), *lits))
        by_term = {b.term: nm for nm, b in env.items() if b.kind == "logic"}
        memo[key] = pred, [by_term.get(a) for a, _ in keep]   # None: the current player's variable
        return [f(pred, *(a for a, _ in keep), v)], v

    def v_PlayValue(self, n, env):
        from .plays import play_value   # plays.py builds on this module
        return play_value(self, n, env)

    def points(self, n: ir.PointsRef, env):
        lits, o = self.owner(n.owner, env)
        return lits, self._key(n.name, n), o

    def v_CardAt(self, n, env):
        src, w = n.source, n.where
        b = env.get(src.name) if isinstance(src, ir.Var) else None
        if b is not None and b.kind == "alias":
            return self.v_CardAt(ir.CardAt(w, b.term[0], pos=n.pos), b.term[1])
        if b is not None and b.kind == "snapshot" and w in ("top", "bottom"):
            return self.snapshot_end(b.term, w == "top")[:2]
        if isinstance(src, ir.Filter) and w in ("top", "bottom") and scan_parts(src.coll) is not None:
            return self._filtered_end(src, w == "top", env)
        if isinstance(src, ir.MemberOf) and isinstance(src.source, ir.Tuples):
            return self.tuple_card(src, w, env)
        if not isinstance(src, ir.Location):
            raise unsupported(f"a card of {_what(src)}", n)
        lits, l, o = self.loc(src, env)
        c = self.fresh.var("c")
        if w == "top":
            i, z = self.fresh.var("i"), self.fresh.var("z")
            return lits + [f("size", l, o, z), f("isucc", i, z), true(f("at", l, o, i, c))], c
        if w == "bottom":
            return lits + [true(f("at", l, o, const(0), c))], c
        li, i = self.val(w, env)
        return lits + li + [true(f("at", l, o, i, c))], c

    def snapshot_end(self, sid, top: bool):
        """(literals, card, beyond) for the top (bottom) card of a snapshot, the one with the highest
        (lowest) key; `beyond(I)` holds for every other key."""
        keys, beyond = self.fresh.pred("snap_key"), self.fresh.pred("snap_beyond")
        i, j, c = self.fresh.var("i"), self.fresh.var("j"), self.fresh.var("c")
        self.rules.append(rule(f(keys, i), true(f("var", sid, f("el", i, c)))))
        self.rules.append(rule(f(beyond, i), f(keys, i), f(keys, j), f("less", i, j) if top else f("less", j, i)))
        return [true(f("var", sid, f("el", i, c))), neg(f(beyond, i))], c, beyond

    def _filtered_end(self, src: ir.Filter, top: bool, env):
        """The top (bottom) card of a filtered location or union of locations: the passing card
        with no passing card after (before) it in list order (parts in order, positions up)."""
        args, dom = self.context(env)
        P, I, C, P2, I2, C2 = (self.fresh.var(h) for h in ("p", "i", "c", "p", "i", "c"))
        passes, later = self.fresh.pred("pass"), self.fresh.pred("beyond")
        inner = env.child(**{src.var: Binding("logic", C, "card")})
        ok = self.cond(src.cond, inner)
        for pi, (kind, part) in enumerate(scan_parts(src.coll)):
            if kind == "each":
                sub = env.child(**{part.var: Binding("logic", P, self.bind_type(part.coll, env))})
                lits, l, o = self.loc(part.body, sub)
                self.rules.append(rule(f(passes, *args, P, I, C), *dom, *self.member(part.coll, env, P), *lits,
                                       true(f("at", l, o, I, C)), *ok))
            else:
                lits, l, o = self.loc(part, env)
                self.rules.append(rule(f(passes, *args, const(pi), I, C), *dom, *lits, true(f("at", l, o, I, C)), *ok))
        before = (lambda a, b: f("less", a, b)) if top else (lambda a, b: f("less", b, a))
        self.rules.append(rule(f(later, *args, P, I), f(passes, *args, P, I, C), f(passes, *args, P2, I2, C2),
                               before(P, P2)))
        self.rules.append(rule(f(later, *args, P, I), f(passes, *args, P, I, C), f(passes, *args, P, I2, C2),
                               before(I, I2)))
        return [f(passes, *args, P, I, C), Not(f(later, *args, P, I))], C

    # ------------------------------------------------------------ owners and locations
    def owner(self, n, env):
        """(literals, term) of an owner: `table`, a player number, or (team T)."""
        if isinstance(n, ir.GameOwner):
            return [], const(TABLE)
        t = self.type_of(n, env)
        lits, v = self.val(n, env)
        if t == TEAM:
            o = self.fresh.var("o")
            return lits + [f("team_owner", v, o)], o
        return lits, v

    def loc(self, n: ir.Location, env):
        """(literals, name term, owner term) of a location; a name computed at run time is looked up
        in `loc_named` (every name of the game, see Translation.runtime_locs)."""
        lits, o = self.owner(n.owner, env)
        if isinstance(n.name, ir.Name):
            return lits, loc_name(n.vis, n.name.value), o
        if self.type_of(n.name, env) not in ("str", None):
            raise unsupported("a location named by a number", n)
        ln, v = self.val(n.name, env)
        l = self.fresh.var("l")
        return lits + ln + [f("loc_named", const(n.vis), v, l)], l, o

    # ------------------------------------------------------------ collections
    def member(self, coll, env: Env, x: Var) -> list:
        """Literals binding x to each element of a collection."""
        if isinstance(coll, ir.AllOf):
            return [f("player_id" if coll.kind == "player" else "team_id", x)]
        if isinstance(coll, ir.Other):
            lits, c = self.current(env, coll.kind)
            return [f("player_id" if coll.kind == "player" else "team_id", x)] + lits + [distinct(x, c)]
        if isinstance(coll, ir.Location):
            lits, l, o = self.loc(coll, env)
            if l in self.bags:
                return lits + [true(f("in", l, o, x))]
            return lits + [true(f("at", l, o, self.fresh.var("i"), x))]
        if isinstance(coll, ir.Filter):
            inner = env.child(**{coll.var: Binding("logic", x, self.bind_type(coll.coll, env))})
            base = self.member(coll.coll, env, x)
            # the filter's own condition reads x over all of them (condguard.py's tests)
            self.binders.setdefault(x, base)
            return base + self.cond(coll.cond, inner)
        if isinstance(coll, ir.AggCards):
            y = self.fresh.var("y")
            inner = env.child(**{coll.var: Binding("logic", y, self.bind_type(coll.coll, env))})
            return self.member(coll.coll, env, y) + self.member(coll.body, inner, x)
        if isinstance(coll, ir.SetOp) and coll.op == "union":
            cx = env.child(**{"$x": Binding("logic", x, "card")})
            return [self.helper("union", cx, [self.member(a, env, x) for a in coll.args])]
        if isinstance(coll, ir.NameList):
            pred = self.fresh.pred("names")
            self.rules.extend(rule(f(pred, name(v))) for v in coll.names)
            return [f(pred, x)]
        if isinstance(coll, ir.Range):
            ll, lo = self.val(coll.lo, env)
            lh, hi = self.val(coll.hi, env)
            self.note(coll.lo, ll, env)   # an end off the tables would leave the range empty
            self.note(coll.hi, lh, env)
            return ll + lh + [f("num", x), f("leq", lo, x), f("leq", x, hi)]
        if isinstance(coll, ir.Var):
            b = env.get(coll.name)
            if b is not None and b.kind == "snapshot":
                return [true(f("var", b.term, f("el", self.fresh.var("i"), x)))]
            if b is not None and b.kind == "alias":
                return self.member(b.term[0], b.term[1], x)
            if b is not None and b.kind == "list":
                pred = self.fresh.pred("names")
                self.rules.extend(rule(f(pred, name(v) if isinstance(v, str) else const(v))) for v in b.term)
                return [f(pred, x)]
            if b is not None and b.type == TEAM:
                lits, t = self.val(coll, env)
                return lits + [f("team_member", t, x)]
        if self.type_of(coll, env) == TEAM:
            lits, t = self.val(coll, env)
            return lits + [f("team_member", t, x)]
        if isinstance(coll, ir.Sequence) and isinstance(coll.source, ir.Location):
            return self._member_sequence(coll, env, x)
        if isinstance(coll, Masks):   # made by the rewriting of options over subsets
            return coll.members(self, env, x)
        raise unsupported(f"iterating over {_what(coll)}", coll)

    def _member_sequence(self, coll: ir.Sequence, env: Env, x: Var) -> list:
        """Literals binding x to each of the top (bottom) K cards of a location: those at the
        positions from its size - K up (below K). More than it holds is the simulator's rule
        error; here the collection is then empty."""
        lits, l, o = self.loc(coll.source, env)
        if l in self.bags:
            raise unsupported(f"iterating over {_what(coll)} (a location kept without order)", coll)
        lk, k = self.val(coll.count, env)
        z, i = self.fresh.var("z"), self.fresh.var("i")
        out = lits + lk + [f("size", l, o, z), f("leq", k, z), true(f("at", l, o, i, x))]
        if coll.end == "bottom":
            return out + [f("less", i, k)]
        self.used.add("plus")
        j = self.fresh.var("j")
        return out + [f("plus", j, k, z), f("leq", j, i)]

    def equal(self, la, a, lb, b, env) -> list:
        """Literals for a == b: a value computed here is unified with the other side."""
        own = {bd.term for bd in env.values() if bd.kind == "logic"}
        if env.cur is not None:
            own.add(env.cur[1])
        if isinstance(a, Var) and a not in own:
            return subst(la + lb, {a: b})
        if isinstance(b, Var) and b not in own:
            return subst(la + lb, {b: a})
        if isinstance(a, Var) or isinstance(b, Var):
            return la + lb + [Not(distinct(a, b))]
        return la + lb if a == b else la + lb + [distinct(const(0), const(0))]

    def both_may_be_none(self, n: ir.Compare, env) -> list:
        """Literals for `==` / `!=` of two cards of collections, each none when its collection is
        empty: the simulator compares CardStock's references, so none equals none and differs from
        every card (the literals of a side fail exactly when it is none)."""
        la, a = self.val(n.left, env)
        lb, b = self.val(n.right, env)
        none = [Not(self.exists("some", env, la)), Not(self.exists("some", env, lb))]
        same = self.helper("same", env, [self.equal(la, a, lb, b, env), none])
        return [same] if n.op == "==" else [Not(same)]

    # ------------------------------------------------------------ conditions
    def cond(self, n, env: Env) -> list:
        """Literals that hold exactly when condition n is true."""
        if isinstance(n, ir.TrueCond):
            return []
        if isinstance(n, ir.BoolOp):
            if n.op == "and":
                return [lit for a in n.args for lit in self.cond(a, env)]
            return [self.helper("or", env, [self.cond(a, env) for a in n.args])]
        if isinstance(n, ir.Not):
            return [Not(self.exists("not", env, self.cond(n.arg, env)))]
        if isinstance(n, ir.Quantified):
            if isinstance(n.coll, ir.Partition):   # over the attribute's values (partlets.py)
                from .partlets import quantified_groups
                attr = n.coll.attr.value if isinstance(n.coll.attr, ir.Name) else None
                return self.cond(quantified_groups(n, [c.get(attr) for c in self.lay.cards]), env)
            x = self.fresh.var("q")
            inner = env.child(**{n.var: Binding("logic", x, self.bind_type(n.coll, env))})
            mem = self.member(n.coll, env, x)
            self.binders.setdefault(x, mem)
            if n.quant == "any":
                return [self.exists("some", env, mem + self.cond(n.cond, inner))]
            counter = self.exists("counter", env, mem + [Not(self.exists("holds", inner, self.cond(n.cond, inner)))])
            return [Not(counter)]
        if isinstance(n, ir.Compare):
            return self.compare(n, env)
        from .optgroups import RunEnds   # made by the rewriting of options over runs
        if isinstance(n, (RunEnds, InMask)):
            return n.literals(self, env)
        raise unsupported(f"the condition {_what(n)}", n)

    def compare(self, n: ir.Compare, env) -> list:
        # (== (size LOC) 0) and friends: emptiness, without counting
        if isinstance(n.left, ir.Size) and isinstance(n.right, ir.IntLit) and n.right.value == 0 \
                and n.op in ("==", "!=", ">") and isinstance(n.left.coll, (ir.Filter, ir.Location)):
            x = self.fresh.var("e")
            some = self.exists("nonempty", env, self.member(n.left.coll, env, x))
            return [some] if n.op in ("!=", ">") else [Not(some)]
        if isinstance(n.left, ir.Size) and isinstance(n.right, ir.IntLit) and n.right.value == 0 \
                and n.op in ("==", "!=", ">") and isinstance(n.left.coll, ir.Tuples):
            # is there a tuple: no count of the tuples needed
            some = self.has_tuple(n.left.coll, env)
            return some if n.op in ("!=", ">") else [Not(x) for x in some]
        if isinstance(n.left, ir.PlayValue) or isinstance(n.right, ir.PlayValue):
            from .plays import compare   # plays.py builds on this module
            lits = compare(self, n, env)
            if lits is not None:
                return lits
        end = _lone_end(n, env)
        if n.op == "!=" and end is not None and self.type_of(end[0], env) == "card":
            # the simulator's top (bottom) card of an empty collection is none, unequal to any card
            la, a = self.val(end[0], env)
            inner = env.child(**{"@card": Binding("logic", a, "card")})
            lb, b = self.val(end[1], inner)
            return la + [Not(self.exists("same", inner, self.equal([], a, lb, b, inner)))]
        if n.op in ("==", "!=") and all(may_be_none(x, env) for x in (n.left, n.right)):
            return self.both_may_be_none(n, env)
        la, a = self.val(n.left, env)
        lb, b = self.val(n.right, env)
        self.note(n.left, la, env)
        self.note(n.right, lb, env)
        if n.op == "==":
            return self.equal(la, a, lb, b, env)
        if n.op == "!=":
            return la + lb + [distinct(a, b)]
        if n.op == "<":
            return la + lb + [f("less", a, b)]
        if n.op == ">":
            return la + lb + [f("less", b, a)]
        if n.op == "<=":
            return la + lb + [f("leq", a, b)]
        return la + lb + [f("leq", b, a)]


def may_be_none(x, env) -> bool:
    """Whether card x is a card of a collection, none (the simulator's None) when it is empty,
    directly, through `actual`, or held by a `let`. Its literals then fail exactly when it is none
    (a `let`'s register is left unset)."""
    if isinstance(x, ir.Actual):
        return may_be_none(x.card, env)
    if isinstance(x, ir.Var):
        b = env.get(x.name)
        return b is not None and b.none
    return isinstance(x, ir.CardAt)


def _lone_end(n: ir.Compare, env):
    """(the other operand, the card that may be none) when exactly one operand of n is a card of
    a collection (none when it is empty), else None."""
    ends = [may_be_none(x, env) for x in (n.left, n.right)]
    if ends == [False, True]:
        return n.left, n.right
    if ends == [True, False]:
        return n.right, n.left
    return None


def _number(lits, t) -> int | None:
    """The integer a literal-free constant term stands for, else None."""
    if lits or not isinstance(t, Const):
        return None
    s = t.name
    if s.isdigit():
        return int(s)
    if s.startswith("m") and s[1:].isdigit():
        return -int(s[1:])
    return None


def subst(lits: list, m: dict) -> list:
    """Literals with variables replaced by terms."""
    return [map_vars(x, lambda v: m.get(v, v)) for x in lits]


def map_vars(x, fn):
    """A literal or term with every variable v replaced by fn(v)."""
    from ggpbridge.gdl.ast import Distinct, Func, Or
    if isinstance(x, Var):
        return fn(x)
    if isinstance(x, Func):
        return Func(x.name, tuple(map_vars(a, fn) for a in x.args))
    if isinstance(x, Not):
        return Not(map_vars(x.arg, fn))
    if isinstance(x, Distinct):
        return Distinct(map_vars(x.a, fn), map_vars(x.b, fn))
    if isinstance(x, Or):
        return Or(tuple(map_vars(a, fn) for a in x.args))
    return x


def loc_name(vis: str, value: str):
    """The constant naming a location kind, e.g. `iloc_hand`."""
    return const(f"{vis}_{name(value).name}")


def _what(n) -> str:
    """A short description of a construct for messages."""
    from ggpbridge.translators.recycle_text import expr_text
    try:
        text = expr_text(n)
    except Exception:  # not every node prints on its own (a statement, a fragment)
        text = type(n).__name__
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."
