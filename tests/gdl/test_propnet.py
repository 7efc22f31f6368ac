"""The propositional network, and PropnetMachine step by step against ClingoMachine."""
import json
import random
from pathlib import Path

import clingo
import pytest
from click.testing import CliRunner

from ggpbridge.cli import main
from ggpbridge.gdl.errors import GameError, IllegalMoveError
from ggpbridge.gdl.kif import parse_kif
from ggpbridge.gdl.machine import ClingoMachine
from ggpbridge.gdl.propnet import Propnet, Unstratified
from ggpbridge.gdl.propnet_machine import PropnetMachine
from ggpbridge.translate import load_description

from conftest import CORPUS, GAMES

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "gdl"
PATHS = Path(__file__).resolve().parent / "data" / "paths.kif"

# atoms: x=1, y=2 (inputs); p=3, q=4, r=5, s=6
LOOP = [
    (False, [3], [4]),          # p :- q.
    (False, [4], [3]),          # q :- p.
    (False, [3], [1]),          # p :- x.
    (False, [5], [-3]),         # r :- not p.
    (False, [6], [4, 2]),       # s :- q, y.
]


def holding(net: Propnet) -> set[int]:
    return {a for a in (3, 4, 5, 6) if net.value[a]}


def test_a_positive_loop_holds_while_something_outside_supports_it_and_falls_with_it():
    net = Propnet(LOOP, inputs=[1, 2])
    assert holding(net) == {5}
    net.set_inputs([1, 2], [])
    assert holding(net) == {3, 4, 6}
    # p and q still support each other by their counts: only the loop's fixpoint drops them
    net.set_inputs([], [1])
    assert holding(net) == {5}
    assert net.loops and not net.violated


def test_a_network_is_the_same_whatever_it_was_before():
    """Every assignment of the inputs, reached from every other, gives the least model's values."""
    expected = {(): {5}, (1,): {3, 4}, (2,): {5}, (1, 2): {3, 4, 6}}
    net = Propnet(LOOP, inputs=[1, 2])
    for before in expected:
        for after, values in expected.items():
            net.set_inputs(before, {1, 2} - set(before))
            net.set_inputs(after, {1, 2} - set(after))
            assert holding(net) == values, (before, after)


def test_negation_through_a_loop_is_refused():
    with pytest.raises(Unstratified):
        Propnet([(False, [3], [-4]), (False, [4], [-3])], inputs=[1])


def test_an_integrity_constraint_whose_body_holds_is_reported():
    net = Propnet([(False, [3], [1]), (False, [], [3, -2])], inputs=[1, 2])
    assert not net.violated
    net.set_inputs([1], [])
    assert net.violated
    net.set_inputs([2], [])
    assert not net.violated


def lockstep(path: Path, playouts: int, every_goal: bool = True) -> int:
    """Random playouts of both machines on the same moves; every answer compared. The steps."""
    desc = parse_kif(path.read_text()) if path.suffix == ".kif" else load_description(path)
    clingo_m = ClingoMachine(desc, percepts=True, cache_size=1)
    propnet = PropnetMachine(desc, cache_size=1)
    assert propnet.roles() == clingo_m.roles()
    steps = 0
    for seed in range(playouts):
        rng, state = random.Random(seed), clingo_m.initial_state()
        assert propnet.initial_state() == state
        while True:
            assert propnet.is_terminal(state) == clingo_m.is_terminal(state)
            if every_goal or clingo_m.is_terminal(state):
                assert propnet.goals(state) == clingo_m.goals(state)
            if clingo_m.is_terminal(state):
                break
            joint = {}
            for role in clingo_m.roles():
                legal = clingo_m.legal_moves(state, role)
                assert propnet.legal_moves(state, role) == legal
                joint[role] = rng.choice(legal)
            assert propnet.sees(state, joint) == clingo_m.sees(state, joint)
            following = propnet.next_state(state, joint)
            assert following == clingo_m.next_state(state, joint)
            # alternately the propnet's own state object and the clingo machine's go on
            state = following if steps % 2 else clingo_m.next_state(state, joint)
            steps += 1
    return steps


@pytest.mark.parametrize("path", [EXAMPLES / "tictactoe.kif", EXAMPLES / "montyhall.kif"], ids=lambda p: p.name)
def test_the_same_answers_as_clingo_on_hand_written_games(path):
    assert lockstep(path, 30) > 30


def test_the_same_answers_as_clingo_with_recursion_and_negation():
    """Paths: positive loops in the ground program, `not` over them in legal and goal."""
    machine = PropnetMachine(parse_kif(PATHS.read_text()))
    assert machine.sizes()["loops"] > 0
    assert lockstep(PATHS, 150) > 500


def test_the_same_answers_as_clingo_on_a_translated_game():
    assert lockstep(GAMES / "kuhn_poker.rcy", 10, every_goal=False) > 10



@pytest.mark.parametrize("path", [EXAMPLES / "tictactoe.kif", GAMES / "kuhn_poker.rcy"], ids=lambda p: p.name)
def test_the_search_s_unchecked_moves_and_state_numbers(path):
    """options / next_unchecked (what the asp engine's graph search plays) give ClingoMachine's
    answers, and state_atoms one number set per state, whichever object holds it."""
    desc = parse_kif(path.read_text()) if path.suffix == ".kif" else load_description(path)
    clingo_m, propnet = ClingoMachine(desc, cache_size=1), PropnetMachine(desc, cache_size=1)
    numbers: dict = {}
    for seed in range(10):
        rng, state = random.Random(seed), propnet.initial_state()
        while True:
            terminal, legal = propnet.options(state)
            assert (terminal, legal) == clingo_m.options(state)
            assert legal == tuple(clingo_m.legal_moves(state, r) for r in clingo_m.roles())
            atoms = propnet.state_atoms(state)
            assert atoms == propnet.state_atoms(frozenset(list(state))) and len(atoms) == len(state)   # a copy
            assert numbers.setdefault(atoms, state) == state   # two states never share their numbers
            if terminal:
                break
            joint = tuple(rng.choice(moves) for moves in legal)
            following = propnet.next_unchecked(state, joint)
            assert following == clingo_m.next_unchecked(state, joint)
            assert following == clingo_m.next_state(state, dict(zip(clingo_m.roles(), joint)))
            state = following

@pytest.mark.slow
@pytest.mark.parametrize("name", ["agram.rcy", "war_n4_winner.rcy", "leduc_poker.rcy"])
def test_the_same_answers_as_clingo_on_larger_translated_games(name):
    assert lockstep(GAMES / name, 2, every_goal=False) > 10


@pytest.mark.slow
@pytest.mark.parametrize("name", ["gdl/Comet2.gdl", "gdl/DuckSoup2.gdl"])
def test_the_same_answers_as_clingo_on_corpus_games(corpus, name):
    assert lockstep(CORPUS / name, 3, every_goal=False) > 3


def test_bad_queries_are_refused_as_clingo_refuses_them():
    machine = PropnetMachine(parse_kif((EXAMPLES / "tictactoe.kif").read_text()))
    state = machine.initial_state()
    with pytest.raises(GameError, match="can never hold"):
        machine.legal_moves(state | {clingo.Function("nothing")}, "xplayer")
    with pytest.raises(IllegalMoveError):
        machine.next_state(state, {"xplayer": "noop", "oplayer": "noop"})
    with pytest.raises(IllegalMoveError, match="no move for oplayer"):
        machine.next_state(state, {"xplayer": "(mark 1 1)"})


def test_crosscheck_on_the_propnet_checks_the_same_translation_and_plays():
    runs = {}
    for machine in ("clingo", "propnet"):
        res = CliRunner().invoke(main, ["crosscheck", str(GAMES / "kuhn_poker.rcy"), "-n", "4", "--json",
                                        "--machine", machine])
        assert res.exit_code == 0, res.output
        runs[machine] = json.loads(res.output)
    same = ("kif_sha256", "playouts", "decisions", "chance", "gdl_steps", "divergence")
    assert [runs["propnet"][k] for k in same] == [runs["clingo"][k] for k in same]
    assert runs["propnet"]["playouts"] == 4 and runs["propnet"]["divergence"] is None


def test_playouts_on_the_propnet_are_those_on_clingo():
    """Same seeds, same legal moves in the same order: the same games, the same outcomes."""
    games = {}
    for engine in ("clingo", "propnet"):
        res = CliRunner().invoke(main, ["playout", str(EXAMPLES / "tictactoe.kif"), "-n", "12", "--json",
                                        "--engine", engine])
        assert res.exit_code == 0, res.output
        games[engine] = [(g["seed"], g["goals"], g["steps"]) for g in json.loads(res.output)["games"]]
    assert games["propnet"] == games["clingo"] and len(games["clingo"]) == 12


ILL_FORMED_GOALS = """(role x) (init (s 0)) (legal x go) (<= (next (s 1)) (true (s 0))) (<= terminal (true (s 1)))
(<= (goal x high) (true (s 1))) (<= (goal x 10) (true (s 0))) (<= (goal x 20) (true (s 0)))"""


@pytest.mark.parametrize("machine", ["clingo", "propnet"])
def test_two_goal_values_or_a_goal_that_is_no_integer_is_an_ill_formed_game_on_both_machines(machine):
    from ggpbridge.gdl.propnet_machine import PropnetMachine
    cls = ClingoMachine if machine == "clingo" else PropnetMachine
    m = cls(parse_kif(ILL_FORMED_GOALS), check=False)
    s0 = m.initial_state()
    s1 = m.next_state(s0, {"x": "go"})
    for state in (s0, s1):   # 10 and 20 at once; then `high`
        with pytest.raises(GameError, match="ill-formed goal for x in this state"):
            m.goals(state)
