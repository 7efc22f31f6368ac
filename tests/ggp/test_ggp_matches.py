"""Whole matches through the game manager against player processes over HTTP; golden transcripts."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from ggp_helpers import EXAMPLES, PlayerProcess, post

from ggpbridge.gdl.asp_terms import kif_symbol
from ggpbridge.gdl.machine import ClingoMachine
from ggpbridge.ggp.manager import HttpTransport, Match, load_game
from ggpbridge.ggp.protocol import GgpError

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("GGPBRIDGE_UPDATE_GOLDEN") == "1"  # set to rewrite the golden files


def replay_is_consistent(record: dict, desc) -> None:
    """The record's moves are legal from the initial state and end in a terminal state with its goals."""
    machine = ClingoMachine(desc)
    roles = machine.roles()
    state = machine.initial_state()
    for turn, moves in enumerate(record["moves"]):
        joint = dict(zip(roles, map(kif_symbol, moves)))
        for role, move in joint.items():
            assert move in machine.legal_moves(state, role), (turn, moves)
        if record["gdl"] == 2:
            seen = machine.sees(state, joint)
            for role in roles:
                assert sorted(map(machine.kif, seen[role])) == record["percepts"][machine.kif(role)][turn]
        state = machine.next_state(state, joint)
    assert machine.is_terminal(state)
    assert record["goals"] == {machine.kif(r): v for r, v in machine.goals(state).items()}


@pytest.mark.parametrize("game, players, upper", [
    ("tictactoe", {"xplayer": "HTTP", "oplayer": "builtin:legal"}, False),
    ("tictactoe", {"xplayer": "HTTP", "oplayer": "builtin:legal"}, True),
    ("montyhall", {"candidate": "HTTP"}, False),
    ("montyhall", {"candidate": "HTTP"}, True),
])
def test_golden_transcripts(legal_player, game, players, upper):
    desc, gdl = load_game(EXAMPLES / f"{game}.kif")
    players = {role: legal_player.url if a == "HTTP" else a for role, a in players.items()}
    match = Match(desc, players, gdl=gdl, seed=7, match_id="golden", upper=upper, playclock=5, game=game)
    record = match.run()
    assert record["errors"] == []
    replay_is_consistent(record, desc)
    path = GOLDEN / f"{game}_{'upper' if upper else 'lower'}.json"
    if UPDATE:
        path.write_text(json.dumps(match.transcript, indent=1) + "\n")
    assert match.transcript == json.loads(path.read_text())
    # The exact forms of the protocol: case as asked, GDL-II turns, NIL at turn 0, () for no percepts.
    first_play = next(m["message"] for m in match.transcript if m["message"].lower().startswith("(play"))
    expected = {("tictactoe", False): "(play golden nil)", ("tictactoe", True): "(PLAY GOLDEN NIL)",
                ("montyhall", False): "(play golden 0 nil nil)", ("montyhall", True): "(PLAY GOLDEN 0 NIL NIL)"}
    assert first_play == expected[(game, upper)]


def test_tictactoe_http_random_against_builtin_mc(fresh_player):
    desc, gdl = load_game(EXAMPLES / "tictactoe.kif")
    record = Match(desc, {"xplayer": fresh_player.url, "oplayer": "builtin:mc"}, gdl=gdl, seed=1,
                   playclock=0.3, game="tictactoe").run()
    assert gdl == 1 and record["errors"] == [] and record["percepts"] == {}
    assert record["players"] == {"xplayer": fresh_player.url, "oplayer": "builtin:mc"}
    assert len(record["timings"]["turns"]) == record["steps"] == len(record["moves"])
    replay_is_consistent(record, desc)


def test_minipoker_http_mc_player_sees_only_its_percepts():
    player = PlayerProcess("mc", seed=5)
    try:
        desc, gdl = load_game(EXAMPLES / "minipoker.kif")
        for seed in range(2):
            record = Match(desc, {"alice": "builtin:random", "bob": player.url}, gdl=gdl, seed=seed,
                           playclock=0.4, game="minipoker").run()
            assert gdl == 2 and record["errors"] == []
            assert record["players"]["random"] == "manager"
            replay_is_consistent(record, desc)
            assert all(len(p) <= 1 for p in record["percepts"]["bob"])
    finally:
        player.stop()


def test_montyhall_mc_player_switches_over_http():
    player = PlayerProcess("mc", seed=2)
    try:
        desc, gdl = load_game(EXAMPLES / "montyhall.kif")
        finals = [Match(desc, {"candidate": player.url}, gdl=gdl, seed=seed, playclock=0.4).run()["moves"][3][0]
                  for seed in range(3)]
        assert finals == ["switch"] * 3
    finally:
        player.stop()


class FlakyTransport(HttpTransport):
    """A transport that restarts its player process just before the n-th PLAY message."""

    def __init__(self, player: PlayerProcess, before_play: int):
        super().__init__(player.url)
        self.player, self.before_play, self.plays = player, before_play, 0

    def send(self, text, timeout):
        if text.lower().startswith("(play"):
            self.plays += 1
            if self.plays == self.before_play:
                port = self.player.port
                self.player.stop()
                self.player = PlayerProcess("random", port=port)  # same address, no memory of the match
        return super().send(text, timeout)


# The restart happens inside the timed PLAY and takes a process start (seconds on a loaded
# machine), and every reply of these players is immediate (`random`, or `busy`): so the
# clocks are ample, which costs no time, and nothing asserted depends on them.
AMPLE = 120


def test_a_player_restarted_mid_match(fresh_player):
    desc, gdl = load_game(EXAMPLES / "tictactoe.kif")
    match = Match(desc, {"xplayer": fresh_player.url, "oplayer": "builtin:random"}, gdl=gdl, seed=4,
                  startclock=AMPLE, playclock=AMPLE, game="tictactoe")
    flaky = FlakyTransport(fresh_player, before_play=3)
    match.transports[kif_symbol("xplayer")] = flaky
    try:
        record = match.run()
        replay_is_consistent(record, desc)  # the match still ends properly
        play_errors = [e for e in record["errors"] if e["phase"] == "play"]
        assert play_errors and {e["kind"] for e in play_errors} == {"busy"}
        assert [e["turn"] for e in play_errors] == list(range(2, record["steps"]))
        assert all(e["role"] == "xplayer" and e["replacement"] == record["moves"][e["turn"]][0]
                   for e in play_errors)
        assert [e["kind"] for e in record["errors"] if e["phase"] == "stop"] == ["unexpected"]
        # The restarted player serves the next match normally.
        assert post(flaky.player.url, "(info)")[1].endswith("(status available))")
        again = Match(desc, {"xplayer": flaky.player.url, "oplayer": "builtin:random"}, gdl=gdl, seed=5,
                      startclock=AMPLE, playclock=AMPLE).run()
        assert again["errors"] == []
    finally:
        flaky.player.stop()


def test_unreachable_and_slow_players_are_replaced_and_recorded():
    desc, gdl = load_game(EXAMPLES / "tictactoe.kif")
    from ggp_helpers import free_port
    record = Match(desc, {"xplayer": f"http://127.0.0.1:{free_port()}/", "oplayer": "builtin:legal"}, gdl=gdl,
                   seed=3, playclock=0.2, startclock=0.2, slack=0.1).run()
    assert record["errors"][0]["phase"] == "start" and record["errors"][0]["kind"] == "connection"
    assert {e["kind"] for e in record["errors"] if e["phase"] == "play"} == {"connection"}
    replay_is_consistent(record, desc)


def test_manager_rejects_unknown_roles_and_addresses():
    desc, gdl = load_game(EXAMPLES / "tictactoe.kif")
    with pytest.raises(GgpError, match="no role nobody"):
        Match(desc, {"nobody": "builtin:random"}, gdl=gdl)
    with pytest.raises(GgpError, match="builtin:random|legal|mc"):
        Match(desc, {"xplayer": "builtin:smart"}, gdl=gdl)
    with pytest.raises(GgpError, match="http://host:port/"):
        Match(desc, {"xplayer": "ftp://x"}, gdl=gdl)


def test_the_step_cap_ends_a_match_with_abort(legal_player):
    desc, gdl = load_game(EXAMPLES / "tictactoe.kif")
    match = Match(desc, {"xplayer": legal_player.url, "oplayer": "builtin:legal"}, gdl=gdl, seed=1,
                  max_steps=3, match_id="capped")
    record = match.run()
    assert record["aborted"] and record["steps"] == 3 and record["goals"] == {} and record["errors"] == []
    assert [m["message"] for m in match.transcript[-2:]] == ["(abort capped)"] * 2
    assert [m["reply"] for m in match.transcript[-2:]] == ["aborted"] * 2
    assert post(legal_player.url, "(info)")[1].endswith("(status available))")
