"""The moves of the deck-building games: `str` is the GDL term, `text` what a person reads."""
from __future__ import annotations

from dataclasses import dataclass

from .cards import Card


@dataclass(frozen=True)
class Pick:
    """Chance: the card drawn, dealt or turned up (decks are unordered: decision 3)."""

    card: Card

    def __str__(self) -> str:
        return f"(pick {self.card.term})"

    @property
    def text(self) -> str:
        return f"chance: {self.card}"


@dataclass(frozen=True)
class Buy:
    """Buy the top card of store stack `stack` with `cards` from hand; `expr` is one expression
    on them that makes its value (decision 7: one option per stack and card set)."""

    stack: int
    cards: tuple
    target: Card
    expr: str

    def __str__(self) -> str:
        # the target is the stack's top: naming it would multiply the ground moves by the cards
        return f"(buy{len(self.cards)} {self.stack} {' '.join(c.term for c in self.cards)})"

    @property
    def text(self) -> str:
        return f"buy {self.target} (stack {self.stack + 1}) with {self.expr} = {self.target.rank}"


@dataclass(frozen=True)
class Redraw:
    """RPN: discard an unplayed heart and draw a replacement from the deck (decision 14)."""

    heart: Card

    def __str__(self) -> str:
        return f"(redraw {self.heart.term})"

    @property
    def text(self) -> str:
        return f"discard {self.heart} to draw a card"


@dataclass(frozen=True)
class BankWith:
    """RPN: discard an unplayed club to bank another unplayed card (decision 15)."""

    club: Card
    card: Card

    def __str__(self) -> str:
        return f"(bankwith {self.club.term} {self.card.term})"

    @property
    def text(self) -> str:
        return f"discard {self.club} to bank {self.card}"


@dataclass(frozen=True)
class Discard:
    """Golomb, after a turn without play: discard one hand card (decision 20)."""

    card: Card

    def __str__(self) -> str:
        return f"(discard {self.card.term})"

    @property
    def text(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True)
class Bank:
    """Golomb, after a turn that played two to four cards: bank one hand card (decision 20)."""

    card: Card

    def __str__(self) -> str:
        return f"(bank {self.card.term})"

    @property
    def text(self) -> str:
        return f"bank {self.card}"


END, KEEP, NOOP = "end", "keep", "noop"


@dataclass(frozen=True)
class Power:
    """Section 5.4 (`kings=1`): discard a king from hand for its power. K♥: draw two; K♣: bank
    `cards` (one or two); K♦: take the top card of store stack `stack` into hand; K♠: move
    `cards[0]` from the discard pile of player `other` to one's own (docs/deckbuilding.md, 25)."""

    king: Card
    cards: tuple = ()
    stack: int = -1
    other: int = -1

    def __str__(self) -> str:
        return "(" + " ".join(["power", self.king.term, str(self.stack), str(self.other),
                               *(c.term for c in self.cards)]) + ")"

    @property
    def text(self) -> str:
        what = {"h": "draw two cards",
                "c": f"bank {' '.join(map(str, self.cards))}",
                "d": f"take the store's top of stack {self.stack + 1} into hand",
                "s": f"take {self.cards[0] if self.cards else ''} from player {self.other}'s discard pile"}
        return f"discard {self.king} to {what[self.king.suit]}"
