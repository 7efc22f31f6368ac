"""The explicit query engine on a deck-building game (`query/machine_steps.py` over `DeckMachine`):
its answers and figures against an independent enumeration of the machine's joint moves, and
its witnesses replayed by `ggpbridge replay`."""
from __future__ import annotations

import json

import networkx as nx
import pytest
from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main
from ggpbridge.deckbuild.machine import DeckMachine
from ggpbridge.deckbuild.settings import read_dbk
from ggpbridge.machine import joint_moves

GOLOMB_1 = (GAMES / "golomb_small.dbk", {"turns": 1})
RPN_1 = (GAMES / "rpn_small.dbk", {"turns": 1, "stacks": 1, "hand": 2})


def sets(overrides: dict) -> list:
    return [a for k, v in overrides.items() for a in ("--set", f"{k}={v}")]


def ask(game, overrides, *args) -> dict:
    r = CliRunner().invoke(main, ["query", str(game), *args, *sets(overrides), "--json"])
    assert r.exit_code == 0, r.output
    [answer] = json.loads(r.stdout)["answers"]
    assert answer["engine"] == "explicit"
    return answer


def enumerate_graph(game, overrides) -> tuple[nx.DiGraph, object, DeckMachine]:
    """Every reachable state, by every joint move of every role (ggpbridge.machine.joint_moves,
    not the engine's one-mover steps), as a networkx graph."""
    m = DeckMachine(read_dbk(game, overrides))
    s0 = m.initial_state()
    g = nx.DiGraph()
    g.add_node(s0)
    todo = [s0]
    while todo:
        s = todo.pop()
        if m.is_terminal(s):
            continue
        for joint in joint_moves(m, s):
            t = m.next_state(s, joint)
            if t not in g:
                g.add_node(t)
                todo.append(t)
            g.add_edge(s, t)
    return g, s0, m


def check_against_enumeration(game, overrides):
    g, s0, m = enumerate_graph(game, overrides)
    acyclic = nx.is_directed_acyclic_graph(g)
    dead = [s for s in g if g.out_degree(s) == 0 and not m.is_terminal(s)]
    term = ask(game, overrides, "terminates")
    assert term["verdict"] == ("yes" if acyclic and not dead else "no")
    assert term["stats"]["states"] == g.number_of_nodes()
    assert term["stats"]["transitions"] >= g.number_of_edges()   # two moves may lead to one state
    assert term["stats"]["longest_play"] == nx.dag_longest_path_length(g)
    assert ask(game, overrides, "cycle")["verdict"] == ("no" if acyclic else "yes")
    terminals = [s for s in g if m.is_terminal(s)]
    assert term["stats"]["terminal_states"] == len(terminals)
    for seat in (0, 1):
        can_win = any(m.goals(s)[f"player{seat}"] == 100 for s in terminals)
        assert ask(game, overrides, "winnable", str(seat))["verdict"] == ("yes" if can_win else "no")


def test_small_golomb_answers_agree_with_an_independent_enumeration():
    check_against_enumeration(*GOLOMB_1)


@pytest.mark.slow   # 30,000 states twice: seconds of CPU, tens of seconds on the shared machine
def test_small_rpn_answers_agree_with_an_independent_enumeration():
    check_against_enumeration(*RPN_1)


def test_a_winnable_witness_replays_on_the_machine_with_readable_buys(tmp_path):
    game, overrides = GAMES / "golomb_small.dbk", {"turns": 2}   # the first win found buys a card
    w = tmp_path / "w.json"
    answer = ask(game, overrides, "winnable", "1", "--witness", str(w))
    assert answer["verdict"] == "yes"
    steps = json.loads(w.read_text())["steps"]
    assert any(st.get("move", "").startswith("buy ") and " with " in st["move"] for st in steps)
    r = CliRunner().invoke(main, ["replay", str(game), str(w)])
    assert r.exit_code == 0, r.output
    assert "confirmed" in r.output and "winners" in r.output
    # chance steps name the card picked
    assert "chance random pick: outcome 0 of " in r.output and any(f"{suit})" in r.output for suit in "♥♣♦♠")
    # a witness edited to another move is caught by its label
    data = json.loads(w.read_text())
    k = next(i for i, st in enumerate(data["steps"]) if "option" in st and st["label"].startswith("(buy"))
    data["steps"][k]["label"] = "(buy2 0 c_x_0 c_y_0)"
    w.write_text(json.dumps(data))
    r = CliRunner().invoke(main, ["replay", str(game), str(w)])
    assert r.exit_code == 2 and "the witness says" in r.output and "Traceback" not in r.output


def test_questions_on_the_ir_only_refuse_a_dbk_clearly():
    game, overrides = GOLOMB_1
    r = CliRunner().invoke(main, ["query", str(game), "forced-win", "0", *sets(overrides)])
    assert r.exit_code == 2 and "forced-win" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["query", str(game), "exists", "--where", "true", *sets(overrides)])
    assert r.exit_code == 2 and "locations" in r.output and "Traceback" not in r.output


# proven verdicts of the asp engine on small GDL games (tests/query/test_asp_engine.py's EXPECTED)
GDL_VERDICTS = {
    ("cycler", "cycle", None): "yes", ("cycler", "terminates", None): "no", ("cycler", "always-ends", None): "yes",
    ("trap", "cycle", None): "yes", ("trap", "always-ends", None): "no",
    ("deadend", "terminates", None): "no", ("deadend", "playable", None): "no", ("deadend", "winnable", "p"): "yes",
    ("countdown", "cycle", None): "no", ("countdown", "terminates", None): "yes",
    ("countdown", "winnable", "second"): "yes",
    ("unwinnable", "winnable", "winner"): "yes", ("unwinnable", "winnable", "loser"): "no",
}


@pytest.mark.parametrize("name, question, role", sorted(GDL_VERDICTS, key=str))
def test_the_explicit_engine_searches_any_machine_clingo_on_gdl_included(name, question, role):
    from pathlib import Path

    from ggpbridge.gdl.kif import parse_kif
    from ggpbridge.gdl.machine import ClingoMachine
    from ggpbridge.query.explicit import answer_explicit
    from ggpbridge.query.machine_steps import MachineSteps
    data = Path(__file__).resolve().parents[1] / "query" / "data" / f"{name}.kif"
    steps = MachineSteps(ClingoMachine(parse_kif(data.read_text())))
    seat = None if role is None else [str(p) for p in steps.players].index(role)
    assert answer_explicit(steps, question, seat).verdict == GDL_VERDICTS[name, question, role]


def test_a_role_whose_one_move_is_not_noop_plays_it_while_another_chooses():
    # x can only `pass` while y picks a or b: one role has a choice, so this is y's decision
    # (it was refused as two roles moving at once), and y can win by picking a
    from pathlib import Path

    from ggpbridge.gdl.kif import parse_kif
    from ggpbridge.gdl.machine import ClingoMachine
    from ggpbridge.query.explicit import answer_explicit
    from ggpbridge.query.machine_steps import MachineSteps
    from ggpbridge.sim.stepwise import Decision
    data = Path(__file__).resolve().parents[1] / "query" / "data" / "forced_pass.kif"
    steps = MachineSteps(ClingoMachine(parse_kif(data.read_text())))
    node = steps.node(steps.initial_state())
    assert isinstance(node, Decision) and str(steps.players[node.player]) == "y" and len(node.options) == 2
    assert answer_explicit(steps, "winnable", 1).verdict == "yes"
    assert answer_explicit(steps, "winnable", 0).verdict == "yes"
