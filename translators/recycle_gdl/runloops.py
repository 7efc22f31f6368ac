"""`all` over `(runs largest|all N LOCATION using MAP)` in an action (or a filter of one).

The simulator (`ggpbridge.sim.ops.runs`) sorts the cards by score and lists the runs of
consecutive scores of at least N cards, in the order of their lowest score: with `largest`,
each maximal block of consecutive scores; with `all`, each block's suffixes too (from every
score of the block to its top). Two cards of equal score make it list variants, one per card;
the translation does not: such a loop ends the play as `overflow`, marked `run_variants` (the
lockstep lists it among the plays that ended so, never as agreeing).

With every score distinct, a run is the cards of the location scoring from its low score S to
its high score E: the loop keeps S and E in registers, binds the loop variable to that filter of
the location, and goes to the run with the next higher S. The simulator takes the list of runs
once, when the loop starts; the translation reads the location at each round, so the body may
not write the location or the map (else unsupported).
"""
from __future__ import annotations

from ggpbridge import ir

from . import effects
from .exprs import Binding, _number, unsupported, _what
from .terms import const, distinct, f, neg, rule, true

_LO, _HI, _CARD = "$run low", "$run high", "$run card"   # no RECYCLE variable can be spelt so


def for_runs(flow, n: ir.ForAll, lab, after, env) -> None:
    """The steps of `(all (runs …) 'R BODY)`."""
    r = n.coll
    least = _number(*flow.val(r.n, env))
    if least is None or least < 1 or not _of_a_location(r.source):
        raise unsupported(f"'all' over {_what(r)} in an action (runs of one location, of a constant "
                          f"length of at least 1)", r)
    stmts = effects.statements(n.body, {})
    written = set().union(*(effects.writes(s, h) for s, _, h in stmts if not isinstance(s, effects._STRUCTURE)))
    if effects.meets(effects.reads(r, {}), written):
        raise unsupported(f"'all' over {_what(r)} whose body may change its cards or their scores", r)
    from .runcounts import counts_variants, for_run_counts   # runcounts.py builds on this module
    if counts_variants(n, flow.bags):   # variants of runs of equal scores counted
        return for_run_counts(flow, n, least, lab, after, env)
    _loop(flow, n, r, lab, after, env, run_relations(flow, r, least, env))


def run_relations(flow, r: ir.Runs, least: int, env, walk: bool = True) -> tuple:
    """(args, run, earlier, between, twice): helper relations over the context `args` of env.
    run(args, S, E): a run of r from score S to E (when no two cards score alike); with `walk`,
    also the order of the runs (earlier, between) and twice(args): two cards score alike."""
    x, v, v2, s, e, e2, s2, s3, c = (flow.fresh.var(h) for h in "xvvseessc")
    members = flow.member(r.source, env, x)
    pl, key, po = flow.points(r.points, env)
    pred, add = flow.fresh.pred, flow.rules.append
    args, dom = flow.context(env)
    has, twice, start, reach, block, run, earlier, between = (
        pred(h) for h in ("run_has", "run_twice", "run_start", "run_reach", "run_block", "run", "run_earlier",
                          "run_between"))
    score = [*members, *pl, f("card_points", key, po, x, v)]
    add(rule(f(has, *args, v), *dom, *score))
    y = flow.fresh.var("y")
    other = [*flow.member(r.source, env, y), f("card_points", key, po, y, v)]
    if walk:
        add(rule(f(twice, *args), *dom, *score, *other, distinct(x, y)))
    # start(V): a block's lowest score (V - 1 not scored); block(S, E): S..E scored, E + 1 not
    down, up = pred("run_down"), pred("run_up")
    add(rule(f(down, *args, v), f(has, *args, v), f("succ", v2, v), f(has, *args, v2)))
    add(rule(f(up, *args, v), f(has, *args, v), f("succ", v, v2), f(has, *args, v2)))
    add(rule(f(start, *args, v), f(has, *args, v), neg(f(down, *args, v))))
    add(rule(f(reach, *args, v, v), f(start, *args, v)))
    add(rule(f(reach, *args, s, e2), f(reach, *args, s, e), f(up, *args, e), f("succ", e, e2)))
    add(rule(f(block, *args, s, e), f(reach, *args, s, e), neg(f(up, *args, e))))
    k1 = const(least - 1)
    first = s if r.mode == "largest" else s2
    runs_from = [f(block, *args, s, e)] if r.mode == "largest" else [f(block, *args, s, e), f(reach, *args, s, s2)]
    # run(S, E): a run from S to E of at least `least` cards (E - S >= least - 1)
    lo = flow.fresh.var("l")
    add(rule(f(run, *args, first, e), *runs_from, f("plus", first, k1, lo), f("leq", lo, e)))
    if walk:
        add(rule(f(earlier, *args, s), f(run, *args, s, e), f(run, *args, s2, e2), f("less", s2, s)))
        add(rule(f(between, *args, s, s3), f(run, *args, s, e), f(run, *args, s2, e2), f(run, *args, s3, c),
                 f("less", s, s2), f("less", s2, s3)))
        flow.used.add("overflow")
    flow.used.add("plus")
    return args, run, earlier, between, twice


def _of_a_location(src) -> bool:
    """A location, or a filter of one (Klaverjassen: the cards of one suit of a partition,
    partlets.py): read at each round like the location, under the same check on the body."""
    return isinstance(src, ir.Location) or (isinstance(src, ir.Filter) and isinstance(src.coll, ir.Location))


def _loop(flow, n, r, lab, after, env, rels) -> None:
    args, run, earlier, between, twice = rels
    lo_reg, hi_reg = flow.reg("v", "num"), flow.reg("v", "num")
    body, tick = flow.label(), flow.label()
    s, e, s2, e2 = (flow.fresh.var(h) for h in "sese")
    # the loop variable: the cards of the location scoring from the low to the high register
    card = ir.Var(_CARD, pos=r.pos)
    sc = ir.Score(card, r.points, pos=r.pos)
    cond = ir.BoolOp("and", (ir.Compare(">=", sc, ir.Var(_LO, pos=r.pos), pos=r.pos),
                             ir.Compare("<=", sc, ir.Var(_HI, pos=r.pos), pos=r.pos)), pos=r.pos)
    inner = env.child(**{_LO: Binding("fluent", lo_reg, "int"), _HI: Binding("fluent", hi_reg, "int")})
    inner[n.var] = Binding("alias", (ir.Filter(r.source, _CARD, cond, pos=r.pos), inner), flow.type_of(r.source, env))
    ok = [neg(f(twice, *args))]
    at_lab = flow.at(lab)
    _, dom = flow.context(env)
    flow.rules.append(rule(f("nx", const("run_variants")), at_lab, *dom, f(twice, *args)))
    flow.rules.append(rule(f("nx", const("overflow")), at_lab, *dom, f(twice, *args)))
    flow.rules.append(rule(f("base", const("run_variants"))))
    first = [*dom, f(run, *args, s, e), neg(f(earlier, *args, s)), *ok]
    flow.rules.append(rule(f("var_put", lo_reg, s), at_lab, *first))
    flow.rules.append(rule(f("var_put", hi_reg, e), at_lab, *first))
    flow.goto(lab, body, *first)
    some = flow.fresh.pred("run_some")
    flow.rules.append(rule(f(some, *args), f(run, *args, s, e)))
    flow.goto(lab, after, *dom, neg(f(some, *args)), *ok)
    flow.stmt(n.body, body, tick, inner)
    cur = [true(f("var", lo_reg, s))]
    nxt = [*dom, *cur, f(run, *args, s2, e2), f("less", s, s2), neg(f(between, *args, s, s2))]
    flow.rules.append(rule(f("var_put", lo_reg, s2), flow.at(tick), *nxt))
    flow.rules.append(rule(f("var_put", hi_reg, e2), flow.at(tick), *nxt))
    flow.goto(tick, body, *nxt)
    later = flow.fresh.pred("run_later")
    flow.rules.append(rule(f(later, *args, s), *dom, *cur, f(run, *args, s2, e2), f("less", s, s2)))
    last = [*dom, *cur, neg(f(later, *args, s))]
    flow.rules.append(rule(f("var_kill", lo_reg), flow.at(tick), *last))
    flow.rules.append(rule(f("var_kill", hi_reg), flow.at(tick), *last))
    flow.goto(tick, after, *last)

