"""RECYCLE → GDL-II (and its GDL relaxation): a pure function from the IR to a GDL AST.

The design (README, "Translation to GDL-II"): the state is the simulator's data as
fluents (`at`, `int`, `str`, `points`, the cycle stacks) plus a program counter; each
step runs one instruction (flow.py and its parts); a fixed kernel (kernel.py) turns the effects of
the step into the next state. Cards are `c<id>` with the simulator's ids, players are
numbers 0..n-1 with roles `player<k>`, and chance is the role `random`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ggpbridge import ir
from ggpbridge.gdl.ast import Const, Description
from ggpbridge.sim.actions import _matching
from ggpbridge.sim.exprs import _INT_OPS

from . import bestsum, condguard, kernel, optgroups, plays, subsetopts, subsetsums, valued, wide
from .capped import capped_keys
from .offtables import table_arithmetic
from .export import card, owner_term, state_fluents
from .exprs import loc_name
from .flow import Flow
from .fuse import fuse_steps
from .keys import computed_keys
from .options import option_term
from .order import decks as find_decks, ordered_locations
from .signs import may_go_negative
from .terms import NO_VALUE, NONE, Fresh, const, f, name, neg, rule, true
from .wide import wide_range

__all__ = ["to_gdl", "state_fluents", "Translation", "Fit"]


@dataclass(frozen=True)
class Fit:
    """Tables sized to what plays were seen to need rather than to the worst case.

    `sizes`: the most cards a location (vis, name) held, any owner; `ints`: the lowest and
    highest value of an integer storage, by name. A play that goes beyond them ends as
    `overflow` (goals 0), so a fitted translation never silently plays a different game.
    Names left out keep the worst-case tables.
    """

    sizes: dict = field(default_factory=dict)
    ints: dict = field(default_factory=dict)


def to_gdl(game: ir.Game, version: int = 2, overrides: dict | None = None, fit: Fit | None = None,
           decks: bool = True, fold: bool = True) -> Description:
    """The GDL-II (version 2) or GDL (version 1) description of a checked RECYCLE game.

    `fold` runs independent automatic instructions in the step before them (fuse.py)."""
    return Translation(game, version, overrides, fit, decks, fold).description


class Translation:
    """One translation, keeping what the lockstep check needs (labels of the choices)."""

    # decks=False shuffles every location position by position, as the simulator does: the
    # query engines count chance events as steps, and must count the same ones (order.py)
    def __init__(self, game: ir.Game, version: int = 2, overrides: dict | None = None, fit: Fit | None = None,
                 decks: bool = True, fold: bool = True):
        from ggpbridge.sim.machine import Live, Program
        if version not in (1, 2):
            raise ValueError("GDL version must be 1 or 2")
        self.prog = prog = Program(game, overrides)
        self.version = version
        self.fit = fit
        # fitted storages past any table (Poker's compounding products): capped, not widened to
        self.capped = capped_keys(fit.ints) if fit is not None else frozenset()
        # the scores the point maps can give, filled in by _points
        self.point_values: set = {0}
        self.values_by_map: dict = {}   # points map name -> the scores its `set`s can give
        self.card_range: dict = {}      # (points map name, card) -> (lowest, highest) score
        self.card_values: dict = {}     # (points map name, card) -> its possible scores (0: map unset)
        # locations named at run time: every name the game uses may be one, and all are ordered
        self.runtime_vis = sorted({x.vis for x in prog.game.walk()
                                   if isinstance(x, ir.Location) and not isinstance(x.name, (ir.Name, str))})
        self.runtime_locs = {(loc_name(vis, nm), vis, nm) for vis in self.runtime_vis for nm in self._names() if nm}
        runtime = {ln for ln, _, _ in self.runtime_locs}
        self.decks = find_decks(prog.game) - runtime if decks else frozenset()
        ordered = ordered_locations(prog.game, self.decks) | runtime
        self.bags = frozenset(ln for ln, _ in self._locations() if ln not in ordered)
        self.choice_guards, self.cond_ranges = frozenset(), []
        fresh, body, flow, first = self._compile(None)
        self._points(flow)
        # arithmetic in conditions: static ranges widen the tables, other operands are tested
        # where they are evaluated; a choice so tested waits one step later (condguard.py)
        self.cond_ranges, guards = condguard.resolve(self, flow)
        if guards:
            self.choice_guards = frozenset(guards)
            fresh, body, flow, first = self._compile(None)
            self.cond_ranges, _ = condguard.resolve(self, flow)
        # integers too many for tables: compiled again, adding and comparing by digits (wide.py)
        # (a product of two run-time values has no digit form yet: such a game keeps the tables)
        self.wide = wide_range(*self._bounds(flow)) if "times" not in flow.used else None
        if self.wide is not None:
            fresh, body, flow, first = self._compile(self.wide)
            condguard.resolve(self, flow)   # the tests again, in the flow compiled anew (same ranges)
        if fit is not None:
            flow.used.add("overflow")
        self.stores = self._storages()
        score = self._scoring(flow, fresh)
        live = Live(prog)
        live.setup()
        self.init = state_fluents(prog.lay, live.c, self.bags) + [f("pc", const(first))]
        self.init += [f("stale", ln) for ln in sorted(self.decks, key=lambda x: x.name)]
        rules = self._roles() + [rule(f("init", x)) for x in self.init]
        rules += self._domains(flow)
        rules += self._deck_marks(flow)
        rules += self._kernels(flow)
        rules += body + score
        rules += self._play(flow)
        if version == 2:
            rules += self._sees()
        rules += self._declarations(flow)
        if self.wide is not None:
            rules = wide.rewrite(rules)
        if fold:
            events = set(flow.choice_label.values()) | set(flow.chance_labels)
            rules = fuse_steps(rules, first, events)
        self.description = Description(tuple(_prune(rules)))

    def _compile(self, wide):
        """The game body's rules: (fresh names, rules, the Flow, the first label)."""
        fresh, body = Fresh(), []
        flow = self.flow = Flow(self.prog, fresh, body)
        flow.decks, flow.bags, flow.wide = self.decks, self.bags, wide
        flow.capped = bool(self.capped)
        flow.choice_guards = self.choice_guards
        return fresh, body, flow, flow.game()

    # ------------------------------------------------------------ parts
    def _roles(self) -> list:
        n = self.prog.lay.n
        out = [rule(f("role", const(f"player{k}"))) for k in range(n)] + [rule(f("role", const("random")))]
        out += [rule(f("role_of", const(k), const(f"player{k}"))) for k in range(n)]
        return out

    def _deck_marks(self, flow) -> list:
        """A deck is `stale` from the start and whenever a card is put in, until it is shuffled:
        drawing from it then ends the play as `overflow` (order.py)."""
        o, c = Fresh().var("o"), Fresh().var("c")
        out = []
        for ln in sorted(self.decks, key=lambda x: x.name):
            stale, shuffling = f("stale", ln), f("shuffling", ln)
            out += [rule(f("base", stale)), rule(f("base", f("stale_draw", ln))),
                    rule(f("nx", stale), f("put", ln, o, c)),
                    rule(f("nx", stale), true(stale), neg(shuffling)),
                    rule(f("nx", const("overflow")), f("nx", f("stale_draw", ln)))]
            out += [rule(shuffling, flow.at(lab)) for lab in flow.deck_shuffles.get(ln, ())]
        return out

    def _domains(self, flow) -> list:
        lay = self.prog.lay
        n, teams = lay.n, lay.teams
        out = [rule(f("player_id", const(k))) for k in range(n)]
        out += [rule(f("succ_seat", const(k), const((k + 1) % n))) for k in range(n)]
        out += [rule(f("pred_seat", const(k), const((k - 1) % n))) for k in range(n)]
        out += [rule(f("team_id", const(t))) for t in range(len(teams))]
        out += [rule(f("succ_team", const(t), const((t + 1) % len(teams)))) for t in range(len(teams))]
        out += [rule(f("pred_team", const(t), const((t - 1) % len(teams)))) for t in range(len(teams))]
        out += [rule(f("team_owner", const(t), f("team", const(t)))) for t in range(len(teams))]
        for lid, values in flow.lists:
            out += [rule(f("after_of", lid, a, b)) for a, b in zip(values, values[1:])]
        if "loops" in flow.used:
            out += _loop_orders("player", n) + _loop_orders("team", len(teams))
        for t, members in enumerate(teams):
            out += [rule(f("team_member", const(t), const(p))) for p in members]
            if "members" in flow.used and members:  # walking a team's members in order
                out += [rule(f("first_member", const(t), const(members[0]))),
                        rule(f("last_member", const(t), const(members[-1])))]
                out += [rule(f("next_member", const(t), const(a), const(b))) for a, b in zip(members, members[1:])]
            out += [rule(f("team_of", const(p), const(t))) for p in members]
        owners = [owner_term(lay, col) for col in range(lay.owners)]
        out += [rule(f("owner_id", o)) for o in owners]
        attrs = sorted(lay.attr)
        for k, crd in enumerate(lay.cards):
            out.append(rule(f("card_id", card(k))))
            for a in attrs:
                out.append(rule(f("card_att", card(k), name(a), name(crd.get(a) or ""))))
        locs = sorted(self._locations(), key=lambda x: x[0].name)
        owners_of = self._location_owners(owners)
        runtime = {ln for ln, _, _ in self.runtime_locs}
        for ln, vis, nm in sorted(self.runtime_locs, key=lambda x: x[0].name):
            out.append(rule(f("loc_named", const(vis), name(nm), ln)))
        for ln, vis in locs:
            out.append(rule(f("loc_name", ln)))
            out.append(rule(f("loc_vis", ln, const(vis))))
            out.append(rule(f("bag" if ln in self.bags else "ordered", ln)))
            if vis != "mem":
                out.append(rule(f("physical", ln)))
            out += [rule(f("loc_owner", ln, o)) for o in (owners if ln in runtime else owners_of.get(ln, owners))]
        out += [rule(f("index", const(i))) for i in range(len(lay.cards) + 1)]
        out += [rule(f("isucc", const(i), const(i + 1))) for i in range(len(lay.cards))]
        # cycle stacks: one level per nested stage, plus the levels CardStock leaves pushed when a
        # stage ends on entry (bounded here: deeper stacks are outside the translation)
        depth = self.depth = _stage_depth(self.prog.game.body) + 4
        out += [rule(f("depth", const(i))) for i in range(depth + 1)]
        out += [rule(f("dsucc", const(i), const(i + 1))) for i in range(depth)]
        l, o, k, v = (Fresh().var(h) for h in "lokv")
        for kind, keys in self.stores.items():
            if not keys:
                continue
            for key in sorted(keys):
                out.append(rule(f(f"{kind}_name", name(key))))
            out.append(rule(f(f"{kind}_owner", k, o), f(f"{kind}_name", k), f("owner_id", o)))
        out += [rule(f("name_value", name(x))) for x in sorted(self._names())]
        out += self._points(flow)
        out += [rule(f("value_any", v), f(d, v)) for d in ("num", "card_id", "name_value", "owner_id")]
        out.append(rule(f("value_any", const(NONE))))
        return out

    def _fitted_rooms(self) -> list:
        """With a Fit: the positions of each location (`room`: a bag's sizes up to it) and each storage's values."""
        fit = self.fit
        if fit is None:
            return []
        sizes = {loc_name(vis, nm): n for (vis, nm), n in fit.sizes.items()}
        full = len(self.prog.lay.cards) + 1
        out = []
        for ln, _ in sorted(self._locations(), key=lambda x: x[0].name):
            out += [rule(f("room", ln, const(i))) for i in range(min(sizes.get(ln, full), full))]
        for key in sorted(self.stores["sto"]):
            lo, hi = self.bounds if key in self.capped else fit.ints.get(key, self.bounds)
            out += [rule(f("int_room", name(key), const(v))) for v in range(min(lo, 0), max(hi, 0) + 1)]
        return out

    def _locations(self) -> set:
        from .exprs import loc_name
        out = {(loc_name(vis, nm), vis) for vis, nm in self.prog.lay.loc_slots}
        for x in self.prog.game.walk():
            if isinstance(x, ir.Location) and isinstance(x.name, ir.Name):
                out.add((loc_name(x.vis, x.name.value), x.vis))
        out.update((ln, vis) for ln, vis, _ in self.runtime_locs)
        return out

    def _location_owners(self, owners: list) -> dict:
        """Which owners each location name is used with, by the checker's types of its owner expressions."""
        from ggpbridge.recycle.check import GAME, PLAYER, TEAM, analyse
        from .exprs import loc_name
        lay = self.prog.lay
        by_type = {GAME: [owner_term(lay, 0)],
                   PLAYER: [owner_term(lay, 1 + p) for p in range(lay.n)],
                   TEAM: [owner_term(lay, 1 + lay.n + t) for t in range(len(lay.teams))]}
        out: dict = {}
        # the types of loop variables are known only in context: the checker tracked them
        for (otype, vis, nm) in analyse(self.prog.game).locations:
            got = out.setdefault(loc_name(vis, nm), set())
            got.update(by_type.get(otype, owners))
        return {k: [o for o in owners if o in v] for k, v in out.items()}

    def _storages(self) -> dict:
        out = {"sto": set(), "str": set(), "pts": set()}
        for x in self.prog.game.walk():
            if isinstance(x, ir.IntStorage) and isinstance(x.key, ir.Name):
                out["sto"].add(x.key.value)
            elif isinstance(x, ir.StrStorage) and isinstance(x.key, ir.Name):
                out["str"].add(x.key.value)
            elif isinstance(x, ir.PointsRef) and isinstance(x.name, ir.Name):
                out["pts"].add(x.name.value)
        computed = computed_keys(self.prog.game, self.prog.values, self._names())
        out["sto"] |= computed["sto"]
        out["str"] |= computed["str"]
        lay = self.prog.lay
        out["sto"].update(lay.sto_slots)
        out["str"].update(lay.str_slots)
        out["pts"].update(lay.pts_slots)
        return out

    def _names(self) -> set:
        out = {""}
        for crd in self.prog.lay.cards:
            out.update(str(v) for v in crd.values() if v is not None)
        for x in self.prog.game.walk():
            if isinstance(x, ir.Name):
                out.add(x.value)
            elif isinstance(x, ir.NameList):
                out.update(x.names)
        return out

    def _points(self, flow) -> list:
        """Per point map `set`: each card's score, for every pattern of run-time awards it matches."""
        optgroups.check_distinct(flow)
        subsetsums.check_nonneg(flow)
        out = []
        lay = self.prog.lay
        F = Fresh()
        k, o, c, v = (F.var(h) for h in "kocv")
        self.point_values, self.values_by_map, self.card_range, self.card_values = {0}, {}, {}, {}
        for sid, key, base, dyn in flow.point_sets:
            out.append(rule(f("pts_set", sid)))
            bits = [F.var("b") for _ in dyn]
            for cid in range(len(lay.cards)):
                for pattern in valued.patterns(dyn, lambda conds, cid=cid: cid in _matching(
                        lay.attr_index, [(a, x) for a, x, _ in conds], len(lay.cards))):
                    total = base[cid] + sum(dyn[i][0] for i in range(len(dyn)) if pattern >> i & 1)
                    self.point_values.add(total)
                    self.values_by_map.setdefault(key, set()).add(total)
                    self.card_values.setdefault((key, cid), {0}).add(total)
                    low, high = self.card_range.get((key, cid), (0, 0))
                    self.card_range[key, cid] = (min(low, total), max(high, total))
                    flags = [const(pattern >> i & 1) for i in range(len(dyn))]
                    out.append(rule(f("pts_value", sid, f(f"pat{len(flags)}", *flags), card(cid),
                                      const(total))))
            # which run-time awards a card matches
            body = [true(f("points", k, o, sid)), f("card_id", c)]
            for i, (_, conds) in enumerate(dyn):
                match = []
                for attr, lit, idx in conds:
                    if attr is None:   # a drawn award's alternative: the value its slot holds
                        match.append(true(f("parg", k, o, const(idx), const(lit))))
                    elif lit is not None:
                        match.append(f("card_att", c, name(attr), name(lit)))
                    else:
                        a = F.var("a")
                        match += [true(f("parg", k, o, const(idx), a)), f("card_att", c, name(attr), a)]
                pred = f"match_{sid.name}_{i}"
                out.append(rule(f(pred, k, o, c), true(f("points", k, o, sid)), f("card_id", c), *match))
                out.append(rule(f(f"{pred}_bit", k, o, c, const(1)), f(pred, k, o, c)))
                out.append(rule(f(f"{pred}_bit", k, o, c, const(0)), true(f("points", k, o, sid)), f("card_id", c),
                                neg(f(pred, k, o, c))))
                body.append(f(f"{pred}_bit", k, o, c, bits[i]))
            body.append(f("pts_value", sid, f(f"pat{len(bits)}", *bits), c, v))
            out.append(rule(f("card_points", k, o, c, v), *body))
        return out

    def _bounds(self, flow) -> tuple[int, int]:
        lay = self.prog.lay
        apart = plays.scores_apart(flow)
        # a declared constant's literal is only its default: its value (`--set` or not) is added below
        apart |= {id(d.value) for d in self.prog.game.declares}
        lits = [x.value for x in self.prog.game.walk() if isinstance(x, ir.IntLit) and id(x) not in apart]
        lits += [v for v in self.prog.values.values() if isinstance(v, int)]
        # what the game computes from constants alone (G_cardgame's "every token given": a
        # stash can reach it) is a value as much as a literal is
        lits += _constant_values(self.prog.game, self.prog.values)
        pts = self.point_values
        lo = min([-1, 0] + lits + list(pts))
        hi = max([len(lay.cards) + 1, lay.n + 1] + lits + list(pts))
        if "sum" in flow.used:
            # a sum adds at most every card's best score in the map it reads (any map when
            # the map's name is computed at run time)
            for key in flow.sum_maps:
                low, high = self._sum_range(key if isinstance(key, Const) else None)
                lo, hi = min(lo, low), max(hi, high)
        for (key, l), uses in flow.tuples.items():
            for k in uses["count"]:   # the number of tuples, and the running sums up to it
                hi = max(hi, self._tuples_bound(key, l, k))
        counters = [x for x in self.prog.game.walk() if isinstance(x, (ir.Inc, ir.Dec, ir.SetInt))]
        if counters:
            # storages that count up or down: room for a run of changes beyond the literals,
            # and for one more change past the largest literal (a count that ends the game
            # when it passes a threshold). Beyond the table a play ends as `overflow`.
            steps = [self._amount(x.value, pts) for x in counters if not isinstance(x, ir.SetInt)]
            hi = max(hi, 32, max(abs(x) for x in [0] + lits) + max(steps, default=0))
        if may_go_negative(self.prog.game):
            lo = min(lo, -hi)
        for key_lo, key_hi in self.cond_ranges:   # condguard.py: rows a condition reads
            lo, hi = min(lo, key_lo), max(hi, key_hi)
        if self.fit is not None:
            # every value the fitting plays wrote must be in the table, even where the static bound
            # of an increment falls short (a count times 100 in Caterpillar is bounded by 52 here)
            for key, (key_lo, key_hi) in self.fit.ints.items():
                if key not in self.capped:
                    lo, hi = min(lo, key_lo), max(hi, key_hi)
        return lo, hi + 1

    def _sum_range(self, key) -> tuple[int, int]:
        """The lowest and highest sum of a set of cards' scores in a map (in any map: key None)."""
        ranges = self.card_range
        low = high = 0
        for cid in range(len(self.prog.lay.cards)):
            mine = [r for (k, c), r in ranges.items() if c == cid and (key is None or k == key)] or [(0, 0)]
            low += min(0, min(r[0] for r in mine))
            high += max(0, max(r[1] for r in mine))
        return low, high

    def _bin_caps(self, key, l) -> list:
        """How many cards of a location can lie in each score bin 0..12 of a map (tuples)."""
        ncards = len(self.prog.lay.cards)
        if l.name.startswith("mem_"):   # `remember` may put a card there twice
            return [ncards] * 13
        return [sum(1 for cid in range(ncards) if b in self.card_values.get((key, cid), {0})) for b in range(13)]

    def _tuples_bound(self, key, l, k: int) -> int:
        """The most tuples of k cards a location can hold: each bin's binomial at its fullest,
        and never more than the k-combinations of all the cards."""
        from math import comb
        caps = self._bin_caps(key, l)
        return min(sum(comb(c, k) for c in caps), comb(max(len(self.prog.lay.cards), max(caps)), k))

    def _tuple_facts(self, flow) -> list:
        """The facts of the tuple kernel: which (map, location) pairs, bins, room, binomials."""
        from math import comb
        from .exprs import unsupported
        for key, node in flow.tuple_nodes:   # CardStock's bins are the scores 0..12 only
            bad = sorted(v for (kk, _), vs in self.card_values.items() if kk == key for v in vs
                         if not 0 <= v <= 12)
            if bad:
                raise unsupported(f"tuples of scores outside 0..12 ({bad[0]})", node)
        out = [rule(f("tup_bin", const(b))) for b in range(13)]
        out += [rule(f("tup_bsucc", const(b), const(b + 1))) for b in range(12)]
        out += [rule(f("tup_below", const(a), const(b))) for b in range(13) for a in range(b)]
        binoms = {}
        for (key, l), uses in sorted(flow.tuples.items(), key=str):
            out.append(rule(f("tup_of", key, l)))
            caps = self._bin_caps(key, l)
            # the N-th card of a bin needs counts up to N-1; the number of tuples, whole counts
            need = [max(uses["nth"], default=1) - 1] * 13
            if uses["count"]:
                need = caps
            for b in range(13):
                out += [rule(f("tup_room", key, l, const(b), const(z))) for z in range(1, min(need[b], caps[b]) + 1)]
            out += [rule(f("tup_want", key, l, const(k))) for k in sorted(uses["nth"])]
            out += [rule(f("tup_counted", key, l, const(k))) for k in sorted(uses["count"])]
            for k in uses["count"]:
                binoms[k] = max(binoms.get(k, 0), max(caps))
        for k, top in sorted(binoms.items()):
            out += [rule(f("tup_binom", const(k), const(z), const(comb(z, k)))) for z in range(top + 1)]
        return out

    def _best_sum_facts(self, flow, lo: int, hi: int) -> list:
        """The table of each best sum (bestsum.py), over the low map's reachable sums."""
        out = []
        for (low, high, bound), node in sorted(flow.best_sums.items(), key=str):
            d, kmax = bestsum.common_raise(flow.point_sets, low, high, node)
            s_lo, s_hi = self._sum_range(low)
            out += bestsum.facts(low, high, bound, d, kmax, range(max(lo, s_lo), min(hi, s_hi) + 1))
        return out

    def _amount(self, x, pts) -> int:
        """An upper bound of an increment's size (the number of cards when unknown)."""
        if isinstance(x, ir.IntLit):
            return abs(x.value)
        if isinstance(x, (ir.Score, ir.Sum)):
            # the scores of the map it reads (of any map when its name is computed at run time)
            nm = x.points.name
            key = name(nm.value) if isinstance(nm, ir.Name) else None
            if isinstance(x, ir.Sum):
                return max(map(abs, self._sum_range(key)))
            scores = self.values_by_map.get(key, pts)
            return max(abs(v) for v in scores)
        return len(self.prog.lay.cards)

    def _kernels(self, flow) -> list:
        used = flow.used
        lo, hi = self._bounds(flow)
        self.bounds = (lo, hi)
        if self.wide is None:
            out = kernel.numbers(lo, hi, plus="plus" in used or "sum" in used, times="times" in used)
        else:   # no tables of pairs: `less`, `leq` and `plus` are read from digits (wide.rewrite)
            out = wide.numbers(self.wide) + wide.facts(self.wide)
        stores = self.stores
        fitted = self.fit is not None
        out += self._fitted_rooms()
        out += kernel.cards(fitted) + (kernel.bags(fitted) if self.bags else [])
        out += kernel.storages(bool(stores["sto"]), bool(stores["str"]), fitted)
        if stores["pts"]:
            out += kernel.points(any(dyn for _, _, _, dyn in flow.point_sets))
        out += kernel.registers() + kernel.cycles()
        out += plays.order_facts(flow, self.values_by_map)
        if "sum" in used:
            out += kernel.points_sum(flow.sums, wide=self.wide is not None, positions="best_sum" in used)
        if "best_sum" in used:
            out += self._best_sum_facts(flow, lo, hi)
        if "tuples" in used:
            out += self._tuple_facts(flow) + kernel.tuples(any(u["count"] for u in flow.tuples.values()))
        for op, kk in sorted(flow.divisors):
            fn = _INT_OPS[{"times": "*", "div": "//", "mod": "%"}[op]]
            out += [rule(f(f"{op}_{const(kk).name}", const(a), const(fn(a, kk)))) for a in range(lo, hi + 1)
                    if lo <= fn(a, kk) <= hi]
        x, y, z = (Fresh().var(h) for h in "xyz")
        if "overflow" in used:  # which sums, differences and stack levels stay inside the tables
            # (wide: an increment finds its own way out of the range, wide.add)
            out += [rule(f("has_sum", x, y), f("plus", x, y, z)),
                    rule(f("has_difference", z, y), f("plus", x, y, z))] if self.wide is None else []
            out += [rule(f("deeper", x), f("dsucc", x, y)),
                    rule(f("base", const("overflow")))]
        if self.wide is None:   # (wide: `inf` has digits above every number, wide.facts)
            out.append(rule(f("less", x, const("inf")), f("num", x)))
        out.append(rule(f("next", x), f("nx", x)))
        out.append(rule(f("nx", f("pc", const("done"))), true(f("pc", const("done")))))
        return out

    def _scoring(self, flow, fresh) -> list:
        sc = self.prog.game.scoring
        k, v, k2, v2 = fresh.var("k"), fresh.var("v"), fresh.var("k"), fresh.var("v")
        from .exprs import declared_env
        env = declared_env(self.prog.values)
        env.cur = ([], k)
        with flow.site("score", None):   # its conditions are read in the final state (condguard.py)
            lits, val = flow.val(sc.value, env)
        tests, ranges = condguard.score_tests(self, flow)
        self.cond_ranges += ranges
        # `reached V`: some score is V or better. A chain along `succ` keeps this linear in the
        # score table, where comparing every pair of scores grounds quadratically.
        up = sc.mode == "max"
        r = fresh.var("r")
        # a play that left the tables (integers, stage depth) has no score: every player gets 0
        ok = [neg(true(const("overflow")))] if "overflow" in flow.used else []
        # A score the tables' arithmetic computes (the product of two storages, say) can fall
        # outside them, and a player would be left without a goal: that play ends as `overflow`
        # too (every goal 0; the lockstep expects it where the simulator's score is off the table).
        lost = table_arithmetic(lits) or bool(tests)
        if lost:
            ok.append(neg(f("score_lost")))
        out = [
            rule(f("player_score", k, val), f("player_id", k), *lits),
            rule(f("reached", v), f("player_score", k, v)),
            # the chain's step first: a top-down prover asking for one score walks up (down) the
            # chain from it instead of enumerating every score reached at each level
            rule(f("reached", v), f("succ", v, v2) if up else f("succ", v2, v), f("reached", v2)),
            rule(f("beaten", k), f("player_score", k, v), f("succ", v, v2) if up else f("succ", v2, v),
                 f("reached", v2)),
            rule(f("goal", r, const(100)), f("role_of", k, r), f("player_score", k, v), neg(f("beaten", k)), *ok),
            rule(f("goal", r, const(0)), f("role_of", k, r), f("beaten", k), *ok),
            rule(f("goal", const("random"), const(0))),
            rule(f("terminal"), true(f("pc", const("done")))),
        ]
        if "overflow" in flow.used:
            out += [rule(f("goal", r, const(0)), f("role_of", k, r), true(const("overflow"))),
                    rule(f("terminal"), true(const("overflow")))]
        if lost:
            out += tests
            out += [rule(f("player_scored", k), f("player_score", k, v)),
                    rule(f("score_lost"), f("player_id", k), neg(f("player_scored", k))),
                    rule(f("goal", r, const(0)), f("role_of", k, r), f("score_lost"))]
        return out

    def _play(self, flow) -> list:
        r, m, p, l, kk = (Fresh().var(h) for h in ("r", "m", "p", "l", "k"))
        rnd = const("random")
        return [
            rule(f("legal", r, m), f("option_ok", r, m)),
            rule(f("busy", r), true(f("pc", l)), f("choice_at", l), f("current", p), f("role_of", p, r)),
            rule(f("legal", r, const("noop")), f("role_of", p, r), neg(f("busy", r))),
            rule(f("legal", rnd, f("pick", kk)), f("pick_ok", kk)),
            rule(f("random_busy"), f("pick_ok", kk)),
            rule(f("legal", rnd, const("noop")), neg(f("random_busy"))),
        ] + ([rule(f("legal", rnd, f("draw", kk)), f("draw_ok", kk)),
              rule(f("random_busy"), f("draw_ok", kk))] if "draw" in flow.used else [])

    def _sees(self) -> list:
        """Each player sees, after every step, the cards visible to it and the public fluents."""
        F = Fresh()
        r, p, l, o, i, c, n, t, k, v, x, d = (F.var(h) for h in "r p l o i c n t k v x d".split())
        out = [
            rule(f("sees_loc", p, l, o), f("player_id", p), f("loc_vis", l, const("vloc")), f("owner_id", o)),
            rule(f("sees_loc", p, l, o), f("player_id", p), f("loc_vis", l, const("mem")), f("owner_id", o)),
            rule(f("sees_loc", p, l, p), f("player_id", p), f("loc_vis", l, const("iloc"))),
            rule(f("sees_loc", p, l, f("team", t)), f("team_member", t, p), f("loc_vis", l, const("iloc"))),
            rule(f("mine", p, p), f("player_id", p)),
            rule(f("mine", p, f("team", t)), f("team_member", t, p)),
            rule(f("sees_loc", p, l, o), f("player_id", p), f("loc_vis", l, const("oloc")), f("owner_id", o),
                 neg(f("mine", p, o))),
            rule(f("sees", r, f("at", l, o, i, c)), f("role_of", p, r), f("nx", f("at", l, o, i, c)),
                 f("sees_loc", p, l, o)),
            rule(f("sees", r, f("in", l, o, c)), f("role_of", p, r), f("nx", f("in", l, o, c)), f("sees_loc", p, l, o)),
            rule(f("sees", r, f("count", l, o, n)), f("role_of", p, r), f("nx", f("tally", l, o, n)),
                 neg(f("sees_loc", p, l, o))),
            rule(f("nx_occupied", l, o, i), f("nx", f("at", l, o, i, c))),
            rule(f("nx_size", l, o, n), f("nx_occupied", l, o, i), f("isucc", i, n), neg(f("nx_occupied", l, o, n))),
            rule(f("sees", r, f("count", l, o, n)), f("role_of", p, r), f("nx_size", l, o, n), f("loc_owner", l, o),
                 neg(f("sees_loc", p, l, o))),
        ]
        for fl, arity in (("int", 3), ("str", 3), ("points", 3), ("parg", 4), ("cyc", 4), ("cycdepth", 2),
                          ("pc", 1)):
            args = [F.var("a") for _ in range(arity)]
            out.append(rule(f("sees", r, f(fl, *args)), f("role_of", p, r), f("nx", f(fl, *args))))
        return out

    def _declarations(self, flow) -> list:
        F = Fresh()
        r, p, l, o, i, c, k, v, s, d, a, b, x = (F.var(h) for h in "r p l o i c k v s d a b x".split())
        out = [rule(f("label", const(lab))) for lab in flow.labels + ["done"]]
        out += [
            rule(f("base", f("pc", l)), f("label", l)),
            rule(f("base", f("at", l, o, i, c)), f("loc_owner", l, o), f("ordered", l),
                 f("room", l, i) if self.fit else f("index", i), f("card_id", c)),
            rule(f("base", f("in", l, o, c)), f("loc_owner", l, o), f("bag", l), f("card_id", c)),
            rule(f("base", f("tally", l, o, i)), f("loc_owner", l, o), f("bag", l), f("isucc", x, i),
                 *([f("room", l, x)] if self.fit else [])),
            rule(f("base", f("int", k, o, v)), f("sto_owner", k, o), f("int_room", k, v) if self.fit else f("num", v)),
            rule(f("base", f("str", k, o, v)), f("str_owner", k, o), f("name_value", v)),
            rule(f("base", f("points", k, o, s)), f("pts_owner", k, o), f("pts_set", s)),
            rule(f("base", f("parg", k, o, i, v)), f("pts_owner", k, o), f("parg_index", i), f("name_value", v)),
            rule(f("base", f("cyc", const("player_cycle"), d, a, b)), f("depth", d), f("player_id", a),
                 f("seat_or_none", b)),
            rule(f("base", f("cyc", const("team_cycle"), d, a, b)), f("depth", d), f("team_id", a), f("team_or_none", b)),
            rule(f("base", f("cycdepth", k, d)), f("cycle_kind", k), f("depth", d)),
            rule(f("seat_or_none", a), f("player_id", a)),
            rule(f("seat_or_none", const(NONE))),
            rule(f("team_or_none", a), f("team_id", a)),
            rule(f("team_or_none", const(NONE))),
            rule(f("cycle_kind", const("player_cycle"))),
            rule(f("cycle_kind", const("team_cycle"))),
            rule(f("input", r, const("noop")), f("role", r)),
            rule(f("input", const("random"), f("pick", i)), f("num", i)),
        ]
        if "draw" in flow.used:
            out.append(rule(f("input", const("random"), f("draw", c)), f("card_id", c)))
        if getattr(flow, "subset_masks", False):   # subsetopts.py: subsets named by their masks
            out += subsetopts.tables()
        out += [rule(f("base", f("var", const(g), v)), f(dom, v)) for g, dom in sorted(flow.reg_dom.items())
                if dom not in ("scan_value", "snapshot")]
        out += [rule(f("base", f("var", const(g), const(NO_VALUE)))) for g in sorted(flow.unset_regs)]
        if flow.snapshot_regs:  # a snapshot holds (el KEY CARD): a key is a position
            out += [rule(f("snapshot_register", s)) for s in flow.snapshot_regs]
            out.append(rule(f("base", f("var", k, f("el", i, c))), f("snapshot_register", k), f("index", i),
                            f("card_id", c)))
        if flow.scans:
            parts = max(self.prog.lay.n, len(self.prog.lay.teams), flow.max_parts)
            out += [rule(f("scan_part", const(x))) for x in range(parts)]
            out += [rule(f("scan_register", s)) for s in flow.scans]
            out.append(rule(f("base", f("var", k, f("sc", a, i))), f("scan_register", k), f("scan_part", a),
                            f("index", i)))
        nargs = max([len({c[2] for _, conds in dyn for c in conds if c[2] is not None})
                     for _, _, _, dyn in flow.point_sets] + [0])
        out += [rule(f("parg_index", const(x))) for x in range(nargs)]
        stores = self.stores
        keep = {"int": bool(stores["sto"]), "str": bool(stores["str"]), "points": bool(stores["pts"]),
                "parg": any(dyn for _, _, _, dyn in flow.point_sets)}
        out = [x for x in out if not (x.head.name == "base" and x.head.args[0].name in keep
                                      and not keep[x.head.args[0].name])]
        for lab, forms in flow.choice_forms.items():
            for fi, binds in forms:
                es = [F.var("e") for _ in binds]
                doms = [f({"player": "player_id", "team": "team_id", "card": "card_id", "int": "num",
                           "mask": "subset_mask"}.get(t, "value_any"), e) for (_, t), e in zip(binds, es)]
                out.append(rule(f("input", r, option_term(fi, es)), f("role_of", p, r), *doms))
        return _dedup(out)


def _constant_values(game: ir.Game, values: dict) -> list:
    """The value of every arithmetic expression of literals and declared constants (a loop
    variable that shadows a constant's name makes that name not constant)."""
    bound = {x.var for x in game.walk() if isinstance(getattr(x, "var", None), str) and not isinstance(x, ir.Declare)}

    def value(x):
        if isinstance(x, ir.IntLit):
            return x.value
        if isinstance(x, ir.Var):
            v = values.get(x.name)
            return v if isinstance(v, int) and not isinstance(v, bool) and x.name not in bound else None
        if isinstance(x, ir.Arith) and x.op in ("+", "-", "*"):
            a, b = value(x.left), value(x.right)
            return None if a is None or b is None else _INT_OPS[x.op](a, b)
        return None

    return [v for x in game.walk() if isinstance(x, ir.Arith) for v in [value(x)] if v is not None]


def _loop_orders(kind: str, n: int) -> list:
    """Facts to walk the players (teams) in order: all of them, or all but one."""
    k = const(kind + "s")
    out = [rule(f("first_of", k, const(0))), rule(f("last_of", k, const(n - 1)))]
    out += [rule(f("after_of", k, const(x), const(x + 1))) for x in range(n - 1)]
    for c in range(n):
        rest = [x for x in range(n) if x != c]
        if rest:
            out += [rule(f("some_but", k, const(c))), rule(f("first_but", k, const(c), const(rest[0]))),
                    rule(f("last_but", k, const(c), const(rest[-1])))]
            out += [rule(f("after_but", k, const(c), const(a), const(b))) for a, b in zip(rest, rest[1:])]
    return out


def _stage_depth(items) -> int:
    best = 0
    for it in items:
        if isinstance(it, ir.Stage):
            best = max(best, 1 + _stage_depth(it.body))
    return best


_KEYWORDS = {("true", 1), ("does", 2)}


def _prune(rules: list) -> list:
    """Drop kernel rules that need an effect this game never has (a rule needing a relation no
    rule defines can never fire; `not` of such a relation always holds)."""
    from ggpbridge.gdl.ast import Not as _Not, relation
    while True:
        defined = {relation(r.head) for r in rules} | _KEYWORDS
        out = []
        for r in rules:
            if any(relation(x) not in defined for x in r.body if relation(x) is not None):
                continue
            body = tuple(x for x in r.body if not (isinstance(x, _Not) and relation(x.arg) is not None
                                                    and relation(x.arg) not in defined))
            out.append(r if body == r.body else type(r)(r.head, body))
        if len(out) == len(rules):
            return out
        rules = out


def _dedup(rules: list) -> list:
    seen, out = set(), []
    for r in rules:
        if r not in seen:
            seen.add(r)
            out.append(r)
    return out
