"""Partitions as one collection per attribute value: a `let` of one walked by an `all`, and
conditions over its groups.

Go Fish lays down each complete rank of a hand:

    (let (partition RANK HAND) 'GROUPS (all 'GROUPS 'G ((== (size 'G) 4) (do (... (repeat all
      (move (top 'G) TRICKS)))))))

The simulator lists the groups once, in order of their first card, and binds 'G to each list.
The translation walks the attribute's values instead, binding 'G to a snapshot of the cards
of that value taken when its turn comes (a value no card has is skipped):

    (all (V1, V2, ...) 'v (let (filter HAND 'c (== (cardatt RANK 'c) 'v)) 'G ((> (size 'G) 0) BODY)))

That is the same run when the rounds commute and none changes what a later group holds:
BODY may only add to integer storages it does not read (`inc`/`dec`), and move cards of 'G
itself into locations kept without order (bags, order.py) that the partition does not read.
Every card must have the attribute (else the simulator's group of cards without it).

A condition over the groups (Schwimmen: is there a rank whose cards sum to 33) holds for some
(every) group when it holds for the cards of some (every) attribute value that has cards:

    (any (partition RANK HAND) 'G C)  ->  (any (V1, V2, ...) 'v (and (> (size F) 0) C[F/'G]))
    (all (partition RANK HAND) 'G C)  ->  (all (V1, V2, ...) 'v (or (== (size F) 0) C[F/'G]))

with F = (filter HAND 'c (== (cardatt RANK 'c) 'v)); the order of the groups does not matter.
"""
from __future__ import annotations

from ggpbridge import ir

from . import effects
from .exprs import loc_name, unsupported

_REFUSED = "'let' of a partition other than one walked by an `all` whose rounds commute"


def partition_walk(n: ir.Let, values: list, bags: frozenset):
    """The statement the `let` of a partition n runs as (see the module doc); `values` are the
    attribute's values over the cards of the game (None when a card lacks it), `bags` the
    location names kept without order. Raises unsupported when the rewriting would not be exact."""
    part, body = n.value, n.body
    while isinstance(body, ir.Do) and len(body.items) == 1:
        body = body.items[0]
    if not (isinstance(part, ir.Partition) and isinstance(part.attr, ir.Name) and len(part.sources) == 1
            and isinstance(part.sources[0], ir.Location) and isinstance(body, ir.ForAll)
            and body.coll == ir.Var(n.var) and values and None not in values):
        raise unsupported(_REFUSED, n)
    src, group = part.sources[0], body.var
    if n.var in effects.var_names(body.body) or not _commutes(body.body, group, effects.reads(src, {}), bags):
        raise unsupported(_REFUSED, n)
    value, cards = _value_filter(part, n)
    nonempty = ir.CondAct(ir.Compare(">", ir.Size(ir.Var(group, pos=n.pos), pos=n.pos), ir.IntLit(0, pos=n.pos),
                                     pos=n.pos), body.body, pos=body.pos)
    names = ir.NameList(tuple(sorted(set(values))), pos=part.pos)
    return ir.ForAll(names, value.name, ir.Let(cards, group, nonempty, pos=n.pos), pos=body.pos)


def union_walk(n: ir.ForAll, values: list, bags: frozenset):
    """`(all (partition ATTR L1 L2 ...) 'G BODY)` over several locations (or their union), as a walk of the
    attribute's values with 'G the filter of their union, when BODY's rounds commute and move no
    card (Cribbage's pairs: `inc`s by the size of each rank's group); None when not exact.
    The simulator's groups concatenate the locations as the union does."""
    part = n.coll
    locs = part.sources
    if len(locs) == 1 and isinstance(locs[0], ir.SetOp) and locs[0].op == "union":
        locs = locs[0].args
    if not (isinstance(part.attr, ir.Name) and len(locs) > 1 and values and None not in values
            and all(isinstance(x, ir.Location) for x in locs)):
        return None
    reads = set().union(*(effects.reads(x, {}) for x in locs))
    if any(isinstance(x, (ir.Move, ir.RepeatAll)) for x in n.body.walk()) or not _commutes(n.body, n.var, reads, bags):
        return None
    union = ir.Partition(part.attr, (ir.SetOp("union", tuple(locs), pos=part.pos),), pos=part.pos)
    value, cards = _value_filter(union, n)
    body = effects.substitute(n.body, n.var, cards)
    if body is None:
        return None
    some = ir.Compare(">", ir.Size(cards, pos=n.pos), ir.IntLit(0, pos=n.pos), pos=n.pos)
    names = ir.NameList(tuple(sorted(set(values))), pos=part.pos)
    return ir.ForAll(names, value.name, ir.CondAct(some, body, pos=n.pos), pos=n.pos)


def _commutes(body, group: str, source_reads: set, bags: frozenset) -> bool:
    """Whether rounds of `body` (one per group) give the same result in any order and leave the
    other groups' cards where they are: see the module doc."""
    writes, reads = set(), set()
    for s, _, _ in effects.statements(body, {}):
        if isinstance(s, (ir.Do, ir.CondAct, ir.Repeat)):
            reads |= set().union(set(), *[effects.reads(p, {}) for p in effects.own_parts(s)])
            continue
        if isinstance(s, ir.RepeatAll):
            plan = ir.repeat_all_plan(s)
            if not isinstance(plan, ir.Repeat) or not isinstance(plan.count, ir.Size) \
                    or plan.count.coll != ir.Var(group):
                return False
            continue
        if isinstance(s, (ir.Inc, ir.Dec)):
            reads |= effects.reads(s.value, {}) | effects.reads(s.target.owner, {})
            writes |= effects.writes(s, {})
            continue
        if not (isinstance(s, ir.Move) and isinstance(s.src, ir.CardAt) and s.src.source == ir.Var(group)
                and isinstance(s.dst, ir.CardAt) and isinstance(s.dst.source, ir.Location)
                and isinstance(s.dst.source.name, ir.Name)
                and loc_name(s.dst.source.vis, s.dst.source.name.value) in bags):
            return False
        dst = effects.locations(s.dst, {})
        if effects.meets(source_reads, dst):
            return False
        reads |= effects.reads(s.dst.source.owner, {}) | (effects.reads(s.src.where, {}) if isinstance(
            s.src.where, ir.Node) else set())
        # the card leaves the partitioned location too: a round reading it would see the others' moves
        writes |= dst | {r for r in source_reads if r[0] == "loc"}
    return not effects.meets(reads, writes)


def quantified_groups(n: ir.Quantified, values: list):
    """The condition n over the groups of a partition, over the attribute's values instead (see
    the module doc); `values` as for partition_walk. Raises unsupported when not exact."""
    part = n.coll
    if not (isinstance(part, ir.Partition) and isinstance(part.attr, ir.Name) and len(part.sources) == 1
            and values and None not in values):
        raise unsupported("a condition over the groups of a partition of more than one collection, or by an "
                          "attribute some card lacks", n)
    value, cards = _value_filter(part, n)
    cond = effects.substitute(n.cond, n.var, cards)
    if cond is None:
        raise unsupported("a condition over the groups of a partition that rebinds a name it reads", n)
    size = ir.Size(cards, pos=n.pos)
    if n.quant == "any":
        cond = ir.BoolOp("and", (ir.Compare(">", size, ir.IntLit(0, pos=n.pos), pos=n.pos), cond), pos=n.pos)
    else:
        cond = ir.BoolOp("or", (ir.Compare("==", size, ir.IntLit(0, pos=n.pos), pos=n.pos), cond), pos=n.pos)
    return ir.Quantified(n.quant, ir.NameList(tuple(sorted(set(values))), pos=part.pos), value.name, cond, pos=n.pos)


def _value_filter(part: ir.Partition, at):
    """(the variable walking the attribute's values, the filter of the cards with its value)."""
    tag = f"@{at.pos.line}:{at.pos.col}"   # no RECYCLE variable can be spelt so
    value, card = ir.Var("value" + tag, pos=at.pos), "card" + tag
    same = ir.Compare("==", ir.CardAtt(part.attr, ir.Var(card, pos=at.pos), pos=at.pos), value, pos=at.pos)
    return value, ir.Filter(part.sources[0], card, same, pos=part.pos)
