"""Arithmetic inside a condition whose result the integer tables cannot hold ends the play as `overflow`.

A comparison such as `(<= (+ (game sto TOTAL) (score 'C using PIPS)) 31)` adds through the
tables (`plus`; `times_K`, digits in wide.py). When the sum has no row, the comparison's literals
fail: the condition is false where the simulator finds it true (or, under a `not`, the other
way round), silently another game. offtables.py closes the same hole for `set`/`inc`/`dec`.

Each comparison operand that computes through the tables, and each computed `let` value and
`repeat` count, is noted while it compiles (`note`), with where the game evaluates it (its
*site*, `site`): a label, a choice, or the final state (the scoring). Once the point maps are
known (`resolve`, after `Translation._points`), an operand whose every intermediate result has
a static range (literals, declared values, sizes of locations, card scores and their sums,
numbers of a fixed `range`, `let`s of such values: condrange.py) needs no test: the tables are
widened to that range (read by `Translation._bounds`), which for the corpus they almost always
hold already. Any other operand (it reads a storage) gets a test at its site: when its inputs
are found and its value is not, `overflow` holds in the next state (in the scoring,
`score_lost`: every goal 0). A choice's conditions are judged in the state that offers it, too
late for a test there: such a choice waits one automatic step later (`before_choice`), whose
test makes the decision state already `overflow` (fuse.py merges that step into the one before
it where nothing it reads is written there). A fitted translation (`--fit`) also widens the
tables to what the fitted storages give, and keeps the test for plays beyond them.

A variable of the operand ranges over what binds it (a quantifier's or an option's `any`
members, a filter's collection, a `let`'s value: `ExprCompiler.binders`; not a binder holding
the operand itself, which would fail exactly when its value is missing); a card or player
variable with no binder known ranges over all cards or players, so a play may end as `overflow`
where the value was never needed: never a silent wrong answer (the lockstep counts such plays
as overflow). A number variable with no binder known is not tested: over every number of the
tables the test would always fire. The ends of a `range` are noted as operands too (an end off
the tables would leave the range empty). A condition of an option's body, judged at the choice,
is tested on the state before the body runs: one reading what the body changes first may end a
play as `overflow` for a value the simulator never computes (conservative again). A loop's own
condition (`all` over a filter) reading a random value or max/min its statement computes first
is tested where the loop starts, where it has no input yet: not tested, as before this module.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

from ggpbridge.gdl.ast import Distinct, Not, variables

from .condrange import static_ranges
from .offtables import table_arithmetic
from .terms import const, f, neg, rule, true

# a static range wider than this is not worth its table rows: the operand is tested instead.
# (Digit tables, wide.py, would hold a wider one cheaply; a fitted range past this then ends
# its plays as `overflow` where it could have agreed: conservative, left as it is.)
MOST_WIDENED = 1000


@dataclass
class Note:
    """One value that computes through the tables: a comparison's operand, a `let` value, a
    `repeat` count or a `range` end."""

    node: object     # the IR operand
    lits: list       # its literals, as the comparison reads them
    env: object      # the Env it was compiled in (its logic variables and current player)
    site: tuple      # ("label", lab), ("choice", choice id) or ("score", None)


class CondGuards:
    """Flow mixin: the sites where conditions are evaluated, and the operands noted there."""

    choice_guards: frozenset = frozenset()   # choices that wait one step for their test

    def init_guards(self) -> None:
        """No site open yet, nothing noted, no choice waiting for a test."""
        self.cond_sites: list = []        # the sites open while compiling, innermost last
        self.cond_notes: list[Note] = []
        self.choice_test_label: dict = {}   # choice id -> the label its test is made at

    @contextmanager
    def site(self, kind: str, where):
        """Conditions compiled inside are evaluated at label `where` (kind "label") or by the
        choice of id `where` (kind "choice"), or in the final state (kind "score"); nested sites
        take their own."""
        self.cond_sites.append((kind, where))
        try:
            yield
        finally:
            self.cond_sites.pop()

    def note(self, operand, lits: list, env) -> None:
        """Record a value (`Note`) whose literals go through the tables' arithmetic."""
        if not table_arithmetic(lits):
            return
        if self.cond_sites:   # compiled outside any site (no statement, choice or scoring): nothing to test
            self.cond_notes.append(Note(operand, list(lits), env, self.cond_sites[-1]))

    def before_choice(self, ch, lab: str) -> str:
        """The label choice `ch` waits at: `lab`, or a new one one automatic step after it when
        the choice's conditions need a test (the test is emitted at `lab`)."""
        if ch.id not in self.choice_guards:
            return lab
        wait = self.label()
        self.choice_test_label[ch.id] = lab
        self.goto(lab, wait)
        return wait


def resolve(tr, flow) -> tuple[list, set]:
    """(ranges to widen the tables to, ids of choices needing a test) for the noted operands;
    the tests of label sites (and of choices already waiting a step) are appended to flow.rules."""
    ranges, choices, tests = [], set(), {}
    for n in flow.cond_notes:
        r, exact = static_ranges(tr, flow, n.node)
        if r is not None and all(hi - lo <= MOST_WIDENED for lo, hi in r):
            ranges += r
            if exact:
                continue
        kind, where = n.site
        if kind == "score":   # score_tests'
            continue
        if kind == "choice":
            choices.add(where)
            lab = flow.choice_test_label.get(where)
            if lab is None:   # the flow is compiled again with the choice waiting a step
                continue
        else:
            lab = where
        tests.setdefault(lab, []).append(n)
    k = 0
    for lab, notes in tests.items():
        for n in notes:
            test = _off_literals(n.lits, n.env, f"cond_off{k}", flow.binders)
            k += 1
            if test is None:
                continue
            helpers, off = test
            flow.rules += helpers
            flow.rules.append(rule(f("nx", const("overflow")), true(f("pc", const(lab))), *off))
            flow.used.add("overflow")
    return ranges, choices


def score_tests(tr, flow) -> tuple[list, list]:
    """(rules, ranges to widen the tables to) for the operands noted in the scoring (site
    "score"), as `resolve` does; an operand that can have no row derives `score_lost` (every
    goal 0, as a score off the tables does) when it has none in the final state. The tables of
    digits (wide.py) are sized already: there an operand is tested unless they hold it."""
    lo, hi = tr._bounds(flow)
    rules, ranges = [], []
    for k, n in enumerate(x for x in flow.cond_notes if x.site[0] == "score"):
        r, exact = static_ranges(tr, flow, n.node)
        if r is not None and all(b - a <= MOST_WIDENED for a, b in r):
            if tr.wide is None:
                ranges += r
                if exact:
                    continue
            elif exact and all(lo <= a and b <= hi for a, b in r):
                continue
        test = _off_literals(n.lits, n.env, f"score_off{k}", flow.binders)
        if test is not None:
            rules += test[0] + [rule(f("score_lost"), *test[1])]
    return rules, ranges


def _off_literals(lits: list, env, pred: str, binders: dict) -> tuple[list, list] | None:
    """(helper rules, literals) holding when the operand's inputs are found and its value is
    not; None when it cannot be tested (a number variable of unknown range)."""
    from .exprs import DOMAIN
    table = [i for i, x in enumerate(lits) if table_arithmetic([x])]
    rest = [x for i, x in enumerate(lits) if i not in table]
    made = {v for i in table for v in variables(lits[i])} - _bound(rest)
    if made & {v for x in rest for v in variables(x)}:
        # an input reads a result of the tables (a card at a computed position): split there
        rest, arith = lits[:table[0]], lits[table[0]:]
    else:
        arith = [lits[i] for i in table]
        # a literal reading a result of the tables (`mod_K`/`div_K` of a sum, a card at a
        # computed position) belongs with them: in `rest` it would range over every number
        # (the literals come in the order of the data: what a literal binds first is its result)
        made_at = [set(variables(x)) - _bound(lits[:i]) for i, x in enumerate(lits)]
        outs = set().union(*(made_at[i] for i in table))
        for i, x in enumerate(lits):
            if i not in table and outs & set(variables(x)):
                rest.remove(x)
                arith.append(x)
                outs |= made_at[i]
    logic = {b.term: b.type for b in env.values() if b.kind == "logic"}
    if env.cur is not None:
        logic[env.cur[1]] = "player"
        rest = [*env.cur[0], *rest]
    # a logic variable ranges over what its quantifier, `any` or `let` binds it to (and what
    # those read in turn), else over its whole domain: the conservative side, for cards and
    # players; a number with no binder known is not tested (every number of the tables would be).
    # A binder holding this very operand (a filter by this comparison) would fail exactly when
    # the value is missing, and hide it: left out. One computing something else through the
    # tables (a `let`'s value, a range's end) is tested at its own site.
    usable = {v: blits for v, blits in binders.items() if not any(x in blits for x in arith)}
    done: set = set()
    while True:
        bound = _bound(rest)
        new = [v for x in rest + arith for v in variables(x) if v in logic and v not in bound and v not in done
               and v in usable]
        if not new:
            break
        done.update(new)
        rest = [lit for v in dict.fromkeys(new) for lit in usable[v]] + rest
    free = sorted({v for x in rest + arith for v in variables(x) if v in logic and v not in bound},
                  key=lambda v: v.name)
    if any(DOMAIN.get(logic[v]) in (None, "num") for v in free):
        return None
    seen = {v for x in arith for v in variables(x)}
    args = sorted((seen & bound) | {v for v in seen if v in logic}, key=lambda v: v.name)
    dom = [f(DOMAIN[logic[v]], v) for v in free]
    has = f(pred, *args)
    return [rule(has, *dom, *rest, *arith)], [*dom, *rest, neg(has)]


def _bound(lits) -> set:
    return {v for x in lits if not isinstance(x, (Not, Distinct)) for v in variables(x)}
