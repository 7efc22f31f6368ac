"""The asp engine's search of the state graph (ggpbridge/query/asp_graph.py), alone and against
the unrolling and the explicit engine."""
import time

import pytest

from conftest import GAMES
from ggpbridge.gdl.kif import parse_kif
from ggpbridge.gdl.asp_rules import restricted
from ggpbridge.query import asp_engine, asp_graph
from ggpbridge.query.answer import NO, YES
from ggpbridge.query.asp_engine import _FILES, Unrolling, _cycle_both, answer_asp, replay_gdl
from ggpbridge.query.asp_graph import GraphSearch, GraphStop
from ggpbridge.query.run import run_query
from ggpbridge.translate import load_description

DATA = GAMES.parent / "tests" / "query" / "data"


def game(name: str):
    return parse_kif((DATA / f"{name}.kif").read_text())


@pytest.mark.parametrize("sample", [1, 10 ** 9])
def test_the_loop_of_forced_states_is_found_kept_or_passed_through(monkeypatch, sample):
    # longloop climbs 0..20 and loops 17 -> 20 -> 17: every state has one move. Every state kept
    # (sample 1) finds the loop as a back edge; none but the start kept (10**9) finds it in the
    # forced stretch itself. Either way the first recurrence: the state after 17 moves after 21.
    monkeypatch.setattr(asp_graph, "SAMPLE", sample)
    desc = game("longloop")
    kind, moves, recurs = GraphSearch(desc).run()
    assert kind == "cycle" and recurs == (17, 21) and len(moves) == 21
    witness = {"engine": "asp", "format": "gdl-joint-moves", "question": "cycle", "verdict": "yes",
               "kind": "recurrence", "role": None, "moves": moves, "recurs": list(recurs)}
    assert replay_gdl(desc, witness).confirmed


def test_an_acyclic_graph_is_searched_to_the_end_and_dead_ends_are_reported():
    assert GraphSearch(game("countdown")).run() == ("done", None, None)
    assert GraphSearch(game("deadend")).run() == ("done", None, None)   # a dead end is no cycle
    assert GraphSearch(game("deadend"), dead_ends=True).run() == ("dead", [[{"role": "p", "move": "b"}]], ["p"])


def test_a_limit_stops_the_search_with_its_figures():
    with pytest.raises(GraphStop) as stop:
        GraphSearch(game("longloop"), limit_states=2).run()   # loops only after 17 moves: 2 states are few
    assert stop.value.limit == "--limit-states 2 reached" and stop.value.stats["graph_transitions"] > 0
    # in the engine, the unrolling goes on alone and finds the loop at 24 moves
    answer = answer_asp(game("longloop"), "cycle", limit_states=2)
    assert answer.verdict == YES and answer.witness["recurs"][1] == 24 and answer.stats["graph_states_kept"] == 2
    # an unrolling that runs out (here at 3 moves, before the loop) leaves the graph's limit as the answer's
    u, g = Unrolling(game("longloop"), _FILES["cycle"]), GraphSearch(game("longloop"), limit_states=2)
    with pytest.raises(GraphStop) as stop:
        _cycle_both(u, 3, g)
    assert stop.value.limit == "--limit-states 2 reached" and u.t == 3


def test_the_search_pauses_and_resumes_where_it_stopped(monkeypatch):
    monkeypatch.setattr(asp_graph, "_CLOCK_EVERY", 1)
    g = GraphSearch(game("longloop"))
    assert g.advance(0.0) is None and g.transitions == 1
    assert g.advance(0.0) is None and g.transitions == 2
    assert g.run() == GraphSearch(game("longloop")).run()   # pausing changes nothing


def test_a_timeout_is_an_unknown_with_what_was_explored(monkeypatch):
    monkeypatch.setattr(asp_graph, "_CLOCK_EVERY", 1)
    with pytest.raises(GraphStop) as stop:
        GraphSearch(game("longloop"), deadline=time.perf_counter() - 1).run()
    assert stop.value.limit.startswith("--timeout reached") and stop.value.stats["graph_transitions"] == 1


@pytest.mark.parametrize("name, overrides, verdict", [
    ("war_n4_winner.rcy", None, NO),
    ("war_n4_seat.rcy", None, YES),
    # War with one Underdog per player (docs/war_abilities.md): 3 ranks end
    pytest.param("war_abilities.rcy", {"RANKS": 3, "SUITS": 1, "GAIN": 0, "FORTUNE": 0, "AMBUSH": 0}, NO,
                 marks=pytest.mark.slow)])
def test_war_on_the_graph_agrees_with_the_explicit_engine(name, overrides, verdict):
    explicit, asp = run_query(str(GAMES / name), "cycle", engine="both", overrides=overrides, timeout=600)
    assert explicit.verdict == verdict and asp.verdict == verdict, (explicit.method, asp.method)
    # plays of War are longer than 16 moves: the graph search took part
    assert asp.stats["graph_transitions"] > 0
    if verdict == YES:
        desc = load_description(GAMES / name, decks=False, overrides=overrides, fold=False)
        assert replay_gdl(desc, asp.witness).confirmed


def test_a_long_solve_runs_in_clingo_s_thread_beside_python_s_work(monkeypatch):
    # tic-tac-toe unrolled to 9 moves: proving that no play is still running is a pigeonhole
    # argument, seconds of search
    monkeypatch.setattr(asp_engine, "_ALONE", 0.0)
    u = Unrolling(restricted(parse_kif((GAMES.parent / "examples" / "gdl" / "tictactoe.kif").read_text()),
                             ("legal", "next", "terminal")), _FILES["cycle"])
    u.deepen(9)
    others = []

    def meanwhile():
        others.append(time.process_time() - time.thread_time())   # CPU of the other threads: the solver's
        if len(others) > 10:
            raise KeyboardInterrupt
        busy = time.thread_time() + 0.01
        while time.thread_time() < busy:   # Python's own work, as the graph search's slices are
            pass
        return True
    u.meanwhile = meanwhile
    with pytest.raises(KeyboardInterrupt):   # what `meanwhile` raises ends the solve
        u.ask("running")
    # the solver went on while this thread worked: the two shared the wait, not took turns
    assert others[-1] > others[0]
    # leaving clingo's `with` cancelled the solve: the Control answers the next ask (no recurrence here)
    u.meanwhile = None
    assert u.ask("recurs") is None


def test_the_graph_search_beside_every_solve_gives_the_same_answers(monkeypatch):
    alone = [answer_asp(game(name), "cycle") for name in ("longloop", "countdown")]
    monkeypatch.setattr(asp_engine, "_ALONE", 0.0)
    beside = [answer_asp(game(name), "cycle") for name in ("longloop", "countdown")]
    assert [a.verdict for a in alone] == [YES, NO] and [a.verdict for a in beside] == [YES, NO]
    assert replay_gdl(game("longloop"), beside[0].witness).confirmed
    war = run_query(str(GAMES / "war_n4_winner.rcy"), "cycle", engine="asp")[0]
    assert war.verdict == NO and "depth-first search" in war.method
