"""Options whose element is a group of cards: an option `any` over `(runs …)` or `(partition …)`.

The simulator (`ggpbridge.sim.ops`) lists the groups and offers one option per group (whose
body acts). The translation names a group by cards or values the option's move can carry, and
rewrites the `any` into `any`s the options already translate:

- A run of `(runs all|largest N LOC using MAP)` is named by its lowest- and highest-scoring
  cards (the first and last of the simulator's list, which is sorted by score):

      (any LOC 'lo (any LOC 'hi ((and RUN) (let (filter LOC 'c (<= S(lo) S(c) S(hi))) 'R BODY))))

  RUN: S(hi) - S(lo) >= N - 1, the cards scoring S(lo)..S(hi) are S(hi) - S(lo) + 1 (no
  score missing), no card scores S(hi) + 1 (the run reaches its block's top) and, with
  `largest`, none S(lo) - 1. That is exact when no two cards score alike (else the simulator
  lists a variant per card): every `set` of MAP must give every card of the game its own score
  (checked once the game's maps are known, `check_distinct`), and N >= 2 (a map never set
  scores every card 0). The simulator's list is in score order, the filter in location order:
  BODY may read 'R only as its size and as `(repeat all (move (top|bottom 'R) …))` into a
  location kept without order (a bag, order.py), where the order of the moves does not show.
- A group of `(partition ATTR LOC)` is named by its attribute value (partlets.py's filter F):

      (any (V1, V2, ...) 'v ((> (size F) 0) (let F 'G BODY)))

  F lists the group's cards in location order, as the simulator's group does; every card must
  have the attribute.

`element_terms` gives the lockstep (`ggpbridge.crosscheck`) the same names for the
simulator's groups.
"""
from __future__ import annotations

from ggpbridge import ir

from .exprs import unsupported, _what
from .partlets import _value_filter
from .terms import name

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
    lo, hi, c = ir.Var("lo" + tag, pos=at), ir.Var("hi" + tag, pos=at), "card" + tag

    def score(card):
        return ir.Score(card, r.points, pos=at)

    def lit(k):
        return ir.IntLit(k, pos=at)

    def cards_where(cond):
        return ir.Filter(r.source, c, cond, pos=at)

    def size_is(coll, k):
        return ir.Compare("==", ir.Size(coll, pos=at), k, pos=at)

    sc = score(ir.Var(c, pos=at))
    span = ir.Arith("-", score(hi), score(lo), pos=at)
    inside = cards_where(ir.BoolOp("and", (ir.Compare(">=", sc, score(lo), pos=at),
                                           ir.Compare("<=", sc, score(hi), pos=at)), pos=at))
    beyond = {"top": ir.Arith("+", score(hi), lit(1), pos=at), "bottom": ir.Arith("-", score(lo), lit(1), pos=at)}
    conds = [ir.Compare(">=", span, lit(least - 1), pos=at),
             size_is(inside, ir.Arith("+", span, lit(1), pos=at))]
    # a run ends where its block does; with `largest` it starts there too
    conds += [size_is(cards_where(ir.Compare("==", sc, beyond[end], pos=at)), lit(0)) for end in block_ends(r.mode)]
    flow.distinct_scores.append((r.points.name.value, r))
    guarded = ir.CondAct(ir.BoolOp("and", tuple(conds), pos=at), ir.Let(inside, n.var, body, pos=at), pos=at)
    return ir.AnyOf(r.source, lo.name, ir.AnyOf(r.source, hi.name, guarded, pos=at), pos=at)


def block_ends(mode: str) -> tuple:
    """The ends of its block a run of `(runs MODE …)` reaches: `all` lists a run from every score
    of a block to its top, `largest` the whole block."""
    return ("top", "bottom") if mode == "largest" else ("top",)


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
