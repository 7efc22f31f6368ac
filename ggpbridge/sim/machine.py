"""The simulator: a compiled game, its control flow, and the stepwise state machine.

Control follows CardStock's GameIterator: the game body and stage bodies are lists of
items (stage, choice, or an atomic block: do/all/let); a stage pushes a copy of the
player (team) cycle on first entry, tests its end condition before each iteration,
advances the cycle from the second iteration on (after the test), and pops the cycle
when it ends — except when it ends on entry, where CardStock leaves the copy pushed
(reproduced on purpose). `choice` is the only decision point.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .. import ir
from ..errors import NOPOS, GameDefinitionError, PositionedError
from ..recycle.check import player_count
from ..recycle.deck import expand
from . import limits
from .actions import StmtCompiler
from .exprs import _MISSING, _restore
from .ops import enumerate_paths
from .runtime import Layout, Runtime, Suspend

FINISHED, CYCLE, UNFINISHED, ERROR = "finished", "cycle", "unfinished", "error"
SAMPLE = 8   # runaway detection keys every SAMPLE-th quiet state (see Live.advance, playout.play)

_PRIMITIVE = (ir.Move, ir.Remember, ir.Forget, ir.Shuffle, ir.Faro, ir.SetInt, ir.Inc, ir.Dec, ir.SetStr,
              ir.SetPoints, ir.Cycle, ir.TurnPass, ir.CreateDeck)


@dataclass
class StageP:
    """A compiled stage."""

    id: int
    kind: str
    end: object
    items: list
    node: ir.Stage


@dataclass
class ChoiceP:
    """A compiled choice: per option form, a fast enumerator (or None) and an executor."""

    id: int
    forms: list          # closures executing one option form (branching via c.branch)
    fast: list           # closures listing the paths of a simple form, or None
    bodies: list         # for simple forms: (vars, body closure) executing a chosen path
    node: ir.Choice


@dataclass
class BlockP:
    """An atomic block of actions."""

    id: int
    run: object
    node: ir.Node


@dataclass(frozen=True)
class Option:
    """One option of a choice: its form, and the `any` branch indices taken."""

    form: int
    path: tuple
    label: str = field(default="", compare=False)


class Program:
    """A game compiled for simulation (compile once, run many)."""

    def __init__(self, game: ir.Game, overrides: dict | None = None):
        self.game = game
        self.source = None   # the game's Source, when compiled from a file (compile_loaded)
        overrides = overrides or {}
        self.values = declared_values(game, overrides)
        n = player_count_with(game, self.values)
        if n is None or n < 1:
            raise GameDefinitionError("the number of players must be a positive constant", game.setup.players.pos)
        limits.check_players(game, n, overrides)
        teams = [list(t) for t in game.setup.teams.teams] if game.setup.teams else [[i] for i in range(n)]
        # Every execution of a `create deck` makes new cards: give each its own block of ids.
        cards, self.deck_cards = [], {}
        times = _deck_counts(game, self.values)
        total = 0
        for d in game.walk():
            if isinstance(d, ir.CreateDeck):
                made = expand(d.deck, self.values)
                total += len(made) * times.get(id(d), 1)
                limits.check_cards(total, overrides, d.pos)
                blocks = []
                for _ in range(times.get(id(d), 1)):
                    blocks.append(list(range(len(cards), len(cards) + len(made))))
                    cards.extend(dict(x) for x in made)
                self.deck_cards[id(d)] = blocks
        # after the players and the decks, whose own messages say more than a value out of range
        for d in game.declares:
            limits.check_value(d.var, self.values[d.var], overrides, d.pos)
        self.lay = Layout(n, teams, cards)
        self.sc = StmtCompiler(self.lay, self.deck_cards)
        env = {k: _type_of_value(v) for k, v in self.values.items()}
        self.env = env
        self.setup = [self.sc.s(s, env) for s in game.setup.decks]
        self._ids = 0
        self.by_id: dict[int, object] = {}
        self.root = StageP(self._id(), "root", None, [self.item(i) for i in game.body], None)
        self.by_id[self.root.id] = self.root
        self.score = self.sc.x(game.scoring.value, env)
        self.maximize = game.scoring.mode == "max"
        self.tally_exprs: dict = {}
        self.tallies: list = []
        self.tally_limit = None

    def count(self, tallies: dict, limit: tuple | None = None) -> None:
        """Read these integer expressions (label -> IR expression) at the end of every play
        (`Result.tallies`), on every engine; `limit` (label, bound): a play whose tally exceeds
        the bound is a crash in the statistics. Call before the first play."""
        self.tally_exprs = dict(tallies)
        self.tallies = [(k, self.sc.x(e, self.env)) for k, e in tallies.items()]
        self.tally_limit = limit

    def _id(self) -> int:
        self._ids += 1
        return self._ids

    def item(self, n):
        """Compile a game-body or stage item."""
        env = self.env
        if isinstance(n, ir.Stage):
            p = StageP(self._id(), n.kind, self.sc.x(n.end, env), [self.item(i) for i in n.body], n)
        elif isinstance(n, ir.Choice):
            forms, fast, bodies = [], [], []
            for o in n.options:
                forms.append(self.sc.s(o, env))
                f, b = self.simple(o, env)
                fast.append(f)
                bodies.append(b)
            p = ChoiceP(self._id(), forms, fast, bodies, n)
        else:
            p = BlockP(self._id(), self.sc.s(n, env), n)
        self.by_id[p.id] = p
        return p

    def simple(self, o, env):
        """For an option form of nested conditions/`any`s around a body that surely acts:
        a closure listing its paths without running actions, and the body; else (None, None)."""
        conds, anys = [], []
        heads, node, simple = _form_parts(o)
        local = dict(env)
        self.sc.listing = True   # these are evaluated while listing (and re-read by `run`): no coins
        try:
            for h in heads:
                if isinstance(h, ir.CondAct):
                    conds.append((len(anys), self.sc.x(h.cond, local)))
                else:
                    anys.append((self.sc.coll(h.coll, local), h.var))
                    local = self.sc.bind(h.coll, h.var, local)
        finally:
            self.sc.listing = False
        if not simple:
            return None, None
        body = self.sc.s(node, local)
        names = [v for _, v in anys]

        def paths(c):
            out = []
            vs = c.vars
            saved = [(v, vs.get(v, _MISSING)) for v in names]

            def rec(depth, prefix):
                for at, cond in conds:
                    if at == depth and not cond(c):
                        return
                if depth == len(anys):
                    out.append(tuple(prefix))
                    return
                coll, var = anys[depth]
                for k, e in enumerate(list(coll(c))):
                    vs[var] = e
                    prefix.append(k)
                    rec(depth + 1, prefix)
                    prefix.pop()
            rec(0, [])  # conditions before the first `any` are tested at depth 0
            rec = None  # break the closure's reference to itself: no garbage cycle per listing
            for v, old in saved:
                _restore(vs, v, old)
            return out

        def run(c, path):
            vs = c.vars
            saved = [(v, vs.get(v, _MISSING)) for v in names]
            for (coll, var), k in zip(anys, path):
                vs[var] = list(coll(c))[k]
            r = body(c)
            for v, old in saved:
                _restore(vs, v, old)
            return r
        return paths, run


def _deck_counts(game: ir.Game, values: dict) -> dict:
    """How many times each setup `create deck` runs (through constant `repeat`s)."""
    out: dict = {}

    def walk(n, k):
        if isinstance(n, ir.CreateDeck):
            out[id(n)] = out.get(id(n), 0) + k
        elif isinstance(n, ir.Repeat):
            walk(n.body, k * _constant(n.count, values))
    for d in game.setup.decks:
        walk(d, 1)
    return out


def _form_parts(form) -> tuple[list, object, bool]:
    """An option form's nested conditions and `any`s (outside in), the body they wrap, and whether
    the simulator lists it without tentative runs: the body surely acts and chooses nothing."""
    heads, node = [], form
    while isinstance(node, (ir.CondAct, ir.AnyOf)):
        heads.append(node)
        node = node.body
    simple = not any(isinstance(x, (ir.AnyOf, ir.Choice)) for x in node.walk()) and _surely_acts(node)
    return heads, node, simple


def listed_heads(form) -> list | None:
    """The conditions and `any` ranges the simulator evaluates to list a form's options without
    tentative runs (`Program.simple`; a max/min in them draws no coin), or None for a form it
    lists by tentative runs."""
    heads, _, simple = _form_parts(form)
    if not simple:
        return None
    return [x for x in (h.cond if isinstance(h, ir.CondAct) else h.coll for h in heads) if x is not None]


def _surely_acts(n) -> bool:
    if isinstance(n, _PRIMITIVE):
        return True
    if isinstance(n, ir.Do):
        return any(_surely_acts(i) for i in n.items)
    if isinstance(n, ir.Repeat):
        return isinstance(n.count, ir.IntLit) and n.count.value > 0 and _surely_acts(n.body)
    if isinstance(n, ir.Let):
        return _surely_acts(n.body)
    return False


def declared_values(game: ir.Game, overrides: dict) -> dict:
    """The value of each declared variable under `--set` overrides (a setting the game does
    not declare, or of the wrong kind, is a GameDefinitionError)."""
    known = {d.var for d in game.declares}
    for k in overrides:
        if k not in known:
            raise GameDefinitionError(f"--set {k}: the game declares no variable '{k} "
                                      f"(declared: {', '.join(sorted(known)) or 'none'})")
    values = {}
    for d in game.declares:
        if d.var in overrides:
            _check_override_kind(d, overrides[d.var], values)
            values[d.var] = overrides[d.var]
        else:
            values[d.var] = _constant(d.value, values, overrides)
    return values


_KIND_WORDS = {"int": "an integer", "str": "a name", "coll:str": "a list of names"}


def _declared_kind(v, values: dict) -> str | None:
    """The kind of value a declaration holds (`_type_of_value`'s words), read from its form
    without computing it (a default the override replaces need not be computable)."""
    if isinstance(v, (ir.IntLit, ir.Arith, ir.Tri, ir.Fib)):
        return "int"
    if isinstance(v, ir.Name):
        return "str"
    if isinstance(v, (ir.NameList, ir.Range)):
        return "coll:str"
    if isinstance(v, ir.Var) and v.name in values:
        return _type_of_value(values[v.name])
    return None


def _check_override_kind(d, value, values: dict) -> None:
    """A --set value of the kind the declaration holds: `--set ANTE=two` for an integer would
    otherwise fail in every game (or the translation) far from its cause."""
    kind = _declared_kind(d.value, values)
    got = _type_of_value(value)
    if kind is not None and got != kind:
        if got == "str" and not _NAME_SHAPED.fullmatch(value):
            # `--set BIG=3.5` or `--set BIG=` is no name either: say what it is not
            shown = f"{value!r}" if value else "an empty value"
            raise GameDefinitionError(f"--set {d.var}={value}: '{d.var} is declared as {_KIND_WORDS[kind]}; "
                                      f"{shown} is not {_KIND_WORDS[kind]}", d.pos)
        raise GameDefinitionError(f"--set {d.var}={value}: '{d.var} is declared as {_KIND_WORDS[kind]}, "
                                  f"not {_KIND_WORDS[got]}", d.pos)


# what a name can be in any dialect (v0.5: capitals; v0.3: letters, digits, underscores)
_NAME_SHAPED = re.compile(r"[A-Za-z0-9_]+")


def _constant(v, values: dict, overrides: dict | None = None):
    """The value of a declaration: a constant expression over earlier declarations (`overrides`
    only to name them when a range would be too long, see limits)."""
    from .exprs import _INT_OPS, fib, tri
    if isinstance(v, (ir.IntLit, ir.Name)):
        return v.value
    if isinstance(v, ir.NameList):
        return list(v.names)
    if isinstance(v, ir.Var) and v.name in values:
        return values[v.name]
    if isinstance(v, ir.Arith):
        return _INT_OPS[v.op](_constant(v.left, values, overrides), _constant(v.right, values, overrides))
    if isinstance(v, ir.Tri):
        return tri(_constant(v.arg, values, overrides))
    if isinstance(v, ir.Fib):
        k = _constant(v.arg, values, overrides)
        if abs(k) > 64:   # fib(31) is beyond MAX_VALUE already; a larger argument would only be slow
            raise GameDefinitionError(f"{limits.blame(overrides or {})}(fib {k}) is beyond the limit of a declared "
                                      f"integer, {limits.MAX_VALUE}", v.pos)
        return fib(k)
    if isinstance(v, ir.Range):
        lo, hi = _constant(v.lo, values, overrides), _constant(v.hi, values, overrides)
        limits.check_range(lo, hi, overrides or {}, v.pos)
        return list(range(lo, hi + 1))
    raise GameDefinitionError("only constant declarations can be simulated", v.pos)


def _type_of_value(v) -> str:
    if isinstance(v, int):
        return "int"
    if isinstance(v, list):
        return "coll:str"
    return "str"


def player_count_with(game: ir.Game, values: dict) -> int | None:
    """The number of players, with declared values (and overrides) applied."""
    p = game.setup.players
    if isinstance(p, ir.Var):
        v = values.get(p.name)
        return v if isinstance(v, int) else None
    return player_count(game)


# ---------------------------------------------------------------- live games
class RunawayError(PositionedError):
    """A stretch of play without any decision ran away: a stage loops for ever without reaching
    a choice. `status` is CYCLE when its state recurred with no chance event in between (a
    proof that it never ends), UNFINISHED when it passed the step limit; `pos` is the outermost
    stage that looped in the stretch."""

    severity = "runaway"

    def __init__(self, status: str, steps: int, pos=None):
        what = ("its state recurs with no decision and no chance event in between: the game never ends"
                if status == CYCLE else "the step limit was reached without a decision")
        super().__init__(f"this stage loops without reaching a choice; after {steps} steps {what}", pos or NOPOS)
        self.status, self.steps = status, steps


class AtBlock(Exception):
    """Raised by `Live.advance` at the block start named by `Live.stop_at`."""


class Live:
    """A game in progress: data plus the control stack."""

    __slots__ = ("prog", "c", "frames", "steps", "_last_iter", "block_fpos", "stop_at", "limit")

    def __init__(self, prog: Program, seed: int | None = None):
        self.prog = prog
        c = self.c = Runtime(prog.lay, seed)
        c.vars.update(prog.values)
        self.frames = [[prog.root, 0, False, 0]]   # [stage, pc, stage-at-pc iterating, iteration]
        self.steps = 0
        # stepwise mode: supplied outcomes consumed when the running block started, and
        # (outcomes, control) of a block start to stop at (see StepMachine._checkpoint)
        self.block_fpos = 0
        self.stop_at: tuple | None = None
        # advance raises RunawayError once a stage loop starts a pass beyond this many steps
        self.limit: int | None = None

    def setup(self) -> None:
        """Create the decks (setup actions)."""
        for f in self.prog.setup:
            f(self.c)

    def advance(self) -> ChoiceP | None:
        """Run until the next choice (returned) or the end of the game (None).

        Only stage loops can run without end between two choices, so a stretch that runs away
        is caught where a stage starts another pass: past `limit` steps, or when its state
        recurs with no chance event in between (Brent's algorithm on every SAMPLE-th pass,
        as playout.play does at choices), it raises RunawayError.
        """
        c = self.c
        frames = self.frames
        limit = self.limit
        saved, power, lam, quiet, tick = None, 1, 0, -1, 0
        # the depth and the stage of the outermost stage that looped in this stretch
        odepth, outer = float("inf"), None
        while frames:
            f = frames[-1]
            prog = f[0]
            items = prog.items
            if f[1] >= len(items):
                self._last_iter = frames.pop()[3]
                if not frames:
                    return None
                parent = frames[-1]
                stage = parent[0].items[parent[1]]
                if not self.loop_again(parent, stage):
                    continue
                if len(frames) < odepth:
                    odepth, outer = len(frames), stage
                if limit is not None and self.steps > limit:
                    raise RunawayError(UNFINISHED, self.steps, outer.node.pos)
                tick += 1
                if tick % SAMPLE:
                    continue
                if c.nchance != quiet:   # chance since the saved state: no proof, start again
                    saved, power, lam, quiet = None, 1, 0, c.nchance
                else:
                    # the whole key only when the cycle stacks are as deep as the saved state's:
                    # a stage that ends on entry leaves its copy pushed, so a runaway's stacks
                    # may grow at every pass, and keying them all would take quadratic time
                    shape, key = (len(c.cyc), len(c.tcyc)), None
                    if saved is not None and shape == saved[0]:
                        key = self.key()
                        if key == saved[1]:
                            raise RunawayError(CYCLE, self.steps, outer.node.pos)
                    lam += 1
                    if saved is None or lam == power:
                        saved, power, lam = (shape, key or self.key()), power * 2, 0
                continue
            item = items[f[1]]
            cls = type(item)
            if cls is BlockP:
                if c.stepwise:
                    if self.stop_at is not None and c.fpos == self.stop_at[0] and self.control() == self.stop_at[1]:
                        raise AtBlock()
                    self.block_fpos = c.fpos
                item.run(c)
                f[1] += 1
                self.steps += 1
            elif cls is ChoiceP:
                return item
            else:  # a stage met for the first time
                if item.kind == "player":
                    c.cyc.append(list(c.cyc[-1][:1]) + [-1])
                else:
                    c.tcyc.append(list(c.tcyc[-1][:1]) + [-1])
                if item.end(c):
                    f[1] += 1  # CardStock leaves the pushed cycle in place here
                else:
                    f[2] = True
                    frames.append([item, 0, False, 1])
                self.steps += 1
        return None

    def loop_again(self, parent: list, stage: StageP) -> bool:
        """A stage's body has run: test the end condition, then loop (advancing the cycle: True) or leave."""
        c = self.c
        self.steps += 1
        if stage.end(c):
            (c.cyc if stage.kind == "player" else c.tcyc).pop()
            parent[2] = False
            parent[1] += 1
            return False
        self.frames.append([stage, 0, False, self._last_iter + 1])
        cy = c.cyc[-1] if stage.kind == "player" else c.tcyc[-1]
        if cy[1] != -1:
            cy[0], cy[1] = cy[1], -1
        else:
            cy[0] = (cy[0] + 1) % (self.prog.lay.n if stage.kind == "player" else len(self.prog.lay.teams))
        return True

    def options(self, ch: ChoiceP) -> list[Option]:
        """The enabled options of a choice, in form order then element order."""
        c = self.c
        out: list[Option] = []
        snap = None
        for i, form in enumerate(ch.forms):
            fast = ch.fast[i]
            if fast is not None:
                out.extend(Option(i, p) for p in fast(c))
                continue
            if snap is None:
                snap = c.freeze()
            out.extend(Option(i, p) for p in self._enumerate(form, snap))
        return out

    def _enumerate(self, form, snap) -> list[tuple]:
        """Paths of a general option form, found by tentative runs on a copy (CardStock's TempExecute)."""
        c = self.c
        saved_vars = dict(c.vars)

        def run(prefix):
            c.thaw(snap)
            c.vars = dict(saved_vars)
            c.bpath, c.bpos, c.btrace = list(prefix), 0, []
            try:
                acted = form(c)
            finally:
                trace, c.btrace, c.bpath = c.btrace, None, []
            return trace, acted
        found = enumerate_paths(run)
        c.thaw(snap)
        c.vars = saved_vars
        return found

    def choose(self, ch: ChoiceP, opt: Option) -> None:
        """Execute an option of the choice the game stands at, and move past the choice."""
        c = self.c
        run = ch.bodies[opt.form]
        if run is not None:
            run(c, opt.path)
        else:
            c.bpath, c.bpos = list(opt.path), 0
            try:
                ch.forms[opt.form](c)
            finally:
                c.bpath = []
        self.frames[-1][1] += 1
        self.steps += 1

    def control(self) -> tuple:
        """The control position as a hashable value."""
        return tuple((f[0].id, f[1], f[2], f[3]) for f in self.frames)

    def set_control(self, ctrl: tuple) -> None:
        by = self.prog.by_id
        self.frames = [[by[i], pc, it, n] for i, pc, it, n in ctrl]

    def key(self) -> tuple:
        """The whole game state, hashable (for cycle detection and search)."""
        # iteration numbers are bookkeeping for statistics, not part of the game's state
        return (self.c.freeze(), tuple((f[0].id, f[1], f[2]) for f in self.frames))

    def scores(self) -> list[int]:
        """The scoring value of every player, evaluated as CardStock does (cycling 0..n-1)."""
        c = self.c
        c.cyc.append([0, -1])
        out = []
        for p in range(self.prog.lay.n):
            c.cyc[-1][0] = p
            out.append(self.prog.score(c))
        c.cyc.pop()
        return out

    def scores_if_defined(self) -> list[int] | None:
        """`scores()`, or None where the scoring expression means nothing (say, the top card of a
        pile that fills only at the end); the player cycle is left as it was either way."""
        depth = len(self.c.cyc)
        try:
            return self.scores()
        except Exception:
            # whatever the expression met (an empty location, a missing value): no score here
            del self.c.cyc[depth:]
            return None

    def current_player(self) -> int:
        return self.c.cyc[-1][0]

    def iterations(self) -> tuple:
        """The iteration number of every enclosing stage, outermost first (1 = first pass)."""
        return tuple(f[3] for f in self.frames[1:])


__all__ = ["Program", "Live", "Option", "ChoiceP", "Suspend", "RunawayError"]
