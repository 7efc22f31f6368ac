"""The fixed part of every translation: how one step changes the state.

An instruction does not write `next` itself: it asserts effects — `rm`, `ins`, `swap`
on card positions, `rm_card` (a card, wherever it lies), `ins_top`, `put` into a bag,
`set_int`, `set_str`, `set_points`, `cyc_put`/`cyc_depth_to` on the player (team)
cycles, `var_put`/`var_kill` on registers — and these rules turn effects into the next
state, with frame rules for everything left alone. Fluents are derived
as `(nx F)` first so that GDL-II percepts can describe the state after the move.
"""
from __future__ import annotations

from ggpbridge.gdl.ast import Const

from .terms import NO_VALUE, Fresh, const, distinct, f, neg, rule, true

X = Fresh()
l, o, i, k, k1, k2, j, c, d, v, a, b, z, z1, n, p, s, r = (X.var(h) for h in "l o i k k k j c d v a b z z n p s r".split())
ii, vv = X.var("i"), X.var("v")


def cards(fitted: bool = False) -> list:
    """Card positions: removal and insertion shift the cards above; a swap exchanges two.

    Fitted (a `Fit`): a location's positions are its `room`; a card put beyond them ends
    the play as `overflow`."""
    at = lambda *t: true(f("at", *t))  # noqa: E731
    room_k2 = [f("room", l, k2)] if fitted else []
    room_j = [f("room", l, j)] if fitted else []
    out = [
        rule(f("occupied", l, o, i), at(l, o, i, c)),
        rule(f("held_by", c, o), at(l, o, i, c), f("physical", l), f("player_id", o)),
        rule(f("size", l, o, const(0)), f("loc_owner", l, o), f("ordered", l), neg(f("occupied", l, o, const(0)))),
        rule(f("size", l, o, n), f("occupied", l, o, i), f("isucc", i, n), neg(f("occupied", l, o, n))),
        rule(f("rm_in", l, o), f("rm", l, o, i)),
        rule(f("size_after", l, o, z), f("size", l, o, z1), f("rm", l, o, i), f("isucc", z, z1)),
        rule(f("size_after", l, o, z), f("size", l, o, z), f("ordered", l), neg(f("rm_in", l, o))),
        rule(f("swapped", l, o, a), f("swap", l, o, a, b)),
        rule(f("swapped", l, o, b), f("swap", l, o, a, b)),
        rule(f("keep", l, o, k, d), at(l, o, k, d), neg(f("rm", l, o, k)), neg(f("swapped", l, o, k))),
        rule(f("rm_below", l, o, k), f("rm", l, o, i), f("occupied", l, o, k), f("less", i, k)),
        rule(f("shifted", l, o, k1, d), f("keep", l, o, k, d), f("rm_below", l, o, k), f("isucc", k1, k)),
        rule(f("shifted", l, o, k, d), f("keep", l, o, k, d), neg(f("rm_below", l, o, k))),
        # projected first: joining insertions with every card's position would be quadratic
        rule(f("ins_at", l, o, j), f("ins", l, o, j, c)),
        rule(f("ins_below", l, o, k), f("ins_at", l, o, j), f("index", k), f("leq", j, k)),
        rule(f("nx", f("at", l, o, k2, d)), f("shifted", l, o, k, d), f("ins_below", l, o, k), f("isucc", k, k2),
             *room_k2),
        rule(f("nx", f("at", l, o, k, d)), f("shifted", l, o, k, d), neg(f("ins_below", l, o, k))),
        rule(f("nx", f("at", l, o, j, c)), f("ins", l, o, j, c), *room_j),
        # Instructions name a card to remove from wherever it lies, or a location to put a card
        # on top of; the positions are joined in here once rather than in every instruction.
        rule(f("rm", l, o, i), f("rm_card", c), at(l, o, i, c), f("physical", l)),
        rule(f("ins", l, o, j, c), f("ins_top", l, o, c), f("size_after", l, o, j)),
        # A step swaps at most one pair (a shuffle position): the two cards are found apart,
        # not by joining both positions with every card.
        rule(f("swap_from", l, o, a), f("swap", l, o, a, b)),
        rule(f("swap_to", l, o, b), f("swap", l, o, a, b)),
        rule(f("swap_card_from", l, o, d), f("swap_from", l, o, a), at(l, o, a, d)),
        rule(f("swap_card_to", l, o, d), f("swap_to", l, o, b), at(l, o, b, d)),
        rule(f("nx", f("at", l, o, b, d)), f("swap_to", l, o, b), f("swap_card_from", l, o, d)),
        rule(f("nx", f("at", l, o, a, d)), f("swap_from", l, o, a), f("swap_card_to", l, o, d)),
    ]
    if fitted:
        out += [rule(f("nx", const("overflow")), f("shifted", l, o, k, d), f("ins_below", l, o, k), f("isucc", k, k2),
                     neg(f("room", l, k2))),
                rule(f("nx", const("overflow")), f("ins", l, o, j, c), neg(f("room", l, j)))]
    return out


def bags(fitted: bool = False) -> list:
    """Locations without order: `(in L O C)`, and `(tally L O N)` their size when not 0.

    A step moves at most one card, so a size changes by one at most. Fitted (a `Fit`): a
    bag grows only within its `room`; a card put beyond it ends the play as `overflow`."""
    inn = lambda *t: true(f("in", *t))  # noqa: E731
    room = [f("room", l, n)] if fitted else []
    out = [
        rule(f("held_by", c, o), inn(l, o, c), f("physical", l), f("player_id", o)),
        rule(f("take", l, o, c), f("rm_card", c), inn(l, o, c), f("physical", l)),
        rule(f("nx", f("in", l, o, c)), inn(l, o, c), neg(f("take", l, o, c))),
        rule(f("nx", f("in", l, o, c)), f("put", l, o, c)),
        rule(f("grows", l, o), f("put", l, o, c), neg(inn(l, o, c))),
        rule(f("shrinks", l, o), f("take", l, o, c), neg(f("put", l, o, c))),
        rule(f("has_tally", l, o), true(f("tally", l, o, n))),
        rule(f("size", l, o, n), true(f("tally", l, o, n))),
        rule(f("size", l, o, const(0)), f("loc_owner", l, o), f("bag", l), neg(f("has_tally", l, o))),
        rule(f("nx", f("tally", l, o, n)), true(f("tally", l, o, n)), neg(f("grows", l, o)), neg(f("shrinks", l, o))),
        rule(f("nx", f("tally", l, o, k)), f("size", l, o, n), f("grows", l, o), f("isucc", n, k), *room),
        rule(f("nx", f("tally", l, o, k)), f("size", l, o, n), f("shrinks", l, o), f("isucc", k, n),
             distinct(k, const(0))),
    ]
    if fitted:
        out.append(rule(f("nx", const("overflow")), f("size", l, o, n), f("grows", l, o), neg(f("room", l, n))))
    return out


def storages(ints: bool = True, strs: bool = True, fitted: bool = False) -> list:
    """Integer and name storages: only values other than 0 / the empty name are fluents.

    Fitted (a `Fit`): an integer storage's values are its `int_room`; writing another
    ends the play as `overflow`."""
    out = []
    for fl, default, dom, want in (("int", const(0), "sto_owner", ints), ("str", const(NO_VALUE), "str_owner", strs)):
        if not want:
            continue
        out += [
            rule(f(f"{fl}_written", k, o), f(f"set_{fl}", k, o, v)),
            rule(f("nx", f(fl, k, o, v)), true(f(fl, k, o, v)), neg(f(f"{fl}_written", k, o))),
            rule(f("nx", f(fl, k, o, v)), f(f"set_{fl}", k, o, v), distinct(v, default),
                 *([f("int_room", k, v)] if fitted and fl == "int" else [])),
            rule(f(f"has_{fl}", k, o), true(f(fl, k, o, v))),
            rule(f(f"{fl}_value", k, o, v), true(f(fl, k, o, v))),
            rule(f(f"{fl}_value", k, o, default), f(dom, k, o), neg(f(f"has_{fl}", k, o))),
        ]
        if fitted and fl == "int":
            out.append(rule(f("nx", const("overflow")), f("set_int", k, o, v), neg(f("int_room", k, v))))
    return out


def points(dynamic: bool) -> list:
    """Point maps: which `set` made the map, and the run-time values its awards compared with."""
    out = [
        rule(f("points_written", k, o), f("set_points", k, o, s)),
        rule(f("has_points", k, o), true(f("points", k, o, s))),
        rule(f("nx", f("points", k, o, s)), true(f("points", k, o, s)), neg(f("points_written", k, o))),
        rule(f("nx", f("points", k, o, s)), f("set_points", k, o, s)),
        rule(f("card_points", k, o, c, const(0)), f("pts_owner", k, o), neg(f("has_points", k, o)), f("card_id", c)),
    ]
    if dynamic:
        out += [
            rule(f("nx", f("parg", k, o, ii, v)), true(f("parg", k, o, ii, v)), neg(f("points_written", k, o))),
            rule(f("nx", f("parg", k, o, ii, v)), f("set_parg", k, o, ii, v)),
        ]
    return out


def points_sum(targets, wide: bool = False, positions: bool = True) -> list:
    """The sum of the scores of a location's cards, added up the positions.

    Only for the (points map, location) pairs a `sum` reads when they are all constants;
    the value at each position comes first, so the running sum joins values, not cards
    (Pairs: 13M ground rules before, most of them one per card at every partial sum).
    `wide` (wide.py): the low digit with its carry and the high digit are added up apart,
    so a position's rules count digits, not every partial sum times every card score; the
    sum is put together from its digits once, at the location's size (`points_total`), and
    at every position (`points_sum`) only when `positions` (a best sum reads them)."""
    if all(isinstance(x, Const) for pair in targets for x in pair):
        out = [rule(f("sum_of", key, loc)) for key, loc in sorted(targets, key=str)]
        start = [f("sum_of", k, l), f("pts_owner", k, p), f("loc_owner", l, o)]
    else:
        out, start = [], [f("pts_owner", k, p), f("loc_owner", l, o)]
    if wide:
        zero = const(0)
        ps = lambda rel, *t: f(rel, k, p, l, o, *t)  # noqa: E731
        # a = high digit of a card's score, b = its low digit, d = a carry, z1 = a digit so far
        # the positions' scores hang off a start of their own, outside the recursion (GDL's
        # recursion restriction: a card's high digit is bound by nothing else)
        return out + [
            rule(ps("points_start"), *start),
            rule(ps("points_lo", zero, zero), ps("points_start")),
            rule(ps("points_hi", zero, zero), ps("points_start")),
            rule(ps("points_at", i, v), ps("points_start"), true(f("at", l, o, i, c)),
                 f("card_points", k, p, c, v)),
            rule(ps("points_at_d", i, a, b), ps("points_at", i, v), f("ndig", v, a, b)),
            rule(ps("points_lo", i, s), ps("points_lo", ii, z1), ps("points_at_d", ii, a, b),
                 f("ladd", z1, b, s, d), f("isucc", ii, i)),
            rule(ps("points_carry", i, d), ps("points_lo", ii, z1), ps("points_at_d", ii, a, b),
                 f("ladd", z1, b, s, d), f("isucc", ii, i)),
            rule(ps("points_hi", i, n), ps("points_hi", ii, z1), ps("points_at_d", ii, a, b),
                 ps("points_carry", i, d), f("hadd", z1, a, d, n), f("isucc", ii, i)),
            rule(ps("points_end_lo", b), f("size", l, o, i), ps("points_lo", i, b)),
            rule(ps("points_end_hi", n), f("size", l, o, i), ps("points_hi", i, n)),
            rule(ps("points_total", s), ps("points_end_hi", n), ps("points_end_lo", b), f("ndig", s, n, b)),
        ] + ([rule(ps("points_sum", i, s), ps("points_hi", i, n), ps("points_lo", i, b), f("ndig", s, n, b))]
             if positions else [])
    return out + [
        rule(f("points_sum", k, p, l, o, const(0), const(0)), *start),
        rule(f("points_at", k, p, l, o, i, v), f("points_sum", k, p, l, o, const(0), const(0)),
             true(f("at", l, o, i, c)), f("card_points", k, p, c, v)),
        rule(f("points_sum", k, p, l, o, i, s), f("points_sum", k, p, l, o, ii, vv),
             f("points_at", k, p, l, o, ii, v), f("plus", vv, v, s), f("isucc", ii, i)),
    ]


def tuples(counted: bool) -> list:
    """`(tuples N LOC using MAP)`: CardStock bins a location's cards by score 0..12 and lists
    every N-combination of each bin, in list order (sim/ops.py). Here, for the (map, location)
    pairs of `tup_of`: each position's score bin, and up each bin the number of its cards below
    a position — only as far as `tup_room` allows (the cards that can score in the bin, or N-1
    when only the N-th card of a bin is looked for), so the counts do not ground up to every
    position. `tup_nth`: the position of the N-th card of a bin; `tup_first_bin`: the lowest bin
    with N cards (the first tuple's); `tup_total`: how many tuples, the binomials of the bins'
    counts added up the bins (when `counted`)."""
    t = lambda *x: f(x[0], k, p, l, o, *x[1:])  # noqa: E731  (map, map owner, location, owner, ...)
    out = [
        rule(t("tup_score", i, b), f("tup_of", k, l), true(f("at", l, o, i, c)), f("card_points", k, p, c, b),
             f("tup_bin", b)),
        rule(t("tup_count", b, const(0), const(0)), f("tup_of", k, l), f("pts_owner", k, p), f("loc_owner", l, o),
             f("tup_bin", b)),
        rule(t("tup_count", b, ii, n), t("tup_count", b, i, z), t("tup_score", i, b), f("isucc", i, ii),
             f("isucc", z, n), f("tup_room", k, l, b, n)),
        rule(t("tup_count", b, ii, z), t("tup_count", b, i, z), f("occupied", l, o, i), neg(t("tup_score", i, b)),
             f("isucc", i, ii)),
        rule(t("tup_nth", n, b, i), f("tup_want", k, l, n), t("tup_score", i, b), t("tup_count", b, i, z),
             f("isucc", z, n)),
        rule(t("tup_has", n, b), t("tup_nth", n, b, i)),
        # the first tuple is the lowest bin's: a bin is passed over when a lower one has N cards
        rule(t("tup_lower", n, b), t("tup_has", n, a), f("tup_below", a, b)),
        rule(t("tup_first_bin", n, b), t("tup_has", n, b), neg(t("tup_lower", n, b))),
    ]
    if counted:
        out += [
            rule(t("tup_final", b, z), t("tup_count", b, i, z), f("size", l, o, i)),
            rule(t("tup_total", n, const(0), s), f("tup_counted", k, l, n), t("tup_final", const(0), z),
                 f("tup_binom", n, z, s)),
            rule(t("tup_total", n, a, s), t("tup_total", n, b, vv), f("tup_bsucc", b, a), t("tup_final", a, z),
                 f("tup_binom", n, z, v), f("plus", vv, v, s)),
        ]
    return out


def registers() -> list:
    """Loop variables, counters, computed values and scans: `(var ID VALUE)`."""
    return [
        rule(f("var_touched", v), f("var_put", v, a)),
        rule(f("var_touched", v), f("var_kill", v)),
        rule(f("nx", f("var", v, a)), true(f("var", v, a)), neg(f("var_touched", v))),
        rule(f("nx", f("var", v, a)), f("var_put", v, a)),
        rule(f("has_var", v), true(f("var", v, a))),
    ]


def cycles() -> list:
    """The player and team cycle stacks: `(cyc KIND DEPTH CURRENT NEXT)` and `(cycdepth KIND DEPTH)`."""
    return [
        rule(f("depth_moved", k), f("cyc_depth_to", k, d)),
        rule(f("new_depth", k, d), f("cyc_depth_to", k, d)),
        rule(f("new_depth", k, d), true(f("cycdepth", k, d)), neg(f("depth_moved", k))),
        rule(f("nx", f("cycdepth", k, d)), f("new_depth", k, d)),
        rule(f("cyc_written", k, d), f("cyc_put", k, d, a, b)),
        rule(f("nx", f("cyc", k, d, a, b)), f("cyc_put", k, d, a, b)),
        rule(f("nx", f("cyc", k, d, a, b)), true(f("cyc", k, d, a, b)), neg(f("cyc_written", k, d)),
             f("new_depth", k, z), f("leq", d, z)),
        rule(f("top_cycle", k, d, a, b), true(f("cycdepth", k, d)), true(f("cyc", k, d, a, b))),
        rule(f("current", a), f("top_cycle", const("player_cycle"), d, a, b)),
        rule(f("current_team", a), f("top_cycle", const("team_cycle"), d, a, b)),
        rule(f("next_player", b), f("top_cycle", const("player_cycle"), d, a, b), distinct(b, const("no_one"))),
        rule(f("next_player", b), f("top_cycle", const("player_cycle"), d, a, const("no_one")), f("succ_seat", a, b)),
        rule(f("previous_player", b), f("current", a), f("pred_seat", a, b)),
        rule(f("next_team", b), f("top_cycle", const("team_cycle"), d, a, b), distinct(b, const("no_one"))),
        rule(f("next_team", b), f("top_cycle", const("team_cycle"), d, a, const("no_one")), f("succ_team", a, b)),
        rule(f("previous_team", b), f("current_team", a), f("pred_team", a, b)),
    ]


def numbers(lo: int, hi: int, plus: bool, times: bool = False) -> list:
    """The bounded integers lo..hi with successor and order (and addition, multiplication when used)."""
    out = [rule(f("num", const(x))) for x in range(lo, hi + 1)]
    out += [rule(f("succ", const(x), const(x + 1))) for x in range(lo, hi)]
    # The body orders are for top-down provers (ggp-base, the GameController), which read
    # literals left to right without tabling: `succ` first binds the smaller number from the
    # larger, so a query with its last arguments bound walks one chain down instead of
    # enumerating the whole relation at every level. The sign facts keep `plus` walking b
    # towards 0 only (without them each level also tries the other direction).
    out += [
        rule(f("less", a, b), f("succ", a, b)),
        rule(f("less", a, z), f("succ", b, z), f("less", a, b)),
        rule(f("leq", a, a), f("num", a)),
        rule(f("leq", a, b), f("less", a, b)),
    ]
    if plus:
        out += [rule(f("positive", const(x))) for x in range(max(lo, 1), hi + 1)]
        out += [rule(f("negative", const(x))) for x in range(lo, min(hi, -1) + 1)]
        out += [
            rule(f("plus", a, const(0), a), f("num", a)),
            rule(f("plus", a, b, z), f("positive", b), f("succ", k, b), f("plus", a, k, z1), f("succ", z1, z)),
            rule(f("plus", a, b, z), f("negative", b), f("succ", b, k), f("plus", a, k, z1), f("succ", z, z1)),
        ]
    if times:  # a*b = a*(b-1) + a, walking b away from 0; products outside the table do not exist
        out += [
            rule(f("times", a, const(0), const(0)), f("num", a)),
            rule(f("times", a, b, z), f("times", a, k, z1), f("succ", k, b), f("less", const(0), b),
                 f("plus", z1, a, z)),
            rule(f("times", a, b, z), f("times", a, k, z1), f("succ", b, k), f("less", b, const(0)),
                 f("plus", z, a, z1)),
        ]
    return out
