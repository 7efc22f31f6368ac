"""Every value a set of hand cards can make under each game's rule, with one expression per value.

Both searches return {mask: {value: text}}: `mask` a bit set over the hand's positions (two
cards at least), `value` what those cards make together (all of them used), `text` one
expression that makes it, readably. A buy is then a lookup of the store card's value
(docs/deckbuilding.md, decisions 11-13 and 19). `clock` > 0 is section 5.2's clock arithmetic.
"""
from __future__ import annotations

from itertools import product
from math import prod
from typing import Sequence

from .cards import Card, factors

OPS = {"h": "+", "c": "−", "d": "×", "s": "÷"}


def _apply(op: str, a: int, b: int, clock: int) -> int | None:
    """RPN's step `a b op`, or None when ÷ does not divide exactly (or divides by zero)."""
    if op == "h":
        r = a + b
    elif op == "c":
        r = a - b
    elif op == "d":
        r = a * b
    else:
        if b == 0 or a % b:
            return None
        r = a // b
    return r % clock if clock else r


def _face(card: Card, f: int) -> str:
    return str(card) if f == card.rank else f"{card}:{f}"


def rpn_values(hand: Sequence[Card], clock: int = 0) -> dict[int, dict[int, str]]:
    """RPN: ordered sequences of distinct hand cards, the first its value, each next one applying
    its suit's operation (♥ + ♣ − ♦ × ♠ ÷) left to right; a composite card stands for any factor
    greater than one. Breadth first over (cards used, running value): each pair is reached once,
    by the first sequence in hand order and ascending factors."""
    # per card: its bit, suit and the (value, text) it may stand for, computed once per hand
    faces = [(1 << i, card.suit, [(f % clock if clock else f, _face(card, f)) for f in factors(card.rank)])
             for i, card in enumerate(hand)]
    frontier: dict[tuple[int, int], str] = {}
    for bit, _, options in faces:
        for f, text in options:
            frontier.setdefault((bit, f), text)
    out: dict[int, dict[int, str]] = {}
    while frontier:
        nxt: dict[tuple[int, int], str] = {}
        for (mask, value), text in frontier.items():
            for bit, suit, options in faces:
                if mask & bit:
                    continue
                op = OPS[suit]
                for f, face in options:
                    r = _apply(suit, value, f, clock)
                    if r is None:
                        continue
                    key = (mask | bit, r)
                    if key not in nxt:
                        nxt[key] = f"({text} {op} {face})"
        for (mask, value), text in nxt.items():
            out.setdefault(mask, {}).setdefault(value, text[1:-1])
        frontier = nxt
    return out


def _signed_sums(cards: list[Card]) -> dict[int, str]:
    """Golomb's value of one suit's cards, all used, each added or subtracted: positive sums only."""
    out: dict[int, str] = {}
    for signs in product((1, -1), repeat=len(cards)):
        total = sum(s * c.rank for s, c in zip(signs, cards))
        if total <= 0 or total in out:
            continue
        plus = [c for s, c in zip(signs, cards) if s > 0]
        minus = [c for s, c in zip(signs, cards) if s < 0]
        text = " + ".join(map(str, plus)) + "".join(f" − {c}" for c in minus)
        out[total] = f"({text})" if len(cards) > 1 else text
    return out


def golomb_values(hand: Sequence[Card], clock: int = 0) -> dict[int, dict[int, str]]:
    """Golomb: the cards of each suit make one positive sum-or-difference; the suits' values
    combine by × and ÷ in any order into an integer (at least one value multiplies)."""
    out: dict[int, dict[int, str]] = {}
    sums: dict[tuple, dict[int, str]] = {}   # a suit's cards recur in many card sets: their sums once
    for mask in range(1, 1 << len(hand)):
        used = [c for i, c in enumerate(hand) if mask >> i & 1]
        if len(used) < 2:
            continue
        groups = []
        for s in dict.fromkeys(c.suit for c in used):
            same = tuple(c for c in used if c.suit == s)
            if same not in sums:
                sums[same] = _signed_sums(list(same))
            groups.append(sums[same])
        values: dict[int, str] = {}
        for choice in product(*(sorted(g.items()) for g in groups)):
            for split in product((True, False), repeat=len(choice)):
                if not any(split):
                    continue
                num = [v for (v, _), up in zip(choice, split) if up]
                den = [v for (v, _), up in zip(choice, split) if not up]
                top, bottom = prod(num), prod(den)
                if top % bottom:
                    continue
                v = top // bottom % clock if clock else top // bottom
                if v not in values:
                    text = " × ".join(t for (_, t), up in zip(choice, split) if up)
                    values[v] = text + "".join(f" ÷ {t}" for (_, t), up in zip(choice, split) if not up)
        if values:
            out[mask] = values
    return out


def values_for(game: str, hand: Sequence[Card], clock: int = 0) -> dict[int, dict[int, str]]:
    """The search of `game` ('rpn' or 'golomb')."""
    return (rpn_values if game == "rpn" else golomb_values)(hand, clock)
