"""Options whose element is a group of cards: an option `any` over `(runs …)` or `(partition …)`.

The simulator (`ggpbridge.sim.ops`) lists the groups and offers one option per group (whose
body acts). The translation names a group by cards or values the option's move can carry, and
rewrites the `any` into `any`s the options already translate:

- A run of `(runs all|largest N LOC using MAP)` is named by its lowest- and highest-scoring
  cards (the first and last of the simulator's list, which is sorted by score):

      (any LOC 'lo (any LOC 'hi ((RUN-ENDS) (let (filter LOC 'c (<= S(lo) S(c) S(hi))) 'R BODY))))

  RUN-ENDS (`RunEnds`, a condition only this rewriting makes) is runloops.py's relation
  run(S, E) of the two cards' scores: the cards of LOC score S..E with none missing, reach
  their block's top (and, with `largest`, its bottom), and are at least N. That is exact when
  no two cards score alike (else the simulator lists a variant per card): every `set` of MAP
  must give every card of the game its own score (checked once the game's maps are known,
  `check_distinct`), and N >= 2 (a map never set scores every card 0). The simulator's list is
  in score order, the filter in location order: BODY may read 'R only as its size and as
  `(repeat all (move (top|bottom 'R) …))` into a location kept without order (a bag,
  order.py), where the order of the moves does not show.
- A group of `(partition ATTR LOC)` is named by its attribute value (partlets.py's filter F):

      (any (V1, V2, ...) 'v ((> (size F) 0) (let F 'G BODY)))

  F lists the group's cards in location order, as the simulator's group does; every card must
  have the attribute.

`element_terms` gives the lockstep (`ggpbridge.crosscheck`) the same names for the
simulator's groups.
"""
from __future__ import annotations

from ggpbridge import ir

from .exprs import Env, unsupported, _what
from .partlets import _value_filter
from .terms import f, name

_REFUSED_BODY = ("an option over runs whose body reads the run's order (only its size and `repeat all` moves of "
                 "its cards into a location kept without order are translated)")


def rewrite(form, flow):
    """The option form with each head `any` over runs or a partition rewritten (module doc);
    other forms unchanged."""
    if isinstance(form, ir.Do) and len(form.items) == 1:
        inner = rewrite(form.items[0], flow)
        return form if inner is form.items[0] else inner
    if isinstance(form, ir.CondAct):
        body = rewrite(form.body, flow)
        return form if body is form.body else ir.CondAct(form.cond, body, pos=form.pos)
    if not isinstance(form, ir.AnyOf):
        return form
    body = rewrite(form.body, flow)
    if isinstance(form.coll, ir.Runs):
        return _runs(form, body, flow)
    if isinstance(form.coll, ir.Partition):
        return _partition(form, body, flow)
    return form if body is form.body else ir.AnyOf(form.coll, form.var, body, pos=form.pos)


def _runs(n: ir.AnyOf, body, flow):
    r, at = n.coll, n.pos
    least = r.n.value if isinstance(r.n, ir.IntLit) else None
    if least is None or least < 2 or not isinstance(r.source, ir.Location) or not isinstance(r.points.name, ir.Name):
        raise unsupported(f"an option over {_what(r)} (runs of one location, of a constant length of at least 2, "
                          f"under a map named in the game)", r)
    if not _order_free(body, n.var, flow.bags):
        raise unsupported(_REFUSED_BODY, n)
    tag = f"@{at.line}:{at.col}"   # no RECYCLE variable can be spelt so
    lo, hi, c = "lo" + tag, "hi" + tag, "card" + tag
    sc = ir.Score(ir.Var(c, pos=at), r.points, pos=at)
    inside = ir.Filter(r.source, c, ir.BoolOp("and", (
        ir.Compare(">=", sc, ir.Score(ir.Var(lo, pos=at), r.points, pos=at), pos=at),
        ir.Compare("<=", sc, ir.Score(ir.Var(hi, pos=at), r.points, pos=at), pos=at)), pos=at), pos=at)
    flow.distinct_scores.append((r.points.name.value, r))
    guarded = ir.CondAct(RunEnds(r, lo, hi, pos=at), ir.Let(inside, n.var, body, pos=at), pos=at)
    return ir.AnyOf(r.source, lo, ir.AnyOf(r.source, hi, guarded, pos=at), pos=at)


@ir.node
class RunEnds(ir.Node):
    """The condition that the cards of `runs.source` scoring from card 'low's score to card
    'high's are one of its runs (made by the rewriting only: no game spells it)."""

    runs: ir.Runs
    low: str
    high: str

    def literals(self, comp, env) -> list:
        """The condition's literals: runloops.py's run relation of the two cards' scores, over the
        context without the two cards (else it would be grounded once per pair of cards)."""
        from .runloops import run_relations
        outer = Env({k: b for k, b in env.items() if k not in (self.low, self.high)}, cur=env.cur,
                    fresh_next=env.fresh_next)
        args, run = run_relations(comp, self.runs, self.runs.n.value, outer, walk=False)[:2]
        lits, s = comp.val(ir.Score(ir.Var(self.low, pos=self.pos), self.runs.points, pos=self.pos), env)
        more, e = comp.val(ir.Score(ir.Var(self.high, pos=self.pos), self.runs.points, pos=self.pos), env)
        return lits + more + [f(run, *args, s, e)]


def _order_free(body, var: str, bags) -> bool:
    """Whether `body` reads the group 'var only as its size and as `repeat all` moves of its top
    or bottom cards into a bag (the module doc)."""
    from .exprs import loc_name
    allowed = set()
    for x in body.walk():
        if isinstance(x, ir.Size) and x.coll == ir.Var(var):
            allowed.add(id(x.coll))
        elif isinstance(x, ir.RepeatAll):
            plan = ir.repeat_all_plan(x)
            mv = plan.body if isinstance(plan, ir.Repeat) else None
            if (isinstance(mv, ir.Move) and isinstance(mv.src, ir.CardAt) and mv.src.source == ir.Var(var)
                    and mv.src.where in ("top", "bottom") and isinstance(mv.dst, ir.CardAt)
                    and isinstance(mv.dst.source, ir.Location) and isinstance(mv.dst.source.name, ir.Name)
                    and loc_name(mv.dst.source.vis, mv.dst.source.name.value) in bags):
                allowed |= {id(y) for y in x.walk() if isinstance(y, ir.Var) and y.name == var}
    return all(id(x) in allowed for x in body.walk() if isinstance(x, ir.Var) and x.name == var)


def _partition(n: ir.AnyOf, body, flow):
    p = n.coll
    values = [c.get(p.attr.value) for c in flow.lay.cards] if isinstance(p.attr, ir.Name) else []
    if not (len(p.sources) == 1 and isinstance(p.sources[0], ir.Location) and values and None not in values):
        raise unsupported(f"an option over {_what(p)} (a partition of one location by an attribute every card "
                          f"has)", p)
    value, cards = _value_filter(p, n)
    some = ir.Compare(">", ir.Size(cards, pos=n.pos), ir.IntLit(0, pos=n.pos), pos=n.pos)
    names = ir.NameList(tuple(sorted(set(values))), pos=p.pos)
    return ir.AnyOf(names, value.name, ir.CondAct(some, ir.Let(cards, n.var, body, pos=n.pos), pos=n.pos),
                    pos=n.pos)


def check_distinct(flow) -> None:
    """Raise unsupported when an option over runs reads a map some `set` of which gives two cards
    the same score, or computes scores at run time (the simulator would list run variants)."""
    for key, node in flow.distinct_scores:
        for _, k, base, dyn in flow.point_sets:
            if k == name(key) and (dyn or len(set(base)) != len(base)):
                raise unsupported(f"an option over {_what(node)} where two cards may score alike under the "
                                  f"map {key} (the simulator then lists a variant of the run per card)", node)


def element_terms(coll, group: list, lay) -> list:
    """The move's elements naming the simulator's group `group` (card ids) of an option `any`
    over `coll` (the module doc), or None when `coll` is not rewritten here."""
    from .export import card
    if isinstance(coll, ir.Runs):
        return [card(group[0]), card(group[-1])]
    if isinstance(coll, ir.Partition):
        return [name(lay.cards[group[0]].get(coll.attr.value))]
    return None
