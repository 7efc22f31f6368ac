"""An option's `any` whose range an earlier `any`'s body empties.

Scopa's option captures a matching card or, when none matches, a subset of the pool:

    (any (filter POOL ...) 'PCF (do ((move 'PCF BUNDLE) (set MOVED 1))))
    (any (filter (subsets POOL) 'SUB (and (!= MOVED 1) ...)) 'SUBMATCH ...)

The second range reads what the first body writes, so options.py would refuse it. But when the
first `any` is taken its body sets MOVED to 1, and the second range is empty, whatever else it
reads; when it is not taken its body never runs. So the second `any` is judged at the choice
as usual on the ways that do not take the first (the first body's actions left out of what runs
before it), and is not taken on the ways that take it. That is exact when

- the earlier `any`'s body sets an integer storage S, named without variables, to a constant C
  unconditionally (only `do`s between the `any` and the `set`), and nothing after the `set` in
  that body writes S;
- nothing between the `set` and this `any` writes S or anything naming S (its owner, a str
  storage as its key), and nothing in the option's body writes the player cycle;
- this `any`'s range is a filter whose condition has a conjunct comparing S (the same
  expression) with a constant that C fails.
"""
from __future__ import annotations

import operator

from ggpbridge import ir

from . import effects

_OPS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
        ">=": operator.ge}


def killed_by(stmts, k: int, inner: list, pos: dict) -> list:
    """Indices into `inner` (the option's body `any`s found so far, options._Inner) of those
    whose body empties the range of the `any` at stmts[k] (module doc). `pos` maps a statement's
    id to its index in stmts."""
    s, anc, _ = stmts[k]
    if not isinstance(s.coll, ir.Filter):
        return []
    tests = [c for c in effects.conjuncts(s.coll.cond) if isinstance(c, ir.Compare)
             and s.coll.var not in effects.var_names(c)]
    if not tests or any(effects.meets({("cycle",)}, _writes(x)) for x in stmts):
        return []
    out = []
    mine = {id(a) for a in anc}
    for i, p in enumerate(inner):
        if id(p.node) in mine:
            continue   # an `any` around this one
        start = pos[id(p.node)]
        for j in range(start + 1, k):
            m, m_anc, held = stmts[j]
            if not isinstance(m, ir.SetInt) or not isinstance(m.value, ir.IntLit) \
                    or effects.var_names(m.target) or not _only_dos(m_anc, p.node):
                continue
            # S, and what names S (its owner, a str key): the same text must mean the same storage
            key = effects.writes(m, held) | effects.reads(m.target, held)
            later = [x for x in stmts[j + 1:k] if x[0] is not m]
            if any(effects.meets(key, _writes(x)) for x in later):
                continue
            if any(_fails(c, m.target, m.value.value) for c in tests):
                out.append(i)
                break
    return out


def _writes(stmt) -> set:
    s, _, held = stmt
    return set() if isinstance(s, effects._STRUCTURE) else effects.writes(s, held)


def _only_dos(anc: tuple, top) -> bool:
    """Whether `top` is among the ancestors and only `do`s lie between it and the statement."""
    for a in reversed(anc):
        if a is top:
            return True
        if not isinstance(a, ir.Do):
            return False
    return False


def _fails(c: ir.Compare, target, value: int) -> bool:
    """Whether comparison c is false once `target` holds `value` (c compares it with a constant)."""
    if c.left == target and isinstance(c.right, ir.IntLit):
        return not _OPS[c.op](value, c.right.value)
    if c.right == target and isinstance(c.left, ir.IntLit):
        return not _OPS[c.op](c.left.value, value)
    return False
