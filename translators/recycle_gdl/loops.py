"""`all` loops (over players, teams, team members, fixed lists, cards) and `let`, with snapshots
of card collections."""
from __future__ import annotations

from ggpbridge import ir
from ggpbridge.gdl.ast import Not

from .exprs import TEAM, Binding, _number, may_be_none, unsupported, _what
from .nodes import PRE, is_collection, pre_nodes_expr, value_domain
from .grouploop import for_groups
from .letalias import unchanged_by
from .partguard import guarded_walk
from .partlets import partition_walk, union_walk
from .runloops import for_runs
from .subsetsums import for_subset_sums
from .terms import const, f, name, neg, rule, true


class Loops:
    """The loop and `let` steps of `Flow` (a mixin)."""

    def s_ForAll(self, n, lab, after, env):
        coll = n.coll
        names = self._static_list(coll, env)
        if names is not None:
            return self._for_names(n, names, lab, after, env, self.bind_type(coll, env))
        if self.type_of(coll, env) == TEAM:
            return self._for_members(n, lab, after, env)
        if self.bind_type(coll, env) == "card" and self.snapshot_source(coll, env) is not None:
            return self._for_cards(n, lab, after, env)
        if isinstance(coll, ir.Runs):
            return for_runs(self, n, lab, after, env)
        if isinstance(coll, ir.Subsets):   # those of a given sum, counted (subsetsums.py)
            return for_subset_sums(self, n, lab, after, env)
        if isinstance(coll, ir.Partition):   # groups in order of their first card (grouploop.py)
            attr = coll.attr.value if isinstance(coll.attr, ir.Name) else None
            values = [c.get(attr) for c in self.prog.lay.cards]
            walk = union_walk(n, values, self.bags)
            if walk is not None:   # several locations, rounds in any order (partlets.py)
                return self.stmt(walk, lab, after, env)
            return for_groups(self, n, values, lab, after, env)
        if not isinstance(coll, (ir.AllOf, ir.Other)):
            raise unsupported(f"'all' over {_what(coll)} in an action", coll)
        kind = coll.kind
        rid = self.reg("v", "player_id" if kind == "player" else "team_id")
        body, tick = self.label(), self.label()
        inner = env.child(**{n.var: Binding("fluent", rid, kind)})
        x, y, c = self.fresh.var("x"), self.fresh.var("y"), self.fresh.var("c")
        if isinstance(coll, ir.AllOf):
            first, step, skip = [f("first_of", const(kind + "s"), y)], [f("after_of", const(kind + "s"), x, y)], []
            last = [f("last_of", const(kind + "s"), x)]
        else:
            # everybody but the current player (team) when the loop starts: kept in a register
            sid = self.reg("w", "player_id" if kind == "player" else "team_id")
            cl, cur = self.current(env, kind)
            self.rules.append(rule(f("var_put", sid, cur), self.at(lab), *cl))
            first = cl + [f("first_but", const(kind + "s"), cur, y)]
            skip = [true(f("var", sid, c))]
            step = skip + [f("after_but", const(kind + "s"), c, x, y)]
            last = skip + [f("last_but", const(kind + "s"), c, x)]
            self.rules.append(rule(f("var_kill", sid), self.at(tick), true(f("var", rid, x)), *last))
            self.rules.append(rule(f("var_kill", sid), self.at(lab), *cl, Not(f("some_but", const(kind + "s"), cur))))
            self.goto(lab, after, *cl, Not(f("some_but", const(kind + "s"), cur)))
        self.used.add("loops")
        self.rules.append(rule(f("var_put", rid, y), self.at(lab), *first))
        self.goto(lab, body, *first)
        self.stmt(n.body, body, tick, inner)
        self.rules.append(rule(f("var_put", rid, y), self.at(tick), true(f("var", rid, x)), *step))
        self.goto(tick, body, true(f("var", rid, x)), *step)
        self.rules.append(rule(f("var_kill", rid), self.at(tick), true(f("var", rid, x)), *last))
        self.goto(tick, after, true(f("var", rid, x)), *last)

    def snapshot_source(self, coll, env):
        """Literals binding (I, C) to each card C of a collection and its place I in the
        collection's list order, as a function of (I, C), or None when not handled here.

        Positions at the start are unique and ordered as the simulator's list, so they key
        a snapshot without renumbering: a location's positions, a snapshot's own keys, and
        filters of either (the condition is judged once, when the snapshot is taken)."""
        if any(isinstance(x, PRE) for x in coll.walk()):
            return None   # a chance-bearing value inside would need steps of its own
        if isinstance(coll, ir.Location):
            def lits(i, c):
                ll, l, o = self.loc(coll, env)
                if l in self.bags:  # order.py keeps iterated locations ordered
                    raise unsupported(f"the order of {_what(coll)}", coll)
                return ll + [true(f("at", l, o, i, c))]
            return lits
        if isinstance(coll, ir.Var):
            b = env.get(coll.name)
            if b is not None and b.kind == "snapshot":
                return lambda i, c: [true(f("var", b.term, f("el", i, c)))]
            if b is not None and b.kind == "alias":
                src, senv = b.term
                return self.snapshot_source(src, senv)
            return None
        if isinstance(coll, ir.MemberOf) and isinstance(coll.source, ir.Tuples) and coll.where == "top":
            # the first tuple: card W (0 at the bottom) is the W-th card, in list order, of the
            # lowest score bin holding N cards (exprs.tuple_card)
            def lits(i, c):
                tl, args, k = self.tuple_source(coll.source, env, "nth")
                b, p = self.fresh.var("b"), self.fresh.var("p")
                return tl + [f("tup_first_bin", *args, k, b), f("tup_score", *args, p, b),
                             f("tup_count", *args, b, p, i), f("less", i, k), true(f("at", args[2], args[3], p, c))]
            return lits
        if isinstance(coll, ir.Filter):
            inner = self.snapshot_source(coll.coll, env)
            if inner is None:
                return None

            def lits(i, c):
                sub = env.child(**{coll.var: Binding("logic", c, "card")})
                return inner(i, c) + self.cond(coll.cond, sub)
            return lits
        return None

    def take_snapshot(self, coll, lab, env):
        """A register holding `(el I C)` for every card of a collection, filled at `lab`."""
        src = self.snapshot_source(coll, env)
        sid = self.reg("k", "snapshot")
        self.snapshot_regs.append(sid)
        if any(isinstance(x, ir.Location) and x.vis == "mem" or self._snapshot_var(x, env) in self.mem_snapshot_regs
               for x in coll.walk()):
            self.mem_snapshot_regs.add(sid)
        i, c = self.fresh.var("i"), self.fresh.var("c")
        self.rules.append(rule(f("var_put", sid, f("el", i, c)), self.at(lab), *src(i, c)))
        return sid

    def _for_cards(self, n, lab, after, env):
        """`all` over cards: a snapshot in list order, taken when the loop starts (the simulator
        iterates a copy), emptied one card per round from its lowest key."""
        sid = self.take_snapshot(n.coll, lab, env)
        rid = self.reg("v", "card_id")
        pick, body = self.label(), self.label()
        self.goto(lab, pick)
        i, j, c, d = (self.fresh.var(h) for h in "ijcd")
        keys, earlier, first = (self.fresh.pred(h) for h in ("snap_key", "snap_earlier", "snap_first"))
        add = self.rules.append
        # keys are projected first: comparing (key, card) pairs pairwise would be quadratic in both
        add(rule(f(keys, i), self.at(pick), true(f("var", sid, f("el", i, c)))))
        add(rule(f(earlier, i), f(keys, i), f(keys, j), f("less", j, i)))
        add(rule(f(first, i, c), self.at(pick), true(f("var", sid, f("el", i, c))), neg(f(earlier, i))))
        add(rule(f("var_put", rid, c), f(first, i, c)))
        add(rule(f("var_kill", sid), f(first, i, c)))
        # the rest: every card with an earlier key than its own (linear, not the pairs of cards)
        add(rule(f("var_put", sid, f("el", j, d)), self.at(pick), true(f("var", sid, f("el", j, d))), f(earlier, j)))
        self.goto(pick, body, f("has_var", sid))
        add(rule(f("var_kill", rid), self.at(pick), neg(f("has_var", sid))))
        self.goto(pick, after, neg(f("has_var", sid)))
        self.stmt(n.body, body, pick, env.child(**{n.var: Binding("fluent", rid, "card")}))

    def _for_members(self, n, lab, after, env):
        """`all` over the members of a team: the team is kept in a register for the whole loop."""
        lits, team = self.val(n.coll, env)
        tid, rid = self.reg("w", "team_id"), self.reg("v", "player_id")
        body, tick = self.label(), self.label()
        inner = env.child(**{n.var: Binding("fluent", rid, "player")})
        t, x, y = self.fresh.var("t"), self.fresh.var("x"), self.fresh.var("y")
        self.used.add("members")
        self.rules.append(rule(f("var_put", tid, team), self.at(lab), *lits))
        self.rules.append(rule(f("var_put", rid, y), self.at(lab), *lits, f("first_member", team, y)))
        self.goto(lab, body)
        self.stmt(n.body, body, tick, inner)
        cur = [true(f("var", tid, t)), true(f("var", rid, x))]
        self.rules.append(rule(f("var_put", rid, y), self.at(tick), *cur, f("next_member", t, x, y)))
        self.goto(tick, body, *cur, f("next_member", t, x, y))
        for reg in (tid, rid):
            self.rules.append(rule(f("var_kill", reg), self.at(tick), *cur, f("last_member", t, x)))
        self.goto(tick, after, *cur, f("last_member", t, x))

    def _static_list(self, coll, env):
        """The values of a list written in the game (a name list, a declared list), else None."""
        if isinstance(coll, ir.NameList):
            return [name(v) for v in coll.names]
        if isinstance(coll, ir.Var):
            b = env.get(coll.name)
            if b is not None and b.kind == "list":
                return [name(v) if isinstance(v, str) else const(v) for v in b.term]
        if isinstance(coll, ir.Range):
            lo, hi = self.val(coll.lo, env), self.val(coll.hi, env)
            a, b = _number(*lo), _number(*hi)
            if a is not None and b is not None:   # a range of constants (declared values included)
                return [const(k) for k in range(a, b + 1)]
        return None

    def _for_names(self, n, values, lab, after, env, t):
        """`all` over a fixed list: the loop variable walks it through `after_of` facts."""
        if not values:
            self.goto(lab, after)
            return
        if len(set(values)) != len(values):
            raise unsupported("'all' over a list with repeated values", n.coll)
        lid = const(f"list{len(self.lists)}")
        self.lists.append((lid, values))
        rid = self.reg("v", "value_any")
        body, tick = self.label(), self.label()
        inner = env.child(**{n.var: Binding("fluent", rid, t)})
        x, y = self.fresh.var("x"), self.fresh.var("y")
        self.rules.append(rule(f("var_put", rid, values[0]), self.at(lab)))
        self.goto(lab, body)
        self.stmt(n.body, body, tick, inner)
        step = [true(f("var", rid, x)), f("after_of", lid, x, y)]
        self.rules.append(rule(f("var_put", rid, y), self.at(tick), *step))
        self.goto(tick, body, *step)
        self.rules.append(rule(f("var_kill", rid), self.at(tick), true(f("var", rid, values[-1]))))
        self.goto(tick, after, true(f("var", rid, values[-1])))

    def s_Let(self, n, lab, after, env):
        t = self.type_of(n.value, env)
        if isinstance(n.value, ir.Partition):   # one snapshot per attribute value (partlets.py)
            attr = n.value.attr.value if isinstance(n.value.attr, ir.Name) else None
            values = [c.get(attr) for c in self.prog.lay.cards]
            walk = guarded_walk(n, values)   # walked when every value has a group (partguard.py)
            return self.stmt(walk or partition_walk(n, values, self.bags), lab, after, env)
        if is_collection(t):
            return self._let_cards(n, lab, after, env, t)
        pres = list(pre_nodes_expr(n.value))
        if pres:
            lab = self.pre_steps(pres, lab, env)
        rid = self.reg("v", value_domain(t))
        with self.site("label", lab):   # the value is taken after its steps (condguard.py)
            lits, v = self.val(n.value, env)
            self.note(n.value, lits, env)
        for x in pres:
            self.kill_pre(x, lab)
        self.rules.append(rule(f("var_put", rid, v), self.at(lab), *lits))
        body, done = self.label(), self.label()
        self.goto(lab, body)
        held = Binding("fluent", rid, t, none=may_be_none(n.value, env))
        self.stmt(n.body, body, done, env.child(**{n.var: held}))
        self.rules.append(rule(f("var_kill", rid), self.at(done)))
        self.goto(done, after)

    def _let_cards(self, n, lab, after, env, t):
        """`let` of cards: the simulator binds a copy of the list, so a snapshot register."""
        if self.bind_type(n.value, env) != "card":
            raise unsupported("'let' of a collection", n)
        if self.snapshot_source(n.value, env) is None:
            if not unchanged_by(n):
                raise unsupported("'let' of a collection", n)
            # nothing in the body changes what the value reads: judged where it is used, it is the copy
            return self.stmt(n.body, lab, after, env.child(**{n.var: Binding("alias", (n.value, env), t)}))
        sid = self.take_snapshot(n.value, lab, env)
        body, done = self.label(), self.label()
        self.goto(lab, body)
        self.stmt(n.body, body, done, env.child(**{n.var: Binding("snapshot", sid, t)}))
        self.rules.append(rule(f("var_kill", sid), self.at(done)))
        self.goto(done, after)
