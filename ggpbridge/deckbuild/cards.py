"""Playing cards as the deck-building games see them: suit, rank (its value), copy."""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

SUITS = "hcds"                      # the paper's order: hearts, clubs, diamonds, spades
SYMBOL = {"h": "♥", "c": "♣", "d": "♦", "s": "♠"}
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}


class Card(NamedTuple):
    """One card: `suit` in 'hcds', `rank` 1..13 (also its value), `copy` tells spare-deck copies apart."""

    suit: str
    rank: int
    copy: int = 0

    def __str__(self) -> str:
        return f"{RANK_TEXT.get(self.rank, str(self.rank))}{SYMBOL[self.suit]}"

    @property
    def term(self) -> str:
        """The card as a GDL constant: `c_h7_0`."""
        return f"c_{self.suit}{self.rank}_{self.copy}"


@lru_cache(maxsize=None)
def factors(value: int) -> tuple[int, ...]:
    """What a hand card of this value may stand for in RPN: its factors greater than one,
    itself included (only an ace is 1)."""
    if value == 1:
        return (1,)
    return tuple(f for f in range(2, value + 1) if value % f == 0)


def parse_card(text: str) -> Card:
    """`7h`, `Qs`, `10d`, `A♣` -> Card (copy 0); ValueError when it is not a card."""
    t = text.strip()
    if len(t) < 2:
        raise ValueError(f"{text!r} is not a card such as 7h or Q♠")
    rank_text, suit_text = t[:-1].upper(), t[-1]
    suit = {v: k for k, v in SYMBOL.items()}.get(suit_text, suit_text.lower())
    ranks = {v: k for k, v in RANK_TEXT.items()}
    if suit not in SUITS or not (rank_text in ranks or (rank_text.isdigit() and 1 <= int(rank_text) <= 13)):
        raise ValueError(f"{text!r} is not a card such as 7h or Q♠")
    return Card(suit, ranks.get(rank_text) or int(rank_text))
