"""Sizes of the first and last collection of `partition` and `subsets` (`(size (top (partition
SUIT LOC)))`): the simulator's lists of collections (`ggpbridge.sim.ops`), where `top` is the
first and `bottom` the last.

- `subsets` lists the subsets in binary counting order, the empty one first and the whole
  collection last: sizes 0 and the collection's size.
- `partition` lists the groups of cards sharing the attribute's value in the order of their
  first card up the location (position 0 is the bottom): the first group is that of the bottom
  card, the last that of the highest card whose value no card below it has. The size counts the
  location's cards with that value. An empty location has no group: the simulator stops on a
  rule error there, and the translation gives the size no value.
"""
from __future__ import annotations

from ggpbridge import ir
from ggpbridge.gdl.ast import Const

from .exprs import unsupported, _what
from .terms import const, f, name, neg, rule, true


def group_size(comp, m: ir.MemberOf, n, env):
    """(literals, size) of `(size (top|bottom GROUPS))`, GROUPS a partition or subsets."""
    src = m.source
    if m.where not in ("top", "bottom"):
        raise unsupported(f"the size of {_what(m)} (a collection other than the first or last)", n)
    if isinstance(src, ir.Subsets):
        if m.where == "top":
            return [], const(0)
        return comp.v_Size(ir.Size(src.source, pos=n.pos), env)
    if isinstance(src, ir.Partition) and len(src.sources) == 1 and isinstance(src.sources[0], ir.Location) \
            and isinstance(src.attr, ir.Name):
        return _partition_size(comp, src, m.where == "top", env)
    raise unsupported(f"the size of {_what(m)}", n)


def _partition_size(comp, p: ir.Partition, first: bool, env):
    lits, l, o = comp.loc(p.sources[0], env)
    F, pred, add = comp.fresh, comp.fresh.pred, comp.rules.append
    L, O, I, I2, J, K, K2, C, V = (F.var(h) for h in "LOIIJKKCV")
    attr = name(p.attr.value)
    val_at, key, passes, cnt = pred("grp_val"), pred("grp_key"), pred("grp_pass"), pred("grp_count")
    # val_at(L, O, I, V): the card at position I has value V (of this partition's locations only)
    if isinstance(l, Const):   # only this location's positions are grounded
        guard = pred("grp_loc")
        add(rule(f(guard, l)))
        where = [f(guard, L)]
    else:                      # a name computed at run time: any location
        where = [f("loc_name", L)]
    if p.attr.value in comp.lay.attr:
        add(rule(f(val_at, L, O, I, V), *where, true(f("at", L, O, I, C)), f("card_att", C, attr, V)))
    else:   # an attribute no card has: every card's value is the empty name (one group), as in the simulator
        add(rule(f(val_at, L, O, I, name("")), *where, true(f("at", L, O, I, C))))
    if first:   # the group of the bottom card
        add(rule(f(key, L, O, V), f(val_at, L, O, const(0), V)))
    else:       # the group of the highest card whose value no card below it has
        below, new, later = pred("grp_below"), pred("grp_new"), pred("grp_later")
        add(rule(f(below, L, O, V, I2), f(val_at, L, O, I, V), f("isucc", I, I2)))
        add(rule(f(below, L, O, V, I2), f(below, L, O, V, I), f("occupied", L, O, I), f("isucc", I, I2)))
        add(rule(f(new, L, O, I), f(val_at, L, O, I, V), neg(f(below, L, O, V, I))))
        add(rule(f(later, L, O, I), f(new, L, O, I), f(new, L, O, J), f("less", I, J)))
        add(rule(f(key, L, O, V), f(new, L, O, I), neg(f(later, L, O, I)), f(val_at, L, O, I, V)))
    add(rule(f(passes, L, O, I), f(val_at, L, O, I, V), f(key, L, O, V)))
    # cnt(L, O, I, K): K cards below position I are in the group (only where there is one)
    add(rule(f(cnt, L, O, const(0), const(0)), f(key, L, O, V)))
    add(rule(f(cnt, L, O, I2, K2), f(cnt, L, O, I, K), f(passes, L, O, I), f("isucc", I, I2), f("isucc", K, K2)))
    add(rule(f(cnt, L, O, I2, K), f(cnt, L, O, I, K), f("occupied", L, O, I), neg(f(passes, L, O, I)),
             f("isucc", I, I2)))
    z, total = F.var("z"), F.var("k")
    return lits + [f("size", l, o, z), f(cnt, l, o, z, total)], total
