"""Fewer GDL steps: an automatic instruction is run in the step before it when that is exact.

The flow (flow.py) gives every instruction its own step. A label A with a way on
`(<= (nx (pc B)) (true (pc A)) CONDITION...)` can run B's rules in the same step when B is
automatic, nothing B reads is written by A, the two write different fluents, and no other
rule of A goes to B (it could fire with this one, leaving a second `pc`): B then sees
the same state before A's effects as after them, and the kernel (kernel.py) applies both
sets of effects at once exactly as it would one after the other. B's rules are copied under
A with the CONDITION (so a decision's step runs the chosen option's first independent
instructions), and A then goes on where B went, to fold further; a B no step reaches any
more is dropped. Decisions and chance events (rules that read `does`) are never folded into
the step before them, so every decision and every chance event stays one step. Each label
is folded into a given step once (a loop stays a loop), and the copies are bounded (twice
the rules).

What a label reads and writes is tracked by fluent family and, for storages and
registers, by key: `(int chips ...)` and `(int pot ...)` are independent, two card moves
never are (the kernel moves one card a step). Relations derived at one label only (the
flow's `h…` helpers, some with no `pc` literal of their own) belong to that label.

This is a pure function of the rules; the lockstep (crosscheck.py) plays automatic steps
through and compares states at decisions, which folding leaves unchanged.
"""
from __future__ import annotations

from ggpbridge.gdl.ast import Const, Distinct, Func, Not, Or, Rule, Var

from .exprs import map_vars

# fluent name -> family: what one write can disturb
_FAMILY = {"at": "cards", "in": "cards", "tally": "cards", "stale": "cards", "stale_draw": "cards",
           "cyc": "cyc", "cycdepth": "cyc"}
_KEYED = {"int", "str", "var", "points", "parg"}
# the kernel's effect relations -> (family, index of the key argument or None)
_EFFECTS = {"set_int": ("int", 0), "set_str": ("str", 0), "var_put": ("var", 0), "var_kill": ("var", 0),
            "set_points": ("points", 0), "set_parg": ("parg", 0),
            "cyc_put": ("cyc", None), "cyc_depth_to": ("cyc", None),
            "rm": ("cards", None), "ins": ("cards", None), "rm_card": ("cards", None),
            "ins_top": ("cards", None), "put": ("cards", None), "swap": ("cards", None),
            "shuffling": ("cards", None)}
# accessors of one storage or register: the key is their first argument
_ACCESSORS = {"int_value": "int", "has_int": "int", "str_value": "str", "has_str": "str", "has_var": "var"}
# heads that make a label a decision or chance event (its legal moves)
_EVENT_HEADS = {"option_ok", "pick_ok", "draw_ok", "choice_at"}
_ANY = ("?", None)   # unknown: conflicts with everything
_NOT_LOCAL = set(_EFFECTS) | _EVENT_HEADS | {"nx", "next", "legal", "sees", "goal", "terminal"}
_FLAGS = {"overflow"}  # fluents only ever set, never read by a step: the play is over


def fuse_steps(rules: list, first: str, events: set) -> list:
    """The rules with automatic steps folded into the steps before them (see the module doc).

    `first` is the initial label; `events` the labels of decisions and chance events."""
    return _Fuser(rules, first, events).run()


def _pc_label(lit) -> str | None:
    """L of a literal `(true (pc L))` with L a constant."""
    if isinstance(lit, Func) and lit.name == "true" and isinstance(lit.args[0], Func) \
            and lit.args[0].name == "pc" and isinstance(lit.args[0].args[0], Const):
        return lit.args[0].args[0].name
    return None


def _atoms(lit):
    """The relation atoms a body literal reads (inside `not` and `or` too)."""
    if isinstance(lit, Not):
        yield from _atoms(lit.arg)
    elif isinstance(lit, Or):
        for x in lit.args:
            yield from _atoms(x)
    elif isinstance(lit, (Func, Const)):
        yield lit


def _fluent(term) -> tuple:
    """The (family, key) of a fluent term."""
    if isinstance(term, Const):
        return _FAMILY.get(term.name, term.name), None
    if not isinstance(term, Func):
        return _ANY
    fam = _FAMILY.get(term.name, term.name)
    key = term.args[0] if term.name in _KEYED and isinstance(term.args[0], Const) else None
    return fam, key.name if key is not None else None


def _conflict(xs: set, ys: set, flags: bool = False) -> bool:
    """Whether two sets of (family, key) may touch the same fluent. With `flags`, writes that
    only raise a flag (`overflow`) are not a conflict: raising it twice is raising it once."""
    for fx, kx in xs:
        for fy, ky in ys:
            if flags and fx == fy and fx in _FLAGS:
                continue
            if fx == "?" or fy == "?" or (fx == fy and (kx is None or ky is None or kx == ky)):
                return True
    return False


class _Fuser:
    def __init__(self, rules: list, first: str, events: set):
        self.rules = list(rules)
        self.first = first
        self.events = set(events)

    # ------------------------------------------------------------ analysis
    def _defs(self) -> dict:
        out: dict = {}
        for r in self.rules:
            if isinstance(r.head, (Func, Const)):
                out.setdefault(r.head.name, []).append(r)
        return out

    def _reads(self, defs: dict) -> dict:
        """Relation name -> the fluents it reads, to a fixpoint over the rules defining it."""
        reads = {name: set() for name in defs}
        changed = True
        while changed:
            changed = False
            for name, rs in defs.items():
                got = set()
                for r in rs:
                    for lit in r.body:
                        got |= self._lit_reads(lit, reads)
                if not got <= reads[name]:
                    reads[name] |= got
                    changed = True
        return reads

    def _lit_reads(self, lit, reads: dict) -> set:
        out = set()
        if isinstance(lit, Distinct):
            return out
        if _pc_label(lit) is not None:
            return out   # the label's own literal: renamed with the rule
        for a in _atoms(lit):
            if a.name == "true":
                out.add(("pc", None) if isinstance(a.args[0], Func) and a.args[0].name == "pc"
                        else _fluent(a.args[0]))
            elif a.name == "does":
                out.add(("does", None))
            elif a.name == "nx":
                out.add(_ANY)
            elif a.name in _ACCESSORS and isinstance(a, Func) and isinstance(a.args[0], Const):
                out.add((_ACCESSORS[a.name], a.args[0].name))
            else:
                out |= reads.get(a.name, set())
        return out

    def _labels(self, defs: dict) -> dict:
        """Rule index -> the labels it belongs to (its `pc` literal, or the helpers it reads)."""
        local: dict = {}   # relation -> labels, for relations every rule of which has a label
        own = {}
        for i, r in enumerate(self.rules):
            labs = {x for x in (_pc_label(lit) for lit in r.body) if x is not None}
            own[i] = labs
        changed = True
        index = {id(r): i for i, r in enumerate(self.rules)}
        result = dict(own)
        while changed:
            changed = False
            for i, r in enumerate(self.rules):
                labs = set(own[i])
                for lit in r.body:   # positive literals only: `not h` holds away from h's label too
                    if isinstance(lit, (Func, Const)):
                        labs |= local.get(lit.name, set())
                if labs != result[i]:
                    result[i] = labs
                    changed = True
            for name, rs in defs.items():
                if name in _NOT_LOCAL:
                    continue   # the kernel reads these at every label
                ls = [result[index[id(r)]] for r in rs]
                if all(ls):
                    labs = set().union(*ls)
                    if local.get(name) != labs:
                        local[name] = labs
                        changed = True
        self.local = local
        return result

    # ------------------------------------------------------------ folding
    def run(self) -> list:
        defs = self._defs()
        self.reads = self._reads(defs)
        labels = self._labels(defs)
        by_label: dict = {}
        for i, labs in labels.items():
            for lab in labs:
                by_label.setdefault(lab, []).append(i)
        info = {lab: self._describe(idx) for lab, idx in by_label.items()}
        preds: dict = {}
        for lab, d in info.items():
            for _, tgt in d["gotos"]:
                preds.setdefault(tgt, set()).add(lab)
        preds.setdefault(self.first, set()).add(None)
        rules = {i: r for i, r in enumerate(self.rules)}
        nxt = len(self.rules)
        nfused = 0
        dropped: set = set()
        budget = 2 * len(rules)   # copies allowed in all (a chain of branches copies its join)
        for a in sorted(info, key=lambda x: int(x[1:]) if x[1:].isdigit() else -1):
            if a in dropped:
                continue
            seen = {a}
            while budget > 0:
                da = info[a]
                pick = None
                for g in self._gotos(da, rules, a):
                    fwd = self._fusible(da, g, seen, info, rules)
                    if fwd is not None:
                        pick = g
                        break
                if pick is None:
                    break
                goto_idx, b, cond = pick
                db = info[b]
                seen.add(b)
                # A's goto to B goes; B's rules with a label literal are copied under A, with the
                # goto's condition (its variables renamed apart from the rule's) and, for a
                # register A sets under that same condition, its new value in place of B's read
                nfused += 1
                suffix = f"_f{nfused}"
                cond = [_rename(x, suffix) for x in cond]
                fwd = {v: _rename(t, suffix) for v, t in fwd.items()}
                del rules[goto_idx]
                new = []
                for i in db["rules"]:
                    r = rules.get(i)
                    if r is None:
                        continue
                    if any(_pc_label(x) == b for x in r.body):
                        rules[nxt] = _relabel(_forward(r, fwd), b, a, cond)
                        new.append(nxt)
                        nxt += 1
                        budget -= 1
                    else:
                        new.append(i)   # a helper's rule: it fires wherever the helper holds
                idx = [i for i in da["rules"] if i != goto_idx] + new
                info[a] = self._describe(idx, rules)
                if all(t != b for _, t in info[a]["gotos"]):
                    preds[b].discard(a)
                for _, tgt in info[a]["gotos"]:
                    preds.setdefault(tgt, set()).add(a)
                if not preds[b]:
                    # no step reaches B any more: its own rules go
                    for i in db["rules"]:
                        r = rules.get(i)
                        if r is not None and any(_pc_label(x) == b for x in r.body):
                            del rules[i]
                    for _, tgt in db["gotos"]:
                        preds.get(tgt, set()).discard(b)
                    dropped.add(b)
        return [rules[i] for i in sorted(rules)]

    def _describe(self, idx: list, rules: dict | None = None) -> dict:
        rules = rules if rules is not None else dict(enumerate(self.rules))
        rd, wr, gotos, event = set(), set(), [], False
        for i in idx:
            r = rules.get(i)
            if r is None:
                continue
            h = r.head
            for lit in r.body:
                got = self._lit_reads(lit, self.reads)
                if ("does", None) in got:
                    event = True
                rd |= got
            name = h.name if isinstance(h, (Func, Const)) else None
            if name in _EVENT_HEADS:
                event = True
            elif name == "nx" and isinstance(h.args[0], Func) and h.args[0].name == "pc":
                tgt = h.args[0].args[0]
                gotos.append((i, tgt.name if isinstance(tgt, Const) else None))
            elif name == "nx":
                wr.add(_fluent(h.args[0]))
            elif name in _EFFECTS:
                fam, k = _EFFECTS[name]
                key = h.args[k] if k is not None else None
                wr.add((fam, key.name if isinstance(key, Const) else None))
            elif name in self.local:
                pass   # a helper of this label: read where it is used
            else:
                wr.add(_ANY)
        if any(t is None for _, t in gotos):
            event = True   # a computed target: leave it alone
        helpers = {r.head.name for r in (rules.get(i) for i in idx)
                   if r is not None and isinstance(r.head, (Func, Const)) and r.head.name in self.local}
        uses = {a.name for r in (rules.get(i) for i in idx) if r is not None for lit in r.body for a in _atoms(lit)}
        return {"rules": list(idx), "reads": rd, "writes": wr, "gotos": gotos, "event": event,
                "helpers": helpers, "uses": uses}

    @staticmethod
    def _gotos(d: dict, rules: dict, lab: str) -> list:
        """(rule index, B, condition) of each `(<= (nx (pc B)) (true (pc LAB)) CONDITION...)`."""
        out = []
        for i, tgt in d["gotos"]:
            r = rules.get(i)
            if r is None or tgt is None:
                continue
            mine = [x for x in r.body if _pc_label(x) == lab]
            if len(mine) == 1 and all(_pc_label(x) is None for x in r.body if x is not mine[0]):
                out.append((i, tgt, [x for x in r.body if x is not mine[0]]))
        return out

    def _fusible(self, da: dict, goto: tuple, seen: set, info: dict, rules: dict) -> dict | None:
        """Whether the automatic step B that `goto` leads to can run in A's step (described by
        da): None if not, else the registers forwarded, {register: its new value}."""
        goto_idx, b, cond = goto
        if b == "done" or b in seen or b not in info or b in self.events or info[b]["event"]:
            return None
        if sum(1 for _, t in da["gotos"] if t == b) > 1:
            # A goes to B by another rule too, whose condition may hold with this one's (a
            # shuffle of one card: its last position and its `size <= 1` shortcut): that rule
            # would still set B's `pc` while the copy goes on past B, two program counters
            return None
        db = info[b]
        fwd = self._forwarded(da, goto, db, rules)
        reads = db["reads"] - {("var", v) for v in fwd}
        # B must not read the program counter otherwise than by its own label (it would see
        # A's), nor anything A writes; the two must write different fluents
        if ("pc", None) in reads or _conflict(reads, da["writes"]) \
                or _conflict(da["writes"], db["writes"], flags=True):
            return None
        # a helper of one read by the other would start to hold where it did not
        if da["helpers"] & db["uses"] or db["helpers"] & da["uses"]:
            return None
        return fwd

    def _forwarded(self, da: dict, goto: tuple, db: dict, rules: dict) -> dict:
        """The registers A sets under the goto's very condition (a loop's first or next element,
        which flow.py binds in the goto and the `var_put` alike) and B reads only as
        `(true (var V ?X))` in its labelled rules: {V: the value A puts}."""
        goto_idx, b, cond = goto
        cond = tuple(cond)
        put, other = {}, set()
        for i in da["rules"]:
            r = rules.get(i)
            if r is None or not isinstance(r.head, Func) or r.head.name not in ("var_put", "var_kill"):
                continue
            v = r.head.args[0]
            rest = tuple(x for x in r.body if _pc_label(x) is None)
            # the same condition up to the names of its variables (folding renames them)
            same = _alpha(rest, cond, {}, {})
            if r.head.name == "var_put" and isinstance(v, Const) and same is not None and v.name not in put:
                put[v.name] = _substitute(r.head.args[1], {k: Var(n) for k, n in same.items()})
            elif isinstance(v, Const) and same is not None:
                other.add(v.name)   # killed, or set twice, under the goto's condition
        direct, indirect = set(), set()
        for i in db["rules"]:
            r = rules.get(i)
            if r is None:
                continue
            labelled = any(_pc_label(x) == b for x in r.body)
            for lit in r.body:
                v = _register_read(lit)
                if labelled and v is not None:
                    direct.add(v)
                else:
                    indirect |= {k for fam, k in self._lit_reads(lit, self.reads) if fam == "var"}
        if None in indirect:
            return {}
        return {v: t for v, t in put.items() if v in direct and v not in indirect and v not in other}


def _relabel(r: Rule, old: str, new: str, cond: list = ()) -> Rule:
    body = tuple(Func("true", (Func("pc", (Const(new),)),)) if _pc_label(x) == old else x for x in r.body)
    return Rule(r.head, body + tuple(cond))


def _register_read(lit) -> str | None:
    """V of a literal `(true (var V ?X))` with V a constant and X a variable."""
    if isinstance(lit, Func) and lit.name == "true" and isinstance(lit.args[0], Func) \
            and lit.args[0].name == "var" and len(lit.args[0].args) == 2 \
            and isinstance(lit.args[0].args[0], Const) and isinstance(lit.args[0].args[1], Var):
        return lit.args[0].args[0].name
    return None


def _alpha(a, b, there: dict, back: dict) -> dict | None:
    """A renaming of a's variables that makes it b ({name in a: name in b}), or None."""
    if isinstance(a, Var) and isinstance(b, Var):
        if there.setdefault(a.name, b.name) != b.name or back.setdefault(b.name, a.name) != a.name:
            return None
        return there
    if isinstance(a, tuple) and isinstance(b, tuple):
        if len(a) != len(b):
            return None
        for x, y in zip(a, b):
            if _alpha(x, y, there, back) is None:
                return None
        return there
    if type(a) is not type(b):
        return None
    if isinstance(a, Func):
        return _alpha(a.args, b.args, there, back) if a.name == b.name else None
    if isinstance(a, Not):
        return _alpha(a.arg, b.arg, there, back)
    if isinstance(a, Or):
        return _alpha(a.args, b.args, there, back)
    if isinstance(a, Distinct):
        return _alpha((a.a, a.b), (b.a, b.b), there, back)
    return there if a == b else None


def _forward(r: Rule, fwd: dict) -> Rule:
    """The rule with each read `(true (var V ?X))` of a forwarded register dropped and X
    replaced by the value put."""
    if not fwd:
        return r
    sub = {}
    body = []
    for x in r.body:
        v = _register_read(x)
        if v in fwd:
            sub[x.args[0].args[1].name] = fwd[v]
        else:
            body.append(x)
    if not sub:
        return r
    return Rule(_substitute(r.head, sub), tuple(_substitute(x, sub) for x in body))


def _substitute(x, sub: dict):
    return map_vars(x, lambda v: sub.get(v.name, v))


def _rename(x, suffix: str):
    """A literal with every variable renamed (NAME -> NAME+suffix)."""
    return map_vars(x, lambda v: Var(v.name + suffix))
