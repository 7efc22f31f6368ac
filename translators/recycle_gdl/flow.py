"""RECYCLE control flow as GDL steps: one instruction per step, a program counter `(pc L)`.

A decision is one step in which the current player picks `(choose FORM E1 .. Ek)` (the
option form and the elements its `any`s take) and everybody else plays `noop`. A chance
event is one step of `random` (`(pick K)`, K uniform in its range): one per shuffle
position, random integer and max/min tie. Everything else — each action, each test of a
condition, stage and loop bookkeeping — is an automatic step where every role plays `noop`.
"""
from __future__ import annotations

from ggpbridge import ir
from ggpbridge.gdl.ast import Not, Var

from . import effects
from .exprs import TEAM, Binding, Env, ExprCompiler, _number, declared_env, loc_name, unsupported, _what
from .order import is_draw
from .terms import NO_VALUE, NONE, const, distinct, f, name, neg, rule, true

_PRE = (ir.Random, ir.Extreme)
_STATEMENTS = (ir.Move, ir.Remember, ir.Forget, ir.Shuffle, ir.Faro, ir.SetInt, ir.Inc, ir.Dec, ir.SetStr,
               ir.SetPoints, ir.Cycle, ir.TurnPass, ir.Repeat, ir.RepeatAll, ir.CondAct, ir.ForAll, ir.AnyOf,
               ir.Let, ir.Do, ir.Choice, ir.Stage, ir.Scoring, ir.Game)



class Flow(ExprCompiler):
    """Compiles the game body into labelled instructions and their rules."""

    def __init__(self, prog, fresh, rules):
        super().__init__(prog.lay, fresh, rules, {})
        self.prog = prog
        self.labels: list[str] = []
        self.choice_label: dict[int, str] = {}   # sim ChoiceP id -> label
        self.choice_forms: dict[str, list] = {}  # label -> [(form, [(var, type)])]
        self.nvar = 0
        self.point_sets: list = []               # (set id, SetPoints node, static base, dynamic awards)
        self.chance_labels: set = set()
        self.deck_shuffles: dict = {}            # deck -> the labels of its shuffles (order.py)
        self.values = prog.values
        self.scans: list = []                    # registers of max/min scans
        self.reg_dom: dict = {}                  # register -> domain relation of its values
        self.unset_regs: set = set()             # registers that can also hold no_value (an empty scan)
        self.max_parts = 1                       # most parts a max/min scan walks through
        self.lists: list = []                    # (id, values) of fixed lists walked by `all`
        self.taken: dict = {}                    # while judging an option: body `any` -> its element or None
        self.inner_reg: dict = {}                # body `any` of an option -> the register of its element
        self.snapshots: set = set()              # ids of head `let` lists put in for their variable
        self.snapshot_regs: list = []            # registers holding snapshots of card collections
        self.mem_snapshot_regs: set = set()      # ... of memory locations (a card may be there twice)
        self.parent: dict = {id(c): x for x in prog.game.walk() for c in x.children()}

    # ------------------------------------------------------------ labels and registers
    def label(self) -> str:
        lab = f"l{len(self.labels)}"
        self.labels.append(lab)
        return lab

    def reg(self, kind: str, dom: str = "value_any"):
        """A fresh register; `dom` names the domain of its values (for `base`)."""
        self.nvar += 1
        rid = const(f"{kind}{self.nvar}")
        self.reg_dom[rid.name] = dom
        return rid

    def at(self, lab) -> object:
        return true(f("pc", const(lab)))

    def goto(self, lab, target, *body):
        self.rules.append(rule(f("nx", f("pc", const(target))), self.at(lab), *body))

    # ------------------------------------------------------------ the game body
    def game(self) -> str:
        """Compile the root stage; returns the first label."""
        root = self.prog.root
        first = self.label()
        self.seq(root.items, "done", declared_env(self.values), first)
        return first

    def seq(self, items, after: str, env: Env, start: str | None = None) -> None:
        """Compile a list of items to run one after the other, then go to `after`."""
        if not items:
            if start is not None:
                self.goto(start, after)
            return None
        labs = [start or self.label()] + [self.label() for _ in items[1:]]
        for idx, it in enumerate(items):
            nxt = labs[idx + 1] if idx + 1 < len(items) else after
            self.item(it, labs[idx], nxt, env)
        return None

    def item(self, it, lab: str, after: str, env: Env) -> None:
        """A stage, choice or block of the compiled program (`sim.machine` StageP/ChoiceP/BlockP)."""
        cls = type(it).__name__
        if cls == "StageP":
            self.stage(it, lab, after, env)
        elif cls == "ChoiceP":
            self.choice(it, lab, after, env)
        else:
            self.stmt(it.node, lab, after, env)

    # ------------------------------------------------------------ stages
    def stage(self, st, lab: str, after: str, env: Env) -> None:
        kind = "player" if st.kind == "player" else "team"
        k = const(kind + "_cycle")
        body, loop = self.label(), self.label()
        d, d1, cur, nxt = (self.fresh.var(h) for h in ("d", "d", "c", "n"))
        top = [true(f("cycdepth", k, d)), true(f("cyc", k, d, cur, nxt))]
        # entry: push a copy of the top of the cycle (its queued next dropped), then test the end
        self.rules.append(rule(f("cyc_put", k, d1, cur, const(NONE)), self.at(lab), *top, f("dsucc", d, d1)))
        self.rules.append(rule(f("cyc_depth_to", k, d1), self.at(lab), true(f("cycdepth", k, d)), f("dsucc", d, d1)))
        # a stack deeper than the table (stages ended on entry pile up): the play ends as `overflow`
        self.rules.append(rule(f("nx", const("overflow")), self.at(lab), true(f("cycdepth", k, d)),
                               neg(f("deeper", d))))
        self.used.add("overflow")
        entry_env = Env(env, cur=None, fresh_next=True)
        if kind == "player":
            cv = self.fresh.var("c")
            entry_env.cur = ([f("current", cv)], cv)
        ended = self.exists("ends", entry_env, self.cond(st.node.end, entry_env))
        bound = list(entry_env.cur[0]) if entry_env.cur is not None else []
        self.goto(lab, after, *bound, ended)
        self.goto(lab, body, *bound, Not(ended))
        # after each pass: test the end; pop the cycle, or advance it and go again
        self.seq(st.items, loop, env, body)
        again = self.exists("ends", env, self.cond(st.node.end, env))
        self.goto(loop, after, again)
        self.rules.append(rule(f("cyc_depth_to", k, d1), self.at(loop), again, true(f("cycdepth", k, d)),
                               f("dsucc", d1, d)))
        self.goto(loop, body, Not(again))
        succ = "succ_seat" if kind == "player" else "succ_team"
        n2 = self.fresh.var("n")
        self.rules.append(rule(f("cyc_put", k, d, nxt, const(NONE)), self.at(loop), Not(again), *top,
                               distinct(nxt, const(NONE))))
        self.rules.append(rule(f("cyc_put", k, d, n2, const(NONE)), self.at(loop), Not(again),
                               true(f("cycdepth", k, d)), true(f("cyc", k, d, cur, const(NONE))), f(succ, cur, n2)))

    # ------------------------------------------------------------ choices
    def choice(self, ch, lab: str, after: str, env: Env) -> None:
        self.choice_label[ch.id] = lab
        forms = []
        r = self.fresh.var("r")
        self.rules.append(rule(f("choice_at", const(lab))))
        for fi, form in enumerate(ch.node.options):
            conds, elems, local = [], [], Env(env)
            binds, lets, held = [], [], {}
            heads, node = option_head(form)
            k = 0
            while k < len(heads):
                h = heads[k]
                k += 1
                if isinstance(h, ir.CondAct):
                    conds += self.cond(h.cond, local)
                elif isinstance(h, ir.Let):
                    t = self.type_of(h.value, local)
                    if list(_pre_nodes_expr(h.value)):
                        raise unsupported("this 'let' at the head of an option", h)
                    if _is_collection(t):
                        # a collection: its expression stands for it where it reads the same
                        # (its size is taken at the choice, as the simulator takes the list)
                        size, body = self._inline_let(h, held)
                        heads[k:], node = option_head(body)
                        if size is not None:
                            heads[k:k] = [size]
                        continue
                    lits, v = self.val(h.value, local)
                    x = self.fresh.var("x")
                    conds += self.equal(lits, v, [], x, local) if isinstance(v, Var) else lits + [f(_dom(t), x),
                                                                                                  Not(distinct(x, v))]
                    local = local.child(**{h.var: Binding("logic", x, t)})
                    lets.append((h.var, t, x))
                else:
                    x = self.fresh.var("e")
                    t = self.bind_type(h.coll, local)
                    conds += self.member(h.coll, local, x)
                    held[h.var] = effects.locations(h.coll, held)
                    local = local.child(**{h.var: Binding("logic", x, t)})
                    elems.append(x)
                    binds.append((h.var, t))
            inner = self._inner_anys(node, held, [v for v, _ in binds] + [v for v, _, _ in lets])
            cur_lits, cur = self.current(env)
            start = self.label()
            body_env = Env(env)
            regs = []
            for (var, t), x in zip(binds, elems):
                rid = self.reg("v", _dom(t))
                regs.append(rid)
                body_env[var] = Binding("fluent", rid, t)
            for var, t, x in lets:  # a `let` at the head: its value when the option was chosen
                rid = self.reg("v", _dom(t))
                regs.append(rid)
                body_env[var] = Binding("fluent", rid, t)
            for a in inner:
                scope = local
                for j in a.enclosing(inner):
                    scope = scope.child(**{inner[j].node.var: Binding("logic", self.fresh.var("e"), inner[j].type)})
                a.type = self.bind_type(a.node.coll, scope)
            inner_regs = [self.reg("v", _dom(a.type)) for a in inner]
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

    def _inner_anys(self, node, held: dict, bound=()) -> list:
        """The `any`s of an option's body, in the order they run, each checked to be judgeable at
        the choice: reached at most once, and nothing that may run before it writes what its
        range and the conditions on the way to it read."""
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
            if any(list(_pre_nodes_expr(g.cond)) for g in guards) or list(_pre_nodes_expr(s.coll)):
                raise unsupported("an option with an `any` after its first action", s)
            before = effects.written_before(stmts, k)
            if effects.meets(set().union(*[effects.reads(g.cond, hd) for g in guards]), before):
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
            if not snapshot and effects.meets(effects.reads(s.coll, hd), effects.written_before(stmts, k, excluded)):
                raise unsupported("an option with an `any` after its first action", s)
            parent = next((index[id(a)] for a in reversed(anc) if isinstance(a, ir.AnyOf)), None)
            index[id(s)] = len(out)
            out.append(_Inner(s, anc, guards, parent))
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
                if a.parent is None or w[a.parent] is not None:
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
            env = local
            for j in a.enclosing(inner):
                env = env.child(**{inner[j].node.var: Binding("logic", taken[j], inner[j].type)})
            reach = [lit for g in a.guards for lit in self.cond(g.cond, env)]
            if taken[i] is not None:
                out += reach + self.member(a.node.coll, env, taken[i])
            else:
                y = self.fresh.var("y")
                out.append(Not(self.exists("reached", env, reach + self.member(a.node.coll, env, y))))
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

    # ------------------------------------------------------------ statements
    def stmt(self, n, lab: str, after: str, env: Env) -> None:
        """Compile one statement starting at `lab`, continuing to `after`."""
        m = getattr(self, "s_" + type(n).__name__, None)
        if m is None:
            raise unsupported(f"{_what(n)}", n)
        pres = [x for x in _pre_nodes(n)]
        if pres and not isinstance(n, (ir.Do, ir.CondAct, ir.ForAll, ir.Repeat, ir.RepeatAll, ir.Let)):
            lab = self.pre_steps(pres, lab, env)
            m(n, lab, after, env)
            for x in pres:
                self.rules.append(rule(f("var_kill", self.pre[id(x)]), self.at(lab)))
            return
        m(n, lab, after, env)

    def s_Do(self, n, lab, after, env):
        items = list(n.items)
        if not items:
            self.goto(lab, after)
            return
        labs = [lab] + [self.label() for _ in items[1:]]
        for idx, it in enumerate(items):
            self.stmt(it, labs[idx], labs[idx + 1] if idx + 1 < len(items) else after, env)

    def s_CondAct(self, n, lab, after, env):
        if n.cond is None:
            self.stmt(n.body, lab, after, env)
            return
        pres = list(_pre_nodes_expr(n.cond))
        if pres:
            lab = self.pre_steps(pres, lab, env)
        holds = self.exists("if", env, self.cond(n.cond, env))
        body = self.label()
        for x in pres:
            self.rules.append(rule(f("var_kill", self.pre[id(x)]), self.at(lab)))
        self.goto(lab, body, holds)
        self.goto(lab, after, Not(holds))
        self.stmt(n.body, body, after, env)

    def s_TurnPass(self, n, lab, after, env):
        self.goto(lab, after)

    def s_Repeat(self, n, lab, after, env):
        pres = list(_pre_nodes_expr(n.count))
        if pres:
            lab = self.pre_steps(pres, lab, env)
        rid = self.reg("r", "num")
        lits, cnt = self.val(n.count, env)
        for x in pres:
            self.rules.append(rule(f("var_kill", self.pre[id(x)]), self.at(lab)))
        self.count_down(rid, lits, cnt, lab, lambda body, tick: self.stmt(n.body, body, tick, env), after)

    def count_down(self, rid, lits, cnt, lab, run, after=None) -> str:
        """Run a body `cnt` times (none when cnt <= 0), counting down in register rid, then go to
        `after` (a new label when None), which is returned; run(body, tick) emits the body, which
        goes on at the tick."""
        body, tick = self.label(), self.label()
        after = after or self.label()
        self.rules.append(rule(f("var_put", rid, cnt), self.at(lab), *lits, f("less", const(0), cnt)))
        self.goto(lab, body, *lits, f("less", const(0), cnt))
        self.goto(lab, after, *lits, f("leq", cnt, const(0)))
        run(body, tick)
        k, k1 = self.fresh.var("k"), self.fresh.var("k")
        left = [true(f("var", rid, k)), f("succ", k1, k)]
        self.rules.append(rule(f("var_put", rid, k1), self.at(tick), *left, f("less", const(0), k1)))
        self.goto(tick, body, *left, f("less", const(0), k1))
        self.rules.append(rule(f("var_kill", rid), self.at(tick), *left, f("leq", k1, const(0))))
        self.goto(tick, after, *left, f("leq", k1, const(0)))
        return after

    def s_RepeatAll(self, n, lab, after, env):
        src = n.body.src if isinstance(n.body, ir.Move) else getattr(n.body, "card", None)
        if not (isinstance(src, ir.CardAt) and src.where in ("top", "bottom") and (
                isinstance(src.source, ir.Location) or self._snapshot_var(src.source, env) is not None
                and isinstance(n.body, ir.Move))):
            raise unsupported("'repeat all' other than (move (top|bottom LOCATION) ...)", n)
        x = self.fresh.var("e")
        some = self.exists("left", env, self.member(src.source, env, x))
        body = self.label()
        self.goto(lab, body, some)
        self.goto(lab, after, Not(some))
        self.stmt(n.body, body, lab, env)

    def s_ForAll(self, n, lab, after, env):
        coll = n.coll
        names = self._static_list(coll, env)
        if names is not None:
            return self._for_names(n, names, lab, after, env, self.bind_type(coll, env))
        if self.type_of(coll, env) == TEAM:
            return self._for_members(n, lab, after, env)
        if self.bind_type(coll, env) == "card" and self.snapshot_source(coll, env) is not None:
            return self._for_cards(n, lab, after, env)
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

    # ------------------------------------------------------------ snapshots of card collections
    def snapshot_source(self, coll, env):
        """Literals binding (I, C) to each card C of a collection and its place I in the
        collection's list order, as a function of (I, C), or None when not handled here.

        Positions at the start are unique and ordered as the simulator's list, so they key
        a snapshot without renumbering: a location's positions, a snapshot's own keys, and
        filters of either (the condition is judged once, when the snapshot is taken)."""
        if any(isinstance(x, _PRE) for x in coll.walk()):
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
            return lits + [f("less", const(0), k)] + self.acts(n.body, env)
        if isinstance(n, ir.RepeatAll):
            src = n.body.src if isinstance(n.body, ir.Move) else getattr(n.body, "card", None)
            if not (isinstance(src, ir.CardAt) and isinstance(src.source, ir.Location)):
                raise unsupported("'repeat all' other than (move (top|bottom LOCATION) ...)", n)
            x = self.fresh.var("e")
            return [self.exists("left", env, self.member(src.source, env, x))] + self.acts(n.body, env)
        if isinstance(n, ir.ForAll):
            x = self.fresh.var("q")
            inner = env.child(**{n.var: Binding("logic", x, self.bind_type(n.coll, env))})
            body = self.acts(n.body, inner)
            return [self.exists("acts_some", env, self.member(n.coll, env, x) + body)]
        if isinstance(n, ir.AnyOf) and id(n) in self.taken:
            x = self.taken[id(n)]
            if x is None:  # not taken: not reached, or its range is empty
                return [distinct(const(0), const(0))]
            return self.acts(n.body, env.child(**{n.var: Binding("logic", x, self.bind_type(n.coll, env))}))
        if isinstance(n, ir.Let):
            t = self.type_of(n.value, env)
            if _is_collection(t):
                # judged in the state at the choice, where the copy equals the collection itself
                if self.bind_type(n.value, env) != "card" or self.snapshot_source(n.value, env) is None:
                    raise unsupported("'let' of a collection", n)
                return self.acts(n.body, env.child(**{n.var: Binding("alias", (n.value, env), t)}))
            lits, v = self.val(n.value, env)
            x = self.fresh.var("x")
            inner = env.child(**{n.var: Binding("logic", x, t)})
            return [self.exists("acts_let", env, lits + [f(_dom(t), x), Not(distinct(x, v))]
                                + self.acts(n.body, inner))]
        raise unsupported(f"whether {_what(n)} acts", n)

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
        if _is_collection(t):
            return self._let_cards(n, lab, after, env, t)
        pres = list(_pre_nodes_expr(n.value))
        if pres:
            lab = self.pre_steps(pres, lab, env)
        rid = self.reg("v", _dom(t))
        lits, v = self.val(n.value, env)
        for x in pres:
            self.rules.append(rule(f("var_kill", self.pre[id(x)]), self.at(lab)))
        self.rules.append(rule(f("var_put", rid, v), self.at(lab), *lits))
        body, done = self.label(), self.label()
        self.goto(lab, body)
        self.stmt(n.body, body, done, env.child(**{n.var: Binding("fluent", rid, t)}))
        self.rules.append(rule(f("var_kill", rid), self.at(done)))
        self.goto(done, after)

    def _let_cards(self, n, lab, after, env, t):
        """`let` of cards: the simulator binds a copy of the list, so a snapshot register."""
        if self.bind_type(n.value, env) != "card" or self.snapshot_source(n.value, env) is None:
            raise unsupported("'let' of a collection", n)
        sid = self.take_snapshot(n.value, lab, env)
        body, done = self.label(), self.label()
        self.goto(lab, body)
        self.stmt(n.body, body, done, env.child(**{n.var: Binding("snapshot", sid, t)}))
        self.rules.append(rule(f("var_kill", sid), self.at(done)))
        self.goto(done, after)

    # ------------------------------------------------------------ primitive actions
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
        key = self._key(n.target.key, n)
        lo, o = self.owner(n.target.owner, env)
        lv, v = self.val(n.value, env)
        if sign is None:
            self.act(lab, f("set_int", key, o, v), lo + lv)
            return
        old, new = self.fresh.var("k"), self.fresh.var("k")
        self.used.update(("plus", "overflow"))
        arith = f("plus", old, v, new) if sign > 0 else f("plus", new, v, old)
        self.act(lab, f("set_int", key, o, new), lo + lv + [f("int_value", key, o, old), arith])
        # A result outside the integer table ends the game as `overflow` (goals 0): leaving
        # the storage as it was would be a different game, silently.
        room = f("has_sum", old, v) if sign > 0 else f("has_difference", old, v)
        self.act(lab, f("nx", const("overflow")), lo + lv + [f("int_value", key, o, old), neg(room)])

    def s_SetStr(self, n, lab, after, env):
        key = self._key(n.target.key, n)
        lo, o = self.owner(n.target.owner, env)
        lv, v = self.val(n.value, env)
        self.act(lab, f("set_str", key, o, v), lo + lv)
        self.goto(lab, after)

    def s_SetPoints(self, n, lab, after, env):
        from ggpbridge.sim.actions import static_points
        key = self._key(n.target.name, n)
        lo, o = self.owner(n.target.owner, env)
        base, rest = static_points(self.lay, n.awards)
        sid = const(f"pts{len(self.point_sets)}")
        dyn = []
        for a in rest:
            if not isinstance(a.value, ir.IntLit) or not all(isinstance(k, ir.Name) for k, _ in a.conds):
                raise unsupported("an award whose value or attribute name is computed at run time", a)
            conds = []
            for kname, value in a.conds:
                if isinstance(value, ir.Name):
                    conds.append((kname.value, value.value, None))
                else:
                    idx = sum(1 for x in dyn for c in x[1] if c[2] is not None) + \
                        sum(1 for c in conds if c[2] is not None)
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

    # ------------------------------------------------------------ values computed by steps of their own
    def pre_steps(self, nodes, lab, env) -> str:
        """Steps computing chance-bearing values (random, max/min) into registers; returns the action's label."""
        for x in nodes:
            per = self._filters_around(x)
            if per is not None:
                lab = self.scan_per_element(x, per, lab, env)
                continue
            self._check_evaluated_once(x)
            nxt = self.label()
            rid = self.reg("t", "num" if isinstance(x, ir.Random) else "card_id")
            if isinstance(x, ir.Random):
                self.random_step(x, lab, nxt, rid, env)
            else:
                self.scan_steps(x, lab, nxt, rid, env)
            self.pre[id(x)] = rid
            lab = nxt
        return lab

    def _check_evaluated_once(self, x) -> None:
        """Refuse a chance-bearing value that the simulator may evaluate other than once per run.

        Computed once before the statement, it would flip a different number of coins (or draw
        a different number of random integers) than the simulator: a quantifier's condition and
        the body of a union over elements run per element, and `and`/`or` stop at the first
        operand that settles them (CardStock short-circuits), skipping the rest."""
        node = x
        while id(node) in self.parent and not isinstance(node, _STATEMENTS):
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
        while id(node) in self.parent and not isinstance(node, _STATEMENTS):
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
        if isinstance(src, ir.Filter) and _parts(src.coll) is not None:
            src, flt = src.coll, src
        parts = _parts(src)
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


def _replace_size(n, var: str, by):
    """n with every `(size 'var)` replaced by `by`."""
    if isinstance(n, ir.Size) and n.coll == ir.Var(var):
        return by
    return effects.rebuild(n, lambda x: _replace_size(x, var, by))


class _Inner:
    """An `any` in an option's body: the `any`, its ancestors, the conditions on the way, the
    index of the innermost `any` around it."""

    def __init__(self, node, anc, guards, parent):
        self.node, self.anc, self.guards, self.parent = node, anc, guards, parent
        self.type = None

    def enclosing(self, inner: list) -> list:
        """Indices of the body `any`s around this one, outermost first."""
        out, p = [], self.parent
        while p is not None:
            out.append(p)
            p = inner[p].parent
        return list(reversed(out))


def _dom(t) -> str:
    from .exprs import DOMAIN
    return DOMAIN.get(t, "value_any")


def _parts(src):
    """The parts a max/min scans in order: locations, or one location per player (team)."""
    if isinstance(src, ir.Location):
        return [("loc", src)]
    if isinstance(src, ir.AggCards) and isinstance(src.coll, ir.AllOf) and isinstance(src.body, ir.Location):
        return [("each", src)]
    if isinstance(src, ir.SetOp) and src.op == "union":
        if len(src.args) == 1:
            return _parts(src.args[0])
        if all(isinstance(a, ir.Location) for a in src.args):
            return [("loc", a) for a in src.args]
    return None


def _is_collection(t) -> bool:
    """Whether a value type is a collection (of cards or of anything else)."""
    return t is not None and (t.startswith("coll") or t == "cards")


def _pre_nodes_expr(n):
    """Chance-bearing sub-expressions, innermost first."""
    out = []
    for x in n.walk():
        if isinstance(x, _PRE):
            out.append(x)
    return list(reversed(out))


def _pre_nodes(n):
    """The chance-bearing values a primitive action needs before it runs."""
    if isinstance(n, (ir.Do, ir.CondAct, ir.ForAll, ir.Repeat, ir.RepeatAll, ir.Let, ir.AnyOf)):
        return []
    return _pre_nodes_expr(n)


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
