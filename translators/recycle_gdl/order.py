"""Which locations keep their order in the translation, and which are bags of cards.

A location whose order is never read — only its members, its size, cards inserted
and taken — is a *bag*: `(in LOC OWNER CARD)` plus its size `(tally LOC OWNER N)`
(N > 0). Positions cost a fluent per card per position, and the relaxed grounding
that finds a game's fluents lets every card reach every position, so keeping
positions only where they are read shrinks the ground program many times over.

Order is read by `top`/`bottom`/an index (except where a card is put), shuffles,
max/min scans (ties are broken in list order), sums and filtered counts (added up
the positions), snapshots of `all` and `let` over cards (taken in list order) and the
list constructs. Memory locations stay ordered: `remember`
may put a card there twice, which a bag could not hold.
"""
from __future__ import annotations

from ggpbridge import ir

from .exprs import loc_name

# constructs that read the order of every location inside them
_ORDER_READERS = (ir.Shuffle, ir.Faro, ir.Extreme, ir.Sum, ir.Sort, ir.Sequence, ir.RunSequence,
                  ir.Tuples, ir.Runs, ir.Subsets, ir.Partition)


def ordered_locations(game: ir.Game) -> frozenset:
    """The location name constants (e.g. `iloc_stock`) whose order the game reads."""
    out: set = set()
    _visit(game, out)
    return frozenset(out)


def _locations(node, out: set) -> None:
    for x in node.walk():
        if isinstance(x, ir.Location) and isinstance(x.name, ir.Name):
            out.add(loc_name(x.vis, x.name.value))


def _visit(node, out: set) -> None:
    if isinstance(node, ir.Location) and node.vis == "mem" and isinstance(node.name, ir.Name):
        out.add(loc_name(node.vis, node.name.value))
    if isinstance(node, (ir.Move, ir.Remember)):
        _visit(node.src, out)
        dst = node.dst
        if isinstance(dst, ir.CardAt) and isinstance(dst.source, ir.Location):
            # where a card is put does not read the order: only the owner and the index may
            for child in dst.source.children():
                _visit(child, out)
            if not isinstance(dst.where, str):
                _visit(dst.where, out)
            if dst.source.vis == "mem" and isinstance(dst.source.name, ir.Name):
                out.add(loc_name(dst.source.vis, dst.source.name.value))
        else:
            _visit(dst, out)
        return
    if isinstance(node, (ir.ForAll, ir.Let)):
        # `all` over cards and `let` of cards keep a snapshot in list order (flow.snapshot_source)
        _snapshot_roots(node.coll if isinstance(node, ir.ForAll) else node.value, out)
    if _emptiness_test(node):
        # compiled as "some card passes" (ExprCompiler.compare), without counting
        _visit(node.left.coll, out)
        return
    if isinstance(node, ir.Let) and isinstance(node.value, ir.Filter) and any(
            isinstance(x, ir.Size) and x.coll == ir.Var(node.var) for x in node.body.walk()):
        # the size of a filtered list named by `let` is counted like `(size (filter ...))`
        _locations(node.value, out)
    if isinstance(node, (ir.CardAt,) + _ORDER_READERS) or (
            isinstance(node, ir.Size) and isinstance(node.coll, ir.Filter)):
        _locations(node, out)
    for child in node.children():
        _visit(child, out)


def _snapshot_roots(coll, out: set) -> None:
    """The locations a snapshot of a collection reads in order: under its filters."""
    while isinstance(coll, ir.Filter):
        coll = coll.coll
    if isinstance(coll, ir.Location) and isinstance(coll.name, ir.Name):
        out.add(loc_name(coll.vis, coll.name.value))


def _emptiness_test(n) -> bool:
    """`(== (size C) 0)` and friends, as ExprCompiler.compare special-cases them."""
    return (isinstance(n, ir.Compare) and isinstance(n.left, ir.Size) and isinstance(n.right, ir.IntLit)
            and n.right.value == 0 and n.op in ("==", "!=", ">")
            and isinstance(n.left.coll, (ir.Filter, ir.Location)))
