"""Values computed by steps of their own before an action: random integers and max/min scans."""
from __future__ import annotations

from ggpbridge import ir
from ggpbridge.errors import UnsupportedConstructError

from .exprs import Binding, unsupported, _what
from .nodes import STATEMENTS, scan_parts
from .terms import NO_VALUE, const, f, neg, rule, true


class Scans:
    """The steps of chance-bearing values of `Flow` (a mixin)."""

    def pre_steps(self, nodes, lab, env) -> str:
        """Steps computing chance-bearing values (random, max/min) into registers; returns the action's label."""
        for x in nodes:
            try:
                per = self._filters_around(x)
                if per is None:
                    self._check_evaluated_once(x)
            except UnsupportedConstructError:
                # where no step can stand for the scan, a scan that never ties needs none
                if isinstance(x, ir.Random) or not self.untied(x, env):
                    raise
                continue
            if per is not None:
                lab = self.scan_per_element(x, per, lab, env)
                continue
            nxt = self.label()
            rid = self.reg("t", "num" if isinstance(x, ir.Random) else "card_id")
            if isinstance(x, ir.Random):
                self.random_step(x, lab, nxt, rid, env)
            else:
                self.scan_steps(x, lab, nxt, rid, env)
            self.pre[id(x)] = rid
            lab = nxt
        return lab

    def kill_pre(self, x, lab) -> None:
        """Free x's register at `lab` once its statement has read it (a value read in place has none)."""
        if id(x) in self.pre:
            self.rules.append(rule(f("var_kill", self.pre[id(x)]), self.at(lab)))

    def _check_evaluated_once(self, x) -> None:
        """Refuse a chance-bearing value that the simulator may evaluate other than once per run.

        Computed once before the statement, it would flip a different number of coins (or draw
        a different number of random integers) than the simulator: a quantifier's condition and
        the body of a union over elements run per element, and `and`/`or` stop at the first
        operand that settles them (CardStock short-circuits), skipping the rest."""
        node = x
        while id(node) in self.parent and not isinstance(node, STATEMENTS):
            parent = self.parent[id(node)]
            per_element = ((isinstance(parent, ir.Quantified) and node is parent.cond)
                           or (isinstance(parent, ir.AggCards) and node is parent.body))
            if per_element:
                raise unsupported(f"{_what(x)} evaluated once per element of {_what(parent.coll)}", x)
            if isinstance(parent, ir.BoolOp) and node is not parent.args[0]:
                raise unsupported(f"{_what(x)} in a later operand of '{parent.op}' (evaluated only when "
                                  "the operands before it do not settle the test)", x)
            node = parent

    def _filters_around(self, x):
        """The filter whose condition holds a chance-bearing value x, else None.

        The simulator evaluates a filter's condition once per element, and x with it: a max/min
        scan flips a coin at every tie, once per element. When x reads nothing the filter binds
        and only its score is used, every scan gives the same score: the scan is repeated as
        many times as the simulator runs it, and the condition reads the last one."""
        path, node = [], x
        while id(node) in self.parent:
            parent = self.parent[id(node)]
            if isinstance(parent, ir.Filter) and node is parent.cond:
                path.append(parent)
            node = parent
        if not path:
            return None
        outer = path[-1]
        if len(path) > 1 or isinstance(x, ir.Random):
            raise unsupported(f"{_what(x)} inside nested filters or drawn per element", x)
        bound, node = {outer.var}, x
        while node is not outer:    # the names bound between the filter and x
            node = self.parent[id(node)]
            if getattr(node, "var", None):
                bound.add(node.var)
        node = outer
        while id(node) in self.parent and not isinstance(node, STATEMENTS):
            # the filter itself must run once: not per element of an outer collection, nor
            # after a test that may skip it
            parent = self.parent[id(node)]
            if isinstance(parent, (ir.Quantified, ir.AggCards, ir.Filter)) or \
                    (isinstance(parent, ir.BoolOp) and node is not parent.args[0]):
                raise unsupported(f"{_what(x)} in a filter that runs more than once or maybe not", x)
            node = parent
        used = {v.name for v in x.walk() if isinstance(v, ir.Var)}
        up = self.parent.get(id(x))
        if used & bound or not (isinstance(up, ir.Score) and up.card is x and up.points == x.points):
            raise unsupported(f"{_what(x)} in a filter's condition, other than the score of an element-free "
                              "max/min in its own map", x)
        return outer

    def scan_per_element(self, x: ir.Extreme, flt: ir.Filter, lab, env) -> str:
        """A max/min in a filter's condition: one scan per element of the filtered collection
        (see _filters_around); returns the label after the scans."""
        rid, cnt = self.reg("t", "card_id"), self.reg("r", "num")
        lits, k = self.v_Size(ir.Size(flt.coll, pos=flt.pos), env)
        after = self.count_down(cnt, lits, k, lab, lambda scan, tick: self.scan_steps(x, scan, tick, rid, env))
        self.pre[id(x)] = rid
        return after

    def random_step(self, x: ir.Random, lab, after, rid, env):
        ll, lo = self.val(x.lo, env)
        lh, hi = self.val(x.hi, env)
        self.used.add("plus")
        self.chance_labels.add(lab)
        kk, w, v = self.fresh.var("k"), self.fresh.var("w"), self.fresh.var("v")
        span = ll + lh + [f("plus", lo, w, hi)]
        self.rules.append(rule(f("pick_ok", kk), self.at(lab), *span, f("num", kk), f("leq", const(0), kk),
                               f("leq", kk, w)))
        self.act(lab, f("var_put", rid, v), span + [f("does", const("random"), f("pick", kk)),
                                                       f("plus", lo, kk, v)])
        self.goto(lab, after)

    def scan_steps(self, x: ir.Extreme, lab, after, rid, env):
        """max/min using points: scan the cards bottom to top; an equal score is a coin flip.
        Of a filtered collection, the cards that fail the filter are passed over."""
        src, flt = x.source, None
        b = env.get(src.name) if isinstance(src, ir.Var) else None
        if b is not None and b.kind == "alias":   # a collection bound where it is judged (a run of runloops.py)
            src, env = b.term
        if isinstance(src, ir.Filter) and scan_parts(src.coll) is not None:
            src, flt = src.coll, src
        parts = scan_parts(src)
        if parts is None:
            raise unsupported(f"{x.kind} of {_what(x.source)}", x)
        pl, key, po = self.points(x.points, env)
        self.chance_labels.add(lab)
        # Two registers: the cursor (part, position) and the best card so far. One register
        # holding both would make every (part, position, card) triple a fluent.
        sid, bid = self.reg("x", "scan_value"), self.reg("x", "card_id")
        want_max = x.kind == "max"
        P, I, B, K, C, V, I2, P2 = (self.fresh.var(h) for h in ("p", "i", "b", "k", "c", "v", "i", "p"))
        pred = self.fresh.pred
        cur, best, best_val, has_best = pred("scan_at"), pred("scan_best"), pred("scan_bval"), pred("scan_hasbest")
        el, val, has_el, tie, take, end = (pred(h) for h in ("scan_el", "scan_val", "scan_has", "scan_tie",
                                                              "scan_take", "scan_end"))
        # the cursor moves on from a position that holds a card: said with the position, so
        # that the relaxed grounding moves it only as far as the positions that exist
        has_at = pred("scan_hasat")
        add = self.rules.append
        add(rule(f(cur, P, I), self.at(lab), true(f("var", sid, f("sc", P, I)))))
        add(rule(f(cur, const(0), const(0)), self.at(lab), neg(f("has_var", sid))))
        add(rule(f(best, K), self.at(lab), true(f("var", bid, K))))
        add(rule(f(has_best), f(best, K)))
        add(rule(f(best_val, B), f(best, K), *pl, f("card_points", key, po, K, B)))
        # before any card the best score is below (above) every score: CardStock starts at -1 for max
        add(rule(f(best_val, const(-1) if want_max else const("inf")), self.at(lab), neg(f(has_best))))
        for pi, (kind, part) in enumerate(parts):
            if kind == "each":  # one part per player (team): the location's owner is the part
                agg = part
                sub = env.child(**{agg.var: Binding("logic", P, self.bind_type(agg.coll, env))})
                lits, l, o = self.loc(agg.body, sub)
                body = [*self.member(agg.coll, env, P), *lits, true(f("at", l, o, I, C))]
                add(rule(f(el, C), f(cur, P, I), *body))
                add(rule(f(has_at, P, I), f(cur, P, I), *body))
            else:
                lits, l, o = self.loc(part, env)
                add(rule(f(el, C), f(cur, const(pi), I), *lits, true(f("at", l, o, I, C))))
                add(rule(f(has_at, const(pi), I), f(cur, const(pi), I), *lits, true(f("at", l, o, I, C))))
        nparts = self.lay.n if parts[0][0] == "each" and parts[0][1].coll.kind == "player" else \
            len(self.lay.teams) if parts[0][0] == "each" else len(parts)
        self.max_parts = max(self.max_parts, nparts)
        if flt is not None:   # only a card passing the filter is compared (the cursor moves on anyway)
            cand = pred("scan_pass")
            inner = env.child(**{flt.var: Binding("logic", C, "card")})
            add(rule(f(cand, C), f(el, C), self.exists("passes", inner, self.cond(flt.cond, inner))))
        else:
            cand = el
        add(rule(f(val, V), f(cand, C), *pl, f("card_points", key, po, C, V)))
        add(rule(f(has_el), f(el, C)))
        add(rule(f(tie), f(val, V), f(best_val, V)))
        add(rule(f("pick_ok", const(0)), f(tie)))
        add(rule(f("pick_ok", const(1)), f(tie)))
        add(rule(f(take), f(val, V), f(best_val, B), f("less", B, V) if want_max else f("less", V, B)))
        add(rule(f(take), f(tie), f("does", const("random"), f("pick", const(0)))))
        add(rule(f("var_put", bid, C), f(cand, C), f(take)))
        # the next cursor: the next position of this part, or the next part
        add(rule(f("var_put", sid, f("sc", P, I2)), f(has_at, P, I), f("isucc", I, I2)))
        add(rule(f("var_put", sid, f("sc", P2, const(0))), f(cur, P, I), neg(f(has_el)),
                 f("scan_part", P2), f("isucc", P, P2), f("less", P2, const(nparts))))
        last = const(nparts - 1)
        add(rule(f(end), f(cur, last, I), neg(f(has_el))))
        add(rule(f("var_kill", sid), f(end)))
        add(rule(f("var_kill", bid), f(end)))
        add(rule(f("var_put", rid, K), f(end), f(best, K)))
        add(rule(f("var_put", rid, const(NO_VALUE)), f(end), neg(f(has_best))))
        self.unset_regs.add(rid.name)
        add(rule(f("nx", f("pc", const(after))), f(end)))
        add(rule(f("nx", f("pc", const(lab))), self.at(lab), neg(f(end))))
        self.scans.append(sid)
