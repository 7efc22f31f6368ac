"""Section 5.4's kings with powers (`kings=1`), the paper's examples as written: discard K♥ to
draw two cards; K♣ to bank up to two hand cards; K♦ to take a store card into hand (playable
this turn); K♠ to move a card from an opponent's discard pile into one's own. A king's power
is one more option of the buying phase, in both games (docs/deckbuilding.md, decision 25)."""
from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from .moves import Power


def options(state) -> list[Power]:
    """The powers the mover's kings in hand offer now."""
    p = state.mover
    seat = state.seats[p]
    out: list[Power] = []
    for king in (c for c in seat.hand if c.rank == 13):
        others = [c for c in seat.hand if c != king]
        if king.suit == "h" and seat.deck:
            out.append(Power(king))
        elif king.suit == "c":
            out += [Power(king, (c,)) for c in others]
            out += [Power(king, pair) for pair in combinations(others, 2)]
        elif king.suit == "d":
            out += [Power(king, stack=k) for k, top in enumerate(state.tops) if top is not None]
        elif king.suit == "s":
            out += [Power(king, (c,), other=q) for q, other in enumerate(state.seats) if q != p for c in other.discard]
    return out


def apply(machine, state, move: Power):
    """The state after a power; K♦ turns up the stack's next card, or ends the game as a buy does."""
    p, seats = state.mover, list(state.seats)
    seat = seats[p]
    hand = tuple(c for c in seat.hand if c != move.king)
    discard = tuple(sorted(seat.discard + (move.king,)))
    suit = move.king.suit
    if suit == "h":   # from the deck only, as the heart redraw (decision 14)
        seats[p] = replace(seat, hand=hand, discard=discard)
        draws = (("redraw", p),) * min(2, len(seat.deck))
        return replace(state, seats=tuple(seats), pending=draws)
    if suit == "c":
        hand = tuple(c for c in hand if c not in move.cards)
        seats[p] = replace(seat, hand=hand, discard=discard, vault=tuple(sorted(seat.vault + move.cards)))
        return replace(state, seats=tuple(seats))
    if suit == "s":
        other = seats[move.other]
        seats[move.other] = replace(other, discard=tuple(c for c in other.discard if c != move.cards[0]))
        seats[p] = replace(seat, hand=hand, discard=tuple(sorted(discard + move.cards)))
        return replace(state, seats=tuple(seats))
    k = move.stack   # K♦
    seats[p] = replace(seat, hand=tuple(sorted(hand + (state.tops[k],))), discard=discard)
    state = replace(state, seats=tuple(seats), tops=state.tops[:k] + (None,) + state.tops[k + 1:])
    if state.left[k]:
        return replace(state, pending=(("reveal", k),))
    return replace(state, phase="over") if machine.store_ended(state) else state
