"""IR -> canonical RECYCLE v0.5.10 text (the `upgrade` command's printer).

A pure pass: IR in, text out. Nodes become S-expression documents which are laid
out to a width, a form on one line when it fits and otherwise its head on the
first line and its parts indented below. Comments given with their source line
are emitted before the first statement that starts after them.

v0.5.10 names are upper-case letters only; names that are not (v0.3's `rank`,
`10`) are renamed deterministically (`RANK`, `TEN`) and the renaming is returned.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ggpbridge import ir
from ggpbridge.errors import UnsupportedConstructError

WIDTH = 88


@dataclass
class Doc:
    """A list to print; `pos` marks a statement, before which comments may go."""

    items: list
    pos: ir.Pos | None = None


def to_text(game: ir.Game, comments: list | None = None, width: int = WIDTH) -> tuple[str, dict]:
    """Print a game as v0.5.10 text; returns (text, renaming of names that were not valid v0.5.10 names)."""
    names = _rename_map(game)
    p = _Printer(names)
    doc = p.game(game)
    out = _Layout(sorted(comments or [], key=lambda c: (c[0].line, c[0].col)), width)
    text = out.render(doc)
    return text, {k: v for k, v in names.items() if k != v}


def stmt_text(node: ir.Node) -> str:
    """One statement or expression as v0.5.10 text on one line (for messages and comments;
    names are printed as they are, not renamed as `to_text` renames invalid ones)."""
    p = _Printer({})
    doc = p.s(node) if hasattr(p, "_s_" + type(node).__name__) else p.x(node)
    return " ".join(_Layout([], 10 ** 6).render(doc).split())


# ---------------------------------------------------------------- names
_ONES = "ZERO ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE TEN ELEVEN TWELVE THIRTEEN FOURTEEN FIFTEEN " \
        "SIXTEEN SEVENTEEN EIGHTEEN NINETEEN".split()
_TENS = "_ _ TWENTY THIRTY FORTY FIFTY SIXTY SEVENTY EIGHTY NINETY".split()


def number_name(n: int) -> str:
    """An integer spelt in upper-case English letters."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("" if n % 10 == 0 else _ONES[n % 10])
    if n < 1000:
        return _ONES[n // 100] + "HUNDRED" + ("" if n % 100 == 0 else number_name(n % 100))
    return "".join(_ONES[int(d)] for d in str(n))


_VALID = re.compile(r"[A-Z]+\Z")


def valid_name(s: str) -> str:
    """The closest v0.5.10 name (upper-case letters only)."""
    if _VALID.match(s):
        return s
    parts = re.findall(r"[0-9]+|[A-Za-z]+", s)
    out = "".join(number_name(int(p)) if p.isdigit() else p.upper() for p in parts)
    return out or "X"


def _rename_map(game: ir.Game) -> dict:
    found: list[str] = []
    for n in game.walk():
        if isinstance(n, ir.Name):
            found.append(n.value)
        elif isinstance(n, ir.AttrNode):
            found.extend(x for x in n.names if isinstance(x, str))
        elif isinstance(n, ir.NameList):
            found.extend(n.names)
        for attr in ("var",):
            v = getattr(n, attr, None)
            if isinstance(v, str):
                found.append(v)
        if isinstance(n, ir.Var):
            found.append(n.name)
    for d in game.declares:
        found.append(d.var)
    mapping: dict[str, str] = {}
    taken = {s for s in found if _VALID.match(s)}
    for s in found:
        if s in mapping:
            continue
        if _VALID.match(s):
            mapping[s] = s
            continue
        cand = valid_name(s)
        while cand in taken:
            cand += "X"
        taken.add(cand)
        mapping[s] = cand
    return mapping


# ---------------------------------------------------------------- IR -> documents
class _Printer:
    def __init__(self, names: dict):
        self.names = names

    def n(self, s: str) -> str:
        return self.names.get(s, s)

    def v(self, s: str) -> str:
        return "'" + self.n(s)

    def d(self, node, *items) -> Doc:
        return Doc(list(items), node.pos if node.pos else None)

    def game(self, g: ir.Game) -> Doc:
        items = ["game"]
        items += [self.d(d, "declare", self.x(d.value), self.v(d.var)) for d in g.declares]
        items.append(self.setup(g.setup))
        items += [self.s(b) for b in g.body]
        items.append(self.d(g.scoring, "scoring", g.scoring.mode, self.x(g.scoring.value)))
        return Doc(items, g.pos)

    def setup(self, s: ir.Setup) -> Doc:
        items = ["setup", Doc(["create", "players", self.x(s.players)], s.players.pos or None)]
        if s.teams:
            items.append(self.s(s.teams))
        items += [self.s(d) for d in s.decks]
        return self.d(s, *items)

    # ------------------------------------------------------------ statements
    def s(self, st) -> Doc:
        m = getattr(self, "_s_" + type(st).__name__)
        return m(st)

    def _s_Stage(self, st):
        return self.d(st, "stage", st.kind, Doc(["end", self.x(st.end)]), *[self.s(b) for b in st.body])

    def _s_Choice(self, st):
        return self.d(st, "choice", Doc([self.s(o) for o in st.options]))

    def _s_Do(self, st):
        return self.d(st, "do", Doc([self.s(i) for i in st.items]))

    def _s_CondAct(self, st):
        if isinstance(st.cond, ir.TrueCond):
            return self.s(st.body)
        return self.d(st, self.x(st.cond), self.s(st.body))

    def _s_ForAll(self, st):
        return self.d(st, "all", self.x(st.coll), self.v(st.var), self.s(st.body))

    def _s_AnyOf(self, st):
        return self.d(st, "any", self.x(st.coll), self.v(st.var), self.s(st.body))

    def _s_Let(self, st):
        return self.d(st, "let", self.x(st.value), self.v(st.var), self.s(st.body))

    def _s_Move(self, st):
        return self.d(st, "move", self.x(st.src), self.x(st.dst))

    def _s_Remember(self, st):
        return self.d(st, "remember", self.x(st.src), self.x(st.dst))

    def _s_Forget(self, st):
        return self.d(st, "forget", self.x(st.card))

    def _s_Shuffle(self, st):
        return self.d(st, "shuffle", self.x(st.target))

    def _s_Faro(self, st):
        return self.d(st, "shuffle", "faro", self.x(st.first), self.x(st.second))

    def _s_SetInt(self, st):
        return self.d(st, "set", self.x(st.target), self.x(st.value))

    _s_SetStr = _s_SetInt

    def _s_Inc(self, st):
        return self.d(st, "inc", self.x(st.target), self.x(st.value))

    def _s_Dec(self, st):
        return self.d(st, "dec", self.x(st.target), self.x(st.value))

    def _s_SetPoints(self, st):
        awards = [Doc([*[Doc([self.x(k), ":", self.x(v)]) for k, v in a.conds], self.x(a.value)], a.pos or None)
                  for a in st.awards]
        return self.d(st, "set", self.x(st.target), Doc(awards))

    def _s_CreateTeams(self, st):
        return self.d(st, "create", "teams", *[Doc([", ".join(str(p) for p in t)]) for t in st.teams])

    def _s_CreateDeck(self, st):
        items = ["create", "deck"] + ([self.x(st.name)] if st.name is not None else [])
        deck = Doc(["deck"] + ([str(st.deck.copies)] if st.deck.copies != 1 else []) + [self.attr(a) for a in st.deck.attrs])
        return self.d(st, *items, self.x(st.location), deck)

    def attr(self, a: ir.AttrNode) -> Doc:
        names = ", ".join(self.v(x.name) if isinstance(x, ir.Var) else self.n(x) for x in a.names)
        return Doc([names, *[self.attr(s) for s in a.subs]])

    def _s_Cycle(self, st):
        t = st.target if isinstance(st.target, str) else self.x(st.target)
        return self.d(st, "cycle", st.when, t)

    def _s_TurnPass(self, st):
        return self.d(st, "turn", "pass")

    def _s_Repeat(self, st):
        return self.d(st, "repeat", self.x(st.count), self.s(st.body))

    def _s_RepeatAll(self, st):
        return self.d(st, "repeat", "all", self.s(st.body))

    # ------------------------------------------------------------ expressions
    def x(self, e):
        m = getattr(self, "_x_" + type(e).__name__)
        return m(e)

    def _x_IntSum(self, e):
        raise UnsupportedConstructError("v0.3's (sum (OWNERS sto KEY)) over several players or teams has no "
                                        "v0.5.10 form", e.pos)

    def _x_BestSum(self, e):
        raise UnsupportedConstructError("a sum whose cards may count one of two values (G_cardgame's BestSum) "
                                        "has no RECYCLE form", e.pos)

    def _x_PlayValue(self, e):
        raise UnsupportedConstructError("a play value through a ranking of poker plays (G_cardgame's 'play', "
                                        "the IR extension PlayValue) has no RECYCLE form", e.pos)

    def _x_Var(self, e):
        return self.v(e.name)

    def _x_GameOwner(self, e):
        return "game"

    def _x_PlayerRef(self, e):
        return Doc([e.which if isinstance(e.which, str) else self.x(e.which), "player"])

    def _x_TeamRef(self, e):
        return Doc([e.which if isinstance(e.which, str) else self.x(e.which), "team"])

    def _x_OwnerOf(self, e):
        return Doc(["owner", self.x(e.card)])

    def _x_TeamOf(self, e):
        return Doc(["team", self.x(e.player)])

    def _x_Name(self, e):
        return self.n(e.value)

    def _x_StrStorage(self, e):
        return Doc([self.x(e.owner), "str", self.x(e.key)])

    def _x_CardAtt(self, e):
        return Doc(["cardatt", self.x(e.attr), self.x(e.card)])

    def _x_IntLit(self, e):
        return str(e.value)

    def _x_Arith(self, e):
        return Doc([e.op, self.x(e.left), self.x(e.right)])

    def _x_Tri(self, e):
        return Doc(["tri", self.x(e.arg)])

    def _x_Fib(self, e):
        return Doc(["fib", self.x(e.arg)])

    def _x_Random(self, e):
        if isinstance(e.lo, ir.IntLit) and e.lo.value == 0:
            return Doc(["random", self.x(e.hi)])
        return Doc(["random", self.x(e.lo), "..", self.x(e.hi)])

    def _x_Size(self, e):
        return Doc(["size", self.x(e.coll)])

    def _x_Sum(self, e):
        return Doc(["sum", self.x(e.cards), "using", self.x(e.points)])

    def _x_Score(self, e):
        return Doc(["score", self.x(e.card), "using", self.x(e.points)])

    def _x_IntStorage(self, e):
        return Doc([self.x(e.owner), "sto", self.x(e.key)])

    def _x_CardAt(self, e):
        return Doc([e.where if isinstance(e.where, str) else self.x(e.where), self.x(e.source)])

    def _x_Extreme(self, e):
        return Doc([e.kind, self.x(e.source), "using", self.x(e.points)])

    def _x_Actual(self, e):
        return Doc(["actual", self.x(e.card)])

    def _x_Location(self, e):
        name = e.name if isinstance(e.name, str) else self.x(e.name)
        return Doc([self.x(e.owner), e.vis, name])

    def _x_SetOp(self, e):
        return Doc([e.op, *[self.x(a) for a in e.args]])

    def _x_AggCards(self, e):
        return Doc(["all", self.x(e.coll), self.v(e.var), self.x(e.body)])

    def _x_Sort(self, e):
        return Doc(["sort", self.x(e.source), "using", self.x(e.points)])

    def _x_Filter(self, e):
        return Doc(["filter", self.x(e.coll), self.v(e.var), self.x(e.cond)])

    def _x_Sequence(self, e):
        return Doc([e.end, self.x(e.count), self.x(e.source)])

    def _x_RunSequence(self, e):
        return Doc(["run", e.end, self.x(e.count), self.x(e.source), "using", self.x(e.points)])

    def _x_MemberOf(self, e):
        return Doc([e.where if isinstance(e.where, str) else self.x(e.where), self.x(e.source)])

    def _x_NameList(self, e):
        return Doc([", ".join(self.n(s) for s in e.names)])

    def _x_AllOf(self, e):
        return e.kind

    def _x_Other(self, e):
        return Doc(["other", e.kind])

    def _x_Range(self, e):
        return Doc(["range", self.x(e.lo), "..", self.x(e.hi)])

    def _x_Tuples(self, e):
        return Doc(["tuples", self.x(e.n), self.x(e.source), "using", self.x(e.points)])

    def _x_Partition(self, e):
        return Doc(["partition", self.x(e.attr), *[self.x(s) for s in e.sources]])

    def _x_Subsets(self, e):
        return Doc(["subsets", self.x(e.source)])

    def _x_Runs(self, e):
        return Doc(["runs", e.mode, self.x(e.n), self.x(e.source), "using", self.x(e.points)])

    def _x_PointsRef(self, e):
        return Doc([self.x(e.owner), "points", self.x(e.name)])

    def _x_BoolOp(self, e):
        return Doc([e.op, *[self.x(a) for a in e.args]])

    def _x_Not(self, e):
        return Doc(["not", self.x(e.arg)])

    def _x_Compare(self, e):
        return Doc([e.op, self.x(e.left), self.x(e.right)])

    def _x_Quantified(self, e):
        return Doc([e.quant, self.x(e.coll), self.v(e.var), self.x(e.cond)])

    def _x_TrueCond(self, e):
        return Doc(["==", "1", "1"])


def expr_text(e) -> str:
    """One IR expression as compact RECYCLE text (for messages and reports)."""
    p = _Printer({})
    doc = p.x(e) if not hasattr(p, "_s_" + type(e).__name__) else p.s(e)
    return _flat(doc)


# ---------------------------------------------------------------- layout
def _flat(d) -> str:
    if isinstance(d, Doc):
        return "(" + " ".join(_flat(i) for i in d.items) + ")"
    return d


class _Layout:
    def __init__(self, comments: list, width: int):
        self.comments = comments
        self.ci = 0
        self.width = width
        self.lines: list[str] = []

    def render(self, doc: Doc) -> str:
        self.block(doc, 0)
        self.flush_comments(None, 0)
        return "\n".join(self.lines) + "\n"

    def flush_comments(self, before: ir.Pos | None, indent: int) -> None:
        while self.ci < len(self.comments) and (before is None or self.comments[self.ci][0].line < before.line):
            text = self.comments[self.ci][1]
            self.lines.append(" " * indent + (";;" + (" " + text.strip() if text.strip() else "")))
            self.ci += 1

    def pending_inside(self, d: Doc) -> bool:
        """Whether a comment lies inside the span of this statement (then it is not flattened)."""
        if not (d.pos and self.ci < len(self.comments)):
            return False
        end = _last_pos(d)
        return end is not None and self.comments[self.ci][0].line <= end.line

    def block(self, d, indent: int) -> None:
        """Print d starting on a new line at `indent`."""
        if isinstance(d, Doc) and d.pos:
            self.flush_comments(d.pos, indent)
        flat = _flat(d)
        if not isinstance(d, Doc) or (indent + len(flat) <= self.width and not self.pending_inside(d)):
            self.lines.append(" " * indent + flat)
            return
        head = []
        rest = list(d.items)
        while rest and not isinstance(rest[0], Doc):
            head.append(rest.pop(0))
        if not head and rest:  # a list of lists, e.g. (do (...)) items or ((COND) ACTION)
            first = rest.pop(0)
            ftext = _flat(first)
            if not (isinstance(first, Doc) and first.pos) and indent + 1 + len(ftext) <= self.width:
                head.append(ftext)
            else:
                self.lines.append(" " * indent + "(")
                self.block(first, indent + 1)
                for r in rest:
                    self.block(r, indent + 1)
                self.lines[-1] += ")"
                return
        self.lines.append(" " * indent + "(" + " ".join(head))
        for r in rest:
            self.block(r, indent + 2)
        self.lines[-1] += ")"


def _last_pos(d) -> ir.Pos | None:
    best = d.pos if isinstance(d, Doc) else None
    if isinstance(d, Doc):
        for i in d.items:
            p = _last_pos(i)
            if p is not None and (best is None or p.line > best.line):
                best = p
    return best
