"""IR helpers shared by the parts of the control flow (flow, options, loops, actions, scans)."""
from __future__ import annotations

from ggpbridge import ir

PRE = (ir.Random, ir.Extreme)   # values that take chance: computed by steps of their own (scans.py)
STATEMENTS = (ir.Move, ir.Remember, ir.Forget, ir.Shuffle, ir.Faro, ir.SetInt, ir.Inc, ir.Dec, ir.SetStr,
               ir.SetPoints, ir.Cycle, ir.TurnPass, ir.Repeat, ir.RepeatAll, ir.CondAct, ir.ForAll, ir.AnyOf,
               ir.Let, ir.Do, ir.Choice, ir.Stage, ir.Scoring, ir.Game)


def value_domain(t) -> str:
    """The domain relation of the values of type t (for `base`)."""
    from .exprs import DOMAIN   # here, not at the top: exprs.py imports this module
    return DOMAIN.get(t, "value_any")


def scan_parts(src):
    """The parts a max/min scans in order: locations, or one location per player (team)."""
    if isinstance(src, ir.Location):
        return [("loc", src)]
    if isinstance(src, ir.AggCards) and isinstance(src.coll, ir.AllOf) and isinstance(src.body, ir.Location):
        return [("each", src)]
    if isinstance(src, ir.SetOp) and src.op == "union":
        if len(src.args) == 1:
            return scan_parts(src.args[0])
        if all(isinstance(a, ir.Location) for a in src.args):
            return [("loc", a) for a in src.args]
    return None


def is_collection(t) -> bool:
    """Whether a value type is a collection (of cards or of anything else)."""
    return t is not None and (t.startswith("coll") or t == "cards")


def pre_nodes_expr(n):
    """Chance-bearing sub-expressions in the order the simulator draws them: an expression's
    operands before it, left to right (a card's collection before its position)."""
    out = []

    def visit(x):
        kids = list(x.children())
        if isinstance(x, (ir.CardAt, ir.MemberOf)) and isinstance(x.where, ir.Node):
            kids = [k for k in kids if k is not x.where] + [x.where]
        for k in kids:
            visit(k)
        if isinstance(x, PRE):
            out.append(x)
    visit(n)
    return out


def pre_nodes(n):
    """The chance-bearing values a primitive action needs before it runs, in the order the
    simulator draws them: a card's source before its destination (as CardStock creates a
    move), a storage's value before the storage."""
    if isinstance(n, (ir.Do, ir.CondAct, ir.ForAll, ir.Repeat, ir.RepeatAll, ir.Let, ir.AnyOf)):
        return []
    if isinstance(n, (ir.Move, ir.Remember)):
        return pre_nodes_expr(n.src) + pre_nodes_expr(n.dst)
    if isinstance(n, (ir.SetInt, ir.Inc, ir.Dec, ir.SetStr)):
        return pre_nodes_expr(n.value) + pre_nodes_expr(n.target)
    return pre_nodes_expr(n)
