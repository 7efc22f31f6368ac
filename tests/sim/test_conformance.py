"""Every corpus game plays seeded games; the only failures are the files' own, listed ones."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from conftest import CORPUS, GAMES
from ggpbridge.cli import main

EXPECTED = Path(__file__).resolve().parent.parent / "data" / "corpus-expected-failures.txt"


def test_corpus_conformance_has_no_unexpected_failure(corpus):
    r = CliRunner().invoke(main, ["conformance", str(CORPUS / "rcy"), str(CORPUS / "gdl"), "--games", "10",
                                  "--expected", str(EXPECTED), "--json"], catch_exceptions=False)
    import json
    data = json.loads(r.stdout)
    assert data["unexpected_failures"] == [], data["unexpected_failures"]
    rows = {Path(x["file"]).relative_to(CORPUS).as_posix(): x for x in data["files"]}
    assert len(rows) >= 195
    failing = {k for k, v in rows.items() if v["stage"] != "ok"}
    listed = {ln.split("#")[0].strip() for ln in EXPECTED.read_text().splitlines()} - {""}
    assert failing == listed
    rules = rows["gdl/StealingBundles5.gdl"]
    assert rules["stage"] == "rules" and rules["seed"] == 0 and "StealingBundles5.gdl:30:33" in rules["message"]
    assert r.exit_code == 0


def test_our_games_all_play(tmp_path):
    r = CliRunner().invoke(main, ["conformance", str(GAMES), "--games", "5"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "unexpected failures: 0" in r.output


def test_an_unexpected_failure_fails_the_run(tmp_path):
    bad = tmp_path / "bad.rcy"
    bad.write_text("(game (setup (create players 2) (create deck (game iloc S) (deck (R (A)))))"
                   " (do ((move (top (game iloc EMPTY)) (top (game vloc P))))) (scoring max 1))")
    r = CliRunner().invoke(main, ["conformance", str(bad), "--games", "3"])
    assert r.exit_code == 1
    assert "[FAILED] rules (seed 0)" in r.output and "bad.rcy:1:" in r.output
