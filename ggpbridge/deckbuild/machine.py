"""RPN and Golomb behind `ggpbridge.machine.GameMachine` (docs/deckbuilding.md, section 2).

Roles `player0` … and `random`; in each state one role moves and the others play `noop`, as
in the simulator's `SimMachine`. Chance picks cards (`Pick`): decks, the store and the deal
are unordered pools and every draw, turn-up or deal is one uniform pick (decision 3). The
store's unseen cards are one pool: which stack a card lies in is exchangeable until it is
turned up, so drawing a stack's next card from the pool is the same distribution.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Mapping

from ..errors import MoveError
from .cards import SUITS, Card
from .exprs import values_for
from . import kings
from .moves import END, KEEP, NOOP, Bank, BankWith, Buy, Discard, Pick, Power, Redraw
from .settings import Settings

RANDOM = "random"
RPN_SAME = ((1, "h"), (2, "h"), (3, "h"), (1, "c"), (2, "c"), (1, "d"), (2, "d"), (3, "d"), (1, "s"), (2, "s"))
GOLOMB_FIRST, GOLOMB_SECOND = (1, 2, 4, 8, 11), (3, 6, 10, 12, 13)
RPN_POINTS = {"h": 0, "c": 1, "d": 2, "s": 3}


@dataclass(frozen=True)
class Seat:
    """One player's cards; every tuple sorted (decks are unordered)."""

    deck: tuple = ()
    hand: tuple = ()
    discard: tuple = ()
    vault: tuple = ()

    def cards(self) -> tuple:
        return self.deck + self.hand + self.discard + self.vault


@dataclass(frozen=True)
class State:
    """A position: seats, store (top per stack, cards left under it, the unseen pool), whose turn,
    the phase ('start', 'act', 'discard', 'bank', 'over'), chance tasks queued, cards played this
    turn, turns begun."""

    seats: tuple
    tops: tuple
    left: tuple
    pool: tuple
    mover: int = 0
    phase: str = "start"
    pending: tuple = ()
    played: int = 0
    turns: int = 0


def _sorted(cards) -> tuple:
    return tuple(sorted(cards))


def _minus(cards: tuple, gone) -> tuple:
    gone = set(gone)
    return tuple(c for c in cards if c not in gone)


@lru_cache(maxsize=4096)   # a hand of five holds ~50 kB of texts: bounded, not per game
def _values(game: str, faces: tuple, clock: int) -> dict:
    return values_for(game, [Card(s, r) for s, r in faces], clock)


class DeckMachine:
    """`DeckMachine(settings)`: a deck-building game as a GameMachine, plus `determinize` for PIPMC."""

    def __init__(self, settings: Settings):
        self.settings = s = settings
        self.players = tuple(f"player{p}" for p in range(s.players))
        self._roles = self.players + (RANDOM,)
        self._seat = {name: p for p, name in enumerate(self.players)}

    # ------------------------------------------------------------ GameMachine

    def roles(self) -> tuple:
        """The players in seat order, then `random`."""
        return self._roles

    def initial_state(self) -> State:
        """Starting decks placed (or queued for dealing), the store's tops queued for turning up."""
        s = self.settings
        main = [Card(suit, r, d) for d in range(s.decks) for suit in SUITS for r in range(1, s.ranks + 1)]
        seats, pending, pool = [], [], list(main)
        start = s.start_deck
        for p in range(s.players):
            if start == "same":   # from spare decks: copies beyond the main deck's
                seats.append(Seat(deck=_sorted(Card(suit, r, s.decks + p) for r, suit in RPN_SAME if r <= s.ranks)))
            elif start == "paper":
                mine = [Card(SUITS[p % 4], r, 0) for r in GOLOMB_FIRST if r <= s.ranks]
                mine += [Card(SUITS[(p + 1) % 4], r, 0) for r in GOLOMB_SECOND if r <= s.ranks]
                pool = [c for c in pool if c not in mine]
                seats.append(Seat(deck=_sorted(mine)))
            elif start == "hearts_clubs":
                seats.append(Seat())
                pending += [("deal", p, "h", None)] * 6 + [("deal", p, "c", None)] * 4
            else:   # draft, dealt at random: aces, twos, threes, fours and the top rank
                seats.append(Seat())
                pending += [("deal", p, None, (1, 2, 3, 4, s.ranks))] * 10
        dealt = sum(1 for t in pending if t[0] == "deal")
        store = len(pool) - dealt
        if s.stack:
            if s.stack * s.stacks > store:
                from ..errors import GameDefinitionError
                raise GameDefinitionError(f"stacks={s.stacks} of stack={s.stack} cards need {s.stack * s.stacks}; "
                                          f"the main deck has {store} left for the store")
            left = (s.stack,) * s.stacks
        else:
            left = tuple(store // s.stacks + (k < store % s.stacks) for k in range(s.stacks))
        pending += [("reveal", k) for k in range(s.stacks) if left[k]]
        state = State(seats=tuple(seats), tops=(None,) * s.stacks, left=left, pool=_sorted(pool),
                      pending=tuple(pending))
        return self._advance(state)

    def legal_moves(self, state: State, role) -> tuple:
        """The mover's options (`random`: the cards it may pick), ('noop',) for the others."""
        if role not in self._roles:
            raise MoveError(f"unknown role {role!r}; the roles are {', '.join(self._roles)}")
        if state.phase == "over":
            return ()
        if state.pending:
            return tuple(Pick(c) for c in self._candidates(state, state.pending[0])) if role == RANDOM else (NOOP,)
        if self._seat.get(role) != state.mover:
            return (NOOP,)
        return self.options(state)

    def next_state(self, state: State, joint_moves: Mapping) -> State:
        """The state after the mover's move (every other role plays noop)."""
        mover = RANDOM if state.pending else self.players[state.mover] if state.phase != "over" else None
        if mover is None:
            raise MoveError("the state is terminal: the game is over")
        for role in self._roles:
            if role not in joint_moves:
                raise MoveError(f"no move for {role}: every role moves in every state")
            if role != mover and joint_moves[role] != NOOP:
                raise MoveError(f"{role} must play noop here, not {joint_moves[role]}: {mover} moves")
        move = joint_moves[mover]
        if move not in self.legal_moves(state, mover):
            raise MoveError(f"{move} is not a legal move of {mover} in this state")
        return self._advance(self._apply(state, move))

    def is_terminal(self, state: State) -> bool:
        return state.phase == "over"

    def goals(self, state: State) -> dict:
        """100 for each player with the best score, 0 for the others and `random`; empty before the end."""
        if state.phase != "over":
            return {}
        scores = self.scores(state)
        best = max(scores)
        return {**{name: 100 if scores[p] == best else 0 for p, name in enumerate(self.players)}, RANDOM: 0}

    def sees(self, state: State, joint_moves: Mapping) -> dict:
        """Each player's view of the next state, and the players' moves (public); `random` sees nothing."""
        following = self.next_state(state, joint_moves)
        moved = frozenset(("moved", r, str(m)) for r, m in joint_moves.items() if r != RANDOM and m != NOOP)
        return {**{name: self.observation(following, p) | moved for p, name in enumerate(self.players)},
                RANDOM: frozenset()}

    # ------------------------------------------------------------ the rules

    def scores(self, state: State) -> list[int]:
        """Each player's score by the game's scoring (decisions 18 and 22)."""
        out = []
        for seat in state.seats:
            cards = seat.cards()
            if self.settings.game == "rpn":
                out.append(sum(RPN_POINTS[c.suit] for c in cards))
            else:
                most = max((sum(1 for c in cards if c.suit == s) for s in SUITS), default=0)
                out.append(len(cards) + 3 * most + 4 * sum(1 for c in cards if c.rank >= 11) + 5 * len(seat.vault))
        return out

    def options(self, state: State) -> tuple:
        """The deciding player's options in a decision state."""
        seat = state.seats[state.mover]
        if state.phase == "discard":
            return tuple(Discard(c) for c in seat.hand) + (END,)
        if state.phase == "bank":
            return tuple(Bank(c) for c in seat.hand) + (KEEP,)
        out = list(self.buys(state))
        if self.settings.game == "rpn":
            if seat.deck:
                out += [Redraw(c) for c in seat.hand if c.suit == "h"]
            out += [BankWith(club, c) for club in seat.hand if club.suit == "c" for c in seat.hand if c != club]
        if self.settings.kings:
            out += kings.options(state)
        return tuple(out) + (END,)

    def buys(self, state: State) -> list[Buy]:
        """One Buy per store top and set of hand cards that makes its value (decision 7)."""
        hand = state.seats[state.mover].hand
        if len(hand) < 2 or not any(state.tops):
            return []
        clock = self.settings.clock
        made = _values(self.settings.game, tuple((c.suit, c.rank) for c in hand), clock)
        out = []
        for k, top in enumerate(state.tops):
            if top is None:
                continue
            want = top.rank % clock if clock else top.rank
            for mask, values in made.items():
                if want in values:
                    cards = tuple(c for i, c in enumerate(hand) if mask >> i & 1)
                    out.append(Buy(k, cards, top, values[want]))
        return out

    def observation(self, state: State, p: int) -> frozenset:
        """What player p sees: its hand; every player's discard pile, vault and sizes; the store."""
        facts = {("hand", p, state.seats[p].hand), ("store", state.tops, state.left),
                 ("turn", state.mover, state.phase, state.turns)}
        for q, seat in enumerate(state.seats):
            facts |= {("discard", q, seat.discard), ("vault", q, seat.vault),
                      ("sizes", q, len(seat.deck), len(seat.hand))}
        return frozenset(facts)

    def determinize(self, state: State, role, rng: random.Random) -> State:
        """A state `role` cannot tell from this one: every other player's hand dealt anew from its
        hand and deck (the store's pool and the decks are unordered already)."""
        me = self._seat[role]
        seats = list(state.seats)
        for q, seat in enumerate(seats):
            if q == me or not seat.hand:
                continue
            cards = list(seat.hand + seat.deck)
            rng.shuffle(cards)
            k = len(seat.hand)
            seats[q] = replace(seat, hand=_sorted(cards[:k]), deck=_sorted(cards[k:]))
        return replace(state, seats=tuple(seats))

    # ------------------------------------------------------------ internals

    def _candidates(self, state: State, task: tuple) -> tuple:
        if task[0] in ("draw", "redraw"):
            return state.seats[task[1]].deck
        if task[0] == "reveal":
            return state.pool
        _, _, suit, ranks = task   # a deal
        return tuple(c for c in state.pool if (suit is None or c.suit == suit) and (ranks is None or c.rank in ranks))

    def _apply(self, state: State, move) -> State:
        if isinstance(move, Pick):
            return self._pick(state, move.card)
        p, seats = state.mover, list(state.seats)
        seat = seats[p]
        if isinstance(move, Buy):
            seats[p] = replace(seat, hand=_minus(seat.hand, move.cards),
                               discard=_sorted(seat.discard + move.cards + (move.target,)))
            tops = state.tops[:move.stack] + (None,) + state.tops[move.stack + 1:]
            state = replace(state, seats=tuple(seats), tops=tops, played=state.played + len(move.cards))
            if state.left[move.stack]:
                return replace(state, pending=state.pending + (("reveal", move.stack),))
            if self.store_ended(state):
                return replace(state, phase="over")
            return self._after_buy(state)
        if isinstance(move, Power):
            return kings.apply(self, state, move)
        if isinstance(move, Redraw):
            seats[p] = replace(seat, hand=_minus(seat.hand, [move.heart]), discard=_sorted(seat.discard + (move.heart,)))
            return replace(state, seats=tuple(seats), pending=(("redraw", p),))
        if isinstance(move, BankWith):
            seats[p] = replace(seat, hand=_minus(seat.hand, [move.club, move.card]),
                               discard=_sorted(seat.discard + (move.club,)), vault=_sorted(seat.vault + (move.card,)))
            return replace(state, seats=tuple(seats))
        if isinstance(move, Discard):
            seats[p] = replace(seat, hand=_minus(seat.hand, [move.card]), discard=_sorted(seat.discard + (move.card,)))
            state = replace(state, seats=tuple(seats))
            return state if state.seats[p].hand else self._next_turn(state)
        if isinstance(move, Bank):
            seats[p] = replace(seat, hand=_minus(seat.hand, [move.card]), vault=_sorted(seat.vault + (move.card,)))
            return self._next_turn(replace(state, seats=tuple(seats)))
        if move == KEEP:
            return self._next_turn(state)
        # END
        if self.settings.game == "rpn":
            seats[p] = replace(seat, hand=(), discard=_sorted(seat.discard + seat.hand))
            return self._next_turn(replace(state, seats=tuple(seats)))
        if state.phase == "discard" or not seat.hand:
            return self._next_turn(state)
        if state.played == 0:
            return replace(state, phase="discard")
        return replace(state, phase="bank")

    def _after_buy(self, state: State) -> State:
        """Golomb's extra turn once all five cards are played (decision 20)."""
        if self.settings.game == "golomb" and state.played >= self.settings.hand and not state.seats[state.mover].hand:
            return replace(state, phase="start")
        return state

    def _pick(self, state: State, card: Card) -> State:
        task, rest = state.pending[0], state.pending[1:]
        seats = list(state.seats)
        if task[0] in ("draw", "redraw"):
            seat = seats[task[1]]
            seats[task[1]] = replace(seat, deck=_minus(seat.deck, [card]), hand=_sorted(seat.hand + (card,)))
            return replace(state, seats=tuple(seats), pending=rest)
        if task[0] == "deal":
            seat = seats[task[1]]
            seats[task[1]] = replace(seat, deck=_sorted(seat.deck + (card,)))
            return replace(state, seats=tuple(seats), pool=_minus(state.pool, [card]), pending=rest)
        k = task[1]
        state = replace(state, tops=state.tops[:k] + (card,) + state.tops[k + 1:], pool=_minus(state.pool, [card]),
                        left=state.left[:k] + (state.left[k] - 1,) + state.left[k + 1:], pending=rest)
        return self._after_buy(state) if state.phase == "act" else state

    def store_ended(self, state: State) -> bool:
        empty = [top is None and not left for top, left in zip(state.tops, state.left)]
        return all(empty) if self.settings.end == "all" else any(empty)

    def _next_turn(self, state: State) -> State:
        return replace(state, mover=(state.mover + 1) % len(state.seats), phase="start", played=0)

    def _advance(self, state: State) -> State:
        """Run what needs no decision: reshuffles, skipped draws, the start of a turn."""
        while state.phase != "over":
            if state.pending:
                task = state.pending[0]
                if self._candidates(state, task):
                    return state
                if task[0] == "draw" and state.seats[task[1]].discard:   # decision 4: reshuffle
                    seats = list(state.seats)
                    seat = seats[task[1]]
                    seats[task[1]] = replace(seat, deck=seat.discard, discard=())
                    state = replace(state, seats=tuple(seats))
                    continue
                state = replace(state, pending=state.pending[1:])
                continue
            if state.phase != "start":
                return state
            if state.turns >= self.settings.turns:
                return replace(state, phase="over")
            need = self.settings.hand - len(state.seats[state.mover].hand)
            state = replace(state, phase="act", played=0, turns=state.turns + 1,
                            pending=(("draw", state.mover),) * need)
        return state
