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
