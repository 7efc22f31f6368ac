"""Integers beyond the tables: two digits with carries, for games whose numbers are too many.

GDL has no numbers, and today's `less` and `plus` are tables over a successor chain, about
n²/2 facts each over n numbers; worse, a rule that adds two run-time values (a storage and a
sum) grounds once per pair of them. CardStock's Hearts3/Hearts4 sum card precedences of 100
and more into scores: 11,230 and 11,434 numbers, about 130 million facts; Klaverjassen4's
scores span 2,007 numbers, whose tables and pair sums ran out of 6 GB. From `WIDE_FROM`
numbers the translation therefore splits every number N of lo..hi into two digits in base B
= ⌈√n⌉, `(ndig N H L)` with N = H·B + L and 0 <= L < B, and

* adds and subtracts digit by digit with a carry (`ladd`/`lsub` over the low digits, B²
  facts; `hadd`/`hsub` over the high ones, 2(n/B)²): about 4n facts in all, not n²;
* computes a sum of two run-time values from each operand's digits projected on their own
  (helper relations over the logic variables the value depends on, as `ExprCompiler.helper`
  does), so the ground rules count values times digits, not values times values. That is exact
  because an expression has one value in a state for given bindings of its variables;
* compares digit by digit (`hcmp`, `lcmp` give lt/eq/gt; `wlt`, `wle` read the pair; `inf`,
  an empty scan's bound, has a high digit above all);
* adds up a location's card scores along its positions on each digit (`points_sum`).

The numbers themselves are still the constants `0`, `5321`, `m26` (fluents, goals and
`player_score` read them as before). There is no `less`, `leq` or `plus` table: every literal
of theirs is read from the digits in its own rule (`rewrite`), which grounds as the table
lookup did. `num` and `succ` stay (linear: domains, counters, `reached`). A product of two
run-time values has no digit form: such a game keeps the tables. Below `WIDE_FROM` nothing
changes: today's translations stay byte for byte.

Why digits rather than only the sums a game can form: Hearts' scores are sums of any subset
of 52 precedences, which covers 0..5,800 nearly densely, so the reachable sums are the range.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import isqrt

from ggpbridge.gdl.ast import Distinct, Func, Not, Var, variables

from .terms import const, f, neg, rule

# Numbers from which the digits pay: at 3,000 the tables already ground to 9 million atoms,
# 1.1 GB and a minute (README, benchmarks/table_sizes.py), and Klaverjassen4's 2,007 (with the
# rules that add run-time values over them) ran out of 6 GB. Between Hearts and Klaverjassen
# the largest corpus translation has 762 numbers, so no other translation changes.
WIDE_FROM = 1_000

LT, EQ, GT = const("lt"), const("eq"), const("gt")


@dataclass(frozen=True)
class Wide:
    """The integers lo..hi written as two digits in base `base`."""

    lo: int
    hi: int
    base: int

    @property
    def high(self) -> range:
        return range(self.lo // self.base, self.hi // self.base + 1)


def wide_range(lo: int, hi: int) -> Wide | None:
    """The digit representation for lo..hi when it has WIDE_FROM numbers or more, else None."""
    n = hi - lo + 1
    if n < WIDE_FROM:
        return None
    base = isqrt(n - 1) + 1
    return Wide(lo, hi, base)


def _cmp(x, y):
    return LT if x < y else EQ if x == y else GT


def facts(w: Wide) -> list:
    """The digits of each number, digit addition and subtraction with carries, comparison."""
    B, high = w.base, w.high
    out = [rule(f("ndig", const(x), const(x // B), const(x % B))) for x in range(w.lo, w.hi + 1)]
    for x in range(B):
        for y in range(B):
            out.append(rule(f("ladd", const(x), const(y), const((x + y) % B), const((x + y) // B))))
            out.append(rule(f("lsub", const(x), const(y), const((x - y) % B), const(int(x < y)))))
            out.append(rule(f("lcmp", const(x), const(y), _cmp(x, y))))
    for x in high:
        for y in high:
            for c in (0, 1):
                if x + y + c in high:
                    out.append(rule(f("hadd", const(x), const(y), const(c), const(x + y + c))))
                if x - y - c in high:
                    out.append(rule(f("hsub", const(x), const(y), const(c), const(x - y - c))))
            out.append(rule(f("hcmp", const(x), const(y), _cmp(x, y))))
    # `inf`, the bound of a scan that has seen nothing yet, is above every number
    top = const(high.stop)
    out.append(rule(f("ndig", const("inf"), top, const(0))))
    out += [rule(f("hcmp", const(x), top, LT)) for x in high] + [rule(f("hcmp", top, const(x), GT)) for x in high]
    out.append(rule(f("hcmp", top, top, EQ)))
    # lexicographic: the high digits decide unless they are equal
    out += [rule(f("wlt", LT, r)) for r in (LT, EQ, GT)] + [rule(f("wlt", EQ, LT))]
    out += [rule(f("wle", LT, r)) for r in (LT, EQ, GT)] + [rule(f("wle", EQ, LT)), rule(f("wle", EQ, EQ))]
    return out


def numbers(w: Wide) -> list:
    """`num` and `succ` over the whole range: linear, for domains, counters and `reached`."""
    out = [rule(f("num", const(x))) for x in range(w.lo, w.hi + 1)]
    out += [rule(f("succ", const(x), const(x + 1))) for x in range(w.lo, w.hi)]
    return out


def rewrite(rules: list) -> list:
    """Every `less`, `leq` and `plus` literal of the rules read digit by digit instead of from a
    table: what the table would have given for numbers of lo..hi, at the cost of the rule's own
    bindings (no table of pairs is grounded). `inf` (an empty scan's bound) is above them all."""
    out = []
    for r in rules:
        if not any(isinstance(x, Func) and x.name in _TABLES for x in r.body):
            out.append(r)
            continue
        taken = {v.name for v in variables(r)}
        names = (Var(f"wd{k}") for k in range(10**6) if f"wd{k}" not in taken)
        body = []
        for x in r.body:
            if isinstance(x, Func) and x.name in _TABLES:
                body += _digits(x, names)
            else:
                body.append(x)
        out.append(type(r)(r.head, tuple(body)))
    return out


_TABLES = {"less", "leq", "plus"}


def _digits(lit: Func, names) -> list:
    """The literals that read `lit` (less, leq or plus) from the digits of its arguments."""
    if lit.name == "plus":
        a, b, z = lit.args
        (ah, al), (bh, bl), (zh, zl), c = (next(names), next(names)), (next(names), next(names)), \
            (next(names), next(names)), next(names)
        return [f("ndig", a, ah, al), f("ndig", b, bh, bl), f("ladd", al, bl, zl, c), f("hadd", ah, bh, c, zh),
                f("ndig", z, zh, zl)]
    a, b = lit.args
    ah, al, bh, bl, r1, r2 = (next(names) for _ in range(6))
    return [f("ndig", a, ah, al), f("ndig", b, bh, bl), f("hcmp", ah, bh, r1), f("lcmp", al, bl, r2),
            f("wlt" if lit.name == "less" else "wle", r1, r2)]


def add(ec, env, la, a, lb, b, sign: int, keep=()) -> tuple[list, object, list]:
    """(literals, v, missing) for v = a + b (sign 1) or a - b (sign -1), through helper rules
    appended to `ec.rules` (ec: the ExprCompiler). `keep`: variables of la the caller still
    needs (besides the environment's logic variables). `missing`: literals that hold when
    both operands have a value and the result is outside lo..hi."""
    from .exprs import DOMAIN
    logic = {bd.term: bd.type for bd in env.values() if bd.kind == "logic"}
    if env.cur is not None:
        logic[env.cur[1]] = "player"
    seen_a, seen_b = _vars(la), _vars(lb)
    ctx = []
    for v in list(keep) + sorted(seen_a | seen_b, key=lambda x: x.name):
        if (v in logic or v in keep) and v not in ctx:
            ctx.append(v)
    F = ec.fresh

    def side(lits, t, seen, hint):
        args = [v for v in ctx if v in seen]
        bound = _bound(lits)
        dom = [f(DOMAIN.get(logic[v], "value_any"), v) for v in args if v not in bound and v in logic]
        hi, lo = F.pred(hint + "_hi"), F.pred(hint + "_lo")
        h, l_ = F.var("wh"), F.var("wl")
        ec.rules.append(rule(f(hi, *args, h), *dom, *lits, f("ndig", t, h, F.var("wx"))))
        ec.rules.append(rule(f(lo, *args, l_), *dom, *lits, f("ndig", t, F.var("wx"), l_)))
        return args, hi, lo

    aa, ahi, alo = side(la, a, seen_a, "wide_a")
    ba, bhi, blo = side(lb, b, seen_b, "wide_b")
    low, hig, val, some, has = (F.pred(h) for h in ("wide_low", "wide_high", "wide_sum", "wide_some", "wide_in"))
    x, y, c, z, zh, v = (F.var(h) for h in ("wx", "wy", "wc", "wz", "wz", "wv"))
    lop, hop = ("ladd", "hadd") if sign > 0 else ("lsub", "hsub")
    ec.rules += [
        rule(f(low, *ctx, z, c), f(alo, *aa, x), f(blo, *ba, y), f(lop, x, y, z, c)),
        rule(f(hig, *ctx, zh), f(ahi, *aa, x), f(bhi, *ba, y), f(low, *ctx, F.var("wz"), c), f(hop, x, y, c, zh)),
        rule(f(val, *ctx, v), f(hig, *ctx, zh), f(low, *ctx, z, F.var("wc")), f("ndig", v, zh, z)),
        rule(f(some, *ctx), f(val, *ctx, v)),
        rule(f(has, *ctx), f(alo, *aa, x), f(blo, *ba, y)),
    ]
    return [f(val, *ctx, v)], v, [f(has, *ctx), neg(f(some, *ctx))]


def _vars(lits) -> set:
    return {v for lit in lits for v in variables(lit)}


def _bound(lits) -> set:
    """Variables a positive literal binds (not those only under `not` or `distinct`)."""
    return {v for lit in lits if not isinstance(lit, (Not, Distinct)) for v in variables(lit)}
