"""Lockstep cross-check: the simulator (stepwise) against clingo on the game's GDL-II translation.

Both advance together with the same chance outcomes and the same decisions. The
translation takes automatic steps of its own (every role has one move, `noop` or a
single chance outcome) between the simulator's events; those are played through. At
every decision, chance event and at the end the two must agree on: who decides and
the exact set of options, the number of chance outcomes, the whole state (the
simulator exports its data as the translation's fluents), each player's percepts
(what `observe` gives), terminal, and the goals.

Decks (translators/recycle_gdl/order.py) are the one place where the two take chance
differently: the simulator shuffles them (chance events the translation does not have) and
draws from the top, the translation lets `random` draw each card. The check plays the
simulator's shuffles alone and then has `random` draw exactly the cards the simulator took,
in order (the simulator logs them): so the states still have to agree card for card.
"""
from __future__ import annotations

import hashlib
import random
import time
from collections import deque
from dataclasses import dataclass, field

from . import ir
from .errors import GameDefinitionError, GgpBridgeError
from .gdl.asp_terms import symbol_kif, term_symbol
from .gdl.ast import Const
from .gdl.kif import print_kif
from .sim.stepwise import Chance, Decision, Runaway, StepMachine, Terminal
from .translate import (BEYOND_TABLES, MANY_SUBSET_OPTIONS, MANY_SUBSETS, RUN_VARIANTS, SCORE_OFF_TABLES, STALE_DRAW,
                        derives_score_lost, overflow_reason)

COMPARED = ("at", "in", "tally", "int", "str", "cyc", "cycdepth", "pc")
AUTO_LIMIT = 100_000


class Divergence(GgpBridgeError):
    """The two engines disagree."""


# Why a play ended as `overflow`, as Report.overflow_kinds counts it: only "tables" can be
# helped by fitting to more plays (the fit covers what storages reach, not the scores computed
# from them, nor the order of draws).
OVERFLOW_KINDS = {BEYOND_TABLES: "tables", STALE_DRAW: "stale draw", SCORE_OFF_TABLES: "score",
                  RUN_VARIANTS: "run variants", MANY_SUBSETS: "subsets", MANY_SUBSET_OPTIONS: "subset options"}


@dataclass
class Report:
    """What a cross-check found."""

    seed: int = 0                # the first playout's seed: playout i used seed + i
    kif_sha256: str = ""         # of the translation checked (KIF text): runs that checked the same one
    playouts: int = 0
    decisions: int = 0
    chance: int = 0
    gdl_steps: int = 0
    seconds: float = 0.0         # playing, after the setup
    setup_seconds: float = 0.0   # translating (and fitting), grounding
    divergence: dict | None = None
    capped: list = field(default_factory=list)   # seeds of runaway games stopped at the event cap
    broken: list = field(default_factory=list)   # seeds where a player has no option (a rule error of the game)
    overflowed: list = field(default_factory=list)  # seeds of plays beyond a fitted translation's tables,
    # or that drew from a deck refilled and not shuffled since (translators/recycle_gdl/order.py)
    overflow_kinds: dict = field(default_factory=dict)  # why they overflowed (OVERFLOW_KINDS) -> how many
    rule_errors: list = field(default_factory=list)  # {seed, error}: the simulator stopped on a rule error
    stopped: str | None = None                   # why fewer playouts than asked were played

    def as_dict(self) -> dict:
        return dict(vars(self))


# the unfitted tables are a static guess (literals and a run of changes past them); a variant
# whose `--set` values compound (Leduc's pot with a large ante) can outgrow it
FIT_HINT = " (size the tables to seeded plays with --fit N)"
MACHINES = ("clingo", "propnet")   # the GDL engines a lockstep can play the translation on


def gdl_machine(desc, kind: str = "clingo"):
    """The GDL engine named `kind` on a description, with percepts: ClingoMachine, or PropnetMachine
    (the same answers, by change propagation over the same ground program)."""
    if kind == "propnet":
        from .gdl.propnet_machine import PropnetMachine
        return PropnetMachine(desc)
    if kind != "clingo":
        raise ValueError(f"the GDL machine is one of {', '.join(MACHINES)}, not {kind!r}")
    from .gdl.machine import ClingoMachine
    return ClingoMachine(desc, percepts=True)


class Lockstep:
    """One game, translated once, checked over many seeded playouts (on the GDL engine `machine`)."""

    def __init__(self, loaded, overrides: dict | None = None, fit: int = 0, machine: str = "clingo"):
        from .sim import compile_loaded
        from .sim.fold import fold_loaded
        # both engines play the game without the cards its setup puts aside for good (sim/fold.py)
        loaded = fold_loaded(loaded, overrides)
        self.prog = compile_loaded(loaded, overrides)
        # fit > 0: tables sized to that many random plays (seeds 0..fit-1 of the simulator's own
        # playouts, not the lockstep's); a play beyond them is counted, not compared
        self.tr = _folded_translation(loaded, overrides, fit)   # folded once, above
        self.sim = StepMachine(self.prog)
        self.gdl = gdl_machine(self.tr.description, machine)
        self.roles = {str(r): r for r in self.gdl.roles()}
        self.overflow_kind = ""   # why the last play that ended as "overflow" did (OVERFLOW_KINDS)
        self.may_lose_score = derives_score_lost(self.tr.description)
        from .translators.recycle_gdl.exprs import loc_name
        self.deck_slots = {slot for (vis, nm), slot in self.prog.lay.loc_slots.items()
                           if loc_name(vis, nm) in self.tr.decks}
        self.draws: deque = deque()   # cards the simulator drew from decks, not yet drawn by `random`
        self.partial = [0, 0, 0]      # the current play's decisions, chance events and GDL steps so far

    def _sim_step(self, s, move):
        """The simulator's next state (the initial one when s is None), noting the cards drawn from decks."""
        self.sim.drawlog = log = []
        try:
            s = self.sim.initial_state() if s is None else self.sim.next_state(s, move)
        finally:
            self.sim.drawlog = None
        self.draws.extend(card for slot, _, card, fresh in log if fresh and slot in self.deck_slots)
        return s

    # ------------------------------------------------------------ one playout
    def play(self, seed: int, max_events: int = 2_000) -> tuple:
        """Play one game in lockstep: (decisions, chance events, GDL steps, ending); raises Divergence.

        The ending is "over", or "runaway" (the event cap, or a stretch without any event that
        the simulator proves endless or cuts at its step limit), "broken" (a player without options)
        or "overflow" (beyond a fitted translation's tables, or a draw from a deck not shuffled
        since it was refilled)."""
        rng = random.Random(seed)
        self.draws.clear()
        s = self._sim_step(None, None)
        g = self.gdl.initial_state()
        history: list = []
        # kept on the checker, so a rule error of the game still reports how far the play went
        stats = self.partial = [0, 0, 0]
        last = None   # the translation's last step (state, joint move): its percepts are compared
        for _ in range(max_events):
            if isinstance(self.sim.node(s), Runaway):
                # the simulator runs on without any event (a stage loops without a choice): the
                # translation's automatic steps would go on as long, so stop here, agreeing so far
                return (*stats, "runaway")
            g, last, n = self._settle(g, last, seed, history)
            stats[2] += n
            node = self.sim.node(s)
            where = dict(seed=seed, history=list(history))
            reason = overflow_reason(g)
            if reason is not None and (self.tr.fit is not None or reason in (STALE_DRAW, RUN_VARIANTS, MANY_SUBSETS,
                                                                         MANY_SUBSET_OPTIONS)):
                # beyond the fitted tables, a draw from a deck refilled and not shuffled since, or
                # runs the translation does not list (never a matter of the tables' size)
                self.overflow_kind = OVERFLOW_KINDS[reason]
                return (*stats, "overflow")
            if reason is not None:
                lo, hi = self.tr.bounds
                raise self._diverge(f"the play left the translation's tables (integers {lo}..{hi}, stage depth "
                                    f"{self.tr.depth}) and ended as `overflow`: the translation's bounds are too "
                                    f"small for this play{FIT_HINT}", where, s, g)
            if isinstance(node, Terminal):
                if not self.gdl.is_terminal(g):
                    raise self._diverge("the simulator's game is over, the translation's is not", where, s, g)
                want = {self.roles[f"player{p}"]: 100 if p in node.winners else 0 for p in range(len(node.scores))}
                got = {r: v for r, v in self.gdl.goals(g).items() if str(r) != "random"}
                lo, hi = self.tr.bounds
                off = [(p, v) for p, v in enumerate(node.scores) if isinstance(v, int) and not lo <= v <= hi]
                if off:
                    # a score the tables cannot hold (a product of two storages): the translation
                    # ends the play as `overflow`, every goal 0
                    p, v = off[0]
                    if set(got.values()) != {0} or len(got) != len(want):
                        raise self._diverge(f"player {p}'s score {v} is outside the translation's integers "
                                            f"{lo}..{hi}: every goal should be 0 (overflow), clingo has "
                                            f"{self._show(got)}", where, s, g)
                    if self.tr.fit is not None:
                        self.overflow_kind = OVERFLOW_KINDS[SCORE_OFF_TABLES]
                        return (*stats, "overflow")
                    raise self._diverge(f"player {p}'s score {v} is outside the translation's integers {lo}..{hi} "
                                        f"and the play ended as `overflow`: the translation's bounds are too small "
                                        f"for this play{FIT_HINT}", where, s, g)
                if want != got and self.may_lose_score and set(got.values()) == {0} and len(got) == len(want):
                    # a result on the way to a score left the tables (an intermediate product):
                    # the final scores are in them, every goal is 0 all the same (`score_lost`)
                    if self.tr.fit is not None:
                        self.overflow_kind = OVERFLOW_KINDS[SCORE_OFF_TABLES]
                        return (*stats, "overflow")
                    raise self._diverge(f"every goal is 0 (a score computed through the translation's integers "
                                        f"{lo}..{hi} left them on the way; the simulator's scores are "
                                        f"{list(node.scores)}): the translation's bounds are too small for "
                                        f"this play{FIT_HINT}", where, s, g)
                if want != got:
                    raise self._diverge(f"goals differ: simulator {self._show(want)}, clingo {self._show(got)}",
                                        where, s, g)
                return (*stats, "over")
            if self.gdl.is_terminal(g):
                raise self._diverge("the translation's game is over, the simulator's is not", where, s, g)
            if isinstance(node, Chance) and node.kind == "shuffle" and \
                    self.prog.lay.loc_slots.get(node.where) in self.deck_slots:
                # shuffling a deck: the translation has nothing to match, its draws come later
                k = rng.randrange(node.n)
                history.append({"chance": k})
                stats[1] += 1
                s = self._sim_step(s, k)
                continue
            self._compare_state(s, g, where, last, node)
            legal = {r: self.gdl.legal_moves(g, r) for r in self.gdl.roles()}
            if isinstance(node, Chance):
                picks = sorted(m.arguments[0].number for m in legal[self.roles["random"]] if m.name == "pick")
                if picks != list(range(node.n)):
                    raise self._diverge(f"chance ({node.kind} {node.detail}): the simulator has {node.n} outcomes, "
                                        f"clingo offers {picks}", where, s, g)
                k = rng.randrange(node.n)
                history.append({"chance": k})
                joint = {r: (_pick(k) if str(r) == "random" else _NOOP) for r in self.gdl.roles()}
                stats[1] += 1
                s = self._sim_step(s, k)
            else:
                role = self.roles[f"player{node.player}"]
                want = [self.option_move(s, o) for o in node.options]
                if not want and not legal[role]:
                    # a rule error of the game (the simulator stops it): the engines agree so far
                    return (*stats, "broken")
                got = sorted(symbol_kif(m) for m in legal[role])
                if sorted(symbol_kif(m) for m in want) != got or len(set(want)) != len(want):
                    raise self._diverge(f"player {node.player}'s options differ: simulator "
                                        f"{sorted(symbol_kif(m) for m in want)}, clingo {got}", where, s, g)
                k = rng.randrange(len(node.options))
                history.append({"player": node.player, "option": k, "move": symbol_kif(want[k])})
                joint = {r: (want[k] if r == role else _NOOP) for r in self.gdl.roles()}
                stats[0] += 1
                s = self._sim_step(s, k)
            last = (g, joint)
            g = self.gdl.next_state(g, joint)
            stats[2] += 1
        # a runaway game (War can cycle): both engines agreed all the way to the cap
        return (*stats, "runaway")

    def _settle(self, g, last, seed, history):
        """Play the translation's automatic steps (every role has exactly one move); the
        state reached, the last step made (state, joint move) and how many were made."""
        n = 0
        while not self.gdl.is_terminal(g):
            legal = {r: self.gdl.legal_moves(g, r) for r in self.gdl.roles()}
            rnd = legal.get(self.roles["random"], ())
            if rnd and all(m.name == "draw" for m in rnd):
                if not self.draws:
                    break   # the simulator has not drawn yet (it is still shuffling)
                card = term_symbol(_card(self.draws.popleft()))
                move = next((m for m in rnd if m.arguments[0] == card), None)
                if move is None:
                    raise Divergence(f"seed {seed}, after {len(history)} events: the simulator drew "
                                     f"{symbol_kif(card)}, the translation's `random` may draw only "
                                     f"{sorted(symbol_kif(m.arguments[0]) for m in rnd)}")
                legal[self.roles["random"]] = (move,)
            if any(len(ms) != 1 for ms in legal.values()):
                break
            if any(str(m) != "noop" and str(r) != "random" for r, ms in legal.items() for m in ms):
                break  # a decision with a single option is still the player's decision
            joint = {r: ms[0] for r, ms in legal.items()}
            last = (g, joint)
            g = self.gdl.next_state(g, joint)
            n += 1
            if n > AUTO_LIMIT:
                raise Divergence(f"seed {seed}: the translation runs {AUTO_LIMIT} automatic steps without an event "
                                 f"(after {len(history)} events)")
        return g, last, n

    # ------------------------------------------------------------ comparisons
    def sim_fluents(self, s, node) -> set:
        """The simulator's state as fluents of the translation (data, cycles, program counter)."""
        from .translators.recycle_gdl import state_fluents
        from .translators.recycle_gdl.terms import const, f
        live = self.sim._live(s)
        out = {term_symbol(x) for x in state_fluents(self.prog.lay, live.c, self.tr.bags)}
        if isinstance(node, Decision):
            frame = live.frames[-1]
            ch = frame[0].items[frame[1]]
            out.add(term_symbol(f("pc", const(self.tr.flow.choice_label[ch.id]))))
        return out

    def _compare_state(self, s, g, where, last, node):
        if not isinstance(node, Decision):
            # a simulator state inside a chance sequence holds the data of its last decision
            # plus the outcomes drawn since: only decision (and terminal) states are whole
            return
        mine = self.sim_fluents(s, node)
        theirs = {x for x in g if x.name in COMPARED}
        if mine != theirs:
            raise self._diverge("the states differ", where, s, g, extra={
                "only_simulator": sorted(map(symbol_kif, mine - theirs)),
                "only_clingo": sorted(map(symbol_kif, theirs - mine))})
        if last is None:
            return
        # asked only here, before a decision: the steps in between solve without the `sees` rules
        percepts = self.gdl.sees(*last)
        data = {x for x in mine if x.name in ("int", "str")}
        for p in range(self.prog.lay.n):
            want = self._observed(s, p) | data
            got = {x for x in percepts[self.roles[f"player{p}"]] if x.name in ("at", "in", "count", "int", "str")}
            if want != got:
                raise self._diverge(f"player {p}'s percepts differ", where, s, g, extra={
                    "only_simulator": sorted(map(symbol_kif, want - got)),
                    "only_clingo": sorted(map(symbol_kif, got - want))})

    def _observed(self, s, p) -> set:
        """The simulator's observation of player p's locations, as the translation's percepts
        (every player sees the storages: the caller adds them)."""
        from .translators.recycle_gdl.export import card, owner_term
        from .translators.recycle_gdl.exprs import loc_name
        from .translators.recycle_gdl.terms import const, f
        lay = self.prog.lay
        obs = self.sim.observation(s, p)
        out = set()
        for (who, vis, nm), seen in obs["locations"].items():
            kind, idx = who
            col = 0 if kind == "game" else 1 + idx if kind == "player" else 1 + lay.n + idx
            ln, o = loc_name(vis, nm), owner_term(lay, col)
            if isinstance(seen, int):
                out.add(term_symbol(f("count", ln, o, const(seen))))
            elif ln in self.tr.bags:
                out.update(term_symbol(f("in", ln, o, card(x))) for x in seen)
            else:
                out.update(term_symbol(f("at", ln, o, const(i), card(x))) for i, x in enumerate(seen))
        return out

    def option_move(self, s, opt):
        """The translation's move for a simulator option: the form and the elements its `any`s take."""
        from .translators.recycle_gdl.options import option_head, option_term
        from .translators.recycle_gdl.optgroups import element_terms
        from .translators.recycle_gdl.subsetopts import element_mask, mask_term
        from .moves import option_elements
        live = self.sim._live(s)
        frame = live.frames[-1]
        ch = frame[0].items[frame[1]]
        # a group (a run, a partition's group) is named by the cards or value the translation gives it
        colls = [h.coll for h in option_head(ch.node.options[opt.form])[0] if isinstance(h, ir.AnyOf)]
        elems = []
        for i, (e, t) in enumerate(option_elements(live, ch, opt)):
            group = element_terms(colls[i], e, self.prog.lay) if i < len(colls) else None
            if group is None and isinstance(e, list):   # a subset, named by its mask (subsetopts.py)
                group = [mask_term(element_mask(live.c, e))]
            elems += [self._element(e, t)] if group is None else group
        return term_symbol(option_term(opt.form, elems))

    @staticmethod
    def _element(e, t):
        from .translators.recycle_gdl.export import card
        from .translators.recycle_gdl.terms import const, name
        if t == "card":
            return card(e)
        if isinstance(e, int):
            return const(e)
        return name(e)

    def _diverge(self, what, where, s, g, extra=None) -> Divergence:
        d = Divergence(f"seed {where['seed']}, after {len(where['history'])} events: {what}")
        d.detail = {"what": what, **where, **(extra or {})}
        return d

    @staticmethod
    def _show(goals) -> str:
        return ", ".join(f"{symbol_kif(r)}={v}" for r, v in sorted(goals.items(), key=lambda x: str(x[0])))


_NOOP = term_symbol(Const("noop"))


def _card(k: int):
    from .translators.recycle_gdl.export import card
    return card(k)


def _pick(k: int):
    from .translators.recycle_gdl.terms import const, f
    return term_symbol(f("pick", const(k)))


def checked_translation(loaded, overrides: dict | None = None, fit: int = 0):
    """The GDL-II translation (`Translation`) the lockstep checks: its tables fitted to `fit`
    random simulator plays when fit > 0; the game's setup folded (`sim/fold.py`), so the simulator
    must play `fold_loaded(loaded, overrides)`."""
    from .sim.fold import fold_loaded
    # fold_setup keeps the game as is on any error of the game: only the translation may raise
    return _folded_translation(fold_loaded(loaded, overrides), overrides, fit)


def _folded_translation(loaded, overrides: dict | None, fit: int):
    """`checked_translation` of a game already folded (`fold_loaded`'s), as the lockstep has it."""
    from .errors import PositionedError
    from .translate import measured_fit
    from .translators.recycle_gdl import Translation
    try:
        sized = measured_fit(loaded, fit, overrides) if fit > 0 else None
        return Translation(loaded.game, 2, overrides, sized)
    except PositionedError as e:   # the translator knows positions, not the file: name it, with its line
        raise e.with_source(loaded.source)


def kif_sha256(desc) -> str:
    """SHA-256 of a description's KIF text: runs that checked the same translation share it."""
    return hashlib.sha256(print_kif(desc).encode()).hexdigest()


def crosscheck(loaded, n: int, seed: int = 0, overrides: dict | None = None, progress=None,
               max_events: int = 2_000, time_limit: float | None = None, fit: int = 0,
               on_playout=None, machine: str = "clingo") -> Report:
    """Play n lockstep playouts (seeds seed..seed+n-1); stops at the first divergence, keeping the counts.

    A game still running after `max_events` events is a runaway: it counts as agreeing that far.
    With `time_limit` (seconds of play: the setup, translating and grounding, is not counted) no
    playout starts after the limit; `stopped` then says so.
    With `fit` > 0 the translation's tables are sized to that many random plays; a play that
    leaves them is listed in `overflowed` (it agreed up to there). `on_playout(report)` is
    called after each playout with the report so far, for a caller that may be stopped.
    `machine` names the GDL engine (MACHINES): "propnet" gives the same answers faster."""
    t0 = time.perf_counter()
    rep = Report(seed=seed)
    ls = Lockstep(loaded, overrides, fit, machine)
    rep.kif_sha256 = kif_sha256(ls.tr.description)
    start = time.perf_counter()
    rep.setup_seconds = start - t0
    try:
        for i in range(n):
            if time_limit is not None and time.perf_counter() - start > time_limit:
                rep.stopped = f"time limit of {time_limit:g} s reached after {rep.playouts} playouts"
                break
            try:
                d, c, g, ending = ls.play(seed + i, max_events)
            except GameDefinitionError as e:
                # the game's own fault (a card taken from an empty location...): the engines agreed
                # up to there, and nothing after it can be compared
                rep.rule_errors.append({"seed": seed + i, "error": str(e.with_source(ls.prog.source))})
                d, c, g = ls.partial
                ending = "over"
            listed = {"runaway": rep.capped, "broken": rep.broken, "overflow": rep.overflowed}.get(ending)
            if listed is not None:
                listed.append(seed + i)
            if ending == "overflow":
                kind = ls.overflow_kind
                rep.overflow_kinds[kind] = rep.overflow_kinds.get(kind, 0) + 1
            rep.playouts += 1
            rep.decisions += d
            rep.chance += c
            rep.gdl_steps += g
            if progress is not None:
                progress(1)
            if on_playout is not None:
                rep.seconds = time.perf_counter() - start
                on_playout(rep)
    except Divergence as e:
        rep.divergence = getattr(e, "detail", {"what": str(e), "seed": seed + rep.playouts})
    except KeyboardInterrupt:
        rep.stopped = f"interrupted after {rep.playouts} playouts"
    except MemoryError:
        # the playout's structures are gone once unwound: the counts so far can still be reported
        rep.stopped = f"out of memory in the playout of seed {seed + rep.playouts}, after {rep.playouts} playouts"
    rep.seconds = time.perf_counter() - start
    return rep
