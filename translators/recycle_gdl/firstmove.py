"""An option whose first action puts the option's card on top of a location that later `any`s read.

Scopa plays a card to the trick, then looks for pool cards matching the trick's top:

    (any HAND 'AC (do ((move 'AC (top TRICK)) (any (filter POOL 'PC (== ... (top TRICK))) 'PCF ...) ...)))

The option's elements are chosen at the choice, so the later `any`s' ranges are judged there,
where TRICK's top is not yet 'AC. Once the move has run, `(top TRICK)` is 'AC for as long as
nothing writes TRICK: the rewriting puts 'AC for `(top TRICK)` in the ranges of the later
`any`s (and nowhere else: the body runs at run time, where the move has run). That is exact when

- the body of the option (after its head's `any`s and conditions) is a `do` whose first item is
  `(move 'V (top L))`, 'V an `any` of the head, L a location;
- no other action of the body writes L, the player cycle (L's owner reads it) or anything else
  `(top L)` reads (a storage naming L at run time), and neither 'V nor a name L reads is
  rebound in the body.

Other writes (the move takes 'V from its range, which the later ranges may read) are judged as
for any `any` of an option's body (options.py).
"""
from __future__ import annotations

from ggpbridge import ir

from . import effects


def rewrite(form):
    """The option form with `(top L)` read as 'V in the ranges of the `any`s after its first
    action `(move 'V (top L))` (module doc); the form itself when that does not apply."""
    heads, node = _head(form)
    if not (isinstance(node, ir.Do) and node.items and isinstance(node.items[0], ir.Move)):
        return form
    mv, rest = node.items[0], node.items[1:]
    top = mv.dst
    if not (isinstance(mv.src, ir.Var) and mv.src.name in heads and isinstance(top, ir.CardAt)
            and top.where == "top" and isinstance(top.source, ir.Location)):
        return form
    if not any(isinstance(x, ir.AnyOf) and _holds(x.coll, top) for r in rest for x in r.walk()):
        return form
    if any(effects.var_names(top) & effects.bound_names(x) for r in rest for x in r.walk()):
        return form   # a name `(top L)` reads is rebound: the same text would mean another location
    def in_range(n):
        if isinstance(n, ir.AnyOf):
            return ir.AnyOf(_put(n.coll, top, mv.src), n.var, effects.rebuild(n.body, in_range), pos=n.pos)
        return effects.rebuild(n, in_range)
    rest = tuple(in_range(r) for r in rest)
    # judged on the ranges rewritten: a card taken from a range that read L no longer lies in L
    # everything `(top L)` reads: L, and what names L at run time (a str storage, the cycle)
    read = effects.reads(top, {}) | {("cycle",)}
    for s, _, held in effects.statements(ir.Do(rest, pos=node.pos), {}):
        if mv.src.name in effects.bound_names(s):
            return form
        if not isinstance(s, effects._STRUCTURE) and effects.meets(read, effects.writes(s, held)):
            return form
    new = ir.Do((mv,) + rest, pos=node.pos)
    return _with_body(form, new)


def _holds(n, part) -> bool:
    return any(x == part for x in n.walk())


def _put(n, part, by):
    """n with every sub-expression equal to `part` replaced by `by`."""
    if n == part:
        return by
    return effects.rebuild(n, lambda x: _put(x, part, by))


def _head(form):
    """(the head's `any` variables, the body after the head), peeling `do`s of one item,
    conditions and `any`s as options.option_head does."""
    names, node = set(), form
    while True:
        if isinstance(node, ir.Do) and len(node.items) == 1:
            node = node.items[0]
        elif isinstance(node, ir.AnyOf):
            names.add(node.var)
            node = node.body
        elif isinstance(node, ir.CondAct):
            node = node.body
        else:
            return names, node


def _with_body(form, new):
    """form with the body `_head` finds replaced by `new`."""
    if isinstance(form, ir.Do) and len(form.items) == 1:
        return ir.Do((_with_body(form.items[0], new),), pos=form.pos)
    if isinstance(form, ir.AnyOf):
        return ir.AnyOf(form.coll, form.var, _with_body(form.body, new), pos=form.pos)
    if isinstance(form, ir.CondAct):
        return ir.CondAct(form.cond, _with_body(form.body, new), pos=form.pos)
    return new
