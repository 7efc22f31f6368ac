"""The CONDITION language of `query GAME exists --where`: parsing, names resolved against the game,
and the meaning of a condition over one play (the explicit engine and replay progress it state by state).

A condition speaks of a play's sequence of states (docs/query.md, "exists"): atoms are read in
one state, temporal operators range over the states from there to the end of the play. The
states of a play are its *observation points*: the initial state, the state before each step
(a decision or a chance outcome) and the final state. The grammar is where.lark.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import lark

from ..errors import Pos, PositionedError, Source

OPS = ("==", "!=", "<=", ">=", "<", ">")


class ConditionError(PositionedError):
    """A condition that does not parse, or names something the game does not have."""


# ---------------------------------------------------------------- the formula
@dataclass(frozen=True)
class Num:
    value: int


@dataclass(frozen=True)
class Size:
    slot: int      # the simulator's location slot
    owner: int     # the simulator's owner column: 0 the game, 1 + k player k
    vis: str
    name: str


@dataclass(frozen=True)
class Count:
    where: Size
    cards: frozenset   # card ids having every attribute value asked for


@dataclass(frozen=True)
class Sto:
    slot: int | None   # None: a storage the game never writes (always 0)
    owner: int
    name: str


@dataclass(frozen=True)
class Score:
    """A player's score by the game's own scoring expression, in the state read."""
    player: int


@dataclass(frozen=True)
class StrSto:
    """A name storage (`str`): compared with a value name only."""
    slot: int
    owner: int
    name: str


@dataclass(frozen=True)
class Word:
    """A value name a name storage is compared with (upper case: names match without regard to case)."""
    text: str


@dataclass(frozen=True)
class StrIs:
    """A name storage holds the value `word` (an unset storage holds none)."""
    sto: StrSto
    word: Word


class ScoreUndefined(Exception):
    """The game's scoring expression has no value in a state where a condition reads `score`."""


@dataclass(frozen=True)
class Arith:
    op: str        # + or -
    left: object
    right: object


@dataclass(frozen=True)
class Compare:
    op: str
    left: object
    right: object


@dataclass(frozen=True)
class Wins:
    player: int


@dataclass(frozen=True)
class Over:
    pass


@dataclass(frozen=True)
class Const:
    value: bool


@dataclass(frozen=True)
class Not:
    arg: object


@dataclass(frozen=True)
class And:
    left: object
    right: object


@dataclass(frozen=True)
class Or:
    left: object
    right: object


@dataclass(frozen=True)
class Next:
    """The next observation point exists and the argument holds there (strong next)."""
    arg: object


@dataclass(frozen=True)
class Eventually:
    arg: object


@dataclass(frozen=True)
class Always:
    arg: object


@dataclass(frozen=True)
class AtEnd:
    arg: object


@dataclass(frozen=True)
class Until:
    """`left` holds at every point until one where `right` holds (which must come)."""
    left: object
    right: object


TRUE, FALSE = Const(True), Const(False)


@dataclass(frozen=True)
class Condition:
    """A parsed and resolved condition: its text and its formula."""
    text: str
    formula: object


# ---------------------------------------------------------------- parsing
@lru_cache(maxsize=1)
def _parser() -> lark.Lark:
    grammar = (Path(__file__).with_name("where.lark")).read_text(encoding="utf-8")
    return lark.Lark(grammar, parser="lalr", propagate_positions=True)


@dataclass
class Names:
    """What a condition may name in one game: from the simulator's layout."""
    nplayers: int
    locations: dict       # (vis, name) -> slot
    storages: dict        # name -> slot
    values: dict          # attribute value (upper case) -> frozenset of card ids
    strings: dict = None  # name storage (`str`) -> slot
    owners: dict = None   # (vis, name) of a location, (kind, name) of a storage -> its owners: game, player, team

    @classmethod
    def of(cls, lay, game=None) -> "Names":
        """The names of a compiled game (`Program.lay`); with its IR, `game`, also who owns each
        location and storage, so that a condition naming one under another owner is an error."""
        values: dict = {}
        for (attr, value), cards in lay.attr_index.items():
            if isinstance(value, str):
                values.setdefault(value.upper(), set()).update(cards)
        owners = None
        if game is not None:
            from ..recycle.check import analyse
            chk = analyse(game)
            owners = {}
            for o, kind, name in (*chk.locations, *chk.storages):
                owners.setdefault((kind, name), set()).add(o)
        return cls(lay.n, dict(lay.loc_slots), dict(lay.sto_slots),
                   {k: frozenset(v) for k, v in values.items()}, dict(lay.str_slots), owners)


def parse(text: str, names: Names, origin: str = "--where") -> Condition:
    """Parse and resolve a condition; a ConditionError (positioned, with a caret) when it is bad."""
    src = Source(origin, text)
    try:
        tree = _parser().parse(text)
    except lark.UnexpectedCharacters as e:
        raise ConditionError(f"unexpected character {text[e.pos_in_stream]!r}", Pos(e.line, e.column), src) from None
    except lark.UnexpectedToken as e:
        if e.token.type == "$END":
            raise ConditionError("the condition ends too early (expected " + _expected(e.expected) + ")",
                                 _end_pos(text), src) from None
        raise ConditionError(f"unexpected {e.token.value!r} (expected {_expected(e.expected)})",
                             Pos(e.line, e.column), src) from None
    except lark.UnexpectedInput as e:   # any other parse failure still has a position
        raise ConditionError(str(e).splitlines()[0], Pos(getattr(e, "line", 1), getattr(e, "column", 1)),
                             src) from None
    return Condition(text, _Resolve(names, src).formula(tree))


def _expected(terminals) -> str:
    words = {"NAME": "a name", "INT": "a number", "CMP": "a comparison (== != < <= > >=)", "LPAR": "(",
             "RPAR": ")", "COMMA": ",", "PLUS": "+", "MINUS": "-"}
    shown = sorted({words.get(t, t.lower().strip("_")) for t in terminals})
    return ", ".join(shown[:8]) + (", ..." if len(shown) > 8 else "")


def _end_pos(text: str) -> Pos:
    lines = text.split("\n")
    return Pos(len(lines), len(lines[-1]) + 1)


class _Resolve:
    """The parse tree to a formula, every name checked against the game."""

    def __init__(self, names: Names, src: Source):
        self.n, self.src = names, src
        self.env: dict = {}   # player variables of `some player P:` / `every player P:` -> seat

    def fail(self, msg: str, node) -> None:
        meta = getattr(node, "meta", None)
        pos = Pos(node.line, node.column) if isinstance(node, lark.Token) else \
            Pos(meta.line, meta.column) if meta is not None and not meta.empty else Pos(1, 1)
        raise ConditionError(msg, pos, self.src)

    def unknown(self, what: str, token, choices) -> None:
        choices = sorted(set(choices))
        near = difflib.get_close_matches(str(token), choices, n=1)
        hint = f"; did you mean {near[0]}?" if near else ""
        self.fail(f"unknown {what} {str(token)!r}{hint} (the game has: {', '.join(choices) or 'none'})", token)

    # -- formulas
    def formula(self, t):
        k = t.data
        if k in ("or_", "and_"):
            a, b = (self.formula(c) for c in t.children)
            return Or(a, b) if k == "or_" else And(a, b)
        if k == "before":
            # some point where the first holds, and the second at none up to it
            a, b = (self.formula(c) for c in t.children)
            return Until(Not(b), And(a, Not(b)))
        if k == "after":
            # the first holds at some point strictly after one where the second holds
            a, b = (self.formula(c) for c in t.children)
            return Eventually(And(b, Next(Eventually(a))))
        if k in ("not_", "eventually", "always", "at_end"):
            arg = self.formula(t.children[0])
            return {"not_": Not, "eventually": Eventually, "always": Always, "at_end": AtEnd}[k](arg)
        if k == "at_step":
            f = self.formula(t.children[1])
            for _ in range(int(t.children[0])):
                f = Next(f)
            return f
        if k in ("some", "every"):
            # expanded over the seats: one copy of the body per player, joined by or / and
            var, body = t.children
            if str(var).lower() in ("game", "table") or self._seat(str(var)) is not None:
                self.fail(f"{str(var)!r} names an owner already: choose another variable name", var)
            parts = []
            for k_ in range(self.n.nplayers):
                outer = self.env.get(str(var))
                self.env[str(var)] = k_
                parts.append(self.formula(body))
                if outer is None:
                    del self.env[str(var)]
                else:
                    self.env[str(var)] = outer
            out = parts[0]
            for f in parts[1:]:
                out = Or(out, f) if k == "some" else And(out, f)
            return out
        if k == "compare":
            left, op, right = t.children
            return Compare(str(op), self.expr(left), self.expr(right))
        if k == "text_compare":
            return self.text_compare(*t.children)
        if k == "wins":
            return Wins(self.player(t.children[0]))
        if k == "over":
            return Over()
        if k in ("true", "false"):
            return Const(k == "true")
        if k == "has":
            return Compare(">=", self.count(t.children[0], t.children[1]), Num(1))
        self.fail(f"{k} is not a condition (compare it with a number: {k}(...) > 0)", t)

    # -- integer expressions
    def expr(self, t):
        if isinstance(t, lark.Token):
            if t.type == "INT":
                return Num(int(t))
            self.fail(f"{t!r} is not a number", t)
        k = t.data
        if k == "num":
            return Num(int(t.children[0]))
        if k in ("add", "sub"):
            return Arith("+" if k == "add" else "-", self.expr(t.children[0]), self.expr(t.children[1]))
        if k == "size":
            return self.place(t.children[0])
        if k == "count":
            return self.count(t.children[0], t.children[1])
        if k == "sto":
            got = self.storage(*t.children)
            if isinstance(got, StrSto):
                self.fail(f"{got.name} is a name storage (str): compare it with a value name, "
                          f"sto(... {got.name}) == NAME, not with a number", t)
            return got
        if k == "score":
            return Score(self.player(t.children[0]))
        self.fail("a condition where a number is expected (size, count, sto, score or a number)", t)

    def text_compare(self, left, op, word):
        """`sto(OWNER NAME) == VALUE` (or !=): a name storage (`str`) and a value name."""
        sto = self.storage(*left.children) if isinstance(left, lark.Tree) and left.data == "sto" else None
        if not isinstance(sto, StrSto):
            self.fail(f"{str(word)!r} is a name: only a name storage (str) is compared with a name, "
                      f"as in sto(game LEADSUIT) == HEARTS", word)
        if str(op) not in ("==", "!="):
            self.fail(f"names are compared with == or != only, not {op}", op)
        f = StrIs(sto, Word(str(word).upper()))
        return f if str(op) == "==" else Not(f)

    def count(self, place, card) -> Count:
        where = self.place(place)
        cards = None
        for tok in (card.children if card is not None else ()):
            have = self.n.values.get(str(tok).upper())
            if have is None:
                self.unknown("card attribute value", tok, self.n.values)
            cards = have if cards is None else cards & have
        every = frozenset().union(*self.n.values.values()) if self.n.values else frozenset()
        return Count(where, every if cards is None else cards)

    def place(self, t) -> Size:
        owner_tok, *rest = t.children
        owner = self.owner(owner_tok)
        if len(rest) == 2:
            vis_tok, name_tok = rest
            vis = str(vis_tok).lower()
            key = self._loc(vis, name_tok)
            if key is None:
                kinds = sorted({v for v, _ in self.n.locations})
                if vis not in kinds:
                    self.unknown("location kind", vis_tok, kinds)
                self.unknown(f"{vis} location", name_tok, [nm for v, nm in self.n.locations if v == vis])
        else:
            name_tok = rest[0]
            matches = [k for k in self.n.locations if str(k[1]).upper() == str(name_tok).upper()]
            if not matches:
                self.unknown("location", name_tok, [nm for _, nm in self.n.locations])
            if len({k for k in matches}) > 1:
                self.fail(f"location {str(name_tok)!r} is ambiguous: say which, "
                          f"{' or '.join(f'{v} {nm}' for v, nm in sorted(matches))}", name_tok)
            key = matches[0]
        self._owned(owner, owner_tok, key, "location")
        return Size(self.n.locations[key], owner, key[0], key[1])

    def _owned(self, owner: int, owner_tok, key: tuple, what: str) -> None:
        """The owner named holds the location or storage `key`: `player0 GATHERED` for the game's
        GATHERED would read a place that is always empty (a storage always 0)."""
        kinds = (self.n.owners or {}).get(key)
        asked = "game" if owner == 0 else "player"
        if not kinds or None in kinds or asked in kinds:
            return
        holder = "the game's" if "game" in kinds else "each player's" if "player" in kinds else "each team's"
        fix = f": write game {key[1]}" if "game" in kinds else \
            f": write player0 {key[1]} (or another player)" if "player" in kinds else ""
        self.fail(f"{key[1]} is {holder} {what}, not {'the game' if owner == 0 else owner_tok}'s{fix}", owner_tok)

    def _loc(self, vis, name_tok):
        for k in self.n.locations:
            if k[0] == vis and str(k[1]).upper() == str(name_tok).upper():
                return k
        return None

    def storage(self, owner_tok, name_tok) -> Sto:
        owner = self.owner(owner_tok)
        for nm, slot in self.n.storages.items():
            if str(nm).upper() == str(name_tok).upper():
                self._owned(owner, owner_tok, ("sto", nm), "storage")
                return Sto(slot, owner, nm)
        for nm, slot in (self.n.strings or {}).items():
            if str(nm).upper() == str(name_tok).upper():
                self._owned(owner, owner_tok, ("str", nm), "storage")
                return StrSto(slot, owner, nm)
        self.unknown("storage", name_tok, list(self.n.storages) + list(self.n.strings or {}))

    def owner(self, tok) -> int:
        s = str(tok).lower()
        if s in ("game", "table"):
            return 0
        return 1 + self.player(tok)

    def player(self, tok) -> int:
        if str(tok) in self.env:
            return self.env[str(tok)]
        k = self._seat(str(tok))
        if k is None:
            self.unknown("player", tok, [f"player{k}" for k in range(self.n.nplayers)] + sorted(self.env))
        if k >= self.n.nplayers:
            self.fail(f"the game has players 0..{self.n.nplayers - 1}, not {str(tok)!r}", tok)
        return k

    @staticmethod
    def _seat(text: str) -> int | None:
        s = text.lower()
        for prefix in ("player", "p"):
            if s.startswith(prefix) and s[len(prefix):].isdigit():
                return int(s[len(prefix):])
        return None


def parts(x):
    """Every formula and expression node under `x`, `x` included."""
    yield x
    for v in vars(x).values() if hasattr(x, "__dataclass_fields__") else ():
        if hasattr(v, "__dataclass_fields__"):
            yield from parts(v)


def score_read_mid_play(f) -> bool:
    """Whether `f` may read `score(...)` at a point other than the final one (outside `at end`)."""
    if isinstance(f, AtEnd):
        return False   # its argument is read at the final point only (`progress`)
    if isinstance(f, Score):
        return True
    return any(score_read_mid_play(v) for v in vars(f).values() if hasattr(v, "__dataclass_fields__"))


# ---------------------------------------------------------------- meaning over a play
def value(e, data, scores=None) -> int:
    """An integer expression in one state's data (`State.data` of the stepwise machine).

    `scores()` gives every player's score in that state, or None where the game's scoring
    expression has no value there (then `score(...)` raises ScoreUndefined)."""
    if isinstance(e, Num):
        return e.value
    if isinstance(e, Arith):
        a, b = value(e.left, data, scores), value(e.right, data, scores)
        return a + b if e.op == "+" else a - b
    if isinstance(e, Score):
        got = scores() if scores is not None else None
        if got is None:
            raise ScoreUndefined("the game's scoring expression has no value in a state where score(...) is read")
        return got[e.player]
    if isinstance(e, Size):
        return len(_cards(data, e))
    if isinstance(e, Count):
        return sum(1 for c in _cards(data, e.where) if c in e.cards)
    if isinstance(e, Sto):
        rows = data[1]
        if e.slot is None or e.slot >= len(rows):
            return 0
        return rows[e.slot][e.owner]
    raise TypeError(f"not an expression: {e!r}")


def _cards(data, loc: Size):
    rows = data[0]
    if loc.slot >= len(rows) or rows[loc.slot] is None:
        return ()
    return rows[loc.slot][loc.owner] or ()


def _compare(op: str, a: int, b: int) -> bool:
    return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def atom_holds(f, data, winners, scores=None) -> bool:
    """An atom in one state: `winners` is the tuple of winners at the end of the play, else None;
    `scores` as for `value`."""
    if isinstance(f, Compare):
        return _compare(f.op, value(f.left, data, scores), value(f.right, data, scores))
    if isinstance(f, StrIs):
        rows = data[2]
        held = rows[f.sto.slot][f.sto.owner] if f.sto.slot < len(rows) else ""
        return str(held).upper() == f.word.text
    if isinstance(f, Wins):
        return winners is not None and f.player in winners
    if isinstance(f, Over):
        return winners is not None
    raise TypeError(f"not an atom: {f!r}")


def progress(f, atom, last: bool):
    """What remains of `f` to hold over the rest of the play after the current point.

    `atom(a)` says whether an atom holds at the current point; `last`: it is the final one.
    The result is TRUE or FALSE at the last point (and whenever settled), else a residual
    formula to progress at the next point (formula progression on finite plays).
    """
    if isinstance(f, Const):
        return f
    if isinstance(f, Not):
        r = progress(f.arg, atom, last)
        return Const(not r.value) if isinstance(r, Const) else Not(r)
    if isinstance(f, (And, Or)):
        return _join(type(f), progress(f.left, atom, last), progress(f.right, atom, last))
    if isinstance(f, Next):
        return FALSE if last else f.arg
    if isinstance(f, Eventually):
        return _join(Or, progress(f.arg, atom, last), FALSE if last else f)
    if isinstance(f, Always):
        return _join(And, progress(f.arg, atom, last), TRUE if last else f)
    if isinstance(f, AtEnd):
        return progress(f.arg, atom, last) if last else f
    if isinstance(f, Until):
        return _join(Or, progress(f.right, atom, last),
                     _join(And, progress(f.left, atom, last), FALSE if last else f))
    return Const(atom(f))


def _join(kind, a, b):
    unit, zero = (TRUE, FALSE) if kind is And else (FALSE, TRUE)
    if a == zero or b == zero:
        return zero
    if a == unit:
        return b
    if b == unit or a == b:
        return a
    return kind(a, b)


def holds_on(f, points) -> bool:
    """Whether `f` holds on a whole play: `points` are (data, winners[, scores]) per observation point,
    the winners given at the final one only (None elsewhere), `scores` as for `value`."""
    r = f
    for i, (data, winners, *more) in enumerate(points):
        scores = more[0] if more else None
        last = i == len(points) - 1
        r = progress(r, lambda a: atom_holds(a, data, winners, scores), last)
        if r == FALSE:   # settled before the end: nothing later can revive it
            return False
    return r == TRUE
