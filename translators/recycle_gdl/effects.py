"""What statements may write and expressions read, to judge at a choice what an option runs later.

An option's `any` after an action (or a `let` of a collection used after one) can be judged in
the state at the choice only when no action that may run before it writes what it reads. The
analysis is by name and conservative: locations by name (every owner), storages by key, the
player cycle as one resource; anything not named statically is `*` and meets everything.
"""
from __future__ import annotations

from dataclasses import fields, replace

from ggpbridge import ir

ALL = ("*",)
_LOOPS = (ir.ForAll, ir.Repeat, ir.RepeatAll)
_BINDERS = (ir.Filter, ir.Quantified, ir.AggCards, ir.AnyOf, ir.ForAll, ir.Let)


def _key(k) -> str:
    if isinstance(k, str):
        return k
    if isinstance(k, ir.Name):
        return k.value
    return "*"


def reads(n, held: dict) -> set:
    """The resources expression n reads; `held` maps card variables to where their card may lie."""
    out = set()
    for x in n.walk():
        if isinstance(x, ir.Location):
            out.add(("loc", _key(x.name)))
        elif isinstance(x, ir.IntStorage):
            out.add(("int", _key(x.key)))
        elif isinstance(x, ir.StrStorage):
            out.add(("str", _key(x.key)))
        elif isinstance(x, ir.PointsRef):
            out.add(("pts", _key(x.name)))
        elif isinstance(x, (ir.PlayerRef, ir.TeamRef)) and x.which in ("current", "next", "previous"):
            out.add(("cycle",))
        elif isinstance(x, ir.Other):
            out.add(("cycle",))
        elif isinstance(x, (ir.OwnerOf, ir.Actual, ir.Random, ir.Extreme)):
            out.add(ALL)   # where a card lies, or chance: not judged here
    return out


def locations(coll, held: dict) -> set:
    """Where a card taken from `coll` (or named by a card expression) may lie."""
    if isinstance(coll, ir.Var):
        return held.get(coll.name, {ALL})
    if isinstance(coll, ir.CardAt):
        return locations(coll.source, held)
    found = {r for r in reads(coll, held) if r[0] == "loc" or r == ALL}
    return found or {ALL}


def writes(n, held: dict) -> set:
    """The resources the primitive action n writes."""
    if isinstance(n, (ir.Move, ir.Remember)):
        return locations(n.src, held) | locations(n.dst, held)
    if isinstance(n, ir.Shuffle):
        return locations(n.target, held)
    if isinstance(n, ir.Faro):
        return locations(n.first, held) | locations(n.second, held)
    if isinstance(n, (ir.SetInt, ir.Inc, ir.Dec)):
        return {("int", _key(n.target.key))}
    if isinstance(n, ir.SetStr):
        return {("str", _key(n.target.key))}
    if isinstance(n, ir.SetPoints):
        return {("pts", _key(n.target.name))}
    if isinstance(n, ir.Cycle):
        return {("cycle",)}
    if isinstance(n, ir.TurnPass):
        return set()
    return {ALL}


def meets(rs: set, ws: set) -> bool:
    """Whether a write in ws may change a read in rs."""
    for w in ws:
        if w == ALL:
            return True
        for r in rs:
            if r == ALL or (r[0] == w[0] and (r[1:] == w[1:] or "*" in (r[1:] + w[1:]))):
                return True
    return False


def statements(body, held: dict):
    """The statements of body in the order they start (pre-order): (node, ancestors, held)."""
    out = []

    def walk(n, anc, held):
        out.append((n, anc, held))
        inner = anc + (n,)
        if isinstance(n, ir.Do):
            for i in n.items:
                walk(i, inner, held)
        elif isinstance(n, (ir.AnyOf, ir.ForAll)):
            walk(n.body, inner, {**held, n.var: locations(n.coll, held)})
        elif isinstance(n, ir.Let):
            walk(n.body, inner, {**held, n.var: locations(n.value, held)})
        elif isinstance(n, (ir.CondAct, ir.Repeat, ir.RepeatAll)):
            walk(n.body, inner, held)
    walk(body, (), held)
    return out


def own_parts(n):
    """The expressions a statement evaluates itself (not those of its sub-statements)."""
    if isinstance(n, ir.CondAct):
        return [n.cond] if n.cond is not None else []
    if isinstance(n, (ir.AnyOf, ir.ForAll)):
        return [n.coll]
    if isinstance(n, ir.Let):
        return [n.value]
    if isinstance(n, ir.Repeat):
        return [n.count]
    if isinstance(n, (ir.Do, ir.RepeatAll)):
        return []
    return [n]


_STRUCTURE = (ir.Do, ir.CondAct, ir.AnyOf, ir.ForAll, ir.Let, ir.Repeat, ir.RepeatAll)


def written_before(stmts, k: int, skip=lambda s: False) -> set:
    """What the actions that may run before statement k starts write: those earlier in
    pre-order, and every action of a loop around k (an earlier round ran them)."""
    node, anc, _ = stmts[k]
    loops = {id(x) for x in anc if isinstance(x, _LOOPS)}
    out = set()
    for j, (s, a, held) in enumerate(stmts):
        if j == k or isinstance(s, _STRUCTURE):
            continue
        if (j < k and not skip((s, a))) or (j > k and any(id(x) in loops for x in a)):
            out |= writes(s, held)
    return out


def bound_names(n) -> set:
    """The variable names bound by n itself (a statement's or expression's binder)."""
    return {n.var} if isinstance(n, _BINDERS) else set()


def var_names(n) -> set:
    return {x.name for x in n.walk() if isinstance(x, ir.Var)}


def conjuncts(c) -> list:
    if isinstance(c, ir.BoolOp) and c.op == "and":
        return [y for x in c.args for y in conjuncts(x)]
    return [c]


def exclusive(a, b) -> bool:
    """Whether conditions a and b can never hold together on the same data (by their form)."""
    for x in conjuncts(a):
        for y in conjuncts(b):
            if not (isinstance(x, ir.Compare) and isinstance(y, ir.Compare)):
                continue
            if x.left != y.left:
                continue
            if {x.op, y.op} == {"==", "!="} and x.right == y.right:
                return True
            lits = (ir.IntLit, ir.Name)
            if (x.op == y.op == "==" and isinstance(x.right, lits) and isinstance(y.right, lits)
                    and x.right != y.right):   # one value cannot equal two different constants
                return True
            if isinstance(x.right, ir.IntLit) and isinstance(y.right, ir.IntLit):
                if _never(x.op, x.right.value, y.op, y.right.value):
                    return True
    return False


def _never(op1, a: int, op2, b: int) -> bool:
    """Whether no integer v has `v op1 a` and `v op2 b` (checked over the values that matter)."""
    test = {"==": lambda v, k: v == k, "!=": lambda v, k: v != k, "<": lambda v, k: v < k,
            "<=": lambda v, k: v <= k, ">": lambda v, k: v > k, ">=": lambda v, k: v >= k}
    if op1 not in test or op2 not in test:
        return False
    return not any(test[op1](v, a) and test[op2](v, b) for v in range(min(a, b) - 1, max(a, b) + 2))
    return False


def substitute(n, var: str, value):
    """n with every `'var` replaced by `value`; None when a binder inside n rebinds `var` or a
    variable `value` reads (the value would mean something else there)."""
    free = {x.name for x in value.walk() if isinstance(x, ir.Var)} | {var}

    def sub(x):
        if isinstance(x, ir.Var):
            return value if x.name == var else x
        if isinstance(x, _BINDERS) and x.var in free:
            raise _Captured
        return rebuild(x, sub)
    try:
        return sub(n)
    except _Captured:
        return None


def rebuild(n, sub):
    """n with `sub` applied to each node it holds (n itself when nothing changed)."""
    changes = {}
    for fl in fields(n):
        if fl.name == "pos":
            continue
        v = getattr(n, fl.name)
        nv = replace_in(v, sub)
        if nv is not v:
            changes[fl.name] = nv
    return replace(n, **changes) if changes else n


def replace_in(v, sub):
    """A field's value with `sub` applied to its nodes (tuples rebuilt only when changed)."""
    if isinstance(v, ir.Node):
        return sub(v)
    if isinstance(v, tuple):
        new = tuple(replace_in(x, sub) for x in v)
        return v if all(a is b for a, b in zip(new, v)) else new
    return v


class _Captured(Exception):
    pass
