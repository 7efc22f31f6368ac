"""The player over real HTTP (a separate process): replies, errors, out-of-order messages."""
from __future__ import annotations

import socket

import pytest
from ggp_helpers import EXAMPLES, post

from ggpbridge.gdl.asp_terms import kif_symbol
from ggpbridge.gdl.kif import parse_kif
from ggpbridge.ggp.player import Player
from ggpbridge.ggp.protocol import rules_list


def rules(name: str) -> str:
    return rules_list(parse_kif((EXAMPLES / f"{name}.kif").read_text()))


def test_info_and_content_type(legal_player):
    status, body = post(legal_player.url, "(INFO)")
    assert (status, body) == (200, "((name testplayer) (status available))")


@pytest.mark.parametrize("body, words", [
    ("", "empty message"),
    ("(play m1", "never closed"),
    ("(bogus 1 2)", "unknown message 'bogus'"),
    ("(start m1 xplayer ((role xplayer) (<= )) 10 10)", "not well-formed KIF"),
    ("(play m1 0 nil)", "play takes 2 or 4"),
    ("just words", "text after the end of the message"),
    ("nil", "starts with a keyword"),
])
def test_malformed_messages_get_an_error_and_the_player_keeps_serving(legal_player, body, words):
    status, reply = post(legal_player.url, body)
    assert status == 400 and reply.startswith("(error \"") and words in reply
    assert post(legal_player.url, "(info)") == (200, "((name testplayer) (status available))")


def test_bad_http_requests(legal_player):
    assert post(legal_player.url, b"(info \xff)")[0] == 400
    status, reply = post(legal_player.url, "", method="GET")
    assert status == 405 and "POST" in reply
    with socket.create_connection(("127.0.0.1", legal_player.port), timeout=5) as sock:
        sock.sendall(b"POST / HTTP/1.0\r\n\r\n")
        assert b" 411 " in sock.recv(4096).split(b"\r\n")[0] + b" "
    assert legal_player.alive()
    assert post(legal_player.url, "(info)")[0] == 200


def test_start_errors_leave_the_player_available(legal_player):
    status, reply = post(legal_player.url, f"(start m9 nobody {rules('tictactoe')} 10 10)")
    assert status == 400 and "role nobody is not a role" in reply
    status, reply = post(legal_player.url, "(start m9 a ((role a) (<= (legal a ?x) (true b))) 10 10)")
    assert status == 400 and "not valid GDL" in reply
    assert post(legal_player.url, "(info)")[1].endswith("(status available))")


def test_a_gdl_match_by_hand_with_out_of_order_messages(legal_player):
    url = legal_player.url
    assert post(url, "(play m1 nil)") == (200, "busy")  # no match yet
    assert post(url, f"(start m1 xplayer {rules('tictactoe')} 10 5)") == (200, "ready")
    assert post(url, f"(start m1 xplayer {rules('tictactoe')} 10 5)") == (200, "ready")  # repeated
    assert post(url, "(info)")[1] == "((name testplayer) (status busy))"
    assert post(url, f"(start m2 oplayer {rules('tictactoe')} 10 5)") == (200, "busy")
    status, reply = post(url, "(play m1 ((mark 1 1) noop))")
    assert status == 400 and "first PLAY of a match carries NIL" in reply
    assert post(url, "(play m1 nil)") == (200, "(mark 1 1)")
    assert post(url, "(play m1 nil)") == (200, "(mark 1 1)")  # asked again: same answer
    status, reply = post(url, "(play m1 0 nil nil)")
    assert status == 400 and "GDL form of PLAY" in reply
    status, reply = post(url, "(play m1 ((mark 1 1)))")
    assert status == 400 and "1 moves, the game has 2 roles" in reply
    status, reply = post(url, "(play m1 ((mark 1 1) (mark 2 2)))")
    assert status == 400 and "(mark 2 2) is not legal for oplayer" in reply
    assert post(url, "(play m2 ((mark 1 1) noop))") == (200, "busy")  # another match
    assert post(url, "(play m1 ((mark 1 1) noop))") == (200, "noop")
    assert post(url, "(play m1 (noop (mark 1 2)))") == (200, "(mark 1 3)")
    status, reply = post(url, "(play m1 nil)")
    assert status == 400 and "NIL moves after the first turn" in reply
    assert post(url, "(stop m1 ((mark 1 3) noop))") == (200, "done")
    assert post(url, "(stop m1 ((mark 1 3) noop))") == (200, "busy")
    assert post(url, "(play m1 nil)") == (200, "busy")
    assert post(url, "(info)")[1].endswith("(status available))")


def test_a_gdl2_match_by_hand_in_upper_case(legal_player):
    url = legal_player.url
    assert post(url, f"(START MH CANDIDATE {rules('montyhall').upper()} 10 5)") == (200, "ready")
    assert post(url, "(PLAY MH 0 NIL NIL)") == (200, "noop")
    status, reply = post(url, "(PLAY MH 2 NOOP ())")
    assert status == 400 and "expected turn 1, got turn 2" in reply
    assert post(url, "(PLAY MH 1 NOOP ())") == (200, "(choose 1)")
    assert post(url, "(PLAY MH 1 NOOP ())") == (200, "(choose 1)")  # a retry of turn 1
    assert post(url, "(PLAY MH 2 (CHOOSE 1) ())") == (200, "noop")
    assert post(url, "(PLAY MH 3 NOOP ((DOOR_OPENED 2)))") == (200, "stay")
    assert post(url, "(STOP MH 4 STAY ())") == (200, "done")


def test_abort_and_preview(legal_player):
    url = legal_player.url
    assert post(url, f"(preview {rules('minipoker')} 5)") == (200, "ready")
    assert post(url, f"(start mp bob {rules('minipoker')} 10 5)") == (200, "ready")
    assert post(url, "(play mp 0 nil nil)") == (200, "noop")
    assert post(url, "(abort mp)") == (200, "aborted")
    assert post(url, "(abort mp)") == (200, "busy")
    assert post(url, "(info)")[1].endswith("(status available))")


def _started(game: str, role: str, strategy: str = "legal") -> Player:
    player = Player(strategy, seed=3)
    assert player.handle(f"(start m {role} {rules(game)} 10 5)").body == "ready"
    assert player.handle("(play m 0 nil nil)").status == 200
    return player


def test_belief_weights_follow_the_chance_moves():
    """Monty Hall: after choosing door 1 and seeing door 2 open, door 3 hides the car with 2/3."""
    player = _started("montyhall", "candidate")
    player.handle("(play m 1 noop ())")
    player.handle("(play m 2 (choose 1) ())")
    player.handle("(play m 3 noop ((door_opened 2)))")
    match = player.match
    assert match.exact
    car = {next(f for f in state if f.name == "car").arguments[0].number: w for state, w in match.beliefs.items()}
    assert car == pytest.approx({1: 1 / 3, 3: 2 / 3})


def test_minipoker_beliefs_keep_only_the_cards_consistent_with_the_percepts():
    player = _started("minipoker", "bob")
    assert len(player.match.beliefs) == 1
    assert player.handle("(play m 1 noop ((your_card queen)))").body == "noop"
    holds = {frozenset(str(f) for f in s if f.name == "holds") for s in player.match.beliefs}
    assert holds == {frozenset({"holds(alice,jack)", "holds(bob,queen)"}),
                     frozenset({"holds(alice,king)", "holds(bob,queen)"})}
    assert player.handle("(play m 2 noop ((opponent_did bet)))").body == "call"
    assert all(kif_symbol("raised") in s for s in player.match.beliefs)


def test_inconsistent_percepts_resample_or_answer_nil_and_keep_serving():
    player = _started("montyhall", "candidate")
    player.handle("(play m 1 noop ())")
    player.handle("(play m 2 (choose 1) ())")
    # Door 1 was chosen, so it can never be opened: no history fits.
    reply = player.handle("(play m 3 noop ((door_opened 1)))")
    assert (reply.status, reply.body) == (200, "nil")
    assert player.handle("(info)").body.endswith("(status busy))")
    assert player.handle("(abort m)").body == "aborted"


def test_a_vanished_managers_match_is_given_up_for_a_new_start():
    import time
    player = Player("legal", abandon_after=0.2)
    assert player.handle(f"(start old xplayer {rules('tictactoe')} 10 5)").body == "ready"
    assert player.handle(f"(start new oplayer {rules('tictactoe')} 10 5)").body == "busy"
    time.sleep(0.3)
    assert player.handle(f"(start new oplayer {rules('tictactoe')} 10 5)").body == "ready"
    assert player.handle("(play old nil)").body == "busy"
    assert player.handle("(play new nil)").body == "noop"


def test_past_the_cap_the_belief_is_a_particle_filter_that_stays_consistent():
    player = Player("random", seed=1, belief_cap=1)
    assert player.handle(f"(start m bob {rules('minipoker')} 10 5)").body == "ready"
    player.handle("(play m 0 nil nil)")
    player.handle("(play m 1 noop ((your_card king)))")
    match = player.match
    assert not match.exact and match.beliefs
    assert sum(match.beliefs.values()) == pytest.approx(1.0)
    assert all(kif_symbol("(holds bob king)") in state for state in match.beliefs)
    assert player.handle("(play m 2 noop ((opponent_did check)))").status == 200



def _snapshot(player: Player) -> dict:
    match = player.match
    return {**vars(match), "beliefs": dict(match.beliefs), "history": list(match.history),
            "last_seen": None}  # the time of the last message is not the match's state


@pytest.mark.parametrize("game, role, refused, accepted", [
    ("tictactoe", "xplayer", "(play m 3 nil nil)", "(play m nil)"),            # GDL-II form, wrong turn
    ("montyhall", "candidate", "(play m (noop noop))", "(play m 0 nil nil)"),  # GDL form without NIL
])
def test_a_refused_first_play_does_not_fix_the_form(game, role, refused, accepted):
    player = Player("legal", seed=3)
    assert player.handle(f"(start m {role} {rules(game)} 10 5)").body == "ready"
    before = _snapshot(player)
    assert player.handle(refused).status == 400
    assert _snapshot(player) == before
    reply = player.handle(accepted)
    assert reply.status == 200 and reply.body not in ("busy", "nil")


def test_a_refused_play_mid_match_leaves_the_state_as_it_was():
    player = Player("legal", seed=3)
    player.handle(f"(start m xplayer {rules('tictactoe')} 10 5)")
    assert player.handle("(play m nil)").body == "(mark 1 1)"
    before = _snapshot(player)
    for bad in ["(play m ((mark 1 1) (mark 2 2)))", "(play m ((mark 1 1)))", "(play m 1 (mark 1 1) ())"]:
        assert player.handle(bad).status == 400, bad
        assert _snapshot(player) == before, bad
    reply = player.handle("(play m ((mark 1 1) noop))")
    assert (reply.status, reply.body) == (200, "noop")
