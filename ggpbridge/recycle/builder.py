"""Typed reading of v0.5.x S-expressions (CardStock and CardStockXam) into the IR.

The surface grammar only knows brackets; this module knows RECYCLE's forms. Each
`_x` method reads one syntactic category. Forms whose meaning depends on where
they stand (`(all ...)` is a loop as a statement, a quantifier as a condition, a
union inside `union`) are read by the category the grammar expects there.
Type consistency (an integer where a card is expected) is left to `check`.
"""
from __future__ import annotations

from .. import ir
from ..errors import Diagnostic, Pos, RecycleSyntaxError, Source
from .dialects import KEYWORDS
from .reader import Atom, SList

VIS = ("vloc", "iloc", "hloc", "oloc", "mem")
STORAGE_KINDS = ("sto", "str", "points") + VIS
ARITH = {"+", "-", "*", "//", "%", "^"}
COMPARE = {"==", "!=", "<", ">", "<=", ">="}
WHO = ("current", "next", "previous")
MEMSETS = ("tuples", "partition", "subsets", "runs")


class Builder:
    """Reads one game form of a v0.5.x dialect into `ir.Game`."""

    def __init__(self, source: Source, dialect: str, warnings: list):
        self.source = source
        self.dialect = dialect
        self.keywords = KEYWORDS[dialect]
        self.warnings = warnings
        self.choice_depth = 0

    # ------------------------------------------------------------ helpers
    def fail(self, message: str, at) -> RecycleSyntaxError:
        """A syntax error at a list or atom."""
        return RecycleSyntaxError(message, at.pos if at is not None else Pos(), self.source)

    def warn(self, message: str, at) -> None:
        self.warnings.append(Diagnostic("warning", message, at.pos, self.source))

    def head(self, x) -> str | None:
        """The keyword or operator a list starts with, if any."""
        if isinstance(x, SList) and x.items and isinstance(x.items[0], Atom) and x.items[0].kind in ("kw", "op"):
            return x.items[0].text
        return None

    def kw(self, x, *words) -> bool:
        return isinstance(x, Atom) and x.kind == "kw" and (not words or x.text in words)

    def args(self, x: SList, n: int, what: str) -> list:
        """The n items after the head, joining runs of digits or names the way CardStock's lexer does."""
        items = self.join_runs(x.items[1:], n)
        if len(items) != n:
            raise self.fail(f"'{what}' takes {n} argument{'s' if n != 1 else ''}, found {len(items)}", x)
        return items

    def join_runs(self, items: list, n: int) -> list:
        # CardStock's INTNUM+/LETT+ absorb white space, left to right, when the parse needs it.
        items = list(items)
        i = 0
        while len(items) > n and i < len(items) - 1:
            a, b = items[i], items[i + 1]
            if isinstance(a, Atom) and isinstance(b, Atom) and a.kind == b.kind and a.kind in ("int", "name"):
                merged = Atom(a.kind, a.text + b.text, a.pos, True)
                items[i:i + 2] = [merged]
                self.warn(f"'{a.text} {b.text}' is read as one token {merged.text!r}, as CardStock's lexer does", a)
            else:
                i += 1
        return items

    def var(self, x) -> str:
        if isinstance(x, Atom) and x.kind == "var":
            return x.text
        raise self.fail(f"expected a variable 'NAME, found {x!r}", x)

    def check_keyword(self, a: Atom) -> None:
        if a.kind == "kw" and a.text not in self.keywords:
            raise self.fail(f"'{a.text}' is not a keyword of RECYCLE v{self.dialect}", a)

    def inner_list(self, x: SList, what: str) -> list:
        """The items of `(what (ITEM...))`."""
        if len(x.items) != 2 or not isinstance(x.items[1], SList):
            raise self.fail(f"'{what}' expects one parenthesised list of items: ({what} (ITEM ...))", x)
        return x.items[1].items

    # ------------------------------------------------------------ game
    def game(self, form: SList) -> ir.Game:
        """The whole game form."""
        if self.head(form) != "game":
            raise self.fail("a RECYCLE file must hold one '(game ...)' form", form)
        items = form.items[1:]
        declares = []
        while items and self.head(items[0]) == "declare":
            d = items.pop(0)
            a, v = self.args(d, 2, "declare")
            declares.append(ir.Declare(self.value(a), self.var(v), pos=d.pos))
        if not items or self.head(items[0]) != "setup":
            raise self.fail("the game must start with '(setup ...)' (after any declare)", items[0] if items else form)
        setup = self.setup(items.pop(0))
        if not items or self.head(items[-1]) != "scoring":
            nested = self.find_scoring(items[-1]) if items else None
            if nested is not None:
                raise self.fail("'(scoring ...)' stands inside the form above it: a ')' is missing before it", nested)
            raise self.fail("the game must end with '(scoring min|max INT)'", items[-1] if items else form)
        sc = items.pop()
        mode, val = self.args(sc, 2, "scoring")
        if not self.kw(mode, "min", "max"):
            raise self.fail("scoring is 'min' or 'max'", mode)
        scoring = ir.Scoring(mode.text, self.int_(val), pos=sc.pos)
        body = tuple(self.stage_item(x) for x in items)
        return ir.Game(tuple(declares), setup, body, scoring, pos=form.pos)

    def find_scoring(self, x):
        """A scoring form buried in x (a missing ')' put it there), or None."""
        if not isinstance(x, SList):
            return None
        for it in reversed(x.items):
            if self.head(it) == "scoring":
                return it
            found = self.find_scoring(it)
            if found is not None:
                return found
        return None

    def setup(self, x: SList) -> ir.Setup:
        items = x.items[1:]
        if not items or not (self.head(items[0]) == "create" and self.kw(items[0].items[1] if len(items[0].items) > 1 else None, "players")):
            raise self.fail("setup must start with '(create players N)'", items[0] if items else x)
        pc = items.pop(0)
        players = self.int_(self.args(pc, 2, "create players")[1])
        teams = None
        if items and self.head(items[0]) == "create" and len(items[0].items) > 1 and self.kw(items[0].items[1], "teams"):
            teams = self.teams(items.pop(0))
        decks = []
        for d in items:
            h = self.head(d)
            if h == "create" or h == "repeat":
                decks.append(self.stmt(d))
            else:
                raise self.fail("setup holds '(create deck ...)' or '(repeat N (create deck ...))'", d)
        return ir.Setup(players, teams, tuple(decks), pos=x.pos)

    def teams(self, x: SList) -> ir.CreateTeams:
        groups = []
        for t in x.items[2:]:
            if not isinstance(t, SList):
                raise self.fail("a team is a list of player indices, e.g. (0, 2)", t)
            groups.append(tuple(int(a.text) for a in self.comma_list(t, "int")))
        return ir.CreateTeams(tuple(groups), pos=x.pos)

    def comma_list(self, x: SList, kind: str) -> list:
        """The atoms of `(A, B, C)`; atoms not separated by commas are joined (CardStock's lexer)."""
        out: list = []
        pending: list = []
        for it in x.items + [None]:
            if it is None or (isinstance(it, Atom) and it.kind == "op" and it.text == ","):
                if not pending:
                    raise self.fail("empty element in a comma-separated list", it or x)
                if len(pending) > 1:
                    self.warn(f"{' '.join(p.text for p in pending)!r} is read as one token "
                              f"{''.join(p.text for p in pending)!r}, as CardStock's lexer does", pending[0])
                out.append(Atom(pending[0].kind, "".join(p.text for p in pending), pending[0].pos, len(pending) > 1))
                pending = []
            elif isinstance(it, Atom) and (it.kind == kind or (kind == "name" and it.kind in ("name", "int", "var"))):
                pending.append(it)
            else:
                raise self.fail(f"expected a comma-separated list of {'names' if kind == 'name' else 'integers'}", it)
        return out

    # ------------------------------------------------------------ statements
    def stage_item(self, x) -> ir.Node:
        """An item of the game body or a stage: stage, choice, do, all/any, let."""
        h = self.head(x)
        if h == "stage":
            return self.stage(x)
        if h in ("choice", "do", "all", "any", "let"):
            return self.stmt(x)
        raise self.fail("expected a stage, choice, do, all, any or let here", x)

    def stage(self, x: SList) -> ir.Stage:
        if len(x.items) < 3:
            raise self.fail("'(stage player|team (end COND) ...)' needs a kind and an end condition", x)
        kind, end = x.items[1], x.items[2]
        if not self.kw(kind, "player", "team"):
            raise self.fail("a stage cycles over 'player' or 'team'", kind)
        if self.head(end) != "end":
            raise self.fail("a stage's second item is its '(end COND)'", end)
        cond = self.bool_(self.args(end, 1, "end")[0])
        body = tuple(self.stage_item(i) for i in x.items[3:])
        return ir.Stage(kind.text, cond, body, pos=x.pos)

    def condact(self, x) -> ir.Node:
        """`(COND BODY)` or a bare statement."""
        if isinstance(x, SList) and x.items and isinstance(x.items[0], SList):
            if len(x.items) != 2:
                raise self.fail("a guarded item is (CONDITION ACTION): found "
                                f"{len(x.items)} items", x)
            return ir.CondAct(self.bool_(x.items[0]), self.stmt(x.items[1]), pos=x.pos)
        return self.stmt(x)

    def stmt(self, x) -> ir.Node:
        """One action or multi-action."""
        h = self.head(x)
        if h is None:
            if isinstance(x, SList) and x.items and isinstance(x.items[0], SList):
                return self.condact(x)
            raise self.fail(f"expected an action, found {x!r}", x)
        self.check_keyword(x.items[0])
        m = getattr(self, "_s_" + h, None)
        if m is None:
            raise self.fail(f"'{h}' is not an action", x)
        return m(x)

    def _s_do(self, x):
        return ir.Do(tuple(self.condact(i) for i in self.inner_list(x, "do")), pos=x.pos)

    def _s_choice(self, x):
        self.choice_depth += 1
        try:
            return ir.Choice(tuple(self.condact(i) for i in self.inner_list(x, "choice")), pos=x.pos)
        finally:
            self.choice_depth -= 1

    def _s_all(self, x):
        c, v, b = self.args(x, 3, "all")
        return ir.ForAll(self.coll(c), self.var(v), self.condact(b), pos=x.pos)

    def _s_any(self, x):
        c, v, b = self.args(x, 3, "any")
        if self.choice_depth == 0:
            # CardStock's do-blocks run an `any` for every element (GameIterator.ProcessAgg).
            self.warn("'any' outside a choice offers no choice: CardStock runs it for every element, like 'all'", x)
            return ir.ForAll(self.coll(c), self.var(v), self.condact(b), pos=x.pos)
        return ir.AnyOf(self.coll(c), self.var(v), self.condact(b), pos=x.pos)

    def _s_let(self, x):
        val, v, b = self.args(x, 3, "let")
        return ir.Let(self.value(val), self.var(v), self.condact(b), pos=x.pos)

    def _s_stage(self, x):
        return self.stage(x)

    def _s_move(self, x):
        a, b = self.args(x, 2, "move")
        return ir.Move(self.card(a), self.card(b), pos=x.pos)

    def _s_remember(self, x):
        a, b = self.args(x, 2, "remember")
        return ir.Remember(self.card(a), self.card(b), pos=x.pos)

    def _s_forget(self, x):
        return ir.Forget(self.card(self.args(x, 1, "forget")[0]), pos=x.pos)

    def _s_shuffle(self, x):
        if len(x.items) == 4 and self.kw(x.items[1], "faro"):
            self.check_keyword(x.items[1])
            return ir.Faro(self.cards(x.items[2]), self.cards(x.items[3]), pos=x.pos)
        return ir.Shuffle(self.cards(self.args(x, 1, "shuffle")[0]), pos=x.pos)

    def _s_turn(self, x):
        if not (len(x.items) == 2 and self.kw(x.items[1], "pass")):
            raise self.fail("the only turn action is '(turn pass)'", x)
        return ir.TurnPass(pos=x.pos)

    def _s_cycle(self, x):
        when, target = self.args(x, 2, "cycle")
        if not self.kw(when, "next", "current"):
            raise self.fail("cycle takes 'next' or 'current' first", when)
        t = target.text if self.kw(target, *WHO) else self.player(target)
        return ir.Cycle(when.text, t, pos=x.pos)

    def _s_repeat(self, x):
        if len(x.items) >= 2 and self.kw(x.items[1], "all"):
            body = self.args(x, 2, "repeat all")[1]
            if self.head(body) not in ("move", "forget"):
                raise self.fail("'repeat all' repeats a move or forget until its source is empty", body)
            return ir.RepeatAll(self.stmt(body), pos=x.pos)
        n, body = self.args(x, 2, "repeat")
        return ir.Repeat(self.int_(n), self.stmt(body), pos=x.pos)

    def _s_inc(self, x):
        s, v = self.args(x, 2, "inc")
        return ir.Inc(self.int_storage(s), self.int_(v), pos=x.pos)

    def _s_dec(self, x):
        s, v = self.args(x, 2, "dec")
        return ir.Dec(self.int_storage(s), self.int_(v), pos=x.pos)

    def _s_set(self, x):
        target, value = self.args(x, 2, "set")
        kind = self.storage_kind(target)
        if kind == "points":
            return ir.SetPoints(self.points(target), self.awards(value), pos=x.pos)
        if kind == "str":
            return ir.SetStr(self.str_storage(target), self.str_(value), pos=x.pos)
        if kind == "sto":
            return ir.SetInt(self.int_storage(target), self.int_(value), pos=x.pos)
        raise self.fail("set takes a storage: (OWNER sto|str|points NAME)", target)

    def _s_create(self, x):
        if len(x.items) < 2:
            raise self.fail("create what? (create deck|teams|players ...)", x)
        what = x.items[1]
        if self.kw(what, "teams"):
            return self.teams(x)
        if not self.kw(what, "deck"):
            raise self.fail("expected '(create deck [NAME] LOCATION (deck ...))'", what)
        rest = x.items[2:]
        name = None
        if len(rest) == 3:
            name = self.str_(rest.pop(0))
        if len(rest) != 2:
            raise self.fail("expected '(create deck [NAME] LOCATION (deck ...))'", x)
        loc = self.cards(rest[0])
        if not isinstance(loc, ir.Location):
            raise self.fail("a deck is created in a location (OWNER vloc|iloc|... NAME)", rest[0])
        return ir.CreateDeck(name, loc, self.deck(rest[1]), pos=x.pos)

    def deck(self, x) -> ir.Deck:
        if self.head(x) != "deck":
            raise self.fail("expected '(deck ATTRIBUTE ...)'", x)
        items = x.items[1:]
        copies = 1
        if items and isinstance(items[0], Atom) and items[0].kind == "int":
            copies = int(items.pop(0).text)
        return ir.Deck(tuple(self.attribute(a) for a in items), copies, pos=x.pos)

    def attribute(self, x) -> ir.AttrNode:
        """`(NAME, NAME (SUB...) ...)`: names, then sub-attribute lists."""
        if not isinstance(x, SList) or not x.items:
            raise self.fail("a deck attribute is a list such as (RANK (ACE, TWO))", x)
        k = 0
        while k < len(x.items) and isinstance(x.items[k], Atom):
            k += 1
        names = self.comma_list(SList(x.items[:k], x.pos), "name") if k else []
        if not names:
            raise self.fail("a deck attribute starts with a name", x)
        subs = tuple(self.attribute(c) for c in x.items[k:])
        return ir.AttrNode(tuple(ir.Var(a.text, pos=a.pos) if a.kind == "var" else a.text for a in names), subs, pos=x.pos)

    def awards(self, x) -> tuple:
        if not isinstance(x, SList):
            raise self.fail("a point map is a list of awards (((KEY : VALUE) N) ...)", x)
        out = []
        for a in x.items:
            if not isinstance(a, SList) or len(a.items) < 2:
                raise self.fail("an award is ((KEY : VALUE) ... POINTS)", a)
            conds = tuple(self.subaward(s) for s in a.items[:-1])
            out.append(ir.Award(conds, self.int_(a.items[-1]), pos=a.pos))
        return tuple(out)

    def subaward(self, s) -> tuple:
        if not isinstance(s, SList):
            raise self.fail("a condition of an award is (KEY : VALUE)", s)
        it = s.items
        if len(it) == 3 and isinstance(it[1], Atom) and it[1].text == ":":
            return (self.str_(it[0]), self.str_(it[2]))
        if len(it) == 2:  # v0.5.0: (KEY (VALUE)) or (KEY (cardatt ...))
            v = it[1]
            if isinstance(v, SList) and self.head(v) != "cardatt" and len(v.items) == 1:
                v = v.items[0]
            return (self.str_(it[0]), self.str_(v))
        raise self.fail("a condition of an award is (KEY : VALUE)", s)

    # ------------------------------------------------------------ owners
    def owner(self, x) -> ir.Node:
        """Who a storage or location belongs to: game, a player, a team, or a variable."""
        if self.kw(x, "game"):
            return ir.GameOwner(pos=x.pos)
        if isinstance(x, Atom) and x.kind == "var":
            return ir.Var(x.text, pos=x.pos)
        if isinstance(x, SList):
            h = self.head(x)
            if h == "owner":
                return ir.OwnerOf(self.card(self.args(x, 1, "owner")[0]), pos=x.pos)
            if h == "team" and len(x.items) == 2:
                return ir.TeamOf(self.player(x.items[1]), pos=x.pos)
            if len(x.items) == 2 and self.kw(x.items[1], "player", "team"):
                return self.who(x)
        raise self.fail(f"expected an owner (game, (current player), (owner CARD), 'VAR ...), found {x!r}", x)

    def who(self, x: SList) -> ir.Node:
        d, k = x.items
        which = d.text if self.kw(d, *WHO) else self.int_(d)
        cls = ir.PlayerRef if k.text == "player" else ir.TeamRef
        return cls(which, pos=x.pos)

    def player(self, x) -> ir.Node:
        o = self.owner(x)
        if isinstance(o, ir.GameOwner):
            raise self.fail("expected a player, found 'game'", x)
        return o

    # ------------------------------------------------------------ storages
    def storage_kind(self, x) -> str | None:
        if isinstance(x, SList) and len(x.items) == 3 and self.kw(x.items[1], *STORAGE_KINDS):
            return x.items[1].text
        return None

    def int_storage(self, x) -> ir.IntStorage:
        if self.storage_kind(x) != "sto":
            raise self.fail("expected an integer storage (OWNER sto NAME)", x)
        return ir.IntStorage(self.owner(x.items[0]), self.str_(x.items[2]), pos=x.pos)

    def str_storage(self, x) -> ir.StrStorage:
        return ir.StrStorage(self.owner(x.items[0]), self.str_(x.items[2]), pos=x.pos)

    def points(self, x) -> ir.PointsRef:
        """`(OWNER points NAME)`."""
        if self.storage_kind(x) != "points":
            raise self.fail("expected a point map (OWNER points NAME)", x)
        return ir.PointsRef(self.owner(x.items[0]), self.str_(x.items[2]), pos=x.pos)

    def using(self, x: SList, n: int, what: str) -> tuple[list, ir.PointsRef]:
        """Arguments of a `(... using POINTS)` form: the n before `using`, and the point map."""
        it = x.items[1:]
        k = next((i for i, a in enumerate(it) if self.kw(a, "using")), None)
        if k is None or k != len(it) - 2:
            raise self.fail(f"'{what}' ends with 'using POINTS'", x)
        before = self.join_runs(it[:k], n)
        if len(before) != n:
            raise self.fail(f"'{what}' takes {n} argument{'s' if n != 1 else ''} before 'using'", x)
        return before, self.points(it[-1])

    # ------------------------------------------------------------ values
    def value(self, x) -> ir.Node:
        """Any typed value (declare, let, comparisons): read by its form."""
        if isinstance(x, Atom):
            if x.kind == "int":
                return ir.IntLit(int(x.text), pos=x.pos)
            if x.kind == "name":
                return ir.Name(x.text, pos=x.pos)
            if x.kind == "var":
                return ir.Var(x.text, pos=x.pos)
            if self.kw(x, "player", "team"):
                return ir.AllOf(x.text, pos=x.pos)
            if self.kw(x, "game"):
                return ir.GameOwner(pos=x.pos)
            raise self.fail(f"unexpected {x.text!r}", x)
        h = self.head(x)
        if h in ("and", "or", "not") or h in COMPARE:
            return self.bool_(x)
        if h in ("cardatt",) or self.storage_kind(x) == "str":
            return self.str_(x)
        if h in ARITH or h in ("size", "tri", "fib", "random", "sum", "score") or self.storage_kind(x) == "sto":
            return self.int_(x)
        if h in ("max", "min", "actual"):
            return self.card(x)
        if h in ("top", "bottom"):
            if len(x.items) == 2 and self.head(x.items[1]) not in MEMSETS:
                return self.card(x)
            return self.cards(x)
        if h in ("owner", "team") or (len(x.items) == 2 and self.kw(x.items[1], "player", "team")):
            return self.owner(x)
        if h == "let":
            raise self.fail("'let' cannot be used as a value here", x)
        if self.storage_kind(x) == "points":
            return self.points(x)
        if len(x.items) == 2 and not isinstance(x.items[0], SList) and self.head(x) is None \
                and not (isinstance(x.items[0], Atom) and x.items[0].kind == "name"):
            return self.card(x)  # (N CARDS): the N-th card
        return self.coll(x)

    def int_(self, x) -> ir.Node:
        """An integer expression."""
        if isinstance(x, Atom):
            if x.kind == "int":
                return ir.IntLit(int(x.text), pos=x.pos)
            if x.kind == "var":
                return ir.Var(x.text, pos=x.pos)
            raise self.fail(f"expected an integer, found {x.text!r}", x)
        h = self.head(x)
        if h in ARITH:
            a, b = self.args(x, 2, h)
            return ir.Arith(h, self.int_(a), self.int_(b), pos=x.pos)
        if h in ("tri", "fib"):
            self.check_keyword(x.items[0])
            cls = ir.Tri if h == "tri" else ir.Fib
            return cls(self.int_(self.args(x, 1, h)[0]), pos=x.pos)
        if h == "random":
            self.check_keyword(x.items[0])
            it = self.join_runs(x.items[1:], 3 if len(x.items) > 2 else 1)
            if len(it) == 1:
                return ir.Random(ir.IntLit(0, pos=x.pos), self.int_(it[0]), pos=x.pos)
            if len(it) == 3 and isinstance(it[1], Atom) and it[1].text == "..":
                return ir.Random(self.int_(it[0]), self.int_(it[2]), pos=x.pos)
            raise self.fail("'random' is (random HI) or (random LO .. HI)", x)
        if h == "size":
            return ir.Size(self.coll(self.args(x, 1, "size")[0]), pos=x.pos)
        if h == "sum":
            (c,), p = self.using(x, 1, "sum")
            return ir.Sum(self.cards(c), p, pos=x.pos)
        if h == "score":
            (c,), p = self.using(x, 1, "score")
            return ir.Score(self.card(c), p, pos=x.pos)
        if self.storage_kind(x) == "sto":
            return self.int_storage(x)
        return self.value(x)  # let check report the type clash with a precise message

    def str_(self, x) -> ir.Node:
        """A string: literal name, string storage, card attribute or variable."""
        if isinstance(x, Atom):
            if x.kind == "name":
                return ir.Name(x.text, pos=x.pos)
            if x.kind == "var":
                return ir.Var(x.text, pos=x.pos)
            if x.kind == "int":
                return ir.IntLit(int(x.text), pos=x.pos)
            raise self.fail(f"expected a name, found {x.text!r}", x)
        if self.head(x) == "cardatt":
            a, c = self.args(x, 2, "cardatt")
            return ir.CardAtt(self.str_(a), self.card(c), pos=x.pos)
        if self.storage_kind(x) == "str":
            return self.str_storage(x)
        return self.value(x)

    def card(self, x) -> ir.Node:
        """A single card."""
        if isinstance(x, Atom):
            if x.kind == "var":
                return ir.Var(x.text, pos=x.pos)
            return self.value(x)
        h = self.head(x)
        if h in ("top", "bottom"):
            if len(x.items) != 2:
                raise self.fail(f"expected one card ({h} CARDS), found a sequence", x)
            return ir.CardAt(h, self.cards(x.items[1]), pos=x.pos)
        if h in ("max", "min"):
            (c,), p = self.using(x, 1, h)
            return ir.Extreme(h, self.cards(c), p, pos=x.pos)
        if h == "actual":
            return ir.Actual(self.card(self.args(x, 1, "actual")[0]), pos=x.pos)
        if h is None and len(x.items) == 2 and not self.kw(x.items[1], "player", "team"):
            return ir.CardAt(self.int_(x.items[0]), self.cards(x.items[1]), pos=x.pos)
        return self.value(x)

    def cards(self, x) -> ir.Node:
        """A card collection (location, set operation, filter, ...)."""
        if isinstance(x, Atom):
            if x.kind == "var":
                return ir.Var(x.text, pos=x.pos)
            return self.value(x)
        h = self.head(x)
        if h is not None:
            self.check_keyword(x.items[0]) if x.items[0].kind == "kw" else None
        if h in ("union", "intersect", "disjunction"):
            return ir.SetOp(h, tuple(self.cards_arg(a) for a in x.items[1:]), pos=x.pos)
        if h == "sort":
            (c,), p = self.using(x, 1, "sort")
            return ir.Sort(self.cards(c), p, pos=x.pos)
        if h == "filter":
            c, v, b = self.args(x, 3, "filter")
            return ir.Filter(self.coll(c), self.var(v), self.bool_(b), pos=x.pos)
        if h in ("top", "bottom"):
            if len(x.items) == 3:
                return ir.Sequence(h, self.int_(x.items[1]), self.cards(x.items[2]), pos=x.pos)
            return ir.MemberOf(h, self.coll(self.args(x, 1, h)[0]), pos=x.pos)
        if h == "run":
            it = x.items
            if len(it) != 6 or not self.kw(it[1], "top", "bottom") or not self.kw(it[4], "using"):
                raise self.fail("expected (run top|bottom N CARDS using POINTS)", x)
            return ir.RunSequence(it[1].text, self.int_(it[2]), self.cards(it[3]), self.points(it[5]), pos=x.pos)
        k = self.storage_kind(x)
        if k in VIS:
            self.check_keyword(x.items[1])
            n = x.items[2]
            name = "new" if self.kw(n, "new") else self.str_(n)
            return ir.Location(self.owner(x.items[0]), k, name, pos=x.pos)
        if h is None and len(x.items) == 2 and isinstance(x.items[1], SList) and self.head(x.items[1]) in MEMSETS:
            return ir.MemberOf(self.int_(x.items[0]), self.coll(x.items[1]), pos=x.pos)
        return self.coll(x)

    def cards_arg(self, x) -> ir.Node:
        """An argument of union/intersect/disjunction/partition: cards, or `(all COLL 'V CARDS)`."""
        if self.head(x) == "all":
            c, v, b = self.args(x, 3, "all")
            return ir.AggCards(self.coll(c), self.var(v), self.cards(b), pos=x.pos)
        return self.cards(x)

    def coll(self, x) -> ir.Node:
        """Any collection: cards, players, teams, names, ranges, collections of card collections."""
        if isinstance(x, Atom):
            if self.kw(x, "player", "team"):
                return ir.AllOf(x.text, pos=x.pos)
            if x.kind == "var":
                return ir.Var(x.text, pos=x.pos)
            raise self.fail(f"expected a collection, found {x.text!r}", x)
        h = self.head(x)
        if h == "other":
            k = self.args(x, 1, "other")[0]
            if not self.kw(k, "player", "team"):
                raise self.fail("expected (other player) or (other team)", x)
            return ir.Other(k.text, pos=x.pos)
        if h == "range":
            it = self.join_runs(x.items[1:], 3)
            if len(it) != 3 or not (isinstance(it[1], Atom) and it[1].text == ".."):
                raise self.fail("expected (range LO .. HI)", x)
            return ir.Range(self.int_(it[0]), self.int_(it[2]), pos=x.pos)
        if h == "tuples":
            (n, c), p = self.using(x, 2, "tuples")
            return ir.Tuples(self.int_(n), self.cards(c), p, pos=x.pos)
        if h == "subsets":
            self.check_keyword(x.items[0])
            return ir.Subsets(self.cards(self.args(x, 1, "subsets")[0]), pos=x.pos)
        if h == "runs":
            self.check_keyword(x.items[0])
            it = x.items
            if len(it) != 6 or not self.kw(it[1], "largest", "all") or not self.kw(it[4], "using"):
                raise self.fail("expected (runs largest|all N CARDS using POINTS)", x)
            return ir.Runs(it[1].text, self.int_(it[2]), self.cards(it[3]), self.points(it[5]), pos=x.pos)
        if h == "partition":
            return self.partition(x)
        if h == "all":
            return self.cards_arg(x)
        if h is None and x.items and all(isinstance(a, Atom) and (a.kind in ("name",) or a.text == ",") for a in x.items):
            return ir.NameList(tuple(a.text for a in self.comma_list(x, "name")), pos=x.pos)
        if len(x.items) == 2 and self.kw(x.items[1], "team"):
            return self.who(x)
        if h in ("union", "intersect", "disjunction", "sort", "filter", "top", "bottom", "run") or self.storage_kind(x) in VIS:
            return self.cards(x)
        if h is None and len(x.items) == 2 and isinstance(x.items[1], SList) and self.head(x.items[1]) in MEMSETS:
            return self.cards(x)
        raise self.fail(f"expected a collection, found {self._describe(x)}", x)

    def partition(self, x: SList) -> ir.Partition:
        it = x.items[1:]
        if len(it) < 2:
            raise self.fail("expected (partition ATTRIBUTE CARDS ...)", x)
        if isinstance(it[-1], Atom) and it[-1].kind == "name" and isinstance(it[0], SList):
            attr, srcs = it[-1], it[:-1]  # v0.5.0 order: sources first
        else:
            attr, srcs = it[0], it[1:]
        return ir.Partition(self.str_(attr), tuple(self.cards_arg(s) for s in srcs), pos=x.pos)

    def bool_(self, x) -> ir.Node:
        """A condition."""
        h = self.head(x)
        if h in ("and", "or"):
            if len(x.items) < 3:
                raise self.fail(f"'{h}' needs at least two conditions", x)
            return ir.BoolOp(h, tuple(self.bool_(a) for a in x.items[1:]), pos=x.pos)
        if h == "not":
            return ir.Not(self.bool_(self.args(x, 1, "not")[0]), pos=x.pos)
        if h in COMPARE:
            a, b = self.args(x, 2, h)
            return ir.Compare(h, self.value(a), self.value(b), pos=x.pos)
        if h in ("all", "any"):
            c, v, b = self.args(x, 3, h)
            return ir.Quantified(h, self.coll(c), self.var(v), self.bool_(b), pos=x.pos)
        raise self.fail(f"expected a condition (and/or/not/comparison/all/any), found {self._describe(x)}", x)

    def _describe(self, x) -> str:
        h = self.head(x)
        return f"'({h} ...)'" if h else repr(x)[:60]
