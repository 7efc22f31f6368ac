"""An option's `any` over a location that earlier `any`s of the same option took cards from.

Poker's "discard two" reads `(any HAND 'C (move 'C DISCARD)) (any HAND 'CC (move 'CC DISCARD))`:
the second `any` ranges over the hand the first one left. The option's elements are all chosen
at the choice (the move names them all), so its range must be judged there: it is the range at
the choice without the cards the earlier moves took, which are elements already chosen. That is
exact when

- each such move is `(move 'V DST)` with 'V an `any` of the option (its head or its body) and
  nothing but `do`s between that `any` and the move: the move runs exactly when 'V is bound;
- DST is no location the range reads (the card leaves the range rather than joining it);
- the range is a location, or a filter of one whose condition reads nothing those moves write;
- nothing else that may run before the `any` writes what its range reads (as for any `any`).
"""
from __future__ import annotations

from ggpbridge import ir

from . import effects
from .exprs import unsupported

_REFUSED = "an option with an `any` after its first action"


def taken_before(stmts, k: int, skip, inner_ids: dict, head_vars: set) -> list:
    """The earlier `any`s whose cards have left the range of the `any` at stmts[k] when it runs:
    ("inner", index into the option's body `any`s) or ("head", variable). `inner_ids` maps the
    id of each body `any` found so far to its index, `head_vars` are the head's `any` variables,
    `skip` (statement, ancestors) -> bool drops actions that never run on a way to stmts[k].
    Raises unsupported when another action that may run before it writes what its range reads."""
    s = stmts[k][0]
    rs = effects.reads(s.coll, stmts[k][2])
    base, cond_reads = _base(s.coll, stmts[k][2])
    taken, excused = [], set()
    for j, (m, anc, held) in enumerate(stmts[:k]):
        if not isinstance(m, ir.Move) or skip((m, anc)) or not effects.meets(rs, effects.writes(m, held)):
            continue
        who = _binder(m, anc, inner_ids, head_vars)
        if who is None or base is None:
            continue   # left to the general check below, which refuses it
        if effects.meets(rs, effects.locations(m.dst, held)) or effects.meets(cond_reads, effects.writes(m, held)):
            continue
        taken.append(who)
        excused.add(j)
    rest = effects.written_before(stmts, k, lambda act: skip(act) or any(
        act[0] is stmts[j][0] and act[1] is stmts[j][1] for j in excused))
    if effects.meets(rs, rest):
        raise unsupported(_REFUSED, s)
    return taken


def _base(coll, held: dict):
    """(the location whose cards the range is, what else it reads) or (None, None)."""
    if isinstance(coll, ir.Location):
        return coll, set()
    if isinstance(coll, ir.Filter) and isinstance(coll.coll, ir.Location):
        return coll.coll, effects.reads(coll.cond, held)
    return None, None


def _binder(move, anc: tuple, inner_ids: dict, head_vars: set):
    """The `any` whose card `move` moves when it is bound, with only `do`s between them, or None."""
    if not isinstance(move.src, ir.Var):
        return None
    name = move.src.name
    for a in reversed(anc):
        if isinstance(a, ir.AnyOf) and a.var == name:
            return ("inner", inner_ids[id(a)]) if id(a) in inner_ids else None
        if not isinstance(a, ir.Do) or effects.bound_names(a):
            return None
    return ("head", name) if name in head_vars else None
