"""The self-contained ASP program (`translate --to asp`): plain clingo's plays are legal plays."""
import subprocess
import sys
from pathlib import Path

import clingo
import pytest

from ggpbridge.gdl.asp_export import asp_program_text
from ggpbridge.gdl.kif import parse_kif
from ggpbridge.gdl.machine import ClingoMachine

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "gdl"


def game(name: str):
    return parse_kif((EXAMPLES / f"{name}.kif").read_text())


def run_clingo(path: Path, *args: str) -> tuple[str, list[list[clingo.Symbol]]]:
    """Run clingo's own front end (`python -m clingo`; the pip package has no binary) on a file."""
    run = subprocess.run([sys.executable, "-m", "clingo", str(path), *args], capture_output=True, text=True)
    # clingo's binary exits with 10/20/30 (SAT, UNSAT, all models); the Python front end with 0
    assert run.returncode in (0, 10, 20, 30) and "error" not in run.stderr, run.stderr
    lines = run.stdout.splitlines()
    models = [[clingo.parse_term(a) for a in lines[i + 1].split()]
              for i, line in enumerate(lines) if line.startswith("Answer:")]
    return run.stdout, models


def replay(machine: ClingoMachine, model: list[clingo.Symbol]) -> tuple:
    """Replay the does/3 atoms of a model on the machine: the final state and the number of steps."""
    moves: dict[int, dict] = {}
    for atom in model:
        if atom.name == "does":
            role, move, t = atom.arguments
            moves.setdefault(t.number, {})[role] = move
    state = machine.initial_state()
    for t in range(len(moves)):
        assert set(moves[t]) == set(machine.roles()), f"one move per role at {t}"
        for role, move in moves[t].items():
            assert move in machine.legal_moves(state, role), f"{move} at {t}"
        state = machine.next_state(state, moves[t])
    return state, len(moves)


@pytest.mark.parametrize("name, horizon, plays", [("montyhall", 4, 24), ("minipoker", 3, 18)])
def test_every_play_of_plain_clingo_is_a_legal_complete_play(tmp_path, name, horizon, plays):
    desc = game(name)
    path = tmp_path / f"{name}.lp"
    path.write_text(asp_program_text(desc, horizon=horizon))
    out, models = run_clingo(path, "0")
    machine = ClingoMachine(desc)
    assert len(models) == plays
    seen = set()
    for model in models:
        state, steps = replay(machine, model)
        assert machine.is_terminal(state) and 1 <= steps <= horizon
        outcome = {a.arguments[0]: a.arguments[1].number for a in model if a.name == "outcome"}
        assert outcome == machine.goals(state)
        seen.add(frozenset(a for a in model if a.name == "does"))
    assert len(seen) == plays


def test_tictactoe_default_horizon_and_seeds_give_legal_plays(tmp_path):
    desc = game("tictactoe")
    path = tmp_path / "tictactoe.lp"
    text = asp_program_text(desc, title="tictactoe")
    assert "#const horizon = 100." in text and text.startswith("% tictactoe")
    path.write_text(text)
    machine = ClingoMachine(desc)
    ends = set()
    for seed in range(3):
        _, (model,) = run_clingo(path, "--rand-freq=1", f"--seed={seed}", "-c", "horizon=9")
        state, steps = replay(machine, model)
        assert machine.is_terminal(state) and 5 <= steps <= 9
        ends.add(state)
    assert len(ends) > 1  # the seed changes the play


def test_horizon_too_short_is_unsatisfiable_unless_plays_may_be_cut(tmp_path):
    path = tmp_path / "tictactoe.lp"
    path.write_text(asp_program_text(game("tictactoe"), horizon=4))
    out, models = run_clingo(path)
    assert "UNSATISFIABLE" in out and models == []
    out, (model,) = run_clingo(path, "-c", "must_end=0")
    state, steps = replay(ClingoMachine(game("tictactoe")), model)
    assert steps == 4 and not ClingoMachine(game("tictactoe")).is_terminal(state)
    assert not any(a.name == "outcome" for a in model)


def test_state_form_shows_the_initial_state(tmp_path):
    desc = game("tictactoe")
    path = tmp_path / "state.lp"
    path.write_text(asp_program_text(desc, form="state"))
    _, (model,) = run_clingo(path)
    machine = ClingoMachine(desc)
    state = machine.initial_state()
    legal = {(a.arguments[0], a.arguments[1]) for a in model if a.name == "legal"}
    assert legal == {(r, m) for r in machine.roles() for m in machine.legal_moves(state, r)}
    assert ("terminal" in {a.name for a in model}) == machine.is_terminal(state)


def test_bad_arguments():
    with pytest.raises(ValueError):
        asp_program_text(game("tictactoe"), form="nope")
    with pytest.raises(ValueError):
        asp_program_text(game("tictactoe"), 5, form="state")
