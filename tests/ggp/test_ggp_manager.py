"""The game manager's referee duties, with players stubbed in-process: a move that is not legal
(or not readable) is never played; it is replaced by a legal one and recorded as an error."""
from __future__ import annotations

import pytest
from ggp_helpers import EXAMPLES

from ggpbridge.gdl.asp_terms import kif_symbol
from ggpbridge.gdl.machine import ClingoMachine
from ggpbridge.ggp.manager import Match, load_game


class Scripted:
    """A player that answers every PLAY with the next of `moves` (the last one over and over)."""

    address = "scripted"

    def __init__(self, *moves: str):
        self.moves, self.plays = list(moves), 0

    def send(self, text: str, timeout: float) -> str:
        kind = text[1:].split()[0].lower()
        if kind == "start":
            return "ready"
        if kind == "stop":
            return "done"
        if kind == "abort":
            return "aborted"
        self.plays += 1
        return self.moves[min(self.plays, len(self.moves)) - 1]


@pytest.fixture(scope="module")
def tictactoe():
    desc, gdl = load_game(EXAMPLES / "tictactoe.kif")
    return desc, gdl, ClingoMachine(desc)


def play(tictactoe, xplayer, seed=3, **kw) -> dict:
    desc, gdl, machine = tictactoe
    match = Match(desc, {"xplayer": "builtin:legal", "oplayer": "builtin:legal"}, gdl=gdl, seed=seed,
                  machine=machine, **kw)
    match.transports[machine.roles()[0]] = xplayer
    return match.run()


def states_of(record: dict, machine: ClingoMachine):
    """The states of the match as recorded, each move checked legal where it was played."""
    roles = machine.roles()
    state = machine.initial_state()
    for turn, moves in enumerate(record["moves"]):
        joint = dict(zip(roles, map(kif_symbol, moves)))
        for role, move in joint.items():
            assert move in machine.legal_moves(state, role), (turn, machine.kif(role), moves)
        yield turn, state
        state = machine.next_state(state, joint)
    assert machine.is_terminal(state)
    assert record["goals"] == {machine.kif(r): v for r, v in machine.goals(state).items()}


def test_an_illegal_move_is_replaced_by_a_legal_one_and_recorded(tictactoe):
    # (mark 1 1) is legal once: after it, the cell is taken, and on oplayer's turns only noop is
    _, _, machine = tictactoe
    record = play(tictactoe, Scripted("(mark 1 1)"))
    assert record["roles"][0] == "xplayer" and not record["aborted"]
    assert record["moves"][0][0] == "(mark 1 1)"
    states = dict(states_of(record, machine))   # every move played was legal
    illegal = [e for e in record["errors"] if e["kind"] == "illegal"]
    assert [e["turn"] for e in illegal] == list(range(1, record["steps"]))
    for e in illegal:
        assert e["phase"] == "play" and e["role"] == "xplayer" and e["reply"] == "(mark 1 1)"
        assert e["detail"].startswith("(mark 1 1) is not legal; legal: ")
        assert record["moves"][e["turn"]][0] == e["replacement"] != "(mark 1 1)"
        legal = {machine.kif(m) for m in machine.legal_moves(states[e["turn"]], machine.roles()[0])}
        assert e["replacement"] in legal and all(m in e["detail"] for m in legal)


@pytest.mark.parametrize("reply, kind", [("(mark 9 9)", "illegal"),   # no such cell: never legal
                                         ("(mark 1", "unparsable"), ("busy", "busy")])
def test_a_reply_that_is_not_a_legal_move_is_never_played(tictactoe, reply, kind):
    _, _, machine = tictactoe
    record = play(tictactoe, Scripted(reply))
    assert [e["turn"] for e in record["errors"]] == list(range(record["steps"]))
    assert {(e["kind"], e["reply"]) for e in record["errors"]} == {(kind, reply)}
    assert reply not in {moves[0] for moves in record["moves"]}
    dict(states_of(record, machine))
