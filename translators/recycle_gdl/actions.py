"""Primitive actions as GDL steps: moving cards, shuffles, integers, strings, point maps, the cycle."""
from __future__ import annotations

from ggpbridge import ir

from .exprs import loc_name, unsupported, _what
from .folding import folded_awards
from .offtables import missing_value, table_arithmetic
from .order import is_draw
from .valued import award_values, next_slot
from .terms import const, f, neg, rule, true


class Actions:
    """The primitive action steps of `Flow` (a mixin)."""

    def act(self, lab, head, lits):
        self.rules.append(rule(head, self.at(lab), *lits))

    def s_Move(self, n, lab, after, env):
        self._move(n.src, n.dst, lab, env, remove=True, insert=True, node=n)
        self.goto(lab, after)

    def s_Remember(self, n, lab, after, env):
        self._move(n.src, n.dst, lab, env, remove=False, insert=True, node=n)
        self.goto(lab, after)

    def s_Forget(self, n, lab, after, env):
        self._move(n.card, None, lab, env, remove=True, insert=False, node=n)
        self.goto(lab, after)

    def _move(self, src, dst, lab, env, remove, insert, node):
        # where the card is taken from
        if isinstance(node, ir.Move) and is_draw(src, self.decks):
            # a deck (order.py): `random` picks the card among those left
            sl, l1, o1 = self.loc(src.source, env)
            card = self.fresh.var("c")
            self.used.add("draw")
            self.rules.append(rule(f("draw_ok", card), self.at(lab), *sl, true(f("in", l1, o1, card))))
            # a deck not shuffled since it was set up or refilled is not in random order: the play
            # ends as `overflow`, marked `(stale_draw L)` (see Translation._deck_marks)
            self.rules.append(rule(f("nx", f("stale_draw", l1)), self.at(lab), *sl, true(f("stale", l1))))
            self.used.add("overflow")
            cl = [f("does", const("random"), f("draw", card))]
            self.act(lab, f("rm_card", card), cl)
            sl, l1 = None, None
        elif isinstance(src, ir.CardAt) and isinstance(src.source, ir.Location):
            sl, l1, o1 = self.loc(src.source, env)
            card, i = self.fresh.var("c"), self.fresh.var("i")
            if src.where == "top":
                z = self.fresh.var("z")
                sl = sl + [f("size", l1, o1, z), f("isucc", i, z)]
            elif src.where == "bottom":
                i = const(0)
            else:
                li, i = self.val(src.where, env)
                sl = sl + li
            sl = sl + [true(f("at", l1, o1, i, card))]
            # the card alone decides where it goes: its position is not joined in again
            moving = self.fresh.pred("moving")
            self.act(lab, f(moving, card), sl)
            cl = [f(moving, card)]
        elif remove and insert and self._snapshot_var(getattr(src, "source", None), env) is not None:
            # a card taken from a `let` collection leaves that copy too, as in the simulator
            sid = self._snapshot_var(src.source, env)
            if src.where not in ("top", "bottom") or sid in self.mem_snapshot_regs:
                # the simulator drops the card's first occurrence: a memory location may hold it twice
                raise unsupported(f"taking {_what(src)} from a 'let' collection", node)
            cl, card, beyond = self.snapshot_end(sid, src.where == "top")
            self.act(lab, f("rm_card", card), cl)
            j, d = self.fresh.var("j"), self.fresh.var("d")
            self.act(lab, f("var_kill", sid), [])
            # the rest: the cards with a key beyond another (linear, not the pairs of cards)
            self.act(lab, f("var_put", sid, f("el", j, d)), [true(f("var", sid, f("el", j, d))), f(beyond, j)])
            sl, l1 = None, None
        elif remove:
            # the kernel finds where the card lies
            cl, card = self.val(src, env)
            self.act(lab, f("rm_card", card), cl)
            sl, l1 = None, None
        else:
            sl, card = self.val(src, env)
            cl = sl
            l1 = o1 = i = None
        if remove and sl is not None:
            assert l1 not in self.bags, "the order of a bag was read"  # order.py marks such locations
            self.act(lab, f("rm", l1, o1, i), sl)
        if not insert:
            return
        if not (isinstance(dst, ir.CardAt) and isinstance(dst.source, ir.Location)):
            raise unsupported("a card goes to (top|bottom|N LOCATION)", node)
        dl, l2, o2 = self.loc(dst.source, env)
        if l2 in self.bags:  # no position: only the owner is needed
            self.act(lab, f("put", l2, o2, card), cl + dl)
            return
        if dst.where == "top":
            self.act(lab, f("ins_top", l2, o2, card), cl + dl)
            return
        if dst.where == "bottom":
            jz = const(0)
        else:
            lj, jz = self.val(dst.where, env)
            dl = dl + lj
        self.act(lab, f("ins", l2, o2, jz, card), cl + dl)

    def _snapshot_var(self, n, env):
        """The register of a `let`-bound snapshot that n names, else None."""
        b = env.get(n.name) if isinstance(n, ir.Var) else None
        return b.term if b is not None and b.kind == "snapshot" else None

    def s_Shuffle(self, n, lab, after, env):
        if not isinstance(n.target, ir.Location):
            raise unsupported(f"shuffling {_what(n.target)}", n)
        if isinstance(n.target.name, ir.Name) and loc_name(n.target.vis, n.target.name.value) in self.decks:
            # a deck is drawn from at random: nothing to do but clear its `stale` mark
            self.deck_shuffles.setdefault(loc_name(n.target.vis, n.target.name.value), []).append(lab)
            self.goto(lab, after)
            return
        lits, l, o = self.loc(n.target, env)
        rid = self.reg("s", "index")
        self.chance_labels.add(lab)
        z, top, kk, nxt = (self.fresh.var(h) for h in ("z", "t", "k", "n"))
        # the position being filled: the register, or the top position on the first step
        pos = self.fresh.pred("shuffle_pos")
        self.rules.append(rule(f(pos, top), self.at(lab), true(f("var", rid, top))))
        self.rules.append(rule(f(pos, top), self.at(lab), neg(f("has_var", rid)), *lits, f("size", l, o, z),
                               f("isucc", top, z)))
        self.rules.append(rule(f("pick_ok", kk), f(pos, top), f("less", const(0), top), f("num", kk),
                               f("leq", const(0), kk), f("leq", kk, top)))
        self.act(lab, f("swap", l, o, kk, top), lits + [f(pos, top), f("less", const(0), top),
                                                            f("does", const("random"), f("pick", kk))])
        self.rules.append(rule(f("var_put", rid, nxt), f(pos, top), f("isucc", nxt, top), f("less", const(0), nxt)))
        self.rules.append(rule(f("var_kill", rid), f(pos, top), f("leq", top, const(1))))
        self.rules.append(rule(f("nx", f("pc", const(after))), f(pos, top), f("leq", top, const(1))))
        self.rules.append(rule(f("nx", f("pc", const(lab))), f(pos, top), f("less", const(1), top)))
        # nothing to shuffle: a location of 0 or 1 cards
        self.goto(lab, after, neg(f("has_var", rid)), *lits, f("size", l, o, z), f("leq", z, const(1)))

    def s_SetInt(self, n, lab, after, env):
        self._set_int(n, lab, env, None)
        self.goto(lab, after)

    def s_Inc(self, n, lab, after, env):
        self._set_int(n, lab, env, +1)
        self.goto(lab, after)

    def s_Dec(self, n, lab, after, env):
        self._set_int(n, lab, env, -1)
        self.goto(lab, after)

    def _set_int(self, n, lab, env, sign):
        lk, key = self.storage_key(n.target.key, n, env)
        lo, o = self.owner(n.target.owner, env)
        lo = lk + lo
        lv, v = self.val(n.value, env)
        if table_arithmetic(lv) or (self.capped and sign is None):
            # a value (or an amount) off the tables (offtables.py): without it no rule below fires
            self.act(lab, f("nx", const("overflow")), missing_value(self, env, lo, lv))
            self.used.add("overflow")
        if sign is None:
            self.act(lab, f("set_int", key, o, v), lo + lv)
            return
        old, new = self.fresh.var("k"), self.fresh.var("k")
        if self.wide is not None:   # digits (wide.py): the old value and the change projected apart
            from ggpbridge.gdl.ast import variables
            from .wide import add
            self.used.add("overflow")
            keep = [x for x in variables(f("k", key, o))]
            lits, new, missing = add(self, env, lo + [f("int_value", key, o, old)], old, lv, v, sign, keep)
            self.act(lab, f("set_int", key, o, new), lits)
            self.act(lab, f("nx", const("overflow")), missing)
            return
        self.used.update(("plus", "overflow"))
        arith = f("plus", old, v, new) if sign > 0 else f("plus", new, v, old)
        self.act(lab, f("set_int", key, o, new), lo + lv + [f("int_value", key, o, old), arith])
        # A result outside the integer table ends the game as `overflow` (goals 0): leaving
        # the storage as it was would be a different game, silently.
        room = f("has_sum", old, v) if sign > 0 else f("has_difference", old, v)
        self.act(lab, f("nx", const("overflow")), lo + lv + [f("int_value", key, o, old), neg(room)])

    def s_SetStr(self, n, lab, after, env):
        lk, key = self.storage_key(n.target.key, n, env)
        lo, o = self.owner(n.target.owner, env)
        lv, v = self.val(n.value, env)
        self.act(lab, f("set_str", key, o, v), lk + lo + lv)
        self.goto(lab, after)

    def s_SetPoints(self, n, lab, after, env):
        from ggpbridge.sim.actions import static_points
        key = self._key(n.target.name, n)
        lo, o = self.owner(n.target.owner, env)
        # values known now (`(fib 7)`) are literal awards, in the static table like the others
        base, rest = static_points(self.lay, folded_awards(n.awards, env))
        sid = const(f"pts{len(self.point_sets)}")
        dyn = []
        for a in rest:
            drawn = None if isinstance(a.value, ir.IntLit) else award_values(a, env)
            if drawn is not None:   # its value drawn into a slot, one alternative per value (valued.py)
                slot = next_slot(dyn, [])
                lv, tv = self.val(a.value, env)
                self.act(lab, f("set_parg", key, o, const(slot), tv), lo + lv)
                lits = [(k.value, x.value, None) for k, x in a.conds]
                dyn += [(v, lits + [(None, v, slot)]) for v in drawn]
                continue
            if not isinstance(a.value, ir.IntLit) or not all(isinstance(k, ir.Name) for k, _ in a.conds):
                raise unsupported("an award whose value or attribute name is computed at run time", a)
            conds = []
            for kname, value in a.conds:
                if isinstance(value, ir.Name):
                    conds.append((kname.value, value.value, None))
                else:
                    idx = next_slot(dyn, conds)
                    lv, tv = self.val(value, env)
                    self.act(lab, f("set_parg", key, o, const(idx), tv), lo + lv)
                    conds.append((kname.value, None, idx))
            dyn.append((a.value.value, conds))
        self.point_sets.append((sid, key, base, dyn))
        self.act(lab, f("set_points", key, o, sid), lo)
        self.goto(lab, after)

    def s_Cycle(self, n, lab, after, env):
        t = n.target
        if isinstance(t, str):
            lits, who = self.val(ir.PlayerRef(t, pos=n.pos), env)
        else:
            lits, who = self.val(t, env)
        k = const("player_cycle")
        d, a, b = self.fresh.var("d"), self.fresh.var("a"), self.fresh.var("b")
        top = [true(f("cycdepth", k, d)), true(f("cyc", k, d, a, b))]
        entry = f("cyc_put", k, d, a, who) if n.when == "next" else f("cyc_put", k, d, who, b)
        self.act(lab, entry, top + lits)
        self.goto(lab, after)
