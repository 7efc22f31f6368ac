"""A fast path for Monte Carlo playouts: one generated Python function per game.

`compile_fast(prog)` turns a compiled `Program` into the source of one function
`play_fast(rng, choose, max_steps, trace)` whose stage loops are Python `while` loops and
whose locations, storages and point maps are local lists (integer card ids, top at the
end). It follows the closure engine (machine.Live, playout.play) step for step:

* stages push a copy of the cycle on entry, test the end before each pass, advance the
  cycle from the second pass after the test, pop on exit, and leave the copy pushed
  when they end on entry;
* options are enumerated in the order of `Live.options` (form order, then element order)
  and `choose(player, n)` is called only when there is more than one;
* chance draws the same numbers in the same order (`rng._randbelow(n)` is what
  `rng.randrange(n)` calls for n > 0, and nothing is drawn when n <= 1);
* steps are counted as Live counts them, and cycles are detected with Brent's method on
  the same states as play(): a snapshot of all data plus the choice site (which fixes the
  control stack, since choices only stand in stage bodies); a stretch without a choice is
  watched where a stage starts another pass, as Live.advance watches it (the step limit,
  and Brent on the passes since the last choice, keyed by the loop's own site).

Option forms follow Program.simple: a simple form (conditions and `any`s around a body
that surely acts) is enumerated inline; a form whose body may not act and has no `any`
gets an inline "would it act" predicate when its guards draw no chance; any other form
becomes a generated function run tentatively on copies of the state with a branch driver
and an rng that always gives the first outcome (Live._enumerate), then for real.

So for one seed and the same decisions both engines play the same game. Any construct not
handled here makes `compile_fast` return None: the caller then uses the closure engine.
The generated function returns (status, scores or None, steps); status as in playout.

The generator is `_Gen` here (names, control, the whole game) with its expressions in
`codegen_exprs.py` and its statements in `codegen_stmts.py`; the generated function runs
with the helpers of `fast_runtime.py`.

Known differences, all on games that break a rule: a rule error reports status ERROR with
steps 0 and no message; an option body that would raise while merely tested (the inline
predicate does not run it) raises only if that option is chosen.
"""
from __future__ import annotations

import re

from .. import ir
from ..recycle.check import element
from .codegen_exprs import Expressions, Unsupported, has_chance
from .codegen_stmts import Statements
from .fast_runtime import _HELPERS
from .machine import Program, _surely_acts
from .playout import ERROR, SAMPLE


# ---------------------------------------------------------------- the generator
class _Gen(Expressions, Statements):
    """Builds the source of play_fast for one Program."""

    UNROLL = 8   # quantifiers over every player are unrolled up to this many players

    def __init__(self, prog: Program):
        self.prog = prog
        lay = self.lay = prog.lay
        self.n, self.O, self.nteams = lay.n, lay.owners, len(lay.teams)
        self.locs: dict = {}     # (vis, name) -> flat base index
        self.ints: dict = {}     # storage name -> local name
        self.strs: dict = {}
        self.pts: dict = {}
        self.consts: dict = {}   # name -> object, injected into the generated module
        self.fresh = 0
        self.sites = 0
        self.counting = False    # inside a general option form: count actions, `any` branches
        self.listing = False     # a simple form's conditions and ranges: a max/min draws no coin
        self.forms: list = []    # sources of the general option form functions

    # ------------------------------------------------------------ names
    def tmp(self, stem="t") -> str:
        self.fresh += 1
        return f"{stem}{self.fresh}"

    def const(self, obj, stem="K") -> str:
        name = self.tmp(stem)
        self.consts[name] = obj
        return name

    def loc_base(self, vis, name) -> int:
        key = (vis, name)
        if key not in self.locs:
            self.locs[key] = len(self.locs) * self.O
        return self.locs[key]

    def table(self, d: dict, name: str, stem: str) -> str:
        if name not in d:
            d[name] = f"{stem}{len(d)}"
        return d[name]

    def ty(self, n, env):
        tenv = dict(self.prog.env)
        tenv.update({k: t for k, (t, _) in env.items()})
        return self.prog.sc.type_of(n, tenv)

    def bind(self, coll, var, env, src):
        return {**env, var: (element(self.ty(coll, env)), src)}

    # ------------------------------------------------------------ control
    def item(self, n, ind) -> list[str]:
        """Lines for a game-body or stage item (Live.advance's units), counting steps as Live."""
        if isinstance(n, ir.Stage):
            return self.stage(n, ind)
        if isinstance(n, ir.Choice):
            return self.choice(n, ind)
        return self.s(n, {}, ind) + [f"{ind}steps += 1"]

    def stage(self, n, ind) -> list[str]:
        cyc, count = ("cyc", self.n) if n.kind == "player" else ("tcyc", self.nteams)
        end = self.x(n.end, {})
        cy = self.tmp("cy")
        i2 = ind + "    "
        body = []
        for it in n.body:
            body += self.item(it, i2 + "    ")
        return ([f"{ind}{cyc}.append([{cyc}[-1][0], -1])",
                 f"{ind}steps += 1",
                 f"{ind}if not {end}:",
                 f"{i2}while True:"] + (body or [i2 + "    pass"]) +
                [f"{i2}    steps += 1",
                 f"{i2}    if {end}:",
                 f"{i2}        {cyc}.pop()",
                 f"{i2}        break",
                 f"{i2}    {cy} = {cyc}[-1]",
                 f"{i2}    if {cy}[1] != -1:",
                 f"{i2}        {cy}[0], {cy}[1] = {cy}[1], -1",
                 f"{i2}    else:",
                 f"{i2}        {cy}[0] = ({cy}[0] + 1) % {count}"] + self.runaway_watch(i2 + "    ", n.body))

    def runaway_watch(self, ind, body) -> list[str]:
        """Lines run where a stage starts another pass: the step limit, and Brent's cycle detection
        over the passes since the last choice without chance, exactly as Live.advance (which
        says why the whole key is built only when the cycle stacks are as deep as the saved one's).

        A stage whose every pass makes a choice (the common case) needs less. When its body
        starts with the choice, the choice tests the step limit next with the same count. When
        its body has a choice and no inner stage, the count of passes since the choice is
        always 1 here, so no pass is ever sampled (and the choice resets it before any other
        watch reads it)."""
        self.sites += 1
        i1 = ind + "    "
        i2 = i1 + "    "
        limit = [] if body and isinstance(body[0], ir.Choice) else [
            f"{ind}if steps > max_steps:",
            f"{i1}return UNFINISHED, None, steps"]
        if any(isinstance(it, ir.Choice) for it in body) and not any(isinstance(it, ir.Stage) for it in body):
            return limit
        return limit + [f"{ind}ltick += 1",
                f"{ind}if not ltick % {SAMPLE}:",
                f"{i1}if NC[0] != lquiet:",
                f"{i2}lsaved, lpower, llam, lquiet = None, 1, 0, NC[0]",
                f"{i1}else:",
                f"{i2}shape, key = (len(cyc), len(tcyc)), None",
                f"{i2}if lsaved is not None and shape == lsaved[0]:",
                f"{i2}    key = ({self.sites}, {self.KEY})",
                f"{i2}    if key == lsaved[1]:",
                f"{i2}        return CYCLE, None, steps",
                f"{i2}llam += 1",
                f"{i2}if lsaved is None or llam == lpower:",
                f"{i2}    lsaved, lpower, llam = (shape, key or ({self.sites}, {self.KEY})), lpower * 2, 0"]

    def acts(self, n, env) -> str:
        """Source of a predicate: would statement n execute at least one action from here?

        Exact for bodies without `any` and without chance in the tested expressions: a part
        that does not act leaves the state unchanged, so later parts can be tested on the
        same state (what Live's tentative run would see).
        """
        if _surely_acts(n):
            return "True"
        if isinstance(n, ir.Do):
            parts = []
            for i in n.items:
                a = self.acts(i, env)
                parts.append(a)
                if a == "True":
                    break
            return "(" + " or ".join(parts) + ")" if parts else "False"
        if isinstance(n, ir.CondAct):
            return f"(bool({'True' if n.cond is None else self._pure(n.cond, env)}) and {self.acts(n.body, env)})"
        if isinstance(n, ir.RepeatAll):
            # it acts when its source holds a card as it starts (a max or min always does)
            if ir.repeat_all_plan(n) is None:
                raise Unsupported("repeat all")
            src = n.body.src if isinstance(n.body, ir.Move) else n.body.card
            return "True" if isinstance(src, ir.Extreme) else f"bool({self._pure(src.source, env, coll=True)})"
        if isinstance(n, ir.Repeat):
            return f"({self._pure(n.count, env)} > 0 and {self.acts(n.body, env)})"
        if isinstance(n, ir.ForAll):
            ev = self.every(n.coll)
            if ev is not None:
                parts = [self.acts(n.body, self.bind(n.coll, n.var, env, str(p))) for p in ev]
                return "(" + " or ".join(parts) + ")" if parts else "False"
            v = self.tmp("v")
            body = self.acts(n.body, self.bind(n.coll, n.var, env, v))
            return f"any({body} for {v} in list({self._pure(n.coll, env, coll=True)}))"
        raise Unsupported("general option form")

    def _pure(self, n, env, coll=False) -> str:
        """Source of an expression known to draw no chance (for tentative predicates)."""
        if has_chance(n):
            raise Unsupported("chance in a general option form")
        return self.coll(n, env) if coll else self.x(n, env)

    def general_form(self, o) -> str:
        """Name of a generated function running option form o; it returns the actions run."""
        name = self.tmp("_form")
        self.counting = True
        try:
            body = self.s(o, {}, "    ")
        finally:
            self.counting = False
        self.forms.append(f"def {name}(br, rng, NC, F, where, TABLES, cyc, tcyc):\n"
                          f"    UNPACK\n    acted = 0\n" + "\n".join(body) + "\n    return acted\n")
        return name

    def choice(self, n, ind) -> list[str]:
        """Inline option enumeration (Program.simple's paths), the decision, then the chosen body."""
        self.sites += 1
        site = self.sites
        i1 = ind + "    "
        lines = [f"{ind}if steps > max_steps:", f"{i1}return UNFINISHED, None, steps", f"{ind}opts = []"]
        execs = []
        for form, o in enumerate(n.options):
            conds, anys, node, env = [], [], o, {}
            envs = [env]   # the environment after binding the first d anys
            while isinstance(node, (ir.CondAct, ir.AnyOf)):
                if isinstance(node, ir.CondAct):
                    conds.append((len(anys), node.cond))
                else:
                    v = self.tmp("v")
                    anys.append((node.coll, v, env))
                    env = self.bind(node.coll, node.var, env, v)
                    envs.append(env)
                node = node.body
            general = any(isinstance(x, (ir.AnyOf, ir.Choice)) for x in node.walk())
            # with chance in the conditions or collections of a simple form, re-evaluate the
            # path on execution as Program.simple's run does, so that the same numbers are drawn
            rerun = has_chance(*[c for _, c in conds], *[a[0] for a in anys])
            acts = "True"
            if not general and not _surely_acts(node):
                # Live enumerates such a form by tentative runs, where chance draws nothing:
                # without chance in its guards, whether the body acts is a pure predicate
                try:
                    if rerun:
                        raise Unsupported("chance in a general option form")
                    acts = self.acts(node, env)
                except Unsupported:
                    general = True
            if general:
                # Live enumerates this form by tentative runs: generate it as a function of
                # the state (branch driver, rng, state lists) and run it the same way
                fn = self.general_form(o)
                lines.append(f"{ind}for _path in _enumerate({fn}, F, where, TABLES, cyc, tcyc):")
                lines.append(f"{i1}opts.append(({form}, _path))")
                execs.append([f"{i1}{fn}(_Branch(list(opts[_k][1]), None), rng, NC, F, where, TABLES, cyc, tcyc)"])
                continue
            names = [v for _, v, _ in anys]
            cur = ind
            self.listing = True   # Program.simple's conditions and ranges (ops.listed_extreme)
            for depth in range(len(anys) + 1):
                for at, cond in conds:
                    if at == depth:
                        lines.append(f"{cur}if {'True' if cond is None else self.x(cond, envs[depth])}:")
                        cur += "    "
                if depth == len(anys):
                    if acts != "True":
                        lines.append(f"{cur}if {acts}:")
                        cur += "    "
                    if rerun:
                        ks = [f"{v}_k" for v in names]
                        lines.append(f"{cur}opts.append(({form}, {', '.join(ks)}{',' if ks else ''}))")
                    else:
                        lines.append(f"{cur}opts.append(({form}, {', '.join(names)}{',' if names else ''}))")
                    break
                coll, v, aenv = anys[depth]
                src = self.coll(coll, aenv)
                if rerun:
                    lines.append(f"{cur}for {v}_k, {v} in enumerate(list({src})):")
                else:
                    lines.append(f"{cur}for {v} in {src}:")
                cur += "    "
            ex = [f"{i1}_o = opts[_k]"]
            if rerun:
                for j, (coll, v, aenv) in enumerate(anys):
                    ex.append(f"{i1}{v} = list({self.coll(coll, aenv)})[_o[{j + 1}]]")
            else:
                for j, v in enumerate(names):
                    ex.append(f"{i1}{v} = _o[{j + 1}]")
            self.listing = False
            ex += self.s(node, env, i1)
            execs.append(ex)
        lines += [
            f"{ind}nopt = len(opts)",
            f"{ind}if not nopt:",
            f"{i1}raise _RuleError('no enabled option')",
            f"{ind}p = cyc[-1][0]",
            f"{ind}if trace is not None:",
            f"{i1}trace.append((p, nopt))",
            # Brent's cycle detection over quiet states, exactly as playout.play
            f"{ind}if nopt > 1 or NC[0] != quiet_since:",
            f"{i1}saved, power, lam, quiet_since, tick = None, 1, 0, NC[0], 0",
            f"{ind}else:",
            f"{i1}tick += 1",
            f"{i1}if tick % SAMPLE == 0:",
            f"{i1}    key = ({site}, {self.KEY})",
            f"{i1}    if saved is not None and key == saved:",
            f"{i1}        return CYCLE, None, steps",
            f"{i1}    lam += 1",
            f"{i1}    if saved is None or lam == power:",
            f"{i1}        saved, power, lam = key, power * 2, 0",
            f"{ind}_k = choose(p, nopt) if nopt > 1 else 0",
            f"{ind}if not 0 <= _k < nopt:",
            f"{i1}raise _RuleError('choice out of range')",
        ]
        for form, ex in enumerate(execs):
            lines.append(f"{ind}{'if' if form == 0 else 'elif'} opts[_k][0] == {form}:")
            lines += ex
        # a new stretch without a choice starts here (Live.advance is called anew)
        lines += [f"{ind}steps += 1", f"{ind}ltick, lquiet = 0, -1"]
        return lines

    # ------------------------------------------------------------ the whole game
    def table_names(self) -> list[str]:
        """The generated names of the storage tables, in the order TABLES holds them."""
        return [*self.ints.values(), *self.strs.values(), *self.pts.values()]

    def state_code(self) -> tuple[str, str, str]:
        """The generated text of the whole state's key, of unpacking the storage tables, and of
        the helper functions (with that unpacking): shared by every body built from this game."""
        key = ("tuple(map(tuple, F)), "
               + "".join(f"tuple({v}), " for v in self.ints.values())
               + "".join(f"tuple({v}), " for v in self.strs.values())
               + "".join(f"tuple(None if x is None else tuple(x) for x in {v}), " for v in self.pts.values())
               + "tuple(map(tuple, cyc)), tuple(map(tuple, tcyc))")
        tables = self.table_names()
        unpack = f"{', '.join(tables)}, = TABLES" if tables else "pass"
        forms = "".join(f.replace("UNPACK", unpack) + "\n\n" for f in self.forms)
        return key, unpack, forms

    def build(self) -> str:
        g = self.prog.game
        self.KEY = "KEYEXPR"   # filled in once every slot is known
        setup = []
        for d in g.setup.decks:
            setup += self.s(d, {}, "    ")
        body = []
        for it in g.body:
            body += self.item(it, "    ")
        score = self.x(g.scoring.value, {})
        # Program.count's expressions, read when the play ends (finished, or stopped as a runaway)
        reads = "".join(self.x(e, {}) + ", " for e in self.prog.tally_exprs.values())
        tally = f"    if tally is not None:\n        tally.extend(({reads}))\n" if reads else ""
        ints = "".join(f"    {v} = [0] * {self.O}\n" for v in self.ints.values())
        strs = "".join(f"    {v} = [''] * {self.O}\n" for v in self.strs.values())
        pts = "".join(f"    {v} = [None] * {self.O}\n" for v in self.pts.values())
        key, unpack, forms = self.state_code()
        # locations at fixed indices become locals: their lists are never rebound in play_fast
        body = _merge_steps(body)
        if reads:
            body = [x for line in body for x in _tallied(line, reads)]
        text = re.sub(r"\bF\[(\d+)\]", r"F_\1", "\n".join(setup + ["SPLIT"] + body))
        fixed = sorted({int(m) for m in re.findall(r"\bF_(\d+)", text)})
        setup_text, body_text = text.split("\nSPLIT\n") if setup else ("", text.split("SPLIT\n", 1)[1])
        bind = "".join(f"    F_{i} = F[{i}]\n" for i in fixed)
        src = forms + (
            "def play_fast(rng, choose, max_steps=100_000, trace=None, tally=None):\n"
            "    \"\"\"One playout: (status, scores or None, steps).\"\"\"\n"
            f"    F = [[] for _ in range({len(self.locs) * self.O})]\n"
            f"    where = [None] * {len(self.lay.cards)}\n"
            + ints + strs + pts +
            f"    TABLES = [{', '.join(self.table_names())}]\n"
            "    cyc = [[0, -1]]\n    tcyc = [[0, -1]]\n    NC = [0]\n    steps = 0\n"
            + bind + setup_text + "\n"
            + WATCH_INIT + body_text.replace("KEYEXPR", key) + "\n"
            + self.ending(score, tally))
        return src

    def ending(self, score: str, tally: str = "") -> str:
        """The generated text after the game's body: every player's score (the `tally` lines
        before the return)."""
        return ("    cyc.append([0, -1])\n"
                "    scores = []\n"
                f"    for _p in range({self.n}):\n"
                "        cyc[-1][0] = _p\n"
                f"        scores.append({score})\n"
                + tally +
                "    return FINISHED, scores, steps\n")


# the state of Brent's cycle detection, at choices and at stage passes, when the body starts
WATCH_INIT = ("    saved, power, lam, quiet_since, tick = None, 1, 0, NC[0], 0\n"
              "    lsaved, lpower, llam, lquiet, ltick = None, 1, 0, -1, 0\n")


def _tallied(line: str, reads: str) -> list[str]:
    """The line, preceded by the reading of the tallies when it ends a runaway play."""
    m = re.match(r"(\s*)return (UNFINISHED|CYCLE), None, steps$", line)
    if not m:
        return [line]
    return [f"{m[1]}if tally is not None:", f"{m[1]}    tally.extend(({reads}))", line]


def _merge_steps(lines: list[str]) -> list[str]:
    """Fold runs of `steps += 1` at one indentation into one addition."""
    out: list[str] = []
    for line in lines:
        if line.strip().startswith("steps += ") and out and out[-1].strip().startswith("steps += ") \
                and out[-1][:len(out[-1]) - len(out[-1].lstrip())] == line[:len(line) - len(line.lstrip())]:
            ind = line[:len(line) - len(line.lstrip())]
            out[-1] = f"{ind}steps += {int(out[-1].split('+=')[1]) + int(line.split('+=')[1])}"
        else:
            out.append(line)
    return out


def generate(prog: Program) -> str | None:
    """The source of play_fast for a program, or None when a construct is unsupported."""
    try:
        return _Gen(prog).build()
    except (Unsupported, RecursionError):
        return None


def compile_fast(prog: Program):
    """A fast playout function for the program, or None (then use the closure engine).

    The function is `play(rng, choose, max_steps=100_000, trace=None) -> (status, scores, steps)`:
    `rng` a random.Random seeded as Runtime seeds it, `choose(player, n)` the index of the
    option taken (called only when n > 1), `trace` a list receiving (player, n) per decision,
    `tally` a list receiving the values of `prog.tally_exprs` when the play finishes.
    Rule errors and internal errors give status ERROR.
    """
    gen = _Gen(prog)
    try:
        src = gen.build()
    except (Unsupported, RecursionError):
        return None
    ns = dict(_HELPERS)
    ns.update(gen.consts)
    try:
        exec(compile(src, f"<ggpbridge fast {id(prog):x}>", "exec"), ns)
    except (SyntaxError, RecursionError):   # e.g. too deeply nested source
        return None
    inner = ns["play_fast"]

    def play_fast(rng, choose, max_steps=100_000, trace=None, tally=None):
        """One playout: (status, scores or None, steps)."""
        try:
            return inner(rng, choose, max_steps, trace, tally)
        except Exception:   # a rule error of the game (or of ours): reported, never scored
            return ERROR, None, 0
    play_fast.source = src
    return play_fast
