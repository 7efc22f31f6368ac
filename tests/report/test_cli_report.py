"""The report command as a user runs it: the page, --json, --sweep, and clean errors."""
from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from ggpbridge.cli import main

DATA = Path(__file__).parent / "data"
PLOTS = ("win-share", "length", "branching-stage", "branching-trick", "potential", "lead")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_the_page_is_self_contained_and_has_every_chart(tmp_path):
    out = tmp_path / "r.html"
    r = run("report", DATA / "comeback.rcy", "-n", 20, "--pipmc-games", 2, "--potential-games", 5, "-o", out)
    assert r.exit_code == 0, r.output
    assert "wrote" in r.output and "lead changes per game 1" in r.output
    page = out.read_text()
    for key in PLOTS:
        assert re.search(rf'<figure class="plot" id="plot-{key}">.*?<svg', page, re.S), key
    # nothing is fetched from elsewhere: no address in a src or href, no external style or script
    assert not re.search(r'(src|href)\s*=\s*"(https?:|//)', page)
    blob = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S).group(1)
    assert json.loads(blob)["summary"]["lead"]["lead_changes"]["mean"] == 1


def test_json_prints_the_metrics_without_a_page():
    r = run("report", DATA / "seat0_wins.rcy", "-n", 10, "--pipmc-games", 2, "--potential-games", 2, "--json")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.stdout)
    assert [s["win_share"] for s in rep["summary"]["seats"]] == [1, 0]
    assert rep["pipmc"]["games"] == 2 and len(rep["strategy_potential"]) == 2


def test_a_sweep_plots_each_metric_against_the_variable(tmp_path):
    out = tmp_path / "s.html"
    r = run("report", DATA / "fixed_length.rcy", "-n", 5, "--pipmc-games", 1, "--potential-games", 1,
            "--sweep", "ROUNDS=1..3", "-o", out)
    assert r.exit_code == 0, r.output
    assert re.search(r"decisions per game\s+3\s+6\s+9", r.output)
    page = out.read_text()
    assert re.search(r'id="plot-sweep">.*?<svg', page, re.S)
    data = json.loads(re.search(r'id="report-data">(.*?)</script>', page, re.S).group(1))
    assert data["values"] == [1, 2, 3]
    assert [x["summary"]["length"]["decisions"]["mean"] for x in data["reports"]] == [3, 6, 9]


def test_bad_input_is_a_clean_error(tmp_path):
    game = DATA / "seat0_wins.rcy"
    cases = [
        (["--sweep", "ROUNDS=3..1", "-o", tmp_path / "a.html"], "empty"),
        (["--sweep", "ROUNDS", "-o", tmp_path / "a.html"], "NAME=a..b"),
        (["--players", "clever", "--json"], "unknown player 'clever'"),
        (["--sweep", "NOPE=1..2", "--json"], "declares no variable 'NOPE"),
        ([], "-o FILE.html"),
        (["-o", tmp_path / "missing" / "r.html"], "cannot be written"),
    ]
    for args, message in cases:
        r = run("report", game, "-n", 2, *args)
        assert r.exit_code == 2, (args, r.output)
        assert message in r.output and "Traceback" not in r.output, (args, r.output)


def test_a_game_with_an_error_is_reported_with_its_position(tmp_path):
    bad = tmp_path / "bad.rcy"
    bad.write_text("(game\n  (setup (create players 2))\n  (stage player (end (== 1 1)) (choice ((bogus))))\n"
                   "  (scoring max ((current player) sto S)))\n")
    r = run("report", bad, "-n", 2, "--json")
    assert r.exit_code == 2 and re.search(r"bad\.rcy:\d+:\d+:", r.output), r.output


def test_the_summary_is_printed_when_the_page_cannot_be_written(tmp_path, monkeypatch):
    import ggpbridge.cli.report as report_cli
    folder = tmp_path / "out"
    folder.mkdir()
    real = report_cli.report_data

    def then_lose_the_folder(*args, **kw):
        rep = real(*args, **kw)
        folder.rmdir()   # the folder goes away while the games are played
        return rep
    monkeypatch.setattr(report_cli, "report_data", then_lose_the_folder)
    r = run("report", DATA / "seat0_wins.rcy", "-n", 5, "--pipmc-games", 1, "--potential-games", 1,
            "-o", folder / "r.html")
    assert r.exit_code == 1, r.output
    assert "fairness spread 1" in r.output and "cannot be written" in r.output
