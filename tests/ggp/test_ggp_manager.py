"""The game manager's referee duties, with players stubbed in-process: a move that is not legal
(or not readable) is never played; it is replaced by a legal one and recorded as an error."""
from __future__ import annotations

import time

import pytest
from ggp_helpers import EXAMPLES

from ggpbridge.gdl.asp_terms import kif_symbol
from ggpbridge.gdl.machine import ClingoMachine
from ggpbridge.ggp.manager import HttpTransport, Match, TransportError, load_game


class Scripted:
    """A player that answers every PLAY with the next of `moves` (the last one over and over),
    START, STOP and ABORT as `replies` says (by default as it should), after `delay` seconds."""

    address = "scripted"

    def __init__(self, *moves: str, delay: float = 0.0, **replies):
        self.moves, self.plays, self.delay = list(moves), 0, delay
        self.replies = {"start": "ready", "stop": "done", "abort": "aborted", **replies}
        self.received: list[str] = []

    def send(self, text: str, timeout: float) -> str:
        self.received.append(text)
        time.sleep(self.delay)
        kind = text[1:].split()[0].lower()
        if kind in self.replies:
            reply = self.replies[kind]
            if isinstance(reply, Exception):
                raise reply
            return reply
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


def test_wrong_answers_to_start_and_stop_are_recorded_and_the_match_goes_on(tictactoe):
    _, _, machine = tictactoe
    record = play(tictactoe, Scripted("noop", start="busy", stop=TransportError("connection", "refused")))
    start, stop = record["errors"][0], record["errors"][-1]
    assert start == {"phase": "start", "turn": None, "role": "xplayer", "kind": "unexpected",
                     "detail": "expected ready", "reply": "busy"}
    assert stop == {"phase": "stop", "turn": record["steps"], "role": "xplayer", "kind": "connection",
                    "detail": "refused", "reply": None}
    assert not record["aborted"] and record["goals"]
    dict(states_of(record, machine))


def test_a_step_cap_aborts_and_a_wrong_answer_to_abort_is_recorded(tictactoe):
    record = play(tictactoe, Scripted("(mark 1 1)", "noop", "(mark 2 2)", abort="done"), max_steps=3)
    assert record["aborted"] and record["steps"] == 3 and record["goals"] == {}
    assert record["moves"][0][0] == "(mark 1 1)" and record["moves"][2][0] == "(mark 2 2)"
    assert record["errors"] == [{"phase": "abort", "turn": 3, "role": "xplayer", "kind": "unexpected",
                                 "detail": "expected aborted", "reply": "done"}]


def test_a_late_answer_is_not_played(tictactoe):
    _, _, machine = tictactoe
    late = Scripted("(mark 1 1)", delay=0.6)
    record = play(tictactoe, late, playclock=0.1, startclock=2, slack=0.1, max_steps=2)
    # (the built-in oplayer may be late too on a loaded machine: only xplayer's errors are looked at)
    timeouts = [e for e in record["errors"] if e["role"] == "xplayer"]
    assert [(e["phase"], e["turn"], e["kind"]) for e in timeouts] == [("play", 0, "timeout"), ("play", 1, "timeout"),
                                                                      ("abort", 2, "timeout")]
    assert all(e["reply"] is None and e["detail"] == "no answer within 0.2 s" for e in timeouts)
    # its move was replaced by one drawn from the legal moves
    state = machine.initial_state()
    legal = {machine.kif(m) for m in machine.legal_moves(state, machine.roles()[0])}
    assert record["moves"][0][0] == timeouts[0]["replacement"] and timeouts[0]["replacement"] in legal


def test_every_player_hears_the_moves_and_the_end(tictactoe):
    # GDL (version 1): PLAY and STOP carry the joint move of the last step, NIL at first
    desc, gdl, machine = tictactoe
    x = Scripted("(mark 1 1)", "noop", "(mark 1 2)", "noop", "(mark 1 3)")
    record = play(tictactoe, x)
    plays = [t for t in x.received if t.startswith("(play")]
    assert plays[0].endswith(" nil)") and len(plays) == record["steps"]
    for text, moves in zip(plays[1:], record["moves"]):
        assert text.endswith(f" ({' '.join(moves)}))")
    assert x.received[-1].startswith("(stop ") and x.received[-1].endswith(f" ({' '.join(record['moves'][-1])}))")


ONE_STEP = """(role a) (role b)
(init start)
(legal a go) (legal b go)
(<= (next done) (true start))
(<= terminal (true done))
(<= (goal a 100) (true done))
"""


def test_a_role_without_a_goal_in_the_final_state_is_recorded_with_0(tmp_path):
    path = tmp_path / "one_step.kif"
    path.write_text(ONE_STEP)
    desc, gdl = load_game(path)
    record = Match(desc, {"a": "builtin:legal", "b": "builtin:random"}, gdl=gdl, seed=0).run()
    assert record["steps"] == 1 and record["moves"] == [["go", "go"]] and record["errors"] == []
    assert record["goals"] == {"a": 100, "b": 0}


def test_an_http_address_without_a_port_is_port_80():
    t = HttpTransport("http://players.example/ggp")
    assert (t._host, t._port, t._path) == ("players.example", 80, "/ggp")
    assert HttpTransport("http://127.0.0.1:9147")._path == "/"


def test_the_manager_plays_roles_given_no_player_whatever_their_order(tmp_path):
    # role a (first) has no player: the manager draws its move, then asks b's player
    path = tmp_path / "one_step.kif"
    path.write_text(ONE_STEP)
    desc, gdl = load_game(path)
    record = Match(desc, {"b": "builtin:legal"}, gdl=gdl, seed=0).run()
    assert record["players"] == {"a": "manager", "b": "builtin:legal"}
    assert record["moves"] == [["go", "go"]] and record["goals"] == {"a": 100, "b": 0} and record["errors"] == []


def test_rules_the_manager_cannot_ground_are_a_clean_error():
    from ggpbridge.gdl.kif import parse_kif
    from ggpbridge.ggp.protocol import GgpError
    unsafe = parse_kif("(role a) (init s) (<= (legal a ?x) (true s)) (<= terminal (true t)) (goal a 0)")
    with pytest.raises(GgpError, match="(?s)cannot play unsafe.kif: .*unsafe rule"):
        Match(unsafe, {"a": "builtin:random"}, gdl=1, game="unsafe.kif")
