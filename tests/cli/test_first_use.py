"""What a new user meets first: a quick `--help`, usage errors for nonsense arguments."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from ggpbridge.cli import main

ROOT = Path(__file__).resolve().parents[2]
WAR = ROOT / "games" / "war_n4_seat.rcy"


def _modules_after(*args) -> set:
    """The modules loaded by running `ggpbridge ARGS` in a fresh interpreter."""
    code = ("import sys\nfrom ggpbridge.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "print('\\n'.join(sys.modules), file=sys.stderr)")
    r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT)
    return set(r.stderr.split())


def test_help_loads_no_command_module():
    mods = _modules_after("--help")
    assert "clingo" not in mods and "networkx" not in mods
    assert not {m for m in mods if m.startswith("ggpbridge.cli.")} - {"ggpbridge.cli.__init__"}


def test_simulate_does_not_load_clingo():
    mods = _modules_after("simulate", str(WAR), "-n", "3")
    assert "ggpbridge.sim" in mods
    assert "clingo" not in mods


def test_the_help_listing_matches_each_command():
    # the listing is kept apart from the commands (so --help imports none): it must not drift
    from ggpbridge.cli import _COMMANDS
    for name in _COMMANDS:
        cmd = main.get_command(None, name)
        assert cmd.name == name
        assert cmd.get_short_help_str(limit=200) == _COMMANDS[name][2]


def test_simulate_max_steps_zero_is_a_usage_error():
    r = CliRunner().invoke(main, ["simulate", str(WAR), "-n", "2", "--max-steps", "0"])
    assert r.exit_code == 2 and "--max-steps" in r.output and "Traceback" not in r.output


def test_conformance_help_says_what_it_does():
    r = CliRunner().invoke(main, ["conformance", "--help"])
    assert "seeded games" in r.output and "parsing" in r.output


def test_conformance_over_a_folder_without_games_is_an_error(tmp_path):
    (tmp_path / "notes.txt").write_text("no game here\n")
    r = CliRunner().invoke(main, ["conformance", str(tmp_path)])
    assert r.exit_code == 2 and "no game file" in r.output
