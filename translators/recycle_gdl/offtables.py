"""Values the integer tables cannot hold: a `set` of such a value ends the play as `overflow`.

GDL has no numbers, so a translation computes with finite tables (`plus`, `times`, digits in
wide.py). A sum or product can fall outside them: its lookup then has no row, the `set` derives
no `set_int`, and the storage would keep its old value, silently a different game. An `inc`/`dec`
checks that its result has room (`has_sum`), but that check needs the amount too. So a `set`,
`inc` or `dec` whose value goes through the tables' arithmetic (`table_arithmetic`) derives
`overflow` when no value is found (`missing_value`), and the play ends with every goal 0, as any
play beyond its tables does. A value that cannot leave the tables (a literal, a storage, a size,
a quotient) is translated as before.

Arithmetic inside a condition (`(> (* X 50) 120)`) is condguard.py's.
"""
from __future__ import annotations

from ggpbridge.gdl.ast import Distinct, Func, Not, variables

from .terms import f, neg, rule


def table_arithmetic(lits: list) -> bool:
    """Whether these literals add or multiply through the integer tables, whose results can
    fall outside them (a quotient or a remainder of a value in the tables stays inside)."""
    return any(isinstance(x, Func) and (x.name in ("plus", "times") or x.name.startswith("times_")
                                        or "_wide_sum" in x.name) for x in lits)


def missing_value(ec, env, lo: list, lv: list) -> list:
    """Literals that hold when the storage's owner (`lo`) is found but the value (`lv`) has none
    in the tables, through a helper rule appended to `ec.rules` (ec: the ExprCompiler)."""
    from .exprs import DOMAIN
    logic = {b.term: b.type for b in env.values() if b.kind == "logic"}
    if env.cur is not None:
        logic[env.cur[1]] = "player"
    bound = {v for x in lo if not isinstance(x, (Not, Distinct)) for v in variables(x)}
    seen = {v for x in lv for v in variables(x)}
    args = sorted((seen & bound) | {v for v in seen if v in logic}, key=lambda v: v.name)
    dom = [f(DOMAIN.get(logic[v], "value_any"), v) for v in args if v not in bound]
    has = f(ec.fresh.pred("set_has"), *args)
    ec.rules.append(rule(has, *dom, *lo, *lv))
    return [*lo, *dom, neg(has)]
