"""Collections rewritten into forms the translation already handles, with the same elements in
the same order (IR to IR, before any rule is made)."""
from __future__ import annotations

from ggpbridge import ir

from .effects import substitute
from .nodes import PRE


def merged_filter(c: ir.Filter):
    """`(filter (filter COLL 'X A) 'Y B)` as `(filter COLL 'X (and A B[Y:=X]))`, else None.

    The simulator keeps the cards of COLL passing A, in order, then those of them passing B:
    the cards passing both, in order. `and` asks B only of a card passing A, as the outer
    filter does. Conditions with chance in them (a max/min, a random value) are left alone,
    since the two forms would evaluate them a different number of times."""
    inner = c.coll
    if not (isinstance(c, ir.Filter) and isinstance(inner, ir.Filter)):
        return None
    if any(isinstance(x, PRE) for cond in (inner.cond, c.cond) for x in cond.walk()):
        return None
    if any(isinstance(x, ir.Var) and x.name == inner.var for x in c.cond.walk()):
        return None   # the outer condition reads another 'X, which the merged filter would hide
    cond = substitute(c.cond, c.var, ir.Var(inner.var, pos=c.pos))
    if cond is None:
        return None
    merged = ir.Filter(inner.coll, inner.var, ir.BoolOp("and", (inner.cond, cond), pos=c.pos), pos=c.pos)
    return merged_filter(merged) or merged


def unrolled_union(c, names_of):
    """A union whose parts walk fixed lists of names, `(union (all 'PLOCS 'L ('P hloc 'L)))`,
    as the union of each part's body for each name in the list's order (the order in which the
    simulator concatenates them); None when no part walks one. `names_of(coll)`: the names of a
    literal or declared list, else None."""
    if not (isinstance(c, ir.SetOp) and c.op == "union"):
        return None
    out, changed = [], False
    for a in c.args:
        names = names_of(a.coll) if isinstance(a, ir.AggCards) else None
        if names is None:
            out.append(a)
            continue
        parts = [substitute(a.body, a.var, ir.Name(v, pos=a.pos)) for v in names]
        if any(p is None for p in parts):
            return None
        out += parts
        changed = True
    return ir.SetOp("union", tuple(out), pos=c.pos) if changed and out else None
