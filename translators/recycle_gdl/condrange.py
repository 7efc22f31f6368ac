"""Static ranges of integer expressions, for condguard.py: which rows of the tables an operand
can need, known before any play.

An expression's range is found as a linear form: an interval plus a sum of locations' sizes,
each with its coefficient (`Form`). Sizes are kept apart because they are tied: a card lies in
one location at a time, so all the sizes together come to at most the number of cards N. That
bound, not N per size, keeps `(- (size STOCK) (- 'HANDSIZE (size HAND)))` within -HANDSIZE..N
instead of -HANDSIZE..2N. Locations are told apart by kind, name and owner as written; two
owners written differently may be one player, so sizes of one kind and name are summed as if
they could be one location (and a name computed at run time as if it could be any). A part of
a location (a filter of it, its top N, an intersection) has a size of its own in the same
group: at most the location's, never cancelling it.

Known: literals, declared values, card scores and their sums, sizes of locations (not of a
memory, where a card can be twice), numbers of a fixed `range`, `let`s of such values (as an
interval: the sizes they read may have changed since), and, in a fitted translation, a
storage's range as the fitting plays saw it (no bound: `fitted` records it).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ggpbridge import ir

from .terms import name


@dataclass
class Form:
    """lo..hi plus the sum of coef * size over `sizes` ((vis, name, owner) -> coef) and
    `unknown` (coefficients of sizes of locations named at run time)."""

    lo: int
    hi: int
    sizes: dict = field(default_factory=dict)
    unknown: tuple = ()

    def scaled(self, c: int) -> "Form":
        ends = (self.lo * c, self.hi * c)
        return Form(min(ends), max(ends), {k: v * c for k, v in self.sizes.items()}, tuple(v * c for v in self.unknown))

    def plus(self, other: "Form") -> "Form":
        sizes = dict(self.sizes)
        for k, v in other.sizes.items():
            sizes[k] = sizes.get(k, 0) + v
        return Form(self.lo + other.lo, self.hi + other.hi, sizes, self.unknown + other.unknown)

    def interval(self, cards: int) -> tuple[int, int]:
        """The lowest and highest value: all N cards in the one location (the sizes of one kind
        and name, and those named at run time, may all be it) that adds (takes) the most."""
        groups: dict = {}
        for (vis, nm, _), c in self.sizes.items():
            groups.setdefault((vis, nm), []).append(c)
        up = max([0] + [sum(c for c in cs if c > 0) for cs in groups.values()]) + sum(c for c in self.unknown if c > 0)
        down = min([0] + [sum(c for c in cs if c < 0) for cs in groups.values()]) + sum(c for c in self.unknown if c < 0)
        return self.lo + cards * down, self.hi + cards * up


def static_ranges(tr, flow, node) -> tuple[list | None, bool]:
    """(the range of every arithmetic result in node (each must have rows), whether they are
    bounds): None when one is not known. A fitted translation (`--fit`) reads a storage's range
    as the fitting plays saw it, which is no bound: plays beyond it still need the test."""
    out, fitted = [], []
    if _form(tr, flow, node, out, fitted) is None:
        return None, False
    return out, not fitted


def _form(tr, flow, x, out: list, fitted: list) -> Form | None:
    """x's Form, appending the range of each sum, difference and product in it to `out` (and a
    storage whose fitted range it read to `fitted`); None when not known statically."""
    cards = len(tr.prog.lay.cards)
    if isinstance(x, ir.IntStorage):
        ints = tr.fit.ints if tr.fit is not None else {}
        key = x.key.value if isinstance(x.key, ir.Name) else None
        if key in ints and key not in tr.capped:
            fitted.append(key)
            return Form(*ints[key])
        return None
    if isinstance(x, ir.IntLit):
        return Form(x.value, x.value)
    if isinstance(x, ir.Var):
        found, r = _binder_range(tr, flow, x, fitted)
        if found:
            return None if r is None else Form(*r)
        v = tr.prog.values.get(x.name)
        return Form(v, v) if isinstance(v, int) and not isinstance(v, bool) else None
    if isinstance(x, ir.Size):
        keys = _locations(tr, x.coll)
        if not keys:
            return None
        form = Form(0, 0)
        for k in keys:
            form = form.plus(Form(0, 0, {k: 1}) if k is not None else Form(0, 0, {}, (1,)))
        if len(keys) > 1:
            out.append(form.interval(cards))   # the parts' sizes are added up through the tables
        return form
    if isinstance(x, ir.Sum):
        keys = _locations(tr, x.cards)
        if not keys:
            return None   # a memory: a card may be in it twice
        # a card lies in one location at a time, counted once per time the union may name it
        named = [(k[0], k[1]) for k in keys if k is not None]
        times = max([0] + [named.count(k) for k in named]) + keys.count(None)
        lo, hi = tr._sum_range(_points_key(x.points.name))
        out.append((times * lo, times * hi))   # the running sum has rows up to it
        return Form(times * lo, times * hi)
    if isinstance(x, ir.Score):
        key = _points_key(x.points.name)
        scores = [r for (k, _), r in tr.card_range.items() if key is None or k == key]
        return Form(min([0] + [r[0] for r in scores]), max([0] + [r[1] for r in scores]))
    if isinstance(x, ir.Arith) and x.op in ("+", "-", "*"):
        a, b = _form(tr, flow, x.left, out, fitted), _form(tr, flow, x.right, out, fitted)
        if a is None or b is None:
            return None
        if x.op == "+":
            r = a.plus(b)
        elif x.op == "-":
            r = a.plus(b.scaled(-1))
        elif b.lo == b.hi and not b.sizes and not b.unknown:
            r = a.scaled(b.lo)
        elif a.lo == a.hi and not a.sizes and not a.unknown:
            r = b.scaled(a.lo)
        else:
            ia, ib = a.interval(cards), b.interval(cards)
            corners = [p * q for p in ia for q in ib]
            r = Form(min(corners), max(corners))
        out.append(r.interval(cards))
        return r
    if isinstance(x, ir.Arith) and x.op in ("//", "%"):
        # a quotient or remainder is no larger in size than what it divides: no new rows
        a, b = _form(tr, flow, x.left, out, fitted), _form(tr, flow, x.right, out, fitted)
        if a is None or b is None:
            return None
        ia, ib = a.interval(cards), b.interval(cards)
        m = max(abs(ia[0]), abs(ia[1]), *(map(abs, ib) if x.op == "%" else ()))
        return Form(-m, m)
    return None


def _locations(tr, c) -> list | None:
    """(vis, name, owner) of each location a card collection lists, in order (None for a name
    computed at run time), or None when it is not made of locations (or reads a memory, where a
    card can be twice)."""
    part = None
    while isinstance(c, (ir.Filter, ir.Sequence)):
        part = part or id(c)   # a part of the location: a size of its own, tied to the location's group
        c = c.coll if isinstance(c, ir.Filter) else c.source
    if isinstance(c, ir.SetOp) and c.op != "union":
        part = part or id(c)   # an intersection or disjunction: a part of its arguments' union
    keys = _whole_locations(tr, c)
    if keys is None or part is None:
        return keys
    return [k if k is None else (*k[:2], (k[2], part)) for k in keys]


def _whole_locations(tr, c) -> list | None:
    """`_locations` of a location, of the parts of a set operation in order, or of an `all`
    over a declared list of names."""
    if isinstance(c, ir.Location):
        if c.vis == "mem":
            return None
        return [(c.vis, c.name.value, _text(c.owner)) if isinstance(c.name, ir.Name) else None]
    if isinstance(c, ir.SetOp):
        parts = [_locations(tr, a) for a in c.args]
        return None if any(p is None for p in parts) else [k for p in parts for k in p]
    if isinstance(c, ir.AggCards) and isinstance(c.coll, ir.Var) and isinstance(c.body, ir.Location) \
            and c.body.vis != "mem" and c.body.name == ir.Var(c.var, pos=c.body.name.pos):
        names = tr.prog.values.get(c.coll.name)   # a declared list of names: one location each
        if isinstance(names, (list, tuple)):
            return [(c.body.vis, nm, _text(c.body.owner)) for nm in names]
    return None


def _text(owner) -> str:
    from ggpbridge.translators.recycle_text import expr_text
    try:
        return " ".join(expr_text(owner).split())
    except Exception:   # an owner that does not print on its own: never equal to another
        return f"#{id(owner)}"


def _points_key(nm):
    return name(nm.value) if isinstance(nm, ir.Name) else None


def _binder_range(tr, flow, var: ir.Var, fitted: list):
    """(whether a binder of the variable encloses it, its range): that of a `let`'s value or of
    an `any`/`all` over a `(range LO..HI)` of static ends; None when not known. The innermost
    binder of the name wins over a declared constant of the same name."""
    cards = len(tr.prog.lay.cards)
    parent = flow.parent
    child, node = var, parent.get(id(var))
    # (a binder's own value or range is read outside its scope: not bound by it)
    while node is not None:
        if getattr(node, "var", None) == var.name and child is not getattr(node, "value", None) \
                and child is not getattr(node, "coll", None):
            if isinstance(node, ir.Let):
                r = _form(tr, flow, node.value, [], fitted)
                return True, None if r is None else r.interval(cards)
            coll = getattr(node, "coll", None)
            if isinstance(coll, ir.Range):
                lo, hi = _form(tr, flow, coll.lo, [], fitted), _form(tr, flow, coll.hi, [], fitted)
                if lo is not None and hi is not None:
                    return True, (lo.interval(cards)[0], hi.interval(cards)[1])
            return True, None
        child, node = node, parent.get(id(node))
    return False, None
