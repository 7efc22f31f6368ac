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

A *deck* is a location of the table whose order is read only by shuffling it and drawing
from its top or bottom, and that the game shuffles before anything else touches it. Its order
is then a uniformly random permutation that nobody has seen, so drawing from it is drawing a
card at random from what is left: the translation keeps it a bag, does nothing at a shuffle,
and lets `random` pick each card drawn (`(draw C)`), one fluent per card instead of one per
card and position. A deck that cards are put back into (a stock refilled at the end of a
round) is that only until its next shuffle: the translation marks a deck `(stale L)` at the
start and when a card is put in, clears the mark at its shuffles, and ends a play that draws
from it while marked as `overflow` (with `(stale_draw L)`), since the order it would then
draw in is not random.
"""
from __future__ import annotations

from ggpbridge import ir

from .exprs import loc_name

# constructs that read the order of every location inside them
# (a best sum adds its cards up along their positions, as a sum does: bestsum.py)
_ORDER_READERS = (ir.Shuffle, ir.Faro, ir.Extreme, ir.Sum, ir.BestSum, ir.Sort, ir.Sequence, ir.RunSequence,
                  ir.Tuples, ir.Runs, ir.Subsets, ir.Partition)


def ordered_locations(game: ir.Game, decks: frozenset = frozenset()) -> frozenset:
    """The location name constants (e.g. `iloc_stock`) whose order the game reads other than by
    shuffling and drawing from the top or bottom of those in `decks`."""
    out: set = set()
    _visit(game, out, decks)
    return frozenset(out)


def decks(game: ir.Game) -> frozenset:
    """The location name constants the translation may treat as decks (see the module's text)."""
    named = {loc_name(x.vis, x.name.value) for x in game.walk()
             if isinstance(x, ir.Location) and isinstance(x.name, ir.Name) and x.vis != "mem"}
    # candidates: what is still unordered when shuffles and draws of them are not counted
    cands = (named & ordered_locations(game)) - ordered_locations(game, frozenset(named))
    if any(not isinstance(loc.name, ir.Name) for loc in _destinations(game)):
        return frozenset()   # a location named at run time could be any of them
    for x in game.walk():
        if isinstance(x, ir.Remember) and isinstance(x.dst, ir.CardAt) and isinstance(x.dst.source, ir.Location):
            # a copy put in would be drawn as well as its card
            cands.discard(loc_name(x.dst.source.vis, x.dst.source.name.value))
    for x in game.walk():
        # the table's only: the name of a per-player location covers several, shuffled apart
        if isinstance(x, ir.Location) and isinstance(x.name, ir.Name) and not isinstance(x.owner, ir.GameOwner):
            cands.discard(loc_name(x.vis, x.name.value))
    cands -= _listed_draws(game)
    return frozenset(ln for ln in cands if _shuffled_first(game, ln))


def _listed_draws(game: ir.Game) -> set:
    """Locations an option draws from before an `any` of the same option: the simulator lists
    the options with the cards drawn (Coup's ambassador draws two, then picks from the hand),
    so those cards are known at the choice and their order is read (takenaway.py)."""
    out = set()
    for ch in game.walk():
        if not isinstance(ch, ir.Choice):
            continue
        for form in ch.options:
            drawn = set()
            for x in form.walk():   # pre-order: the order statements start in
                if isinstance(x, ir.AnyOf):
                    out |= drawn
                elif isinstance(x, ir.Move) and isinstance(x.src, ir.CardAt) and x.src.where in ("top", "bottom") \
                        and isinstance(x.src.source, ir.Location) and isinstance(x.src.source.name, ir.Name):
                    drawn.add(loc_name(x.src.source.vis, x.src.source.name.value))
    return out


def _destinations(game: ir.Game):
    """The locations cards are moved or remembered into."""
    for x in game.walk():
        if isinstance(x, (ir.Move, ir.Remember)) and isinstance(x.dst, ir.CardAt) \
                and isinstance(x.dst.source, ir.Location):
            yield x.dst.source


def _mentions(node, ln) -> bool:
    return any(isinstance(x, ir.Location) and isinstance(x.name, ir.Name) and loc_name(x.vis, x.name.value) == ln
               for x in node.walk())


def _shuffled_first(game: ir.Game, ln) -> bool:
    """The first statement of the game that mentions the location is an unconditional shuffle of it."""
    for stmt in _in_order(game.body):
        if isinstance(stmt, ir.Shuffle) and isinstance(stmt.target, ir.Location) and _mentions(stmt, ln):
            return True
        if _mentions(stmt, ln):
            return False
    return False


def _in_order(items):
    """The statements that run unconditionally, in the order they first run: into `do` blocks
    and stages (a stage's end condition is tested before its body first runs)."""
    for item in items:
        if isinstance(item, ir.Do):
            yield from _in_order(item.items)
        elif isinstance(item, ir.Stage):
            yield item.end
            yield from _in_order(item.body)
        else:
            yield item


def _is_deck(node, decks) -> bool:
    return (isinstance(node, ir.Location) and isinstance(node.name, ir.Name)
            and loc_name(node.vis, node.name.value) in decks)


def is_draw(node, decks) -> bool:
    """The source of a move that takes a card from the top or bottom of a deck."""
    return isinstance(node, ir.CardAt) and node.where in ("top", "bottom") and _is_deck(node.source, decks)


def _locations(node, out: set) -> None:
    for x in node.walk():
        if isinstance(x, ir.Location) and isinstance(x.name, ir.Name):
            out.add(loc_name(x.vis, x.name.value))


def _visit(node, out: set, decks=frozenset()) -> None:
    if isinstance(node, ir.Location) and node.vis == "mem" and isinstance(node.name, ir.Name):
        out.add(loc_name(node.vis, node.name.value))
    if isinstance(node, ir.Shuffle) and _is_deck(node.target, decks):
        _visit(node.target.owner, out, decks)
        return
    if isinstance(node, (ir.Move, ir.Remember)):
        if isinstance(node, ir.Move) and is_draw(node.src, decks):
            _visit(node.src.source.owner, out, decks)
        else:
            _visit(node.src, out, decks)
        dst = node.dst
        if isinstance(dst, ir.CardAt) and isinstance(dst.source, ir.Location):
            # where a card is put does not read the order: only the owner and the index may
            for child in dst.source.children():
                _visit(child, out, decks)
            if not isinstance(dst.where, str):
                _visit(dst.where, out, decks)
            if dst.source.vis == "mem" and isinstance(dst.source.name, ir.Name):
                out.add(loc_name(dst.source.vis, dst.source.name.value))
        else:
            _visit(dst, out, decks)
        return
    if isinstance(node, (ir.ForAll, ir.Let)):
        # `all` over cards and `let` of cards keep a snapshot in list order (flow.snapshot_source)
        _snapshot_roots(node.coll if isinstance(node, ir.ForAll) else node.value, out)
    if _emptiness_test(node):
        # compiled as "some card passes" (ExprCompiler.compare), without counting
        _visit(node.left.coll, out, decks)
        return
    if isinstance(node, ir.Let) and isinstance(node.value, ir.Filter) and any(
            isinstance(x, ir.Size) and x.coll == ir.Var(node.var) for x in node.body.walk()):
        # the size of a filtered list named by `let` is counted like `(size (filter ...))`
        _locations(node.value, out)
    if isinstance(node, (ir.CardAt,) + _ORDER_READERS) or (
            isinstance(node, ir.Size) and isinstance(node.coll, ir.Filter)):
        _locations(node, out)
    for child in node.children():
        _visit(child, out, decks)


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
