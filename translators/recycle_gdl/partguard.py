"""A partition walked only when every attribute value has a group, adding up a score per group.

Scopa's primiera adds the best score of each suit, when every suit has a card:

    (let (partition SUIT BUNDLE) 'GROUPS ((== (size 'GROUPS) K) (all 'GROUPS 'G (inc S (score (max 'G using M) using M)))))

With K the number of the attribute's values over the game's cards, `(size 'GROUPS) == K` says
that every value has a card. The rounds only add to storages nothing here reads, so their order
does not matter; each group is the filter F of the location's cards of one value, in location
order as the simulator's group. The translation walks the values instead:

    ((all (V1, ...) 'v (> (size F) 0)) (all (V1, ...) 'v BODY[F/'G]))

A max scored with its own map is the best score whatever card a tie's coin picks; the
simulator's binary coins come per group in another order, as many, and change no result.
partlets.py's walk binds 'G to a snapshot (no scan runs over one); here nothing in BODY moves a
card, so F read where it is used is the group.
"""
from __future__ import annotations

from ggpbridge import ir

from . import effects
from .partlets import _value_filter


def guarded_walk(n: ir.Let, values: list):
    """The statement the `let` of a partition n runs as (module doc), or None when n is not of
    that shape (partlets.partition_walk judges it then)."""
    part, body = n.value, _peel(n.body)
    k = len(set(values)) if values and None not in values else None
    if not (k and isinstance(part, ir.Partition) and isinstance(part.attr, ir.Name) and len(part.sources) == 1
            and isinstance(part.sources[0], ir.Location) and isinstance(body, ir.CondAct)
            and _is_size(body.cond, n.var, k)):
        return None
    walk = _peel(body.body)
    if not (isinstance(walk, ir.ForAll) and walk.coll == ir.Var(n.var) and n.var not in effects.var_names(walk.body)):
        return None
    reads, writes = effects.reads(part.sources[0], {}), set()
    for s, _, _ in effects.statements(walk.body, {}):
        if isinstance(s, ir.Do):
            continue
        if not isinstance(s, (ir.Inc, ir.Dec)):
            return None
        reads |= _value_reads(s.value) | effects.reads(s.target.owner, {})
        writes |= effects.writes(s, {})
    if effects.meets(reads, writes):
        return None
    value, cards = _value_filter(part, n)
    each = effects.substitute(walk.body, walk.var, cards)
    if each is None:
        return None
    names = ir.NameList(tuple(sorted(set(values))), pos=part.pos)
    held = ir.Compare(">", ir.Size(cards, pos=n.pos), ir.IntLit(0, pos=n.pos), pos=n.pos)
    return ir.CondAct(ir.Quantified("all", names, value.name, held, pos=n.pos),
                      ir.ForAll(names, value.name, each, pos=walk.pos), pos=n.pos)


def _peel(n):
    while (isinstance(n, ir.Do) and len(n.items) == 1) or (isinstance(n, ir.CondAct) and n.cond is None):
        n = n.items[0] if isinstance(n, ir.Do) else n.body
    return n


def _is_size(cond, var: str, k: int) -> bool:
    """Whether cond is `(== (size 'var) k)`, either way round."""
    size, lit = ir.Size(ir.Var(var)), ir.IntLit(k)
    return isinstance(cond, ir.Compare) and cond.op == "==" and (
        (cond.left == size and cond.right == lit) or (cond.right == size and cond.left == lit))


def _value_reads(n) -> set:
    """effects.reads of n, but a max/min scored with its own map reads only its collection and the
    map (no chance that changes the value: the module doc)."""
    def sub(x):
        if isinstance(x, ir.Score) and isinstance(x.card, ir.Extreme) and x.card.points == x.points:
            return ir.Sum(x.card.source, x.points, pos=x.pos)   # reads what the scan reads
        return effects.rebuild(x, sub)
    return effects.reads(sub(n), {})
