"""The deck-building machine: card conservation, legal buys, turn structure, scoring, ends."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from ggpbridge.deckbuild.cards import Card, parse_card
from ggpbridge.deckbuild.machine import DeckMachine, Seat
from ggpbridge.deckbuild.moves import END, NOOP, Buy, Pick, Power, Redraw
from ggpbridge.deckbuild.settings import settings
from ggpbridge.errors import MoveError
from ggpbridge.machine import GameMachine, playout

from .test_exprs import brute_golomb, brute_rpn

VARIANTS = [("rpn", {}), ("rpn", {"start": "hearts_clubs"}), ("rpn", {"start": "draft", "stacks": 5}),
            ("golomb", {}), ("golomb", {"players": 3, "end": "all", "stack": 4}), ("rpn", {"clock": 12}),
            ("rpn", {"kings": 1, "start": "draft"}), ("golomb", {"kings": 1})]


def all_cards(state) -> Counter:
    out = Counter(c for seat in state.seats for c in seat.cards())
    out.update(c for c in state.tops if c is not None)
    out.update(state.pool)
    return out


def cards(text: str) -> tuple:
    return tuple(sorted(parse_card(t) for t in text.split()))


@pytest.mark.slow   # the brute force at every buying decision: 5-20 s per variant
@pytest.mark.parametrize("game,extra", VARIANTS)
def test_random_plays_keep_every_card_and_offer_only_real_buys(game, extra):
    m = DeckMachine(settings(game, extra))
    assert isinstance(m, GameMachine)
    brute = brute_rpn if game == "rpn" else brute_golomb
    for seed in range(4):
        play = playout(m, random.Random(seed), percepts=False)
        first = all_cards(play.states[0])
        assert len(first) == sum(first.values())   # every card is one object
        for state in play.states:
            assert all_cards(state) == first
            if state.pending or state.phase != "act":
                continue
            hand = state.seats[state.mover].hand
            made = brute(list(hand), m.settings.clock) if game == "rpn" else brute(list(hand))
            for move in m.legal_moves(state, m.players[state.mover]):
                if isinstance(move, Buy):
                    mask = sum(1 << hand.index(c) for c in move.cards)
                    want = move.target.rank % m.settings.clock if m.settings.clock else move.target.rank
                    assert move.target == state.tops[move.stack] and want in made[mask]
                if isinstance(move, Redraw):
                    assert state.seats[state.mover].deck and move.heart.suit == "h"
        last = play.states[-1]
        empty = [t is None and not n for t, n in zip(last.tops, last.left)]
        ended = all(empty) if m.settings.end == "all" else any(empty)
        assert ended or last.turns == m.settings.turns


def test_every_rpn_buy_available_is_offered():
    """A hand and store built by hand: the options are exactly the brute force's buys."""
    m = DeckMachine(settings("rpn", {}))
    s0 = m.initial_state()
    hand = cards("Kh Jc 9d 7s 2h")
    tops = (parse_card("4c"), parse_card("10s"), parse_card("Qd"))
    seats = (replace(s0.seats[0], hand=hand, deck=s0.seats[0].deck[:5]), s0.seats[1])
    state = replace(s0, seats=seats, tops=tops, pending=(), phase="act")
    made = brute_rpn(list(hand))
    want = {(k, mask) for k, t in enumerate(tops) for mask, vals in made.items() if t.rank in vals}
    got = {(b.stack, sum(1 << hand.index(c) for c in b.cards)) for b in m.buys(state)}
    assert got == want and got


def test_paper_starting_decks_score_as_the_paper_counts():
    rpn = DeckMachine(settings("rpn", {}))
    # A♥2♥3♥ 0, A♣2♣ 1 each, A♦2♦3♦ 2 each, A♠2♠ 3 each: 2 + 6 + 6
    assert rpn.scores(rpn.initial_state()) == [14, 14]
    golomb = DeckMachine(settings("golomb", {}))
    # 10 cards, +3 × 5 of the most numerous suit, +4 × J, Q, K
    assert golomb.scores(golomb.initial_state()) == [37, 37]
    s = golomb.initial_state()
    seat = s.seats[0]
    banked = replace(seat, deck=seat.deck[1:], vault=seat.deck[:1])
    assert golomb.scores(replace(s, seats=(banked, s.seats[1])))[0] == 37 + 5


def test_a_store_stack_emptied_by_a_buy_ends_the_game_at_once():
    m = DeckMachine(settings("rpn", {}))
    s0 = m.initial_state()
    seats = (replace(s0.seats[0], hand=cards("2h 3h Ac")), s0.seats[1])
    state = replace(s0, seats=seats, tops=(parse_card("5s"), s0.tops[1], s0.tops[2]),
                    left=(0,) + s0.left[1:], pending=(), phase="act")
    buy = next(b for b in m.buys(state) if b.stack == 0 and len(b.cards) == 2)
    after = m.next_state(state, {"player0": buy, "player1": NOOP, "random": NOOP})
    assert m.is_terminal(after)
    assert parse_card("5s") in after.seats[0].discard
    assert m.goals(after) == {"player0": 100, "player1": 0, "random": 0}   # 14 + 3 against 14


def test_golomb_playing_all_five_gives_another_turn():
    m = DeckMachine(settings("golomb", {}))
    s0 = m.initial_state()
    hand = cards("8h Jh 10c Qc Kc")   # Fig. 3: (Q♣ + K♣ − 10♣) ÷ (J♥ − 8♥) = 5
    seats = (replace(s0.seats[0], hand=hand, deck=()), s0.seats[1])
    state = replace(s0, seats=seats, tops=(parse_card("5d"),) + s0.tops[1:], pending=(), phase="act", turns=1)
    buy = next(b for b in m.buys(state) if len(b.cards) == 5)
    assert "(Q♣ + K♣ − 10♣) ÷ (J♥ − 8♥)" in buy.text
    after = m.next_state(state, {"player0": buy, "player1": NOOP, "random": NOOP})
    reveal = m.legal_moves(after, "random")[0]
    assert isinstance(reveal, Pick)
    after = m.next_state(after, {"player0": NOOP, "player1": NOOP, "random": reveal})
    # the discard pile (the five and the bought card) became the deck: five draws for player 0 again
    assert after.mover == 0 and after.turns == 2 and after.pending == (("draw", 0),) * 5
    assert sorted(after.seats[0].deck) == sorted(hand + (parse_card("5d"),))


def test_golomb_two_to_four_played_banks_at_most_one_and_keeps_the_rest():
    m = DeckMachine(settings("golomb", {}))
    s0 = m.initial_state()
    seats = (replace(s0.seats[0], hand=cards("Qc 10c 2s 3d 7h")), s0.seats[1])
    state = replace(s0, seats=seats, tops=(parse_card("2d"),) + s0.tops[1:], left=(5,) + s0.left[1:],
                    pending=(), phase="act", turns=1)
    buy = next(b for b in m.buys(state) if b.cards == cards("Qc 10c"))
    s = m.next_state(state, {"player0": buy, "player1": NOOP, "random": NOOP})
    s = m.next_state(s, {"player0": NOOP, "player1": NOOP, "random": m.legal_moves(s, "random")[0]})
    s = m.next_state(s, {"player0": END, "player1": NOOP, "random": NOOP})
    options = m.legal_moves(s, "player0")
    assert [str(o) for o in options][-1] == "keep" and len(options) == 4
    s = m.next_state(s, {"player0": options[0], "player1": NOOP, "random": NOOP})
    assert len(s.seats[0].vault) == 1 and len(s.seats[0].hand) == 2 and s.mover == 1


def test_illegal_moves_are_refused():
    m = DeckMachine(settings("rpn", {}))
    s = m.initial_state()
    assert m.legal_moves(s, "player0") == (NOOP,)   # chance turns up the store first
    with pytest.raises(MoveError, match="noop"):
        m.next_state(s, {"player0": END, "player1": NOOP, "random": m.legal_moves(s, "random")[0]})
    with pytest.raises(MoveError, match="unknown role"):
        m.legal_moves(s, "player7")


def test_kings_powers():
    m = DeckMachine(settings("rpn", {"kings": 1}))
    s0 = m.initial_state()
    theirs = replace(s0.seats[1], discard=cards("9s"))
    seats = (replace(s0.seats[0], hand=cards("Kd Ks Kc Kh 2h")), theirs)
    state = replace(s0, seats=seats, tops=(parse_card("5s"), parse_card("9h"), parse_card("7h")),
                    left=(0, 4, 4), pending=(), phase="act", turns=1)
    powers = {o.king.suit: o for o in m.legal_moves(state, "player0") if isinstance(o, Power)}
    assert set(powers) == {"h", "c", "d", "s"}
    # K♣ banks one or two of the four other cards: 4 + 6 options
    assert sum(1 for o in m.legal_moves(state, "player0") if isinstance(o, Power) and o.king.suit == "c") == 10
    step = lambda st, mv: m.next_state(st, {"player0": mv, "player1": NOOP, "random": NOOP})  # noqa: E731
    stolen = step(state, powers["s"])
    assert stolen.seats[1].discard == () and parse_card("9s") in stolen.seats[0].discard
    took = step(state, next(o for o in m.legal_moves(state, "player0")
                            if isinstance(o, Power) and o.king.suit == "d" and o.stack == 0))
    assert parse_card("5s") in took.seats[0].hand and m.is_terminal(took)   # stack 1 was its last card
