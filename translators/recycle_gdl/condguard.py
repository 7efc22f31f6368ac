"""Arithmetic inside a condition whose result the integer tables cannot hold ends the play as `overflow`.

A comparison such as `(<= (+ (game sto TOTAL) (score 'C using PIPS)) 31)` adds through the
tables (`plus`; `times_K`, digits in wide.py). When the sum has no row, the comparison's literals
fail: the condition is false where the simulator finds it true (or, under a `not`, the other
way round), silently another game. offtables.py closes the same hole for `set`/`inc`/`dec`.

Each comparison operand that computes through the tables is noted while the condition compiles
(`note`), with the label where the game evaluates the condition (its *site*, `site`). Once the
point maps are known (`resolve`, after `Translation._points`), an operand whose every
intermediate result has a static range (literals, declared values, sizes of locations, card
scores and their sums, numbers of a fixed `range`) needs no test: the tables are widened to
that range (`ranges`, read by `Translation._bounds`), which for the corpus they almost always
hold already. Any other operand (it reads a storage) gets a test at its site: when its inputs
are found and its value is not, `overflow` holds in the next state. A choice's conditions are
judged in the state that offers it, too late for a test there: such a choice waits one
automatic step later (`before_choice`), whose test the folding (fuse.py) merges into the
transition that reaches the choice, so the decision state is already `overflow`.

Conservative where it is simpler: a variable of the condition that ranges over cards or
players is tested over all of them (its domain), not only over the members its quantifier
reads, so a play may end as `overflow` where the value was never needed. That is never a
silent wrong answer: the lockstep counts such plays as overflow, and a translation fitted
(`--fit`) or given larger tables does not meet it. A loop's own condition (`all` over a
filter, `repeat`'s count) is tested where the loop starts, before any random value or max/min
its statement computes first: an operand reading one of those is then not tested (it has no
input yet), as before this module.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

from ggpbridge import ir
from ggpbridge.gdl.ast import Distinct, Not, variables

from .offtables import table_arithmetic
from .terms import const, f, name, neg, rule, true

# a static range wider than this is not worth its table rows: the operand is tested instead
MOST_WIDENED = 1000


@dataclass
class Note:
    """One operand of a comparison that computes through the tables."""

    node: object     # the IR operand
    lits: list       # its literals, as the comparison reads them
    env: object      # the Env it was compiled in (its logic variables and current player)
    site: tuple      # ("label", lab) or ("choice", choice id)


class CondGuards:
    """Flow mixin: the sites where conditions are evaluated, and the operands noted there."""

    choice_guards: frozenset = frozenset()   # choices that wait one step for their test

    def _cond_state(self):
        if not hasattr(self, "_cond_sites"):
            self._cond_sites, self.cond_notes = [], []
        return self._cond_sites

    @contextmanager
    def site(self, kind: str, where):
        """Conditions compiled inside are evaluated at label `where` (kind "label") or by the
        choice of id `where` (kind "choice"); nested sites take their own."""
        stack = self._cond_state()
        stack.append((kind, where))
        try:
            yield
        finally:
            stack.pop()

    def note(self, operand, lits: list, env) -> None:
        """Record a comparison operand whose literals go through the tables' arithmetic."""
        if not table_arithmetic(lits):
            return
        stack = self._cond_state()
        if stack:   # outside the game's flow (scoring) nothing is evaluated at a label
            self.cond_notes.append(Note(operand, list(lits), env, stack[-1]))

    def before_choice(self, ch, lab: str) -> str:
        """The label choice `ch` waits at: `lab`, or a new one one automatic step after it when
        the choice's conditions need a test (the test is emitted at `lab`)."""
        if ch.id not in self.choice_guards:
            return lab
        wait = self.label()
        self.choice_test_label = getattr(self, "choice_test_label", {})
        self.choice_test_label[ch.id] = lab
        self.goto(lab, wait)
        return wait


def resolve(tr, flow) -> tuple[list, set]:
    """(ranges to widen the tables to, ids of choices needing a test) for the noted operands;
    the tests of label sites (and of choices already waiting a step) are appended to flow.rules."""
    ranges, choices, tests = [], set(), {}
    for n in getattr(flow, "cond_notes", []):
        r, exact = _static_ranges(tr, flow, n.node)
        if r is not None and all(hi - lo <= MOST_WIDENED for lo, hi in r):
            ranges += r
            if exact:
                continue
        kind, where = n.site
        if kind == "choice":
            choices.add(where)
            lab = getattr(flow, "choice_test_label", {}).get(where)
            if lab is None:   # the flow is compiled again with the choice waiting a step
                continue
        else:
            lab = where
        tests.setdefault(lab, []).append(n)
    k = 0
    for lab, notes in tests.items():
        for n in notes:
            helpers, off = _off_literals(n.lits, n.env, f"cond_off{k}")
            k += 1
            flow.rules += helpers
            flow.rules.append(rule(f("nx", const("overflow")), true(f("pc", const(lab))), *off))
            flow.used.add("overflow")
    return ranges, choices


def _off_literals(lits: list, env, pred: str) -> tuple[list, list]:
    """(helper rules, literals) holding when the operand's inputs are found and its value is not."""
    from .exprs import DOMAIN
    table = [i for i, x in enumerate(lits) if table_arithmetic([x])]
    rest = [x for i, x in enumerate(lits) if i not in table]
    made = {v for i in table for v in variables(lits[i])} - _bound(rest)
    if made & {v for x in rest for v in variables(x)}:
        # an input reads a result of the tables (a card at a computed position): split there
        rest, arith = lits[:table[0]], lits[table[0]:]
    else:
        arith = [lits[i] for i in table]
    logic = {b.term: b.type for b in env.values() if b.kind == "logic"}
    if env.cur is not None:
        logic[env.cur[1]] = "player"
        rest = [*env.cur[0], *rest]
    bound = _bound(rest)
    seen = {v for x in arith for v in variables(x)}
    args = sorted((seen & bound) | {v for v in seen if v in logic}, key=lambda v: v.name)
    # a logic variable no input binds ranges over its whole domain (the conservative side)
    free = sorted({v for x in rest + arith for v in variables(x) if v in logic and v not in bound},
                  key=lambda v: v.name)
    dom = [f(DOMAIN.get(logic[v], "value_any"), v) for v in free]
    has = f(pred, *args)
    return [rule(has, *dom, *rest, *arith)], [*dom, *rest, neg(has)]


def _bound(lits) -> set:
    return {v for x in lits if not isinstance(x, (Not, Distinct)) for v in variables(x)}


# ------------------------------------------------------------ static ranges
def _static_ranges(tr, flow, node) -> tuple[list | None, bool]:
    """(the ranges of every arithmetic result in node (each must have rows), whether they are
    bounds): None when one is not known. A fitted translation (`--fit`) reads a storage's range
    as the fitting plays saw it, which is no bound: plays beyond it still need the test."""
    out, fitted = [], []
    if _range(tr, flow, node, out, fitted) is None:
        return None, False
    return out, not fitted


def _range(tr, flow, x, out: list, fitted: list):
    """(lo, hi) of integer expression x, appending the ranges of its sums, differences and
    products to `out` (and a storage whose fitted range it read to `fitted`); None when not
    known statically."""
    if isinstance(x, ir.IntStorage):
        ints = tr.fit.ints if tr.fit is not None else {}
        key = x.key.value if isinstance(x.key, ir.Name) else None
        if key in ints and key not in tr.capped:
            fitted.append(key)
            return ints[key]
        return None
    if isinstance(x, ir.IntLit):
        return x.value, x.value
    if isinstance(x, ir.Var):
        v = tr.prog.values.get(x.name)
        if isinstance(v, int) and not isinstance(v, bool):
            return v, v
        return _binder_range(tr, flow, x)
    if isinstance(x, ir.Size):
        keys = _locations(tr, x.coll)
        if not keys:
            return None
        # a card lies in one location at a time; a union lists each part's cards (sim SetOp)
        n = len(tr.prog.lay.cards)
        r = (0, n if None not in keys and len(set(keys)) == len(keys) else n * len(keys))
        out.append(r)   # the parts' sizes are added up through the tables
        return r
    if isinstance(x, (ir.Score, ir.Sum)):
        nm = x.points.name
        key = _points_key(nm)
        if isinstance(x, ir.Sum):
            return tr._sum_range(key)
        scores = [r for (k, _), r in tr.card_range.items() if key is None or k == key]
        return min([0] + [r[0] for r in scores]), max([0] + [r[1] for r in scores])
    if isinstance(x, ir.Arith) and x.op in ("+", "-", "*"):
        a, b = _range(tr, flow, x.left, out, fitted), _range(tr, flow, x.right, out, fitted)
        if a is None or b is None:
            return None
        if x.op == "+":
            r = (a[0] + b[0], a[1] + b[1])
        elif x.op == "-":
            r = (a[0] - b[1], a[1] - b[0])
        else:
            corners = [p * q for p in a for q in b]
            r = (min(corners), max(corners))
        out.append(r)
        return r
    if isinstance(x, ir.Arith) and x.op in ("//", "%"):
        # a quotient or remainder is no larger in size than what it divides: no new rows
        a, b = _range(tr, flow, x.left, out, fitted), _range(tr, flow, x.right, out, fitted)
        if a is None or b is None:
            return None
        m = max(abs(a[0]), abs(a[1]), abs(b[0]) if x.op == "%" else 0, abs(b[1]) if x.op == "%" else 0)
        return -m, m
    return None


def _locations(tr, c) -> list | None:
    """The (vis, name) of each location a card collection lists, in order (None for a name
    computed at run time), or None when it is not made of locations (or reads a memory, where a
    card can be twice)."""
    while isinstance(c, (ir.Filter, ir.Sequence)):
        c = c.coll if isinstance(c, ir.Filter) else c.source
    if isinstance(c, ir.Location):
        if c.vis == "mem":
            return None
        return [(c.vis, c.name.value) if isinstance(c.name, ir.Name) else None]
    if isinstance(c, ir.SetOp):
        parts = [_locations(tr, a) for a in c.args]
        return None if any(p is None for p in parts) else [k for p in parts for k in p]
    if isinstance(c, ir.AggCards) and isinstance(c.coll, ir.Var) and isinstance(c.body, ir.Location) \
            and c.body.vis != "mem" and c.body.name == ir.Var(c.var, pos=c.body.name.pos):
        names = tr.prog.values.get(c.coll.name)   # a declared list of names: one location each
        if isinstance(names, (list, tuple)):
            return [(c.body.vis, nm) for nm in names]
    return None


def _points_key(nm):
    return name(nm.value) if isinstance(nm, ir.Name) else None


def _binder_range(tr, flow, var: ir.Var):
    """The range of a variable bound by an `any`/`all` over a `(range LO..HI)` of static ends."""
    parent = flow.parent
    node = parent.get(id(var))
    while node is not None:
        if getattr(node, "var", None) == var.name:
            coll = getattr(node, "coll", None)
            if isinstance(coll, ir.Range):
                lo, hi = _range(tr, flow, coll.lo, [], []), _range(tr, flow, coll.hi, [], [])
                if lo is not None and hi is not None:
                    return lo[0], hi[1]
            return None
        node = parent.get(id(node))
    return None
