"""`all` over the subsets of cards that only counts those of a given sum (Cribbage's fifteens):

    (all (subsets LOCS) 'S ((== (sum 'S using MAP) E) BODY))

The simulator lists all 2^n subsets and runs BODY for each whose sum is E. When BODY's rounds
commute and move no card (partlets.py's test: `inc`/`dec` of storages nothing here reads), that
is BODY run K times in a row, K the number of subsets of sum E. The translation counts them as
one counts by hand, card by card up the union (its locations in turn): `ways(args, J, S, W)`,
W subsets of the first J cards sum to S, for every S in 0..E (every score must be a literal
award of at least 0 and E a constant, so a larger partial sum never comes back to E). The
grounder cannot tell how many cards a location will hold, so it takes every count up to the
tables' largest at every J it must consider: J is bounded by MOST cards (2^6 subsets), and a
union of more cards, or a count the tables lack, ends the play as `overflow`.
"""
from __future__ import annotations

from ggpbridge import ir
from ggpbridge.gdl.ast import Var

from . import effects
from .exprs import _number, unsupported, _what
from .partlets import _commutes
from .terms import const, f, name, neg, rule, true

MOST = 6   # cards of the union counted: 2^6 subsets; a play with more ends as `overflow`
_REFUSED = ("'all' over subsets other than one whose body counts the subsets of a constant sum of scores at "
            "least 0 (`((== (sum 'S using MAP) E) BODY)`, BODY's rounds commuting, moving no card)")


def for_subset_sums(fl, n: ir.ForAll, lab: str, after: str, env) -> None:
    """Compile `n` (module doc) at `lab`, going on to `after` (`fl`: the flow)."""
    locs = _locations(n.coll.source)
    body = n.body
    while isinstance(body, ir.Do) and len(body.items) == 1:
        body = body.items[0]
    if locs is None or not (isinstance(body, ir.CondAct) and isinstance(body.cond, ir.Compare)
                            and body.cond.op == "=="):
        raise unsupported(_REFUSED, n)
    total, target = body.cond.left, body.cond.right
    if isinstance(target, ir.Sum):
        total, target = target, total
    want = _number(*fl.val(target, env)) if not effects.var_names(target) & {n.var} else None
    reads = set().union(*(effects.reads(x, {}) for x in locs)) | effects.reads(total.points, {})
    if not (isinstance(total, ir.Sum) and total.cards == ir.Var(n.var) and want is not None and want >= 0
            and isinstance(total.points.name, ir.Name)
            and n.var not in effects.var_names(body.body) and _commutes(body.body, n.var, reads, fl.bags)
            and not any(isinstance(x, (ir.Move, ir.RepeatAll, ir.Remember)) for x in body.body.walk())):
        raise unsupported(_REFUSED, n)
    fl.nonneg_scores.append((total.points.name.value, n))
    lits, count, (short, many) = _count(fl, locs, total.points, want, env)
    fl.act(lab, f("nx", const("overflow")), lits[:-1] + [short])   # a count beyond the tables
    # more cards than counted: marked so, as the lockstep counts it apart (never as agreeing)
    fl.act(lab, f("nx", const("overflow")), lits[:-1] + [many])
    fl.act(lab, f("nx", const("many_subsets")), lits[:-1] + [many])
    fl.rules.append(rule(f("base", const("many_subsets"))))
    fl.used.update({"plus", "overflow"})
    rid = fl.reg("r", "num")
    fl.count_down(rid, lits, count, lab, lambda start, tick: fl.stmt(body.body, start, tick, env), after)


def _locations(src):
    if isinstance(src, ir.Location):
        return (src,)
    if isinstance(src, ir.SetOp) and src.op == "union" and all(isinstance(x, ir.Location) for x in src.args):
        return tuple(src.args)
    return None


def _count(fl, locs, points, want: int, env):
    """(literals giving the count, the count's term, (a literal that holds when a count needs a
    sum of two counts the tables lack, one that holds when the union has more than MOST cards))."""
    args, dom = fl.context(env)
    outer, places = [], []
    for loc in locs:
        lits, l, o = fl.loc(loc, env)
        if isinstance(l, Var):
            raise unsupported(f"subsets of {_what(loc)}, a location named at run time", loc)
        outer += lits
        if isinstance(o, Var):   # bound by `lits`, which stay with the caller: an argument of the helpers
            ov = fl.fresh.var("o")
            args, dom = args + [ov], dom + [f("owner_id", ov)]
            places.append((l, ov, o))
        else:
            places.append((l, o, o))
    call = list(args)
    for _, ov, o in places:
        if ov is not o:
            call[call.index(ov)] = o
    pl, key, po = fl.points(points, env)
    p = {h: fl.fresh.pred("ssum_" + h) for h in ("range", "off", "ways", "val", "short", "count", "some", "many")}
    j, j2, q, z, o1, o2, s, s1, v, c, w, w1, w2 = (fl.fresh.var(h) for h in "jjpzoossvcwww")
    R, E = fl.rules.append, const(want)
    # off(args, K, O): the union's cards before the K-th location; val(args, J, V): the J-th card's score
    R(rule(f(p["off"], *args, const(0), const(0)), *dom))
    for idx, (l, own, _) in enumerate(places):
        K, K2 = const(idx), const(idx + 1)
        R(rule(f(p["off"], *args, K2, o2), f(p["off"], *args, K, o1), f("size", l, own, z), f("plus", o1, z, o2)))
        R(rule(f(p["val"], *args, j, v), f(p["off"], *args, K, o1), true(f("at", l, own, q, c)), f("plus", o1, q, j),
               f("less", j, const(MOST)), *pl, f("card_points", key, po, c, v)))
    last = const(len(places))
    R(rule(f(p["many"], *args), f(p["off"], *args, last, z), f("less", const(MOST), z)))
    # ways(args, J, S, W) for every S in 0..E (W may be 0): no negation, so no recursion through it
    R(rule(f(p["ways"], *args, const(0), const(0), const(1)), *dom))
    for x in range(1, want + 1):
        R(rule(f(p["ways"], *args, const(0), const(x), const(0)), *dom))
    for x in range(want + 1):
        R(rule(f(p["range"], const(x))))
    # the J-th card: the subsets without it, and those with it (which summed to S - V before)
    R(rule(f(p["ways"], *args, j2, s, w), f(p["ways"], *args, j, s, w1), f(p["val"], *args, j, v), f("isucc", j, j2),
           f("plus", s1, v, s), f(p["ways"], *args, j, s1, w2), f("plus", w1, w2, w)))
    R(rule(f(p["ways"], *args, j2, s, w), f(p["ways"], *args, j, s, w), f(p["val"], *args, j, v), f("isucc", j, j2),
           f(p["range"], s), f("less", s, v)))
    R(rule(f(p["short"], *args), f(p["ways"], *args, j, s, w1), f(p["val"], *args, j, v), f("plus", s1, v, s),
           f(p["ways"], *args, j, s1, w2), neg(f(p["some"], w1, w2))))
    R(rule(f(p["some"], w1, w2), f("plus", w1, w2, w)))
    R(rule(f(p["count"], *args, w), f(p["off"], *args, last, z), f(p["ways"], *args, z, E, w)))
    count = fl.fresh.var("n")
    return outer + [f(p["count"], *call, count)], count, (f(p["short"], *call), f(p["many"], *call))


def check_nonneg(flow) -> None:
    """Raise unsupported when a counted subset sum reads a map some `set` of which gives a card a
    negative score or computes scores at run time (the count drops partial sums above E)."""
    for key, node in flow.nonneg_scores:
        for _, k, base, dyn in flow.point_sets:
            if k == name(key) and (dyn or min(base, default=0) < 0):
                raise unsupported(f"subsets counted by their sum under the map {key}, which may score a card "
                                  f"below 0 or at run time", node)
