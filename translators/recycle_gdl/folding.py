"""Integer expressions whose value is known when the game is translated (literals, declared values).

The simulator evaluates such an expression each time it runs and always gets the same number,
so the translation may use the number: `(^ 10 2)`, `(fib 7)` or `(tri 3)` as an award's value
is a literal award (the point map's static table), not one computed at run time.
"""
from __future__ import annotations

from dataclasses import replace

from ggpbridge import ir
from ggpbridge.errors import GameDefinitionError
from ggpbridge.sim.exprs import _INT_OPS, fib, tri
from ggpbridge.sim.limits import MAX_VALUE

from .exprs import _number

# fib grows exponentially: past this its value is far outside every integer a game may hold
_FIB_ARG = 100


def constant(n, env) -> int | None:
    """The value of integer expression n when it reads neither the state nor chance, else None
    (also when the value is outside the integers a game may hold, or is an error such as a
    division by zero: the simulator's run-time error stays the translation's refusal)."""
    try:
        v = _fold(n, env)
    except (GameDefinitionError, OverflowError, ZeroDivisionError):
        return None
    return v if v is not None and -MAX_VALUE <= v <= MAX_VALUE else None


def _fold(n, env) -> int | None:
    if isinstance(n, ir.IntLit):
        return n.value
    if isinstance(n, ir.Var):
        b = env.get(n.name)
        return _number([], b.term) if b is not None and b.kind == "const" and b.type == "int" else None
    if isinstance(n, ir.Arith):
        a, b = _fold(n.left, env), _fold(n.right, env)
        if a is None or b is None:
            return None
        if n.op == "^" and b > 0 and abs(a) > 1 and b > 64:   # beyond every game integer anyway
            return None
        return _INT_OPS[n.op](a, b)
    if isinstance(n, (ir.Tri, ir.Fib)):
        a = _fold(n.arg, env)
        if a is None or (isinstance(n, ir.Fib) and abs(a) > _FIB_ARG):
            return None
        return tri(a) if isinstance(n, ir.Tri) else fib(a)
    return None


def folded_awards(awards, env) -> tuple:
    """A point map's awards with each value known at translation time made a literal."""
    out = []
    for a in awards:
        v = None if isinstance(a.value, ir.IntLit) else constant(a.value, env)
        out.append(a if v is None else replace(a, value=ir.IntLit(v, pos=a.value.pos)))
    return tuple(out)
