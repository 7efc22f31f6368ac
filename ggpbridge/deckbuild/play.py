"""Playtests of a deck-building game: seeded plays through `ggpbridge.machine.playout`, folded
into the simulator's `Stats` (the same report as `simulate` on a RECYCLE game), plus the
figures of the issue: game length in turns, options per buying decision, hands that can buy nothing."""
from __future__ import annotations

import random
import time

from ..errors import MoveError
from ..machine import UnfinishedPlay, playout
from ..sim.playout import Result, rank_players
from ..sim.players import parse_players, seat_rng
from ..sim.stats import Stats, _Mean, _num
from .machine import DeckMachine, State
from .moves import Buy


def policies(spec: str, machine: DeckMachine, seed: int) -> dict:
    """The seats' policies from a --players spec: random (the default), first, and the searching
    players of `ggpbridge.search` (pipmc:N, mcts:N, ismcts:N), seeded as the simulator seeds them."""
    from ..search.pipmc import PIPMC
    from ..search.tree import ISMCTS, MCTS
    searching = {"pipmc": PIPMC, "mcts": MCTS, "ismcts": ISMCTS}
    out, seats = {}, parse_players(spec)
    for p, role in enumerate(machine.players):
        name, k = seats[min(p, len(seats) - 1)]
        if name == "first":
            out[role] = lambda m, s, r, moves, rng: moves[0]
        elif name in searching:
            out[role] = searching[name](seat_rng(seed, p, name), k)
        elif name != "random":
            raise ValueError(f"{name}: the deck-building games take random, first, pipmc:N, mcts:N and ismcts:N "
                             f"players (a policy file is written for a RECYCLE game)")
    return out


class Figures:
    """The issue's figures over many plays."""

    def __init__(self):
        self.turns, self.act_options, self.buy_options = _Mean(), _Mean(), _Mean()
        self.turn_starts = self.cannot_buy = 0

    def add(self, machine: DeckMachine, states: tuple) -> None:
        seen_turns = set()
        for st in states:
            if st.pending or st.phase != "act":
                continue
            moves = machine.options(st)
            buys = sum(1 for m in moves if isinstance(m, Buy))
            self.act_options.add(len(moves))
            if buys:
                self.buy_options.add(buys)
            if st.turns not in seen_turns:   # the first decision of a turn: the hand as drawn
                seen_turns.add(st.turns)
                self.turn_starts += 1
                self.cannot_buy += buys == 0
        self.turns.add(states[-1].turns)

    def report(self) -> dict:
        return {"turns_per_game": {"mean": _num(self.turns.mean), "sd": _num(self.turns.sd)},
                "options_per_buying_decision": _num(self.act_options.mean),
                "buys_offered_when_any": _num(self.buy_options.mean),
                "hands_that_buy_nothing": self.cannot_buy / self.turn_starts if self.turn_starts else None}


def play_one(machine: DeckMachine, seed: int, players: str, max_steps: int) -> tuple[Result, tuple]:
    """One seeded play as a Result (and its states, for the figures)."""
    try:
        play = playout(machine, random.Random(seed), policies(players, machine, seed), max_steps, percepts=False)
    except UnfinishedPlay as e:
        return Result(seed, "unfinished", steps=len(e.play.moves)), ()
    except MoveError as e:
        return Result(seed, "error", error=str(e)), ()
    decisions = [(st.mover, len(machine.options(st)), None, ()) for st in play.states[:-1]
                 if not st.pending and st.phase != "over"]
    scores = machine.scores(play.states[-1])
    res = Result(seed, "finished", scores=scores, steps=len(play.moves), decisions=decisions)
    res.winners, res.ranks = rank_players(scores, True)
    return res, play.states


def simulate(machine: DeckMachine, n: int, seed: int = 0, players: str = "random", max_steps: int = 100_000,
             progress=None) -> tuple[Stats, Figures]:
    """n plays (seeds seed..seed+n-1); Ctrl-C keeps what was played (`stats.interrupted`)."""
    stats, figures = Stats(len(machine.players)), Figures()
    stats.interrupted = False
    t0 = time.perf_counter()
    try:
        for i in range(n):
            res, states = play_one(machine, seed + i, players, max_steps)
            stats.add(res)
            if states:
                figures.add(machine, states)
            if progress is not None:
                progress(1)
    except KeyboardInterrupt:
        stats.interrupted = True
    stats.seconds = time.perf_counter() - t0
    stats.engine = "deckbuild"
    return stats, figures
