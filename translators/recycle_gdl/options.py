"""Choices as GDL steps: a decision's options, the `any`s of their bodies, whether an option acts."""
from __future__ import annotations

from ggpbridge import ir
from ggpbridge.gdl.ast import Not, Var

from . import effects, firstmove, optgroups, subsetopts
from .exprs import Binding, Env, unsupported, _what
from .nodes import is_collection, pre_nodes_expr, value_domain
from .killers import killed_by
from .takenaway import drawn_member, taken_before
from .terms import const, distinct, f, rule


class Options:
    """The choice steps of `Flow` (a mixin: it reads the flow's registers and labels)."""

    def choice(self, ch, lab: str, after: str, env: Env) -> None:
        written = [subsetopts.rewrite(firstmove.rewrite(form)) for form in ch.node.options]
        lab = subsetopts.guard(self, lab, written, env)   # a bound on the subsets listed
        lab = self.before_choice(ch, lab)   # a test of its conditions' arithmetic (condguard.py)
        self.choice_label[ch.id] = lab
        forms = []
        r = self.fresh.var("r")
        self.rules.append(rule(f("choice_at", const(lab))))
        for fi, form in enumerate(ch.node.options):
            self.mark_listed(form)
            conds, elems, local = [], [], Env(env)
            binds, lets, held = [], [], {}
            heads, node = option_head(optgroups.rewrite(written[fi], self))
            k = 0
            while k < len(heads):
                h = heads[k]
                k += 1
                if isinstance(h, ir.CondAct):
                    conds += self.cond(h.cond, local)
                elif isinstance(h, ir.Let):
                    t = self.type_of(h.value, local)
                    if list(pre_nodes_expr(h.value)):
                        raise unsupported("this 'let' at the head of an option", h)
                    if is_collection(t):
                        # a collection: its expression stands for it where it reads the same
                        # (its size is taken at the choice, as the simulator takes the list)
                        size, body = self._inline_let(h, held)
                        heads[k:], node = option_head(body)
                        if size is not None:
                            heads[k:k] = [size]
                        continue
                    lits, v = self.val(h.value, local)
                    self.note(h.value, lits, local)
                    x = self.fresh.var("x")
                    held_by = self.equal(lits, v, [], x, local) if isinstance(v, Var) else lits + [f(value_domain(t), x),
                                                                                                    Not(distinct(x, v))]
                    conds += held_by
                    self.binders[x] = held_by
                    local = local.child(**{h.var: Binding("logic", x, t)})
                    lets.append((h.var, t, x))
                else:
                    x = self.fresh.var("e")
                    t = self.bind_type(h.coll, local)
                    mem = self.member(h.coll, local, x)
                    self.binders.setdefault(x, mem)
                    conds += mem
                    held[h.var] = effects.locations(h.coll, held)
                    local = local.child(**{h.var: Binding("logic", x, t)})
                    elems.append(x)
                    binds.append((h.var, t))
            inner = self._inner_anys(node, held, [v for v, _ in binds] + [v for v, _, _ in lets],
                                     [v for v, _ in binds])
            cur_lits, cur = self.current(env)
            start = self.label()
            body_env = Env(env)
            regs = []
            for (var, t), x in zip(binds, elems):
                rid = self.reg("v", value_domain(t))
                regs.append(rid)
                body_env[var] = Binding("fluent", rid, t)
            for var, t, x in lets:  # a `let` at the head: its value when the option was chosen
                rid = self.reg("v", value_domain(t))
                regs.append(rid)
                body_env[var] = Binding("fluent", rid, t)
            for a in inner:
                scope = local
                for j in a.enclosing(inner):
                    scope = scope.child(**{inner[j].node.var: Binding("logic", self.fresh.var("e"), inner[j].type)})
                a.type = self.bind_type(a.node.coll, scope)
            inner_regs = [self.reg("v", value_domain(a.type)) for a in inner]
            # one move per way the body's own `any`s can go (each taken, or skipped as unreached or empty)
            for taken in self._inner_ways(inner):
                way = conds + self._inner_conds(inner, taken, local)
                # the simulator offers an option only when running it would act; the body's
                # elements are named in the judging scope so that helper relations take them
                self.taken = {id(a.node): x for a, x in zip(inner, taken)}
                scope = local.child(**{f"@{i}": Binding("logic", x, a.type)
                                       for i, (a, x) in enumerate(zip(inner, taken)) if x is not None})
                way += self.acts(node, scope)
                self.taken = {}
                picked = [x for x in taken if x is not None]
                move = option_term(fi, elems + picked)
                kinds = binds + [(a.node.var, a.type) for a, x in zip(inner, taken) if x is not None]
                if (fi, kinds) not in forms:
                    forms.append((fi, kinds))
                self.rules.append(rule(f("option_ok", r, move), self.at(lab), *cur_lits, f("role_of", cur, r),
                                       *way))
                # the body runs with the chosen elements in registers
                for rid, x in zip(regs[:len(elems)], elems):
                    self.rules.append(rule(f("var_put", rid, x), self.at(lab), f("does", r, move)))
                for rid, (_, _, x) in zip(regs[len(elems):], lets):
                    self.rules.append(rule(f("var_put", rid, x), self.at(lab), f("does", r, move), *cur_lits,
                                           f("role_of", cur, r), *conds))
                for rid, x in zip(inner_regs, taken):
                    if x is not None:
                        self.rules.append(rule(f("var_put", rid, x), self.at(lab), f("does", r, move),
                                               *cur_lits, f("role_of", cur, r), *way))
                self.rules.append(rule(f("nx", f("pc", const(start))), self.at(lab), f("does", r, move)))
            for a, rid in zip(inner, inner_regs):
                self.inner_reg[id(a.node)] = rid
            regs += inner_regs
            done = self.label() if regs else after
            self.stmt(node, start, done, body_env)
            if regs:
                for rid in regs:
                    self.rules.append(rule(f("var_kill", rid), self.at(done)))
                self.goto(done, after)
        self.choice_forms[lab] = forms

    def _inline_let(self, h: ir.Let, held: dict):
        """A head `let` of a collection: (a head `let` of its size or None, the body with the
        size's variable for `(size 'V)` and the collection's expression for `'V`). The list is
        taken at the choice: an `any` over it is judged there (exactly); any other use must read
        data nothing run before it writes."""
        sv = h.var + "#size"
        sized = _replace_size(h.body, h.var, ir.Var(sv, pos=h.pos))
        body = effects.substitute(sized, h.var, h.value)
        if body is None:
            raise unsupported("this 'let' at the head of an option (its variable is rebound)", h)
        stmts = effects.statements(sized, held)
        rs = effects.reads(h.value, held)
        for k, (s, _, _) in enumerate(stmts):
            if isinstance(s, ir.AnyOf) and s.coll == ir.Var(h.var):
                continue
            uses = any(isinstance(x, ir.Var) and x.name == h.var for p in effects.own_parts(s) for x in p.walk())
            if uses and effects.meets(rs, effects.written_before(stmts, k)):
                raise unsupported("this 'let' at the head of an option (an action before a use changes it)", s)
        self.snapshots.add(id(h.value))
        used = any(isinstance(x, ir.Var) and x.name == sv for x in sized.walk())
        return (ir.Let(ir.Size(h.value, pos=h.pos), sv, body, pos=h.pos) if used else None), body

    def _inner_anys(self, node, held: dict, bound=(), heads=()) -> list:
        """The `any`s of an option's body, in the order they run, each checked to be judgeable at
        the choice: reached at most once, and nothing that may run before it writes what its
        range and the conditions on the way to it read, but for cards earlier `any`s of the
        option moved away (`heads`: the variables of the head's `any`s)."""
        stmts = effects.statements(node, held)
        out, index = [], {}
        pos = {id(x): i for i, (x, _, _) in enumerate(stmts)}
        for k, (s, anc, hd) in enumerate(stmts):
            if isinstance(s, ir.Choice):
                raise unsupported("a choice inside an option", s)
            if not isinstance(s, ir.AnyOf):
                continue
            if any(not isinstance(a, (ir.Do, ir.CondAct, ir.AnyOf)) for a in anc):
                raise unsupported("an option with an `any` after its first action", s)
            # its conditions are judged with every `any` around it bound: no name may be bound twice
            names = [a.var for a in anc if isinstance(a, ir.AnyOf)] + [s.var] + list(bound)
            if len(set(names)) != len(names):
                raise unsupported("an option with an `any` after its first action (a name bound twice)", s)
            guards = [a for a in anc if isinstance(a, ir.CondAct) and a.cond is not None]
            if any(list(pre_nodes_expr(g.cond)) for g in guards) or list(pre_nodes_expr(s.coll)):
                raise unsupported("an option with an `any` after its first action", s)
            # a condition on the way is judged when it is reached: only what runs before it counts
            if any(effects.meets(effects.reads(g.cond, stmts[pos[id(g)]][2]), effects.written_before(stmts, pos[id(g)]))
                   for g in guards):
                raise unsupported("an option with an `any` after its first action", s)

            def excluded(act, guards=guards, pos=pos, mine={id(a) for a in anc}):
                # an action under a condition that excludes one on the way to this `any` (both
                # read data nothing before them writes, their variables bound alike) never
                # runs on a path that reaches it
                for g1 in act[1]:
                    if not isinstance(g1, ir.CondAct) or g1.cond is None or id(g1) in mine:
                        continue
                    k1 = pos[id(g1)]
                    if effects.meets(effects.reads(g1.cond, stmts[k1][2]), effects.written_before(stmts, k1)):
                        continue
                    for g2 in guards:
                        a1, a2 = stmts[k1][1], stmts[pos[id(g2)]][1]
                        shared = {id(x) for x in a1} & {id(x) for x in a2}
                        between = set().union(*[effects.bound_names(x) for x in a1 + a2 if id(x) not in shared])
                        if effects.exclusive(g1.cond, g2.cond) and not between & (
                                effects.var_names(g1.cond) | effects.var_names(g2.cond)):
                            return True
                return False
            # over a head `let`'s list: the list taken at the choice, whatever ran since
            snapshot = id(s.coll) in self.snapshots
            # its range without the cards earlier `any`s of the option moved away (takenaway.py)
            # earlier `any`s whose body, when taken, empties this one's range (its actions then
            # never run on a way that takes this one: killers.py)
            killers = killed_by(stmts, k, out, pos)
            bodies = {id(out[i].node) for i in killers}

            def skip(act, excluded=excluded, bodies=bodies):
                return excluded(act) or any(id(a) in bodies for a in act[1])
            gone, drawn = ([], None) if snapshot else taken_before(stmts, k, skip, index, set(heads))
            parent = next((index[id(a)] for a in reversed(anc) if isinstance(a, ir.AnyOf)), None)
            index[id(s)] = len(out)
            out.append(_Inner(s, anc, guards, parent, gone, drawn, killers))
        if len(out) > 6:
            raise unsupported("an option with more than 6 `any`s after its first action", node)
        return out

    def _inner_ways(self, inner: list) -> list:
        """Each way the body's `any`s can go: per `any`, a fresh element variable or None (not taken);
        an `any` inside one not taken is not taken."""
        ways = [[]]
        for a in inner:
            nxt = []
            for w in ways:
                if (a.parent is None or w[a.parent] is not None) and all(w[j] is None for j in a.killers):
                    nxt.append(w + [self.fresh.var("e")])
                nxt.append(w + [None])
            ways = nxt
        return ways

    def _inner_conds(self, inner: list, taken: list, local: Env) -> list:
        """Literals that hold when the body's `any`s go as `taken` says, judged at the choice."""
        out = []
        for i, a in enumerate(inner):
            if a.parent is not None and taken[a.parent] is None:
                continue  # inside an `any` not taken: never reached
            if any(taken[j] is not None for j in a.killers):
                continue  # an earlier `any` taken emptied its range
            env = local
            for j in a.enclosing(inner):
                env = env.child(**{inner[j].node.var: Binding("logic", taken[j], inner[j].type)})
            reach = [lit for g in a.guards for lit in self.cond(g.cond, env)]
            gone = [t for t in (taken[w] if kind == "inner" else local[w].term for kind, w in a.gone)
                    if t is not None]
            if taken[i] is not None:
                out += (reach + drawn_member(self, a.node.coll, a.drawn, env, taken[i])
                        + [distinct(taken[i], t) for t in gone])
            else:
                y = self.fresh.var("y")
                # the cards already taken are arguments of the helper
                env = env.child(**{f"@gone{n}": Binding("logic", t, "card") for n, t in enumerate(gone)})
                out.append(Not(self.exists("reached", env, reach + drawn_member(self, a.node.coll, a.drawn, env, y)
                                           + [distinct(y, t) for t in gone])))
        return out

    def s_AnyOf(self, n, lab, after, env):
        """An `any` of an option's body: its element was chosen with the option (a register);
        no element means it is not reached or its range is empty, as at the choice."""
        rid = self.inner_reg.get(id(n))
        if rid is None:
            raise unsupported(f"{_what(n)}", n)
        body = self.label()
        self.goto(lab, body, f("has_var", rid))
        self.goto(lab, after, Not(f("has_var", rid)))
        self.stmt(n.body, body, after, env.child(**{n.var: Binding("fluent", rid, self.bind_type(n.coll, env))}))

    def acts(self, n, env) -> list:
        """Literals that hold when running n (no `any` inside) would execute an action.

        A statement that does not act changes nothing, so the parts of a `do` and the rounds
        of a loop can all be judged in the state at the choice: the body acts when one of
        them would."""
        from ggpbridge.sim.machine import _PRIMITIVE
        if isinstance(n, _PRIMITIVE):  # the statements the simulator counts as actions
            return []
        if isinstance(n, ir.Do):
            parts = [self.acts(i, env) for i in n.items]
            if any(not p for p in parts):
                return []
            return [self.helper("acts", env, parts)] if parts else [distinct(const(0), const(0))]
        if isinstance(n, ir.CondAct):
            return (self.cond(n.cond, env) if n.cond is not None else []) + self.acts(n.body, env)
        if isinstance(n, ir.Repeat):
            lits, k = self.val(n.count, env)
            self.note(n.count, lits, env)
            return lits + [f("less", const(0), k)] + self.acts(n.body, env)
        if isinstance(n, ir.RepeatAll):
            # it acts when its source holds a card as it starts (a max or min always does)
            if ir.repeat_all_plan(n) is None:
                raise unsupported("'repeat all' other than (move|forget (top|bottom|N COLLECTION) ...) "
                                  "or (move (max|min ...) ...)", n)
            src = n.body.src if isinstance(n.body, ir.Move) else n.body.card
            if isinstance(src, ir.Extreme):
                return self.acts(n.body, env)
            x = self.fresh.var("e")
            return [self.exists("left", env, self.member(src.source, env, x))] + self.acts(n.body, env)
        if isinstance(n, ir.ForAll):
            x = self.fresh.var("q")
            inner = env.child(**{n.var: Binding("logic", x, self.bind_type(n.coll, env))})
            body = self.acts(n.body, inner)
            mem = self.member(n.coll, env, x)   # (after the body: the names it makes stay the same)
            self.binders.setdefault(x, mem)     # read when the tests are made, after compiling
            return [self.exists("acts_some", env, mem + body)]
        if isinstance(n, ir.AnyOf) and id(n) in self.taken:
            x = self.taken[id(n)]
            if x is None:  # not taken: not reached, or its range is empty
                return [distinct(const(0), const(0))]
            return self.acts(n.body, env.child(**{n.var: Binding("logic", x, self.bind_type(n.coll, env))}))
        if isinstance(n, ir.Let):
            t = self.type_of(n.value, env)
            if is_collection(t):
                # judged in the state at the choice, where the copy equals the collection itself
                if self.bind_type(n.value, env) != "card" or self.snapshot_source(n.value, env) is None:
                    raise unsupported("'let' of a collection", n)
                return self.acts(n.body, env.child(**{n.var: Binding("alias", (n.value, env), t)}))
            lits, v = self.val(n.value, env)
            self.note(n.value, lits, env)
            x = self.fresh.var("x")
            inner = env.child(**{n.var: Binding("logic", x, t)})
            held_by = self.binders[x] = lits + [f(value_domain(t), x), Not(distinct(x, v))]
            return [self.exists("acts_let", env, held_by + self.acts(n.body, inner))]
        raise unsupported(f"whether {_what(n)} acts", n)


def _replace_size(n, var: str, by):
    """n with every `(size 'var)` replaced by `by`."""
    if isinstance(n, ir.Size) and n.coll == ir.Var(var):
        return by
    return effects.rebuild(n, lambda x: _replace_size(x, var, by))


class _Inner:
    """An `any` in an option's body: the `any`, its ancestors, the conditions on the way, the
    index of the innermost `any` around it, the earlier `any`s that took cards from its range."""

    def __init__(self, node, anc, guards, parent, gone=(), drawn=None, killers=()):
        self.node, self.anc, self.guards, self.parent = node, anc, guards, parent
        self.killers = list(killers)   # earlier `any`s whose body, when taken, empties its range
        self.gone = list(gone)   # earlier `any`s whose cards left its range (takenaway.py)
        self.drawn = drawn       # (location, N): its top N cards join the range first
        self.type = None

    def enclosing(self, inner: list) -> list:
        """Indices of the body `any`s around this one, outermost first."""
        out, p = [], self.parent
        while p is not None:
            out.append(p)
            p = inner[p].parent
        return list(reversed(out))


def option_head(form):
    """The conditions, `any`s and `let`s an option form starts with, and the body after them
    (a `do` of one item is that item)."""
    heads, node = [], form
    while True:
        if isinstance(node, ir.Do) and len(node.items) == 1:
            node = node.items[0]
        elif isinstance(node, (ir.CondAct, ir.AnyOf)) and (node.cond is not None if isinstance(node, ir.CondAct)
                                                             else True):
            heads.append(node)
            node = node.body
        elif isinstance(node, ir.CondAct):
            node = node.body
        elif isinstance(node, ir.Let) and any(isinstance(x, ir.AnyOf) for x in node.body.walk()):
            heads.append(node)
            node = node.body
        else:
            return heads, node


def option_term(form: int, elems: list):
    """The move choosing option form `form` with elements `elems`: (option F), (option1 F E1), ..."""
    return f("option" if not elems else f"option{len(elems)}", const(form), *elems)
