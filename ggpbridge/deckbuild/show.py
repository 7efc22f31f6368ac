"""`show` for a deck-building game: one seeded play, step by step, on the game machine.

The play is the one `simulate --seed 0` plays as its game number `seed` (the same RNG and
policies: `play.play_one`). Each step is a chance pick (the card drawn or turned up) or a
decision (every option as a person reads it, the one taken, and what the chooser sees).
"""
from __future__ import annotations

import random

from ..errors import MoveError
from ..machine import UnfinishedPlay, playout
from .machine import RANDOM, DeckMachine, State
from .play import policies


def cards(cs) -> str:
    """Cards as a person reads them (`A♥ 2♣`), or a dash."""
    return " ".join(map(str, cs)) or "-"


def seat_view(state: State, p: int) -> str:
    """What player p sees (decision 10): its hand, every discard pile and vault, sizes, the store's tops."""
    me = state.seats[p]
    parts = [f"hand {cards(me.hand)}"]
    for q, seat in enumerate(state.seats):
        parts.append(f"player {q}: deck {len(seat.deck)}, hand {len(seat.hand)}, discard {cards(seat.discard)}, "
                     f"vault {cards(seat.vault)}")
    store = ", ".join(f"{t if t is not None else 'empty'} (+{n})" for t, n in zip(state.tops, state.left))
    return "; ".join(parts) + f"; store {store}"


def show_play(machine: DeckMachine, seed: int, players: str, max_steps: int) -> dict:
    """The view of play `seed`: its steps, end, scores and status (finished, unfinished or error)."""
    status, message = "finished", None
    try:
        play = playout(machine, random.Random(seed), policies(players, machine, seed), max_steps, percepts=False)
        states, moves = play.states, play.moves
    except UnfinishedPlay as e:
        status, message = "unfinished", str(e)
        states, moves = e.play.states, e.play.moves
    except MoveError as e:   # a rule error of the module: nothing shown but the error
        return {"steps": [], "status": "error", "message": str(e), "decisions": 0, "end": {}}
    steps = []
    for i, (state, joint) in enumerate(zip(states, moves), 1):
        mover = next(r for r, m in joint.items() if m != "noop") if any(m != "noop" for m in joint.values()) \
            else None
        if mover is None:
            steps.append({"step": i, "kind": "wait"})
        elif mover == RANDOM:
            steps.append({"step": i, "kind": "chance", "text": _text(joint[RANDOM])})
        else:
            p = machine.players.index(mover)
            options = machine.legal_moves(state, mover)
            steps.append({"step": i, "kind": "decision", "player": p, "options": [_text(o) for o in options],
                          "chosen": options.index(joint[mover]),
                          "sees": [seat_view(state, q) for q in range(len(machine.players))]})
    last = states[-1]
    end = {"scores": machine.scores(last), "goals": {str(k): v for k, v in machine.goals(last).items()},
           "turns": last.turns}
    return {"steps": steps, "status": status, "message": message, "end": end,
            "decisions": sum(1 for s in steps if s["kind"] == "decision")}


def _text(move) -> str:
    return getattr(move, "text", None) or str(move)
