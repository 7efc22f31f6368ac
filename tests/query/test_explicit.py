"""The explicit query engine: War and Agram facts, witnesses replayed, limits, engine cross-checks."""
from __future__ import annotations

import json
import random
import sys
import types

import pytest
from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main
from ggpbridge.query.answer import NO, UNKNOWN, YES
from ggpbridge.query.explicit import Search, answer_explicit
from ggpbridge.query.run import EngineDisagreement, parse_role, run_query
from ggpbridge.query.witness import replay
from ggpbridge.recycle import parse_file
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.stepwise import Decision, State, StepMachine

# a choice whose only option is enabled while the current player's hand is empty: with three
# cards, player 0 comes back holding one and cannot move, although the stock is not empty
STUCK = """(game
  (setup
    (create players 2)
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE)))))
  (stage player
    (end (== (size (game iloc STOCK)) 0))
    (choice
      (
        ((== (size ((current player) iloc HAND)) 0)
          (move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))))
  (scoring max (size ((current player) iloc HAND))))
"""

# player 0 takes every card, one forced move at a time: player 1 can never win
ALL_TO_ZERO = """(game
  (setup
    (create players 2)
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO)))))
  (stage player
    (end (== (size (game iloc STOCK)) 0))
    (choice
      (
        (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))))
  (scoring max (size ((current player) iloc HAND))))
"""

# no decision at all: the stock is reshuffled until ONE is on top; a shuffle that keeps the
# order brings the game back where it was, through chance events only
RESHUFFLE = """(game
  (setup
    (create players 2)
    (create deck (game vloc STOCK) (deck (RANK (ONE, TWO)))))
  (stage player
    (end (== (size (game vloc DONE)) 1))
    (do
      ((shuffle (game vloc STOCK))
       ((== (cardatt RANK (top (game vloc STOCK))) ONE)
         (move (top (game vloc STOCK)) (top (game vloc DONE)))))))
  (scoring max (size ((current player) vloc HAND))))
"""


def machine(path, overrides=None) -> StepMachine:
    return StepMachine(compile_loaded(parse_file(path), overrides))


def ask(path, question, role=None, **kw):
    return answer_explicit(machine(path), question, role, game=str(path), **kw)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def war_n2(tmp_path):
    """War with 2 cards: the game files declare no card count, so the variant is derived from n = 4."""
    text = (GAMES / "war_n4_winner.rcy").read_text()
    text = text.replace("(RANK (ONE, TWO, THREE, FOUR))", "(RANK (ONE, TWO))").replace("(repeat 2", "(repeat 1")
    assert "(RANK (ONE, TWO))" in text and "(repeat 1" in text
    p = tmp_path / "war_n2_winner.rcy"
    p.write_text(text)
    return p


# ---------------------------------------------------------------- the canonical key
def test_states_differing_only_in_iteration_numbers_share_a_key():
    m = machine(GAMES / "war_n4_winner.rcy")
    s = m.initial_state()
    while not isinstance(m.node(s), Decision):
        s = m.next_state(s, 0)
    bumped = State(s.data, tuple((i, pc, it, n + 7) for i, pc, it, n in s.ctrl), s.pending, s.prefix)
    assert bumped != s and m.key(bumped) == m.key(s)
    assert m.key(m.next_state(bumped, 0)) == m.key(m.next_state(s, 0))
    assert m.key(m.next_state(s, 0)) != m.key(s)


@pytest.mark.parametrize("name", ["war_n4_loser.rcy", "agram2_c2.rcy"])
def test_one_machine_steps_like_fresh_machines_in_any_order(name):
    # StepMachine reuses one Live and skips restoring the state it has just settled:
    # jumping between unrelated states must still give what a fresh machine gives
    prog = compile_loaded(parse_file(GAMES / name))
    m = StepMachine(prog)
    states, todo, seen = [], [m.initial_state()], set()
    while todo:
        s = todo.pop(0)
        if m.key(s) in seen:
            continue
        seen.add(m.key(s))
        states.append(s)
        nd = m.node(s)
        todo.extend(m.next_state(s, k) for k in Search(m).moves(nd))
    order = list(range(len(states)))
    random.Random(3).shuffle(order)
    for i in order[:300]:
        s = states[i]
        nd = StepMachine(prog).node(s)
        assert m.node(s) == nd
        for k in Search(m).moves(nd):
            assert m.step(s, k) == StepMachine(prog).step(s, k)


# ---------------------------------------------------------------- War
@pytest.mark.parametrize("name, cycles", [
    ("war_n4_winner.rcy", NO), ("war_n6_winner.rcy", NO),   # winner's card first: no cycle up to n = 8
    ("war_n4_loser.rcy", NO), ("war_n6_loser.rcy", YES),    # loser's card first: first cycles at n = 6
    ("war_n4_seat.rcy", YES),                               # seat order: cycles from n = 4
])
def test_war_cycles(name, cycles):
    a = ask(GAMES / name, "cycle")
    assert a.verdict == cycles, a.method
    if cycles == NO:
        assert a.witness is None
        assert a.stats["chance_states"] > 0 and a.stats["terminal_states"] > 0
    else:
        r = replay(machine(GAMES / name), a.witness)
        assert r.confirmed, r.message
        assert a.witness["recur_from"] < len(a.witness["steps"])


def test_war_with_two_cards_cannot_cycle_and_always_ends(war_n2):
    assert ask(war_n2, "cycle").verdict == NO
    t = ask(war_n2, "terminates")
    assert t.verdict == YES and t.stats["longest_play"] == 3   # one shuffle step, two cards turned


def test_cycling_war_does_not_terminate_and_can_get_stuck_for_good():
    path = GAMES / "war_n4_seat.rcy"
    t = ask(path, "terminates")
    assert t.verdict == NO and t.witness["kind"] == "recurrence"
    e = ask(path, "always-ends")
    assert e.verdict == NO and e.witness["kind"] == "trapped" and e.stats["trapped_states"] > 0
    assert replay(machine(path), e.witness).confirmed
    assert ask(GAMES / "war_n4_winner.rcy", "always-ends").verdict == YES


def test_horizon_bounds_the_length_of_plays():
    path = GAMES / "war_n4_winner.rcy"
    longest = ask(path, "terminates").stats["longest_play"]
    assert longest == 15   # 3 shuffle steps, then at most 6 battles of 2 turned cards
    assert ask(path, "terminates", horizon=longest).verdict == YES
    short = ask(path, "terminates", horizon=longest - 1)
    assert short.verdict == NO and short.witness["kind"] == "no-end-within"
    assert len(short.witness["steps"]) == longest - 1
    r = replay(machine(path), short.witness)
    assert r.confirmed, r.message


@pytest.mark.parametrize("name", ["war_n4_winner.rcy", "kuhn_poker.rcy"])
def test_the_longest_play_is_the_longest_of_every_play_enumerated(name):
    # the DFS shares states met twice; a naive enumeration of every play (no sharing) must agree
    m = machine(GAMES / name)

    def longest(s, node):
        return max((1 + longest(*m.step(s, mv)) for mv in Search(m).moves(node)), default=0)
    s0 = m.initial_state()
    a = ask(GAMES / name, "terminates")
    assert a.stats["longest_play"] == longest(s0, m.node(s0))
    assert a.method.endswith(f"; the longest play has {a.stats['longest_play']} steps")


def test_always_ends_says_a_horizon_is_not_used_and_the_search_leaves_gc_on():
    import gc
    path = GAMES / "war_n4_winner.rcy"
    # the search turns automatic collection off while it runs, then leaves it as it found it
    gc.enable()
    plain = ask(path, "always-ends")
    assert gc.isenabled()
    gc.disable()
    try:
        capped = ask(path, "always-ends", horizon=3)
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert plain.verdict == capped.verdict == YES   # the whole graph, whatever the horizon
    assert "--horizon is not used" in capped.method and "--horizon" not in plain.method


def test_a_horizon_that_cuts_plays_off_leaves_playable_and_winnable_unknown(tmp_path):
    # War n = 4: plays last up to 15 steps, every decision has an option, both seats can win
    path = GAMES / "war_n4_winner.rcy"
    for question, role in (("playable", None), ("winnable", 0), ("winnable", 1)):
        assert ask(path, question, role, horizon=15).verdict == YES, question
        cut = ask(path, question, role, horizon=3)   # only the shuffle: no decision, no end yet
        assert cut.verdict == UNKNOWN and cut.limit == "--horizon 3", (question, role)
    # player 1 never wins: 'no' needs every play seen to its end; a play cut short may still win
    p = tmp_path / "all_to_zero.rcy"
    p.write_text(ALL_TO_ZERO)
    assert ask(p, "winnable", 1, horizon=2).verdict == NO
    cut = ask(p, "winnable", 1, horizon=1)
    assert cut.verdict == UNKNOWN and cut.limit == "--horizon 1"
    # a dead end beyond the horizon is not seen: no claim that the game is playable
    p = tmp_path / "stuck.rcy"
    p.write_text(STUCK)
    assert ask(p, "playable", horizon=2).verdict == NO
    cut = ask(p, "playable", horizon=1)
    assert cut.verdict == UNKNOWN and cut.limit == "--horizon 1"


# ---------------------------------------------------------------- Agram
@pytest.mark.parametrize("name", ["agram2_c2.rcy", "agram2_c3.rcy"])
def test_agram_two_players_terminates_is_playable_and_winnable_by_both(name):
    path = GAMES / name
    assert ask(path, "terminates").verdict == YES
    assert ask(path, "playable").verdict == YES
    for seat in (0, 1):
        a = ask(path, "winnable", seat)
        assert a.verdict == YES
        r = replay(machine(path), a.witness)
        assert r.confirmed and seat in a.witness["winners"], r.message


# ---------------------------------------------------------------- dead ends and hopeless seats
def test_a_choice_without_enabled_option_is_not_playable(tmp_path):
    p = tmp_path / "stuck.rcy"
    p.write_text(STUCK)
    a = ask(p, "playable")
    assert a.verdict == NO and a.witness["kind"] == "dead-end" and a.witness["player"] == 0
    assert replay(machine(p), a.witness).confirmed
    assert ask(p, "terminates").verdict == NO
    assert ask(p, "always-ends").verdict == NO
    assert ask(p, "winnable", 0).verdict == NO


def test_a_loop_made_only_of_chance_events_is_a_cycle(tmp_path):
    # chance states restart at the start of their block: without that, the outcomes since the
    # last decision (there is none) would grow for ever and no state would recur
    p = tmp_path / "reshuffle.rcy"
    p.write_text(RESHUFFLE)
    a = ask(p, "cycle")
    assert a.verdict == YES and a.witness["kind"] == "recurrence" and a.stats["decision_states"] == 0
    assert replay(machine(p), a.witness).confirmed
    assert ask(p, "terminates").verdict == NO and ask(p, "always-ends").verdict == YES
    explicit, asp = run_query(str(p), "cycle", engine="both")
    assert explicit.verdict == asp.verdict == YES


def test_a_seat_that_never_wins(tmp_path):
    p = tmp_path / "all_to_zero.rcy"
    p.write_text(ALL_TO_ZERO)
    assert ask(p, "winnable", 0).verdict == YES
    assert ask(p, "winnable", 1).verdict == NO


# ---------------------------------------------------------------- limits
def test_limits_give_an_honest_unknown():
    path = GAMES / "war_n6_winner.rcy"
    a = ask(path, "cycle", limit_states=100)
    assert a.verdict == UNKNOWN and "--limit-states 100" in a.limit and a.stats["states"] == 100
    b = ask(path, "cycle", timeout=0)
    assert b.verdict == UNKNOWN and "--timeout" in b.limit
    c = ask(path, "cycle", horizon=10)   # plays are longer than 10 steps: no claim either way
    assert c.verdict == UNKNOWN and c.limit == "--horizon 10"


def test_ctrl_c_returns_unknown_with_what_was_explored():
    def interrupt(states):
        raise KeyboardInterrupt
    a = ask(GAMES / "war_n6_winner.rcy", "cycle", progress=interrupt)
    assert a.verdict == UNKNOWN and "interrupted" in a.limit and a.stats["states"] > 0


# ---------------------------------------------------------------- engines and roles
def test_roles_by_number_or_name():
    assert parse_role("player1", 2) == 1 and parse_role("p0") == 0 and parse_role(1, 2) == 1
    with pytest.raises(Exception, match="players 0..1"):
        parse_role("player2", 2)
    with pytest.raises(Exception, match="seat number"):
        parse_role("dealer")


def test_winnable_refuses_a_seat_the_game_does_not_have():
    path = GAMES / "war_n4_winner.rcy"
    for role in (None, -1, 2):
        with pytest.raises(Exception, match=r"winnable needs a role in 0\.\.1 \(or player0\.\.player1\)"):
            ask(path, "winnable", role)
    assert ask(path, "winnable", 1).verdict == YES


def _fake_asp(monkeypatch, fn):
    mod = types.ModuleType("ggpbridge.query.asp_engine")
    mod.answer_asp = fn
    monkeypatch.setitem(sys.modules, "ggpbridge.query.asp_engine", mod)


def test_both_engines_must_agree(monkeypatch, tmp_path):
    from ggpbridge.query.answer import Answer
    path = str(GAMES / "war_n4_seat.rcy")
    _fake_asp(monkeypatch, lambda desc, q, **kw: Answer(q, NO, "asp", "fake"))
    with pytest.raises(EngineDisagreement, match="explicit says yes") as disagreement:
        run_query(path, "cycle", engine="both")
    assert [a.verdict for a in disagreement.value.answers] == [YES, NO]
    witness = tmp_path / "cycle.json"
    r = run("query", path, "cycle", "--engine", "both", "--witness", witness)
    assert r.exit_code == 2 and "disagree" in r.stderr
    # both answers are shown, and the explicit engine's recurrence is kept to replay
    assert "cycle? yes" in r.stdout and "cycle? no" in r.stdout and "fake" in r.stdout
    assert run("replay", path, witness).exit_code == 0
    r = run("query", path, "cycle", "--engine", "both", "--json", "--witness", witness)
    data = json.loads(r.stdout)
    assert r.exit_code == 2 and "explicit says yes" in data["disagreement"] and len(data["answers"]) == 2
    _fake_asp(monkeypatch, lambda desc, q, **kw: Answer(q, YES, "asp", "fake"))
    assert [a.verdict for a in run_query(path, "cycle", engine="both")] == [YES, YES]


def test_an_asp_engine_that_cannot_answer_is_reported_not_crashed(monkeypatch):
    def refuse(desc, q, **kw):
        raise NotImplementedError("no encoding yet")
    _fake_asp(monkeypatch, refuse)
    a, b = run_query(str(GAMES / "war_n4_winner.rcy"), "cycle", engine="both")
    assert a.verdict == NO and b.verdict == UNKNOWN and "no encoding yet" in b.method


# ---------------------------------------------------------------- the commands
def test_query_writes_a_witness_that_replay_confirms(tmp_path):
    game, w = GAMES / "war_n6_loser.rcy", tmp_path / "w.json"
    r = run("query", game, "cycle", "--witness", w, "--json")
    assert r.exit_code == 0
    out = json.loads(r.stdout)
    assert out["answers"][0]["verdict"] == YES and out["witness_file"] == str(w)
    r = run("replay", game, w)
    assert r.exit_code == 0 and "confirmed: the state after step" in r.stdout
    # the same deal ends under the winner-first rule, so the witness does not fit that game
    r = run("replay", GAMES / "war_n6_winner.rcy", w)
    assert r.exit_code == 2 and "already over" in r.stderr
    # a doctored witness is not confirmed, or refused when it does not fit the game
    data = json.loads(w.read_text())
    data["recur_from"] += 1
    w.write_text(json.dumps(data))
    assert run("replay", game, w).exit_code == 1
    data["steps"][-1]["option"] = 5
    w.write_text(json.dumps(data))
    r = run("replay", game, w)
    assert r.exit_code == 2 and "option 5" in r.stderr


def test_query_cli_answers_and_exit_status(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("query", GAMES / "agram2_c2.rcy", "winnable", "player1")
    assert r.exit_code == 0 and "winnable player1? yes" in r.stdout
    assert (tmp_path / "agram2_c2-winnable-player1.witness.json").exists()
    r = run("query", GAMES / "war_n6_winner.rcy", "cycle", "--limit-states", "50")
    assert r.exit_code == 1 and "unknown" in r.stdout and "--limit-states 50" in r.stdout
    assert run("query", GAMES / "agram2_c2.rcy", "winnable").exit_code == 2
    r = run("query", GAMES / "agram2_c2.rcy", "winnable", "player7")
    assert r.exit_code == 2 and "players 0..1" in r.stderr


def test_an_asp_witness_is_replayed_on_the_translation(war_n2, tmp_path):
    pytest.importorskip("ggpbridge.query.asp_engine")
    w = tmp_path / "asp.json"
    r = run("query", war_n2, "winnable", "1", "--engine", "asp", "--witness", w)
    assert r.exit_code == 0 and "yes" in r.stdout, r.stdout + r.stderr
    assert json.loads(w.read_text())["overrides"] == {}
    r = run("replay", war_n2, w, "--quiet")
    assert r.exit_code == 0 and "confirmed" in r.stdout
