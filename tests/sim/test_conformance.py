"""Every corpus game plays seeded games; the only failures are the files' own, listed ones."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import CORPUS, GAMES
from ggpbridge.cli import main

EXPECTED = Path(__file__).resolve().parent.parent / "data" / "corpus-expected-failures.txt"


@pytest.mark.slow
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


@pytest.mark.slow
def test_a_column_tells_what_sweep_logs_agree_on_for_the_translation_each_file_has_now(tmp_path):
    from ggpbridge.crosscheck import crosscheck
    from ggpbridge.recycle import parse_file
    source = (GAMES / "kuhn_poker.rcy").read_bytes()
    for name in ("now/kuhn_poker.rcy", "old/kuhn_poker.rcy", "diverged/kuhn_poker.rcy", "unlogged/kuhn_poker.rcy"):
        (tmp_path / name).parent.mkdir()
        (tmp_path / name).write_bytes(source)
    report = crosscheck(parse_file(tmp_path / "now" / "kuhn_poker.rcy"), 3, fit=20).as_dict()
    run = {**report, "fit": 20, "max_events": 2000}
    runs = [{**run, "file": "now/kuhn_poker.rcy"}, {**run, "file": "now/kuhn_poker.rcy", "seed": 2},
            {**run, "file": "old/kuhn_poker.rcy", "kif_sha256": "0" * 64, "playouts": 200},
            {**run, "file": "diverged/kuhn_poker.rcy", "divergence": {"seed": 1, "what": "the states differ"},
             "playouts": 1},
            {**run, "file": "kuhn_poker.rcy", "seed": 50}]   # a bare base name that four files have: none of them
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in runs))
    r = CliRunner().invoke(main, ["conformance", str(tmp_path), "--games", "1", "--lockstep-log", str(log),
                                  "--json"], catch_exceptions=False)
    logged = {Path(row["file"]).parent.name: row["logged"] for row in json.loads(r.stdout)["files"]}
    assert logged == {"now": "5 seeds agree (logged; fit 20, 2000 events)",   # seeds 0..2 and 2..4
                      "old": "logged runs are of older translations (1 runs)",
                      "diverged": "DIVERGED at seed 1 (logged)", "unlogged": "-"}
    # where no other file has its base name, an older log's bare name stands for the file
    from ggpbridge.sweep_logs import lockstep_logged, read_logs
    alone = tmp_path / "unlogged" / "kuhn_poker.rcy"
    assert lockstep_logged(alone, parse_file(alone), read_logs(log)[0], unique_base=True) == \
        "3 seeds agree (logged; fit 20, 2000 events)"


def test_a_log_that_is_not_a_sweep_log_is_a_clean_error(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps({"file": "games/war.rcy", "kif_sha256": "a" * 64}) + "\n")   # no seeds
    r = CliRunner().invoke(main, ["conformance", str(GAMES / "kuhn_poker.rcy"), "--games", "1",
                                  "--lockstep-log", str(log)])
    assert r.exit_code != 0 and "Traceback" not in r.output
    assert f"{log}:1: not a sweep log line (KeyError: 'fit')" in r.output


def test_an_expected_list_that_is_not_utf8_is_a_usage_error(tmp_path):
    # before: a UnicodeDecodeError traceback (click.File decodes the list lazily)
    listed = tmp_path / "expected.txt"
    listed.write_bytes(b"\xff\xfe")
    r = CliRunner().invoke(main, ["conformance", str(GAMES / "kuhn_poker.rcy"), "--expected", str(listed)])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert f"Invalid value for --expected: {listed}: not UTF-8 text: byte 0xff cannot be decoded" in r.output
