"""The expression searches against independent brute forces, and the paper's figures."""
from __future__ import annotations

import random
from fractions import Fraction
from itertools import permutations, product

import pytest

from ggpbridge.deckbuild.cards import SUITS, Card, factors, parse_card
from ggpbridge.deckbuild.exprs import golomb_values, rpn_values


def hand(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def brute_rpn(cards: list[Card], clock: int = 0) -> dict[int, set[int]]:
    """Every ordered tuple of two or more cards, every factor choice, evaluated from scratch."""
    out: dict[int, set[int]] = {}
    for k in range(2, len(cards) + 1):
        for order in permutations(range(len(cards)), k):
            for fs in product(*(factors(cards[i].rank) for i in order)):
                v = Fraction(fs[0])
                ok = True
                for i, f in zip(order[1:], fs[1:]):
                    suit = cards[i].suit
                    f = Fraction(f % clock if clock else f)
                    if clock:
                        v = v % clock
                    if suit == "h":
                        v = v + f
                    elif suit == "c":
                        v = v - f
                    elif suit == "d":
                        v = v * f
                    else:
                        if f == 0 or (v / f).denominator != 1:
                            ok = False
                            break
                        v = v / f
                if ok:
                    mask = sum(1 << i for i in order)
                    out.setdefault(mask, set()).add(int(v) % clock if clock else int(v))
    return out


def brute_golomb(cards: list[Card]) -> dict[int, set[int]]:
    """Every sign per card and every numerator/denominator role per suit, for every card subset."""
    out: dict[int, set[int]] = {}
    n = len(cards)
    for mask in range(1, 1 << n):
        used = [cards[i] for i in range(n) if mask >> i & 1]
        if len(used) < 2:
            continue
        suits = sorted({c.suit for c in used})
        for signs in product((1, -1), repeat=len(used)):
            sums = {s: sum(g * c.rank for g, c in zip(signs, used) if c.suit == s) for s in suits}
            if min(sums.values()) <= 0:
                continue
            for roles in product((1, -1), repeat=len(suits)):
                if 1 not in roles:
                    continue
                q = Fraction(1)
                for s, r in zip(suits, roles):
                    q = q * sums[s] if r == 1 else q / sums[s]
                if q.denominator == 1:
                    out.setdefault(mask, set()).add(int(q))
    return out


def values_only(found: dict[int, dict[int, str]]) -> dict[int, set[int]]:
    return {m: set(d) for m, d in found.items() if d}


def random_hands(seed: int, k: int, n: int = 5):
    rng = random.Random(seed)
    deck = [Card(s, r) for s in SUITS for r in range(1, 14)]
    return [rng.sample(deck, n) for _ in range(k)]


def test_rpn_matches_the_papers_figure_2():
    found = rpn_values(hand("Kh Jc 9d 7s"))
    makeable = {v for d in found.values() for v in d if 1 <= v <= 13}
    assert makeable == {1, 2, 4, 5, 6, 9, 10, 11}   # Fig. 2's value column
    assert 4 in found[0b1111] and 2 in found[0b0011] and 10 in found[0b1110]


def test_a_queen_stands_for_its_factors_and_an_ace_for_one():
    assert factors(12) == (2, 3, 4, 6, 12) and factors(1) == (1,) and factors(7) == (7,)
    # Q♦ as 2 after A♥: 1 × 2; Q♦ as 12 first: 12 + 1
    found = rpn_values(hand("Ah Qd"))[0b11]
    assert {2, 3, 4, 6, 12, 13} <= set(found) and 1 + 12 in found


def test_rpn_division_must_be_exact():
    # 7 ÷ 2 is not allowed; 2 first then 7♠ neither; only 7 + 2 style sums remain
    assert set(rpn_values(hand("7h 2s"))[0b11]) == {9}


@pytest.mark.parametrize("seed", range(8))
def test_rpn_search_equals_the_brute_force(seed):
    for cards in random_hands(seed, 6):
        assert values_only(rpn_values(cards)) == brute_rpn(cards)


@pytest.mark.parametrize("clock", [12, 13])
def test_rpn_clock_arithmetic_equals_the_brute_force(clock):
    for cards in random_hands(100 + clock, 6, 4):
        assert values_only(rpn_values(cards, clock)) == brute_rpn(cards, clock)


def test_golomb_matches_the_papers_figure_3():
    found = golomb_values(hand("8h Jh 10c Qc Kc"))
    makeable = {v for d in found.values() for v in d if 1 <= v <= 13}
    # Fig. 3 lists 1 2 3 4 6 8 9 11; it leaves out 5 = (Q♣ + K♣ − 10♣) ÷ (J♥ − 8♥), all five cards
    assert makeable == {1, 2, 3, 4, 5, 6, 8, 9, 11}
    assert 12 not in makeable   # two cards at least: the queen alone does not make 12
    assert found[0b11111][5] == "(Q♣ + K♣ − 10♣) ÷ (J♥ − 8♥)"


def test_golomb_within_a_suit_is_the_golomb_ruler_example():
    found = golomb_values(hand("Ah 2h 4h"))
    assert set(found[0b101]) == {3, 5} and set(found[0b111]) == {1, 3, 5, 7}


@pytest.mark.parametrize("seed", range(8))
def test_golomb_search_equals_the_brute_force(seed):
    for cards in random_hands(50 + seed, 6):
        assert values_only(golomb_values(cards)) == brute_golomb(cards)


def test_every_text_evaluates_to_its_value():
    """The shown expression is one that makes the value: evaluated as ordinary arithmetic."""
    for cards in random_hands(7, 20):
        for game in (rpn_values, golomb_values):
            for d in game(cards).values():
                for v, text in d.items():
                    py = text.replace("−", "-").replace("×", "*").replace("÷", "/")
                    assert _evaluate(py, cards) == v, text


def _evaluate(py: str, cards: list[Card]) -> Fraction:
    """The text as Python arithmetic on Fractions (a card written `9♦:3` is 3)."""
    import re

    def card_value(m):
        c = parse_card(m.group(1))
        return f"Fraction({m.group(2)[1:] if m.group(2) else c.rank})"
    py = re.sub(r"((?:10|[2-9AJQK])[♥♣♦♠])(:\d+)?", card_value, py)
    return eval(py, {"Fraction": Fraction})   # noqa: S307 (text built from our own cards)
