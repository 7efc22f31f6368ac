"""The syntax tree of a G_cardgame (`.gcg`) file: frozen dataclasses with source positions.

This is the paper's language as written, before any lowering: one node per construct of
Tables 1-4. As in `ggpbridge.ir`, `pos` takes no part in equality. Restrictions are
normalised strings (`<`, `>`, `=`, `<=`, `>=`, `same suit`, `same number`); `≤`/`≥` are
read as `<=`/`>=`, and every spelling of λ becomes `None` or `Unconditional`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from ..errors import NOPOS, Pos


def _pos() -> Pos:
    return field(default=NOPOS, compare=False, repr=False, kw_only=True)


def node(cls):
    """Declare a syntax node class: frozen, slotted dataclass."""
    return dataclass(frozen=True, slots=True)(cls)


@node
class Node:
    """Base of every syntax node."""

    pos: Pos = _pos()


# ---------------------------------------------------------------- locations
@node
class CardLoc(Node):
    """A card location: kind 'H' (hand), 'D' (deck) or 'T' (table); `which` is a seat or
    table index, 'X' (current player), 'A' (all other players), or None for the deck."""

    kind: str
    which: Union[int, str, None]

    def __str__(self) -> str:
        return self.kind + ("" if self.which is None else str(self.which))


@node
class CardLocs(Node):
    """Card locations joined with `+` (`HX + T0`): their cards together."""

    parts: tuple

    def __str__(self) -> str:
        return " + ".join(map(str, self.parts))


@node
class TokenLoc(Node):
    """A token location `K<owner><slot>`: owner a seat, 'X' or 'A'; slot 0 (stash) or 1 (bet)."""

    owner: Union[int, str]
    slot: int

    def __str__(self) -> str:
        return f"K{self.owner}{self.slot}"


@node
class Number(Node):
    """A natural number where a location may also stand (`sum HX > 21`, `tokens KX0 > 0`)."""

    value: int

    def __str__(self) -> str:
        return str(self.value)


# ---------------------------------------------------------------- players
@node
class AllPlayers(Node):
    """`ALL` / `ALL PLAYERS`."""


@node
class SomePlayers(Node):
    """`player 1`, `players 0 and 1`, `players 0, 1 and 2`: seats in the order written."""

    seats: tuple


# ---------------------------------------------------------------- antecedents (Table 1)
@node
class Unconditional(Node):
    """λ: no condition (`unconditional`, `λ`, `lambda`)."""


@node
class Tokens(Node):
    """`tokens KA R KB`: compare two token amounts (either side may be a number)."""

    left: Union[TokenLoc, Number]
    op: str
    right: Union[TokenLoc, Number]


@node
class Play(Node):
    """`play LA R LB`: compare the plays of two card locations through the ranking."""

    left: CardLocs
    op: str
    right: CardLocs


@node
class SumCond(Node):
    """`sum LA R LB`: compare the sums of the cards' values (either side may be a number)."""

    left: Union[CardLocs, Number]
    op: str
    right: Union[CardLocs, Number]


@node
class Have(Node):
    """`have COMBINATION`: the current player's hand holds the combination."""

    combination: "Combination"


@node
class Draw(Node):
    """`draw`: a card is drawn from the deck into the current player's hand."""


@node
class Show(Node):
    """`show R LA`: a card of the hand satisfying R against the top card of LA."""

    rel: str
    loc: CardLocs


# ---------------------------------------------------------------- combinations (`have`)
@node
class EmptyCombo(Node):
    """λ as a combination: the hand is empty."""


@node
class CardCombo(Node):
    """`2 of diamonds`."""

    number: int
    suit: str


@node
class NumberCombo(Node):
    """`13`: some card of that number."""

    number: int


@node
class SuitCombo(Node):
    """`hearts`: some card of that suit."""

    suit: str


@node
class PlayCombo(Node):
    """`one pair`, `flush`, ...: a play of the ranking."""

    play: str


Combination = Union[EmptyCombo, CardCombo, NumberCombo, SuitCombo, PlayCombo]


# ---------------------------------------------------------------- consequents (Table 2a)
@node
class Pifr(Node):
    """`pifr LA*AMOUNT FACE`: take AMOUNT cards from LA into the current player's hand."""

    loc: CardLoc
    amount: int
    face: str


@node
class Puin(Node):
    """`puin LA*AMOUNT R FACE`: put AMOUNT hand cards satisfying R (None: λ) onto LA."""

    loc: CardLoc
    amount: int
    rel: Union[str, None]
    face: str


@node
class Bet(Node):
    """`bet R K`: move tokens from the stash to the bet; R None is λ (any amount), and
    `target` None is λ (no location)."""

    rel: Union[str, None]
    target: Union[TokenLoc, Number, None]


@node
class Gain(Node):
    """`gain K`: move every token of K into the current player's stash."""

    loc: TokenLoc


@node
class PlayIt(Node):
    """`playit`: put the cards the `show` antecedent chose onto its location."""


@node
class Status(Node):
    """`next`, `done` or `out`."""

    which: str


@node
class Win(Node):
    """`win`: the current player wins, the game ends."""


@node
class End(Node):
    """`end`: the game ends; the winning conditions decide."""


# ---------------------------------------------------------------- computer commands (Table 2b)
@node
class Deal(Node):
    """`com deal PLAYERS|L AMOUNT`: deal AMOUNT cards from the deck."""

    target: Union[AllPlayers, SomePlayers, CardLoc]
    amount: int


@node
class Give(Node):
    """`com give PLAYERS AMOUNT`: give AMOUNT tokens to each player's stash."""

    players: Union[AllPlayers, SomePlayers]
    amount: int


Antecedent = Union[Unconditional, Tokens, Play, SumCond, Have, Draw, Show]
Consequent = Union[Pifr, Puin, Bet, Gain, PlayIt, Status, Win, End, Deal, Give]


# ---------------------------------------------------------------- the game
@node
class Rule(Node):
    """One rule line. kind: 'com', 'mandatory', 'once' or 'optional'; a `com` rule has no
    antecedent (None)."""

    kind: str
    antecedent: Union[Antecedent, None]
    consequent: Consequent


@node
class Stage(Node):
    """`stage N (name)` and its rules, in file order."""

    index: int
    name: str
    rules: tuple


@node
class RankPlay(Node):
    """`straight flush 900`: a play of the ranking and its score."""

    play: str
    score: int


@node
class RankCard(Node):
    """`card 1 1 | 10`: a card number and its value(s)."""

    number: int
    values: tuple


@node
class Winning(Node):
    """The winning conditions: points per token, points for not being out."""

    per_token: int = 0
    not_out: int = 0


@node
class Axiom(Node):
    """`players N` or `tables N`."""

    name: str
    value: int


@node
class Game(Node):
    """A whole `.gcg` file. `players`/`tables` are None when the header lacks them (the
    checker reports it); the axioms keep their positions for messages."""

    axioms: tuple
    stages: tuple
    ranking: tuple
    winning: Union[Winning, None]

    def axiom(self, name: str) -> Union[int, None]:
        """The value of the last `players`/`tables` line, or None."""
        vals = [a.value for a in self.axioms if a.name == name]
        return vals[-1] if vals else None

    @property
    def players(self) -> Union[int, None]:
        """P, the number of players."""
        return self.axiom("players")

    @property
    def tables(self) -> Union[int, None]:
        """T, the number of table locations."""
        return self.axiom("tables")
