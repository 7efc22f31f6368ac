"""RECYCLE control flow as GDL steps: one instruction per step, a program counter `(pc L)`.

A decision is one step in which the current player picks `(choose FORM E1 .. Ek)` (the
option form and the elements its `any`s take) and everybody else plays `noop`. A chance
event is one step of `random` (`(pick K)`, K uniform in its range): one per shuffle
position, random integer and max/min tie. Everything else — each action, each test of a
condition, stage and loop bookkeeping — is an automatic step where every role plays `noop`.

`Flow` holds the labels, registers, stages and statements; its steps for choices
(`options.py`), loops and `let` (`loops.py`), primitive actions (`actions.py`) and values
computed before an action (`scans.py`) are mixins in their own modules.
"""
from __future__ import annotations

from ggpbridge import ir
from ggpbridge.gdl.ast import Not

from .actions import Actions
from .exprs import Env, ExprCompiler, declared_env, unsupported, _what
from .loops import Loops
from .nodes import pre_nodes, pre_nodes_expr
from .options import Options
from .scans import Scans
from .listedmax import ListedExtremes
from .condguard import CondGuards
from .untied import Untied
from .terms import NONE, const, distinct, f, neg, rule, true


class Flow(Options, Loops, Actions, Scans, Untied, ListedExtremes, CondGuards, ExprCompiler):
    """Compiles the game body into labelled instructions and their rules."""

    def __init__(self, prog, fresh, rules):
        super().__init__(prog.lay, fresh, rules, {})
        self.prog = prog
        self.labels: list[str] = []
        self.choice_label: dict[int, str] = {}   # sim ChoiceP id -> label
        self.choice_forms: dict[str, list] = {}  # label -> [(form, [(var, type)])]
        self.nvar = 0
        self.point_sets: list = []               # (set id, SetPoints node, static base, dynamic awards)
        self.distinct_scores: list = []          # (map name, node): options over runs (optgroups.py)
        self.nonneg_scores: list = []            # (map name, node): subsets counted by sum (subsetsums.py)
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
        self.init_guards()

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
            with self.site("choice", it.id):   # its conditions are judged where it waits
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
        with self.site("label", lab):
            ended = self.exists("ends", entry_env, self.cond(st.node.end, entry_env))
        bound = list(entry_env.cur[0]) if entry_env.cur is not None else []
        self.goto(lab, after, *bound, ended)
        self.goto(lab, body, *bound, Not(ended))
        # after each pass: test the end; pop the cycle, or advance it and go again
        self.seq(st.items, loop, env, body)
        with self.site("label", loop):
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

    # ------------------------------------------------------------ statements
    def stmt(self, n, lab: str, after: str, env: Env) -> None:
        """Compile one statement starting at `lab`, continuing to `after`."""
        m = getattr(self, "s_" + type(n).__name__, None)
        if m is None:
            raise unsupported(f"{_what(n)}", n)
        pres = [x for x in pre_nodes(n)]
        if pres and not isinstance(n, (ir.Do, ir.CondAct, ir.ForAll, ir.Repeat, ir.RepeatAll, ir.Let)):
            # conditions are tested where they are evaluated (condguard.py): those of the steps
            # computing values first at `lab`, the statement's own after them
            with self.site("label", lab):
                lab = self.pre_steps(pres, lab, env)
            with self.site("label", lab):
                m(n, lab, after, env)
            for x in pres:
                self.kill_pre(x, lab)
            return
        with self.site("label", lab):
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
        pres = list(pre_nodes_expr(n.cond))
        if pres:
            lab = self.pre_steps(pres, lab, env)
        with self.site("label", lab):
            holds = self.exists("if", env, self.cond(n.cond, env))
        body = self.label()
        for x in pres:
            self.kill_pre(x, lab)
        self.goto(lab, body, holds)
        self.goto(lab, after, Not(holds))
        self.stmt(n.body, body, after, env)

    def s_TurnPass(self, n, lab, after, env):
        self.goto(lab, after)

    def s_Repeat(self, n, lab, after, env):
        pres = list(pre_nodes_expr(n.count))
        if pres:
            lab = self.pre_steps(pres, lab, env)
        rid = self.reg("r", "num")
        with self.site("label", lab):
            lits, cnt = self.val(n.count, env)
            self.note(n.count, lits, env)
        for x in pres:
            self.kill_pre(x, lab)
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
        if self._repeats_until_empty(n, src, env):
            # each round takes one card out for good: "while SRC has a card" runs as many
            # rounds as SRC had cards, and needs no counter
            x = self.fresh.var("e")
            some = self.exists("left", env, self.member(src.source, env, x))
            body = self.label()
            self.goto(lab, body, some)
            self.goto(lab, after, Not(some))
            self.stmt(n.body, body, lab, env)
            return
        plan = ir.repeat_all_plan(n)
        if plan is None:
            raise unsupported("'repeat all' other than (move|forget (top|bottom|N COLLECTION) ...) "
                              "or (move (max|min ...) ...)", n)
        if isinstance(plan, ir.Let) and (self.bind_type(plan.value, env) != "card"
                                         or self.snapshot_source(plan.value, env) is None):
            raise unsupported(f"'repeat all' over {_what(plan.value)}", n)
        self.stmt(plan, lab, after, env)

    def _repeats_until_empty(self, n, src, env) -> bool:
        """Does every round of this `repeat all` take a card out of its source for good (a
        location the card leaves for another, a `let` copy it is taken from)?"""
        if not (isinstance(src, ir.CardAt) and src.where in ("top", "bottom")):
            return False
        if isinstance(src.source, ir.Location):
            if isinstance(n.body, ir.Forget):
                return True
            a, b = src.source, n.body.dst.source if isinstance(n.body.dst, ir.CardAt) else None
            # surely another location: another kind, or another name written in the game
            return isinstance(b, ir.Location) and (a.vis != b.vis or isinstance(a.name, ir.Name) and isinstance(
                b.name, ir.Name) and a.name.value != b.name.value)
        return isinstance(n.body, ir.Move) and self._snapshot_var(src.source, env) is not None

