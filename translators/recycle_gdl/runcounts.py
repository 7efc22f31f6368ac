"""`all` over `(runs largest N LOC using MAP)` whose body reads only the run's size and whose
rounds commute (Cribbage's run scoring): the variants of runs of cards with equal scores counted.

With two cards of one score in a block the simulator lists a variant of its run per card
(`ggpbridge.sim.ops.runs`): a block of scores S..E lists the product of the numbers of cards
of each score, all of E - S + 1 cards. runloops.py's walk ends such a play as `overflow`; when
BODY reads 'R only as `(size 'R)` and its rounds commute and move no card (partlets.py's test),
the order and the cards of the variants do not show, so each block of at least N scores runs
BODY that product of times with the size E - S + 1. The walk over the blocks is runloops.py's
(its run relation counts distinct scores).
"""
from __future__ import annotations

from ggpbridge import ir

from . import effects
from .exprs import Binding, unsupported, _what
from .partlets import _commutes
from .runloops import _HI, _LO, run_relations
from .terms import const, distinct, f, neg, rule, true


def counts_variants(n: ir.ForAll, bags) -> bool:
    """Whether `n` (an `all` over runs) is translated here: `largest` runs, a body reading the
    run only as its size, rounds commuting without moving a card."""
    r, var = n.coll, n.var
    sizes = {id(x.coll) for x in n.body.walk() if isinstance(x, ir.Size) and x.coll == ir.Var(var)}
    only_size = all(id(x) in sizes for x in n.body.walk() if isinstance(x, ir.Var) and x.name == var)
    return (r.mode == "largest" and only_size and isinstance(r.source, ir.Location)
            and not any(isinstance(x, (ir.Move, ir.RepeatAll, ir.Remember)) for x in n.body.walk())
            and _commutes(n.body, var, effects.reads(r, {}), bags))


def for_run_counts(flow, n: ir.ForAll, least: int, lab, after, env) -> None:
    """The steps of `n` (module doc) at `lab`, going on to `after`."""
    r = n.coll
    args, run, earlier, between, _ = run_relations(flow, r, least, env)
    v, v2, m, m2, p, p2, s, e = (flow.fresh.var(h) for h in "vvmmppse")
    _, dom = flow.context(env)
    size = _replace_size(n.body, n.var, ir.Arith("+", ir.Arith("-", ir.Var(_HI, pos=r.pos), ir.Var(_LO, pos=r.pos),
                                                             pos=r.pos), ir.IntLit(1, pos=r.pos), pos=r.pos))
    if size is None:
        raise unsupported(f"'all' over {_what(r)} whose body rebinds a name", n)
    # many(args, V, M): M cards score V; prod(args, S, V, P): the product of those from S to V
    many, prod = flow.fresh.pred("run_many"), flow.fresh.pred("run_prod")
    count = _count_cards(flow, r, env, args, dom)
    add = flow.rules.append
    add(rule(f(many, *args, v, m), f(count, *args, v, m)))
    add(rule(f(prod, *args, s, s, m), f(run, *args, s, e), f(many, *args, s, m)))
    add(rule(f(prod, *args, s, v2, p2), f(prod, *args, s, v, p), f(run, *args, s, e), f("less", v, e),
             f("succ", v, v2), f(many, *args, v2, m2), f("times", p, m2, p2)))
    flow.used.update({"times", "plus"})
    lo_reg, hi_reg = flow.reg("v", "num"), flow.reg("v", "num")
    inner = env.child(**{_LO: Binding("fluent", lo_reg, "int"), _HI: Binding("fluent", hi_reg, "int")})
    body, tick = flow.label(), flow.label()
    first = [*dom, f(run, *args, s, e), neg(f(earlier, *args, s))]
    flow.rules.append(rule(f("var_put", lo_reg, s), flow.at(lab), *first))
    flow.rules.append(rule(f("var_put", hi_reg, e), flow.at(lab), *first))
    flow.goto(lab, body, *first)
    some = flow.fresh.pred("run_some")
    flow.rules.append(rule(f(some, *args), f(run, *args, s, e)))
    flow.goto(lab, after, *dom, neg(f(some, *args)))
    # the block's body, as many times as it has variants
    cur = [*dom, true(f("var", lo_reg, s)), true(f("var", hi_reg, e))]
    rid = flow.reg("r", "num")
    flow.count_down(rid, cur + [f(prod, *args, s, e, p)], p, body,
                    lambda start, back: flow.stmt(size, start, back, inner), tick)
    s2, e2 = flow.fresh.var("s"), flow.fresh.var("e")
    nxt = [*cur, f(run, *args, s2, e2), f("less", s, s2), neg(f(between, *args, s, s2))]
    flow.rules.append(rule(f("var_put", lo_reg, s2), flow.at(tick), *nxt))
    flow.rules.append(rule(f("var_put", hi_reg, e2), flow.at(tick), *nxt))
    flow.goto(tick, body, *nxt)
    later = flow.fresh.pred("run_later")
    flow.rules.append(rule(f(later, *args, s), *cur, f(run, *args, s2, e2), f("less", s, s2)))
    last = [*cur, neg(f(later, *args, s))]
    flow.rules.append(rule(f("var_kill", lo_reg), flow.at(tick), *last))
    flow.rules.append(rule(f("var_kill", hi_reg), flow.at(tick), *last))
    flow.goto(tick, after, *last)


def _count_cards(flow, r, env, args, dom):
    """count(args, V, M): M cards of r's location score V (M >= 1), counted up its positions."""
    lits, l, o = flow.loc(r.source, env)
    pl, key, po = flow.points(r.points, env)
    at, cnt, count = flow.fresh.pred("run_at"), flow.fresh.pred("run_cnt"), flow.fresh.pred("run_count")
    i, i2, k, k2, c, v, w, z = (flow.fresh.var(h) for h in "iikkcvwz")
    add = flow.rules.append
    add(rule(f(at, *args, i, v), *dom, *lits, *pl, true(f("at", l, o, i, c)), f("card_points", key, po, c, v)))
    # cnt(args, V, I, K): K cards below position I score V
    add(rule(f(cnt, *args, v, const(0), const(0)), f(at, *args, i, v)))
    add(rule(f(cnt, *args, v, i2, k2), f(cnt, *args, v, i, k), f(at, *args, i, v), f("isucc", i, i2),
             f("isucc", k, k2)))
    add(rule(f(cnt, *args, v, i2, k), f(cnt, *args, v, i, k), f(at, *args, i, w), distinct(v, w),
             f("isucc", i, i2)))
    add(rule(f(count, *args, v, k), f(cnt, *args, v, z, k), *dom, *lits, f("size", l, o, z)))
    return count


def _replace_size(n, var: str, by):
    """n with every `(size 'var)` replaced by `by`."""
    if isinstance(n, ir.Size) and n.coll == ir.Var(var):
        return by
    return effects.rebuild(n, lambda x: _replace_size(x, var, by))
