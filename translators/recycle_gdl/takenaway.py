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

Coup's ambassador first draws: `(repeat 2 (move (top STOCK) (top HAND)))` before the `any`s over
HAND. One such draw of a constant N cards from the top of another ordered location, run whenever
the `any` is (an earlier item of a `do` around it), adds the top N cards of that location at
the choice to the range (all of them when it holds fewer), provided nothing else before the
`any` writes that location and the moves above put no card on it.
"""
from __future__ import annotations

from ggpbridge import ir

from . import effects
from .exprs import Binding, unsupported
from .terms import f, true

_REFUSED = "an option with an `any` after its first action"


def taken_before(stmts, k: int, skip, inner_ids: dict, head_vars: set):
    """(taken, drawn) for the `any` at stmts[k]. taken: the earlier `any`s whose cards have left
    its range when it runs, ("inner", index into the option's body `any`s) or ("head", variable);
    drawn: None or (location, N), a draw of N cards from its top into the range. `inner_ids`
    maps the id of each body `any` found so far to its index, `head_vars` are the head's `any`
    variables, `skip` (statement, ancestors) -> bool drops actions that never run on a way to
    stmts[k]. Raises unsupported when another action that may run before it writes what its
    range reads."""
    s, anc_s, held_s = stmts[k]
    rs = effects.reads(s.coll, held_s)
    base, cond_reads = _base(s.coll, held_s)
    drawn, draw_at = None, None
    for j, (m, anc, held) in enumerate(stmts[:k]):
        src = _draw(m, anc, anc_s, base)
        if src is not None and drawn is None and not skip((m.body, anc + (m,))):
            drawn, draw_at = (src, m.count.value), j
    if drawn is not None:
        rs = rs | effects.reads(drawn[0], held_s)
    taken, excused = [], (set() if draw_at is None else {draw_at, draw_at + 1})   # the `repeat` and its move
    for j, (m, anc, held) in enumerate(stmts[:k]):
        if j in excused or not isinstance(m, ir.Move) or skip((m, anc)) \
                or not effects.meets(rs, effects.writes(m, held)):
            continue
        who = _binder(m, anc, inner_ids, head_vars)
        if who is None or base is None:
            continue   # left to the general check below, which refuses it
        if effects.meets(rs, effects.locations(m.dst, held)) or effects.meets(cond_reads, effects.writes(m, held)):
            continue
        if drawn is not None and effects.meets(effects.reads(drawn[0], held), effects.locations(m.src, held)):
            continue   # a card taken from where the draw takes its cards
        taken.append(who)
        excused.add(j)
    rest = effects.written_before(stmts, k, lambda act: skip(act) or any(
        act[0] is stmts[j][0] and act[1] is stmts[j][1] for j in excused))
    if effects.meets(rs, rest):
        raise unsupported(_REFUSED, s)
    return taken, drawn


def _draw(n, anc: tuple, anc_s: tuple, base):
    """The location n draws from when n is `(repeat N (move (top L) (top|bottom BASE)))` with N a
    constant, run whenever the `any` (ancestors anc_s) is: its own ancestors end in a `do`
    around the `any`. Else None."""
    if base is None or not isinstance(base, ir.Location) or not isinstance(n, ir.Repeat) \
            or not isinstance(n.count, ir.IntLit) or n.count.value < 1 or not isinstance(n.body, ir.Move):
        return None
    m = n.body
    if not (isinstance(m.src, ir.CardAt) and m.src.where == "top" and isinstance(m.src.source, ir.Location)
            and isinstance(m.dst, ir.CardAt) and m.dst.where in ("top", "bottom") and m.dst.source == base
            and m.src.source != base):
        return None
    if not anc or not isinstance(anc[-1], ir.Do) or len(anc) > len(anc_s) \
            or any(a is not b for a, b in zip(anc, anc_s)):
        return None
    return m.src.source


def drawn_member(tr, coll, drawn, env, x) -> list:
    """Literals binding x to each card of the range `coll` once `drawn` (location, N) was drawn
    into it: its cards at the choice and the top N cards of the location (`tr`: the translator)."""
    if drawn is None:
        return tr.member(coll, env, x)
    if not isinstance(coll, ir.Location):
        raise unsupported(_REFUSED, coll)
    src, count = drawn
    lits, l, o = tr.loc(src, env)
    if l in tr.bags:
        raise unsupported(_REFUSED, src)
    i, z = tr.fresh.var("i"), tr.fresh.var("z")
    tops = []
    for t in range(1, count + 1):   # x lies t places below the size (t = 1: the top card)
        steps = [i] + [tr.fresh.var("i") for _ in range(t - 1)] + [z]
        tops.append(lits + [f("size", l, o, z), true(f("at", l, o, i, x))]
                    + [f("isucc", a, b) for a, b in zip(steps, steps[1:])])
    cx = env.child(**{"$x": Binding("logic", x, "card")})
    return [tr.helper("drawn", cx, [tr.member(coll, env, x)] + tops)]


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
