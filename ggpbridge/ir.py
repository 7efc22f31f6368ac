"""The one intermediate representation of a card game, shared by every front-end.

Frozen dataclasses, one per construct. Each node carries its source position in
`pos`, which takes no part in equality: two games are equal when their rules are,
wherever they were written. Dialect details never reach this level: v0.3's
`((all player) ...)` becomes an explicit quantifier, `where` becomes `Filter`,
`initialize points` becomes `SetPoints`, move counts become `Repeat`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Union

from .errors import NOPOS, Pos


def _pos() -> Pos:
    return field(default=NOPOS, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Node:
    """Base of every IR node."""

    pos: Pos = _pos()

    def children(self):
        """Direct sub-nodes, in field order (tuples are flattened)."""
        for f in fields(self):
            if f.name == "pos":
                continue
            v = getattr(self, f.name)
            if isinstance(v, Node):
                yield v
            elif isinstance(v, tuple):
                for x in v:
                    if isinstance(x, Node):
                        yield x
                    elif isinstance(x, tuple):
                        yield from (y for y in x if isinstance(y, Node))

    def walk(self):
        """This node and all nodes below it, depth first, in source order."""
        stack = [self]
        while stack:
            n = stack.pop()
            yield n
            stack.extend(reversed(list(n.children())))


def node(cls):
    """Declare an IR node class: frozen, slotted dataclass."""
    return dataclass(frozen=True, slots=True)(cls)


# ---------------------------------------------------------------- variables
@node
class Var(Node):
    """A variable reference `'NAME` (its type comes from its binder)."""

    name: str


# ---------------------------------------------------------------- owners, players, teams
@node
class GameOwner(Node):
    """The table: `game`."""


@node
class PlayerRef(Node):
    """`(current|next|previous|N player)`: a player relative to the innermost player cycle, or by index."""

    which: Union[str, "IntExpr"]


@node
class TeamRef(Node):
    """`(current|next|previous|N team)`."""

    which: Union[str, "IntExpr"]


@node
class OwnerOf(Node):
    """`(owner CARD)`: the player whose location holds the card."""

    card: "CardExpr"


@node
class TeamOf(Node):
    """`(team PLAYER)`: the team a player belongs to."""

    player: "PlayerExpr"


# ---------------------------------------------------------------- strings
@node
class Name(Node):
    """A literal name (card attribute value, storage key, location name)."""

    value: str


@node
class StrStorage(Node):
    """`(OWNER str KEY)`: a string storage bin."""

    owner: "OwnerExpr"
    key: "StrExpr"


@node
class CardAtt(Node):
    """`(cardatt ATTR CARD)`: the value of a card attribute."""

    attr: "StrExpr"
    card: "CardExpr"


# ---------------------------------------------------------------- integers
@node
class IntLit(Node):
    """An integer literal."""

    value: int


@node
class Arith(Node):
    """`(OP A B)` with OP one of + - * // % ^."""

    op: str
    left: "IntExpr"
    right: "IntExpr"


@node
class Tri(Node):
    """`(tri N)`: the N-th triangular number."""

    arg: "IntExpr"


@node
class Fib(Node):
    """`(fib N)`: the N-th Fibonacci number."""

    arg: "IntExpr"


@node
class Random(Node):
    """`(random HI)` (0..HI) or `(random LO .. HI)`, both inclusive: a chance event."""

    lo: "IntExpr"
    hi: "IntExpr"


@node
class Size(Node):
    """`(size COLLECTION)`."""

    coll: "CollExpr"


@node
class Sum(Node):
    """`(sum CARDS using POINTS)`."""

    cards: "CardsExpr"
    points: "PointsRef"


@node
class IntSum(Node):
    """v0.3's `(sum (OWNERS sto KEY))`: an integer summed over a collection of players or teams
    (`body` reads 'var; v0.5.10 has no such form)."""

    coll: "CollExpr"
    var: str
    body: "IntExpr"


@node
class Score(Node):
    """`(score CARD using POINTS)`."""

    card: "CardExpr"
    points: "PointsRef"


# the plays a PlayValue ranking may score (docs/gcardgame.md, decision 14)
PLAYS = ("straight flush", "four of a kind", "full house", "flush", "straight", "three of a kind", "two pairs",
         "one pair")
# a card whose rank score is ACE_HIGH also counts as 1 in a straight (the ace-low 1-2-3-4-5)
ACE_HIGH = 14


@node
class PlayValue(Node):
    """The best score of a ranking's plays (poker hands, `PLAYS`) found among the cards, any
    subset of them counting; with none, the highest card's score in `points` (0 with no card).

    `points` gives each card's rank: equal ranks make pairs, trips and quads, five consecutive
    ranks a straight (a rank ACE_HIGH also counts as 1); five cards of one `suit` attribute
    value make a flush. `ranking` is a tuple of (play name, IntExpr score) pairs. G_cardgame's
    `play` and `have <play>` (docs/gcardgame.md); RECYCLE text has no form for it."""

    cards: "CardsExpr"
    ranking: tuple
    points: "PointsRef"
    suit: "StrExpr"


@node
class IntStorage(Node):
    """`(OWNER sto KEY)`: an integer storage bin (0 until first set)."""

    owner: "OwnerExpr"
    key: "StrExpr"


@node
class BestSum(Node):
    """The best total of cards that may count one of two values (G_cardgame's `sum` over
    Blackjack's ace, docs/gcardgame.md decision 15): every card counts its `low` score;
    a card whose `high` score is larger is raised to it, smallest raise first, as long as
    the total stays at most `bound`. No RECYCLE text has it."""

    cards: "CardsExpr"
    low: "PointsRef"
    high: "PointsRef"
    bound: "IntExpr"


# ---------------------------------------------------------------- cards
@node
class CardAt(Node):
    """`(top|bottom|N CARDS)`: one card of a card collection."""

    where: Union[str, "IntExpr"]
    source: "CardsExpr"


@node
class Extreme(Node):
    """`(max|min CARDS using POINTS)`: the card of highest/lowest score."""

    kind: str
    source: "CardsExpr"
    points: "PointsRef"


@node
class Actual(Node):
    """`(actual CARD)`: the physical card behind a remembered (mem) copy."""

    card: "CardExpr"


# ---------------------------------------------------------------- card collections
@node
class Location(Node):
    """`(OWNER vloc|iloc|hloc|oloc|mem NAME)`: a card location."""

    owner: "OwnerExpr"
    vis: str
    name: Union["StrExpr", "IntExpr", str]


@node
class SetOp(Node):
    """`(union|intersect|disjunction CARDS...)`."""

    op: str
    args: tuple


@node
class AggCards(Node):
    """`(all COLL 'V CARDS)`: the per-element card collections, joined (inside set operations)."""

    coll: "CollExpr"
    var: str
    body: "CardsExpr"


@node
class Sort(Node):
    """`(sort CARDS using POINTS)`."""

    source: "CardsExpr"
    points: "PointsRef"


@node
class Filter(Node):
    """`(filter COLL 'V BOOL)`: the elements satisfying a condition."""

    coll: "CollExpr"
    var: str
    cond: "BoolExpr"


@node
class Sequence(Node):
    """`(top|bottom N CARDS)`: the first/last N cards."""

    end: str
    count: "IntExpr"
    source: "CardsExpr"


@node
class RunSequence(Node):
    """`(run top|bottom N CARDS using POINTS)`: the longest run touching the top/bottom."""

    end: str
    count: "IntExpr"
    source: "CardsExpr"
    points: "PointsRef"


@node
class MemberOf(Node):
    """`(top|bottom|N SETS)`: one card collection out of a collection of collections."""

    where: Union[str, "IntExpr"]
    source: "CollExpr"


# ---------------------------------------------------------------- other collections
@node
class NameList(Node):
    """`(A, B, C)`: a collection of names."""

    names: tuple


@node
class AllOf(Node):
    """`player` or `team`: every player / every team."""

    kind: str


@node
class Other(Node):
    """`(other player|team)`: everyone but the current one."""

    kind: str


@node
class Range(Node):
    """`(range LO .. HI)`, inclusive."""

    lo: "IntExpr"
    hi: "IntExpr"


@node
class Tuples(Node):
    """`(tuples N CARDS using POINTS)`: groups of N cards of equal score."""

    n: "IntExpr"
    source: "CardsExpr"
    points: "PointsRef"


@node
class Partition(Node):
    """`(partition ATTR CARDS...)`: the cards grouped by attribute value."""

    attr: "StrExpr"
    sources: tuple


@node
class Subsets(Node):
    """`(subsets CARDS)`: every subset."""

    source: "CardsExpr"


@node
class Runs(Node):
    """`(runs largest|all N CARDS using POINTS)`: runs of consecutive scores."""

    mode: str
    n: "IntExpr"
    source: "CardsExpr"
    points: "PointsRef"


# ---------------------------------------------------------------- point maps
@node
class PointsRef(Node):
    """`(OWNER points NAME)`: a point map (card -> score)."""

    owner: "OwnerExpr"
    name: "StrExpr"


@node
class Award(Node):
    """One entry of a point map: cards matching every (key, value) get `value` points."""

    conds: tuple  # of (StrExpr key, StrExpr value)
    value: "IntExpr"


# ---------------------------------------------------------------- booleans
@node
class BoolOp(Node):
    """`(and|or B B...)`."""

    op: str
    args: tuple


@node
class Not(Node):
    """`(not B)`."""

    arg: "BoolExpr"


@node
class Compare(Node):
    """`(OP A B)` with OP one of == != < > <= >=; operands of any value type."""

    op: str
    left: "Expr"
    right: "Expr"


@node
class Quantified(Node):
    """`(all|any COLL 'V B)`: a condition for every / for some element."""

    quant: str
    coll: "CollExpr"
    var: str
    cond: "BoolExpr"


@node
class TrueCond(Node):
    """v0.3's empty condition `()`."""


# ---------------------------------------------------------------- statements
@node
class Move(Node):
    """`(move CARD CARD)`."""

    src: "CardExpr"
    dst: "CardExpr"


@node
class Remember(Node):
    """`(remember CARD CARD)`: copy a card into a mem location."""

    src: "CardExpr"
    dst: "CardExpr"


@node
class Forget(Node):
    """`(forget CARD)`: drop a remembered copy."""

    card: "CardExpr"


@node
class Shuffle(Node):
    """`(shuffle CARDS)`: a chance event."""

    target: "CardsExpr"


@node
class Faro(Node):
    """`(shuffle faro A B)`: interleave two locations (deterministic)."""

    first: "CardsExpr"
    second: "CardsExpr"


@node
class SetInt(Node):
    """`(set STO INT)`."""

    target: IntStorage
    value: "IntExpr"


@node
class Inc(Node):
    """`(inc STO INT)`."""

    target: IntStorage
    value: "IntExpr"


@node
class Dec(Node):
    """`(dec STO INT)`."""

    target: IntStorage
    value: "IntExpr"


@node
class SetStr(Node):
    """`(set STR-STORAGE STR)`."""

    target: StrStorage
    value: "StrExpr"


@node
class SetPoints(Node):
    """`(set POINTS (AWARD...))`: define a point map."""

    target: PointsRef
    awards: tuple


@node
class CreateTeams(Node):
    """`(create teams (0, 2) (1, 3))`: each tuple a team of player indices."""

    teams: tuple


@node
class AttrNode(Node):
    """One node of a deck's attribute tree: names with shared sub-attributes."""

    names: tuple
    subs: tuple


@node
class Deck(Node):
    """`(deck ATTR...)`: one card per combination of attribute values, `copies` times."""

    attrs: tuple
    copies: int = 1


@node
class CreateDeck(Node):
    """`(create deck [NAME] LOCATION DECK)`."""

    name: Union["StrExpr", None]
    location: Location
    deck: Deck


@node
class Cycle(Node):
    """`(cycle next|current TARGET)`: TARGET is 'current', 'next', 'previous' or a player expression."""

    when: str
    target: Union[str, "PlayerExpr"]


@node
class TurnPass(Node):
    """`(turn pass)`: do nothing."""


@node
class Repeat(Node):
    """`(repeat N ACTION)`."""

    count: "IntExpr"
    body: "Stmt"


@node
class RepeatAll(Node):
    """`(repeat all (move|forget ...))`: once per card of the source's collection as it is
    when the repeat starts (`repeat_all_plan` gives its meaning in other constructs)."""

    body: "Stmt"


@node
class CondAct(Node):
    """`(COND BODY)` or a bare BODY (cond None): guarded statement."""

    cond: Union["BoolExpr", None]
    body: "Stmt"


@node
class ForAll(Node):
    """`(all COLL 'V BODY)` as a statement: run BODY for each element."""

    coll: "CollExpr"
    var: str
    body: "Stmt"


@node
class AnyOf(Node):
    """`(any COLL 'V BODY)` inside a choice: one option per element."""

    coll: "CollExpr"
    var: str
    body: "Stmt"


@node
class Let(Node):
    """`(let VALUE 'V BODY)`."""

    value: "Expr"
    var: str
    body: "Stmt"


@node
class Do(Node):
    """`(do (ITEM...))`: run each enabled item in order."""

    items: tuple


@node
class Choice(Node):
    """`(choice (OPTION...))`: the current player picks one enabled option."""

    options: tuple


@node
class Stage(Node):
    """`(stage player|team (end B) BODY...)`: loop until B, cycling the current player/team."""

    kind: str
    end: "BoolExpr"
    body: tuple


# ---------------------------------------------------------------- game
@node
class Declare(Node):
    """`(declare VALUE 'V)`: a game-wide constant a designer may override."""

    value: "Expr"
    var: str


@node
class Setup(Node):
    """`(setup (create players N) [teams] decks...)`."""

    players: "IntExpr"
    teams: Union[CreateTeams, None]
    decks: tuple


@node
class Scoring(Node):
    """`(scoring min|max INT)`: INT evaluated for each player."""

    mode: str
    value: "IntExpr"


@node
class Game(Node):
    """A whole game."""

    declares: tuple
    setup: Setup
    body: tuple
    scoring: Scoring


OwnerExpr = Union[GameOwner, PlayerRef, TeamRef, OwnerOf, TeamOf, Var]
PlayerExpr = Union[PlayerRef, OwnerOf, Var]
StrExpr = Union[Name, StrStorage, CardAtt, Var]
IntExpr = Union[IntLit, Arith, Tri, Fib, Random, Size, Sum, IntSum, Score, IntStorage, Var, BestSum]
CardExpr = Union[CardAt, Extreme, Actual, Var]
CardsExpr = Union[Location, SetOp, Sort, Filter, Sequence, RunSequence, MemberOf, Var]
CollExpr = Union[CardsExpr, NameList, AllOf, Other, Range, Tuples, Partition, Subsets, Runs, TeamRef, Var]
BoolExpr = Union[BoolOp, Not, Compare, Quantified, TrueCond]
Expr = Union[IntExpr, StrExpr, CardExpr, CollExpr, BoolExpr, OwnerExpr]
Stmt = Union[Move, Remember, Forget, Shuffle, Faro, SetInt, Inc, Dec, SetStr, SetPoints,
             CreateTeams, CreateDeck, Cycle, TurnPass, Repeat, RepeatAll, ForAll, AnyOf,
             Let, Do, Choice, Stage, CondAct]


def repeat_all_plan(n: RepeatAll) -> Node | None:
    """What `(repeat all (move|forget SRC ...))` means, written with other constructs; None
    when SRC is neither `(top|bottom|N COLLECTION)` nor `(max|min ...)`.

    CardStock counts the cards of SRC's collection when the repeat starts and runs the action
    that many times (docs/cardstock-semantics.md §3.4), so:
    * a location, or a variable's collection (which a move takes its card out of), is counted
      and read afresh by each move: `Repeat((size C), BODY)`;
    * any other collection (a filter, a union, a tuple, ...) would change as its cards move,
      so it is copied once and its cards are taken from the copy: `Let(C, V,
      Repeat((size V), BODY'))`, BODY' taking from `V` (CardStock gives every copy of the
      action its own snapshot, so that all copies move one card: a bug we do not follow);
    * `(max|min ...)` is a one-card collection: the action once.
    """
    body = n.body
    src = body.src if isinstance(body, Move) else body.card if isinstance(body, Forget) else None
    if isinstance(src, Extreme):
        return Repeat(IntLit(1, pos=n.pos), body, pos=n.pos)
    if not isinstance(src, CardAt):
        return None
    coll = src.source
    if isinstance(coll, (Location, Var)) or not isinstance(body, Move):
        return Repeat(Size(coll, pos=n.pos), body, pos=n.pos)
    var = f"repeat all@{n.pos.line}:{n.pos.col}"   # no RECYCLE variable can be spelt so
    copy = Var(var, pos=coll.pos)
    move = Move(CardAt(src.where, copy, pos=src.pos), body.dst, pos=body.pos)
    return Let(coll, var, Repeat(Size(copy, pos=n.pos), move, pos=n.pos), pos=n.pos)
