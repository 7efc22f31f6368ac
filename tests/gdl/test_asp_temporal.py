"""The temporal encoding: horizon queries in plain clingo, incremental grounding from Python."""
import subprocess
import sys
from pathlib import Path

import clingo
import pytest

from ggpbridge.gdl.asp import add_to_control, ground_horizon, to_asp_program
from ggpbridge.gdl.kif import parse_kif
from ggpbridge.gdl.machine import ClingoMachine

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "gdl"


def game(name: str):
    return parse_kif((EXAMPLES / f"{name}.kif").read_text())


@pytest.fixture(scope="module")
def ttt_text() -> str:
    return to_asp_program(game("tictactoe"), "temporal", horizon=9)


def solve_text(text: str, extra: str = "", horizon: int | None = None, models: int = 1):
    """Load the text in a Control as plain clingo would; the shown atoms of the models."""
    args = [f"--models={models}"] + (["-c", f"horizon={horizon}"] if horizon is not None else [])
    ctl = clingo.Control(args, logger=lambda code, msg: None)
    ctl.add("base", [], text + extra)
    ctl.ground([("base", [])])
    found = []
    ctl.solve(on_model=lambda m: found.append({str(s) for s in m.symbols(shown=True)}))
    return found


def test_some_play_ends_after_exactly_nine_moves(ttt_text):
    (model,) = solve_text(ttt_text, ":- _terminated(8).")
    assert sum(atom.startswith("does(") and "noop" not in atom for atom in model) == 9


def test_no_play_ends_within_four_moves(ttt_text):
    assert solve_text(ttt_text, horizon=4) == []
    assert solve_text(ttt_text, horizon=5) != []


def test_xplayer_can_win_and_a_draw_needs_a_full_board(ttt_text):
    (model,) = solve_text(ttt_text, ":- not goal(xplayer,100,horizon).")
    assert "outcome(xplayer,100)" in model and "outcome(oplayer,0)" in model
    draw = ":- not goal(xplayer,50,horizon)."
    assert solve_text(ttt_text, draw, horizon=8) == []
    assert solve_text(ttt_text, draw, horizon=9) != []


def test_the_program_runs_under_the_clingo_application(tmp_path, ttt_text):
    path = tmp_path / "tictactoe.lp"
    path.write_text(ttt_text)
    # `python -m clingo` is clingo's own command-line front end (the pip package has no binary).
    run = subprocess.run([sys.executable, "-m", "clingo", str(path), "-c", "horizon=5"],
                         capture_output=True, text=True, check=True)
    assert "\nSATISFIABLE" in run.stdout and "outcome(xplayer,100)" in run.stdout
    run = subprocess.run([sys.executable, "-m", "clingo", str(path), "-c", "horizon=4"],
                         capture_output=True, text=True, check=True)
    assert "\nUNSATISFIABLE" in run.stdout


def test_incremental_grounding_finds_the_shortest_win():
    ctl = clingo.Control(logger=lambda code, msg: None)
    add_to_control(ctl, game("tictactoe"), "temporal")
    ctl.add("check", ["t"], ":- query(t), not goal(xplayer,100,t).")
    grounded = None
    for horizon in range(10):
        ground_horizon(ctl, horizon, grounded)
        grounded = horizon
        if ctl.solve().satisfiable:
            break
    assert horizon == 5  # three marks of xplayer, two of oplayer in between


@pytest.mark.parametrize("name, horizon", [("montyhall", 4), ("minipoker", 3)])
def test_plays_in_clingo_are_the_machine_plays(name, horizon):
    """Every complete play: enumerated by clingo over the horizon, and by the machine."""
    desc = game(name)
    models = solve_text(to_asp_program(desc, "temporal", horizon=horizon), models=0)
    clingo_plays = {frozenset(a for a in m if a.startswith("does(")) for m in models}
    machine = ClingoMachine(desc)

    def plays(state, t):
        if machine.is_terminal(state):
            yield frozenset()
            return
        for joint in machine.joint_moves(state):
            made = {f"does({r},{m},{t})" for r, m in joint.items()}
            for rest in plays(machine.next_state(state, joint), t + 1):
                yield frozenset(made) | rest
    machine_plays = set(plays(machine.initial_state(), 0))
    assert len(models) == len(clingo_plays) == len(machine_plays)
    assert clingo_plays == machine_plays
    assert len(machine_plays) == {"montyhall": 24, "minipoker": 18}[name]


@pytest.mark.parametrize("final, same_door_wins", [("switch", False), ("stay", True)])
def test_montyhall_wins_in_clingo(final, same_door_wins):
    """Over all plays: staying wins exactly when the first choice hid the car, switching otherwise."""
    text = to_asp_program(game("montyhall"), "temporal", horizon=4)
    query = f":- not does(candidate,{final},3). :- not goal(candidate,100,horizon)."
    wins = solve_text(text, query, models=0)
    assert len(wins) == (3 * 2 if same_door_wins else 6)  # hidden/chosen doors x doors opened
    for model in wins:
        moves = [clingo.parse_term(a) for a in model if a.startswith("does(")]
        car = next(m.arguments[1].arguments[0] for m in moves if m.arguments[1].name == "hide_car")
        chosen = next(m.arguments[1].arguments[0] for m in moves if m.arguments[1].name == "choose")
        assert (car == chosen) == same_door_wins
