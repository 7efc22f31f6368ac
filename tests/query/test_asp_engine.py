"""The ASP engine of `ggpbridge query` on small GDL games, and its witnesses replayed on ClingoMachine."""
import copy
import json
from pathlib import Path

import pytest

from ggpbridge.errors import GgpBridgeError
from ggpbridge.gdl.kif import parse_kif
from ggpbridge.query.asp_engine import AspQueryError, answer_asp, replay_gdl, resolve_role, schedule, top_goal
from ggpbridge.query.run import run_query
from ggpbridge.query.witness import WitnessError

DATA = Path(__file__).resolve().parent / "data"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "gdl"
GAMES = Path(__file__).resolve().parents[2] / "games"


def game(name: str):
    path = DATA / f"{name}.kif"
    return parse_kif((path if path.exists() else EXAMPLES / f"{name}.kif").read_text())


# (game, question, role) -> verdict; every one of these is a proof (no horizon given).
EXPECTED = {
    ("cycler", "cycle", None): "yes", ("cycler", "terminates", None): "no",
    ("cycler", "always-ends", None): "yes", ("cycler", "playable", None): "yes",
    ("cycler", "winnable", "p"): "yes",
    ("trap", "cycle", None): "yes", ("trap", "terminates", None): "no",
    ("trap", "always-ends", None): "no", ("trap", "playable", None): "yes",
    ("deadend", "cycle", None): "no", ("deadend", "terminates", None): "no",
    ("deadend", "always-ends", None): "no", ("deadend", "playable", None): "no",
    ("deadend", "winnable", "p"): "yes",
    ("countdown", "cycle", None): "no", ("countdown", "terminates", None): "yes",
    ("countdown", "always-ends", None): "yes", ("countdown", "playable", None): "yes",
    ("countdown", "winnable", "first"): "yes", ("countdown", "winnable", "second"): "yes",
    ("unwinnable", "terminates", None): "yes", ("unwinnable", "winnable", "winner"): "yes",
    ("unwinnable", "winnable", "loser"): "no",
    ("montyhall", "cycle", None): "no", ("montyhall", "playable", None): "yes",
    ("montyhall", "winnable", "candidate"): "yes",
    ("minipoker", "terminates", None): "yes", ("minipoker", "winnable", "bob"): "yes",
    ("tictactoe", "cycle", None): "no", ("tictactoe", "winnable", "oplayer"): "yes",
}


@pytest.mark.parametrize("name, question, role", sorted(EXPECTED, key=str))
def test_verdicts_and_their_witnesses(name, question, role):
    desc = game(name)
    answer = answer_asp(desc, question, role=role)
    assert answer.verdict == EXPECTED[name, question, role], answer.method
    assert answer.engine == "asp" and answer.limit is None and answer.seconds >= 0
    # a witness for a "yes" to cycle and a "no" to the others, and for a win found
    needs_witness = answer.verdict == ("yes" if question in ("cycle", "winnable") else "no")
    if not needs_witness:
        assert answer.witness is None
        return
    witness = answer.witness
    assert witness["engine"] == "asp" and witness["format"] == "gdl-joint-moves"
    json.dumps(witness)   # a witness is written to a file as it is
    report = replay_gdl(desc, witness)
    assert report.confirmed, report.message
    assert len(report.log) == len(witness["moves"])


def test_the_shortest_lasso_is_found_and_names_the_recurring_states():
    answer = answer_asp(game("cycler"), "cycle")
    assert answer.witness["recurs"] == [0, 3]
    assert [[m["move"] for m in joint] for joint in answer.witness["moves"]] == [["inc"]] * 3
    trap = answer_asp(game("trap"), "cycle").witness
    assert trap["recurs"] == [1, 3] and trap["moves"][0] == [{"role": "p", "move": "right"}]


def test_dead_end_and_trap_witnesses_say_what_they_show():
    dead = answer_asp(game("deadend"), "playable").witness
    assert dead["kind"] == "dead-end" and dead["stuck"] == ["p"] and dead["moves"] == [[{"role": "p", "move": "b"}]]
    trapped = answer_asp(game("trap"), "always-ends")
    assert trapped.witness["kind"] == "trapped" and trapped.stats["trapped"] == 2
    assert "state machine" in trapped.method


def test_witness_moves_include_the_random_role():
    witness = answer_asp(game("montyhall"), "winnable", role="candidate").witness
    roles = {m["role"] for joint in witness["moves"] for m in joint}
    assert roles == {"candidate", "random"}
    assert witness["moves"][0][1]["move"].startswith("(hide_car")


def test_bounded_termination_gives_a_play_still_running():
    answer = answer_asp(game("countdown"), "terminates", horizon=5)
    assert answer.verdict == "no" and answer.witness["kind"] == "no-end-within"
    assert len(answer.witness["moves"]) == 5 and replay_gdl(game("countdown"), answer.witness).confirmed
    assert answer_asp(game("countdown"), "terminates", horizon=12).verdict == "yes"
    assert answer_asp(game("countdown"), "terminates", horizon=11).verdict == "no"   # take 1 twelve times


def test_the_horizon_counts_steps_not_automatic_moves():
    # every role playing noop is an automatic move: the explicit engine does not count those either
    desc = game("pauses")
    assert answer_asp(desc, "terminates", horizon=3).verdict == "yes"
    cut = answer_asp(desc, "terminates", horizon=2)
    assert cut.verdict == "no" and cut.witness["horizon"] == 2
    assert [j[0]["move"] for j in cut.witness["moves"]] == ["go", "noop", "go", "noop"]
    assert replay_gdl(desc, cut.witness).confirmed
    assert answer_asp(desc, "winnable", role="p", horizon=3).verdict == "yes"
    assert answer_asp(desc, "winnable", role="p", horizon=2).verdict == "unknown"


@pytest.mark.slow
def test_a_translated_game_gets_the_same_horizon_on_both_engines():
    war = str(GAMES / "war_n4_winner.rcy")   # the longest play has 15 steps
    explicit, asp = run_query(war, "terminates", engine="both", horizon=14)
    assert explicit.verdict == asp.verdict == "no" and asp.witness["horizon"] == 14
    assert len(asp.witness["moves"]) > 14   # the translation's automatic moves are not steps
    # the deal counts the same steps too (three shuffle positions): the asp engine translates
    # without decks, whose draws would be four chance steps
    explicit, asp = run_query(war, "terminates", engine="both", horizon=15)
    assert explicit.verdict == asp.verdict == "yes"



def test_a_proof_that_owes_to_overflowing_plays_is_unknown():
    # every play of long_count.rcy leaves the translation's integer table, where it ends as
    # `overflow`: "every play ends" is then true of the translation, not of the game
    game = str(Path(__file__).resolve().parents[1] / "translate" / "data" / "long_count.rcy")
    (asp,) = run_query(game, "terminates", engine="asp")
    assert asp.verdict == "unknown" and "bounded tables" in asp.limit
    # every play is cut before anyone can win: not a "no" about the game, which the simulator wins
    explicit, asp = run_query(game, "winnable", "0", engine="both", limit_states=5000)
    assert asp.verdict == "unknown" and explicit.verdict == "yes"

def test_a_no_that_owes_to_plays_with_a_score_off_the_tables_is_unknown():
    # player 0's only win is with a product the translation's integers cannot hold: that
    # play ends with every goal 0 there (`score_lost`), so "no win" is the translation's
    path = str(DATA / "lost_score_win.rcy")
    explicit, asp = run_query(path, "winnable", "0", engine="both")
    assert explicit.verdict == "yes" and asp.verdict == "unknown" and "score outside" in asp.method
    # a win inside the tables is still found, and questions that read no goal are still proofs
    explicit, asp = run_query(path, "winnable", "1", engine="both")
    assert explicit.verdict == asp.verdict == "yes"
    explicit, asp = run_query(path, "terminates", engine="both")
    assert explicit.verdict == asp.verdict == "yes"
    # the relation alone, with no `overflow` fluent declared, is enough
    assert answer_asp(game("lost_score"), "winnable", role="p").verdict == "unknown"


def test_kif_role_names_reach_the_asp_engine():
    (answer,) = run_query(str(EXAMPLES / "tictactoe.kif"), "winnable", "oplayer", engine="asp")
    assert answer.verdict == "yes" and answer.witness["role"] == "oplayer"
    with pytest.raises(GgpBridgeError, match="xplayer"):
        run_query(str(EXAMPLES / "tictactoe.kif"), "winnable", "dealer", engine="asp")


def test_a_horizon_too_short_for_a_proof_gives_unknown():
    answer = answer_asp(game("cycler"), "playable", horizon=2)
    assert answer.verdict == "unknown" and answer.limit == "--horizon 2"
    answer = answer_asp(game("countdown"), "cycle", horizon=4)
    assert answer.verdict == "unknown" and "4" in answer.limit
    assert answer_asp(game("cycler"), "cycle", horizon=3).verdict == "yes"


def test_timeout_and_state_limit_give_unknown():
    answer = answer_asp(game("tictactoe"), "terminates", timeout=0.001)
    assert answer.verdict == "unknown" and "timeout" in answer.limit and answer.seconds < 5
    answer = answer_asp(game("trap"), "always-ends", limit_states=2)
    assert answer.verdict == "unknown" and answer.limit == "--limit-states 2 reached"


def test_the_top_goal_is_100_or_the_best_value_written():
    desc = game("unwinnable")
    assert top_goal(desc, resolve_role(desc, "loser")) == 100   # (goal loser 100) exists but is unreachable
    assert top_goal(desc, resolve_role(desc, "random")) == 0
    assert answer_asp(desc, "winnable", role="random").verdict == "yes"


def test_roles_by_name_or_seat():
    desc = game("countdown")
    assert str(resolve_role(desc, "first")) == "first"
    assert str(resolve_role(desc, "player1")) == str(resolve_role(desc, 1)) == "second"
    with pytest.raises(AspQueryError):
        resolve_role(desc, "nobody")
    with pytest.raises(AspQueryError):
        answer_asp(desc, "winnable")
    with pytest.raises(GgpBridgeError):
        answer_asp(desc, "fair")


def test_tampered_witnesses_are_refuted_or_rejected():
    desc = game("cycler")
    witness = answer_asp(desc, "cycle").witness
    shifted = copy.deepcopy(witness)
    shifted["recurs"] = [1, 3]
    assert not replay_gdl(desc, shifted).confirmed
    illegal = copy.deepcopy(witness)
    illegal["moves"][0][0]["move"] = "jump"
    with pytest.raises(WitnessError):
        replay_gdl(desc, illegal)
    with pytest.raises(WitnessError):
        replay_gdl(desc, {"format": "ggpbridge-witness/1", "kind": "win"})
    cut = answer_asp(game("countdown"), "terminates", horizon=5).witness
    cut["moves"] = cut["moves"][:3]
    assert replay_gdl(game("countdown"), cut).confirmed   # still running after 3 moves, too
    win = answer_asp(game("countdown"), "winnable", role="first").witness
    win["role"] = "second"
    assert not replay_gdl(game("countdown"), win).confirmed


def test_invalid_gdl_is_refused():
    desc = parse_kif("(role p) (init a) (<= (legal p x) (true a)) (<= (next a) (not (next a))) (<= terminal (true b))")
    with pytest.raises(AspQueryError):
        answer_asp(desc, "cycle")


def test_the_query_dispatch_reaches_the_asp_engine():
    (answer,) = run_query(str(DATA / "cycler.kif"), "cycle", engine="asp")
    assert answer.verdict == "yes" and answer.engine == "asp"


def test_a_late_recurrence_is_found_at_a_sparse_time_and_replays():
    desc = game("longloop")   # the loop 17 -> 20 -> 17 closes first after 21 moves
    assert schedule(30) == list(range(17)) + [24, 30]
    answer = answer_asp(desc, "terminates")   # the unrolling's lasso, asked at 24 after 16
    i, j = answer.witness["recurs"]
    assert answer.verdict == "no" and j == 24 and 17 <= i < j and (j - i) % 4 == 0
    assert replay_gdl(desc, answer.witness).confirmed
    # cycle: the unrolling at 24, or the state graph's back edge at the first state it keeps in the loop
    answer = answer_asp(desc, "cycle")
    i, j = answer.witness["recurs"]
    assert answer.verdict == "yes" and 17 <= i < j <= 24 and (j - i) % 4 == 0
    assert replay_gdl(desc, answer.witness).confirmed
    assert answer_asp(desc, "playable").verdict == "yes"
    trapped = answer_asp(desc, "always-ends")
    assert trapped.verdict == "no" and trapped.witness["moves"] == []   # even the initial state cannot end
    assert replay_gdl(desc, trapped.witness).confirmed
