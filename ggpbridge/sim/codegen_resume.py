"""The generated engine, started from a game in progress: fast playouts for the searching players.

`codegen.compile_fast` plays whole games from their setup. `compile_resume(prog)` builds
the same function (the same generator, `codegen._Gen`) with two changes: it takes the
game's data (locations, storages, cycles) instead of running the setup, and a resume
site, the choice the game stands at. Every item of a stage body is guarded by "not
resuming, or the resume site lies inside it": while resuming, stages on the way to the
site are entered without their entry test and cycle push (their pushed copies are in
the cycles handed over) and every other item is skipped; reaching the choice ends the
resume. From there the code is the generated game as it is, so a resumed playout draws
the same numbers and plays the same game as the closure engine from the same state
(tests/sim/test_resume.py).

`Resumer(prog)` loads a `Live`'s state into that function's form, or is None-valued
(`usable` False) when the game does not compile to the generated engine.
"""
from __future__ import annotations

import re

from .codegen import WATCH_INIT, _Gen, _merge_steps
from .codegen_exprs import Unsupported
from .fast_runtime import _HELPERS
from .playout import ERROR


class _ResumeGen(_Gen):
    """_Gen with guards that let the generated game start at any choice."""

    def __init__(self, prog):
        super().__init__(prog)
        self.choice_sites: dict = {}   # id(ir.Choice) -> resume site number (>= 1)
        self.order: list = []          # resume sites in generation order

    def item(self, n, ind) -> list[str]:
        before = len(self.order)
        lines = super().item(n, ind + "    ")
        inside = self.order[before:]
        guard = f"not R or R in {set(inside)!r}" if inside else "not R"
        return [f"{ind}if {guard}:"] + lines

    def choice(self, n, ind) -> list[str]:
        site = len(self.order) + 1
        self.order.append(site)
        self.choice_sites[id(n)] = site
        return [f"{ind}R = 0"] + super().choice(n, ind)   # only the resume site is reached while resuming

    def stage(self, n, ind) -> list[str]:
        lines = super().stage(n, ind)
        # lines[0:3]: the cycle push, the step of the entry test, the entry test itself
        push, step, test = lines[0], lines[1], lines[2]
        if not (".append(" in push and step.strip() == "steps += 1" and test.startswith(f"{ind}if not ")):
            raise Unsupported("stage code of another shape")   # codegen changed: play on the closure engine
        cond = test.strip()[len("if not "):-1]
        return ([f"{ind}if not R:", "    " + push, "    " + step,
                 f"{ind}if R or not {cond}:"] + lines[3:])

    def build(self) -> str:
        g = self.prog.game
        self.KEY = "KEYEXPR"
        body = []
        for it in g.body:
            body += self.item(it, "    ")
        score = self.x(g.scoring.value, {})
        key, unpack, forms = self.state_code()
        text = re.sub(r"\bF\[(\d+)\]", r"F_\1", "\n".join(_merge_steps(body)))
        fixed = sorted({int(m) for m in re.findall(r"\bF_(\d+)", text)})
        bind = "".join(f"    F_{i} = F[{i}]\n" for i in fixed)
        return forms + (
            "def resume_fast(rng, choose, max_steps, R, F, where, TABLES, cyc, tcyc):\n"
            f"    {unpack}\n"
            "    NC = [0]\n    steps = 0\n    trace = None\n"
            + bind + WATCH_INIT + text.replace("KEYEXPR", key) + "\n" + self.ending(score))


class Resumer:
    """Fast playouts from a `Live` standing at a choice (see the module's docstring)."""

    def __init__(self, prog):
        self.prog = prog
        self.fn = None
        gen = _ResumeGen(prog)
        try:
            src = gen.build()
            ns = dict(_HELPERS)
            ns.update(gen.consts)
            exec(compile(src, f"<ggpbridge resume {id(prog):x}>", "exec"), ns)
        except (Unsupported, RecursionError, SyntaxError):
            return
        self.fn, self.source = ns["resume_fast"], src
        self.sites = gen.choice_sites
        lay = prog.lay
        O = lay.owners
        # (Live slot, flat base) of every location the generated code names; the others it never reads
        self.locs = [(lay.loc_slots[k], base) for k, base in gen.locs.items() if k in lay.loc_slots]
        self.nflat = len(gen.locs) * O
        self.tables = ([("I", lay.sto_slots.get(k)) for k in gen.ints] + [("S", lay.str_slots.get(k)) for k in gen.strs]
                       + [("P", lay.pts_slots.get(k)) for k in gen.pts])
        self.blank = {"I": [0] * O, "S": [""] * O, "P": [None] * O}
        self.mem = {lay.loc_slots[k] for k in gen.locs if k in lay.loc_slots and k[0] == "mem"}

    @property
    def usable(self) -> bool:
        """Whether the game compiled to the resumable generated engine."""
        return self.fn is not None

    def site_of(self, live) -> int | None:
        """The resume site of the choice `live` stands at, or None when it cannot be resumed there."""
        if set(live.c.vars) - set(self.prog.values):
            return None   # a variable bound around the choice: the generated code has it as a local
        f = live.frames[-1]
        return self.sites.get(id(f[0].items[f[1]].node))

    def args(self, c, L=None) -> tuple:
        """The generated function's data from a Runtime `c` (with the card lists `L` when given)."""
        L = c.L if L is None else L
        O = self.prog.lay.owners
        F = [[] for _ in range(self.nflat)]
        where = [None] * len(c.where)
        mem = self.mem
        for slot, base in self.locs:
            if slot >= len(L):
                continue
            row = L[slot]
            for o in range(O):
                lst = row[o]
                if lst:
                    F[base + o] = list(lst)
                    if slot not in mem:
                        for card in lst:
                            where[card] = base + o
        tabs = []
        for kind, slot in self.tables:
            src = {"I": c.I, "S": c.S, "P": c.P}[kind]
            if slot is None or slot >= len(src):
                tabs.append(list(self.blank[kind]))
            elif kind == "P":
                tabs.append([list(x) if x is not None else None for x in src[slot]])
            else:
                tabs.append(list(src[slot]))
        return F, where, tabs, [list(x) for x in c.cyc], [list(x) for x in c.tcyc]

    def playout(self, rng, site: int, data: tuple, first: int | None = None, max_steps: int = 20_000):
        """Play on from the choice at `site` (taking option `first` there when given: the choice
        must then offer more than one), then uniformly random choices and chance from `rng`:
        (status, scores or None)."""
        draw = rng._randbelow   # what rng.randrange(k) calls: the closure engine's draws
        if first is None:
            return self.run(rng, site, data, lambda p, k: draw(k), max_steps)
        pending = [first]

        def choose(p, k):
            if pending:
                return pending.pop()
            return draw(k)
        return self.run(rng, site, data, choose, max_steps)

    def run(self, rng, site: int, data: tuple, choose, max_steps: int = 20_000):
        """Play on from the choice at `site` with `choose(player, n)` (asked only when n > 1)
        and chance from `rng`: (status, scores or None)."""
        F, where, tabs, cyc, tcyc = data
        try:
            status, scores, _ = self.fn(rng, choose, max_steps, site, F, where, tabs, cyc, tcyc)
        except Exception:   # a rule error met in the playout: nobody's win
            return ERROR, None
        return status, scores
