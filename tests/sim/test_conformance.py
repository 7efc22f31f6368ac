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
    from ggpbridge.sweep_logs import current_sha
    # four files of one base name: two copies of Kuhn poker (twins), and two other games
    sources = {"now": "kuhn_poker.rcy", "unlogged": "kuhn_poker.rcy", "old": "war_n4_winner.rcy",
               "diverged": "leduc_poker.rcy"}
    for folder, game in sources.items():
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "kuhn_poker.rcy").write_bytes((GAMES / game).read_bytes())
    report = crosscheck(parse_file(tmp_path / "now" / "kuhn_poker.rcy"), 3, fit=20).as_dict()
    run = {**report, "fit": 20, "max_events": 2000}
    leduc = current_sha(parse_file(tmp_path / "diverged" / "kuhn_poker.rcy"), 20) + "0" * 52
    runs = [{**run, "file": "now/kuhn_poker.rcy"}, {**run, "file": "now/kuhn_poker.rcy", "seed": 2},
            {**run, "file": "old/kuhn_poker.rcy", "kif_sha256": "0" * 64, "playouts": 200},
            {**run, "file": "diverged/kuhn_poker.rcy", "kif_sha256": leduc,
             "divergence": {"seed": 1, "what": "the states differ"}, "playouts": 1},
            {**run, "file": "kuhn_poker.rcy", "seed": 50}]   # a bare base name that four files have: none of them
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in runs))
    r = CliRunner().invoke(main, ["conformance", str(tmp_path), "--games", "1", "--lockstep-log", str(log),
                                  "--json"], catch_exceptions=False)
    logged = {Path(row["file"]).parent.name: row["logged"] for row in json.loads(r.stdout)["files"]}
    assert logged == {"now": "5 seeds agree (logged; fit 20, 2000 events)",   # seeds 0..2 and 2..4
                      "old": "logged runs are of older translations (1 runs)",
                      "diverged": "DIVERGED at seed 1 (logged)",
                      # the copy's twin's runs count for it
                      "unlogged": "5 seeds agree (logged; fit 20, 2000 events) (with the runs of its twin "
                                  "now/kuhn_poker.rcy)"}
    # where no other file has its base name, an older log's bare name stands for the file
    from ggpbridge.sweep_logs import lockstep_logged, read_logs
    alone = tmp_path / "unlogged" / "kuhn_poker.rcy"
    assert lockstep_logged(alone, parse_file(alone), read_logs(log)[0], unique_base=True) == \
        "3 seeds agree (logged; fit 20, 2000 events)"


def test_the_logged_column_counts_the_runs_of_twins_as_the_summary_does(tmp_path, corpus):
    from ggpbridge.recycle import parse_file
    from ggpbridge.sweep_logs import current_sha
    # Blackjack2's two files are twins (the .gdl spells out teams of one player each); GOPS2's
    # are the same game, but the .rcy's deck name reaches its translation: not twins
    for game in ("Blackjack2", "GOPS2"):
        for d in ("rcy", "gdl"):
            (tmp_path / d).mkdir(exist_ok=True)
            (tmp_path / d / f"{game}.{d}").write_bytes((corpus / d / f"{game}.{d}").read_bytes())

    def run(name, seed, playouts, **extra):
        sha = current_sha(parse_file(tmp_path / name), 0)
        return {"file": name, "fit": 0, "max_events": 500, "seed": seed, "playouts": playouts,
                "kif_sha256": sha + "0" * 52, "capped": [], "overflowed": [], "divergence": None, **extra}
    runs = [run("rcy/Blackjack2.rcy", 0, 4), run("gdl/Blackjack2.gdl", 2, 5), run("rcy/GOPS2.rcy", 0, 7),
            {**run("rcy/GOPS2.rcy", 0, 1), "kif_sha256": "0" * 64}]   # an older translation
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in runs))
    r = CliRunner().invoke(main, ["conformance", str(tmp_path / "rcy"), str(tmp_path / "gdl"), "--games", "1",
                                  "--lockstep-log", str(log), "--json"], catch_exceptions=False)
    logged = {Path(row["file"]).relative_to(tmp_path).as_posix(): row["logged"]
              for row in json.loads(r.stdout)["files"]}
    assert logged == {   # seeds 0..3 and 2..6, whichever twin played them
        "rcy/Blackjack2.rcy": "7 seeds agree (logged; fit 0, 500 events) (with the runs of its twin gdl/Blackjack2.gdl)",
        "gdl/Blackjack2.gdl": "7 seeds agree (logged; fit 0, 500 events) (with the runs of its twin rcy/Blackjack2.rcy)",
        "rcy/GOPS2.rcy": "7 seeds agree (logged; fit 0, 500 events)",
        "gdl/GOPS2.gdl": "-"}
    # a divergence on a twin undoes both
    log.write_text(log.read_text() + json.dumps(run("gdl/Blackjack2.gdl", 9, 0, divergence={"seed": 9})) + "\n")
    r = CliRunner().invoke(main, ["conformance", str(tmp_path / "rcy" / "Blackjack2.rcy"), "--games", "1",
                                  "--lockstep-log", str(log), "--json"], catch_exceptions=False)
    # its twin is not among the files checked: its own runs alone count
    assert json.loads(r.stdout)["files"][0]["logged"] == "4 seeds agree (logged; fit 0, 500 events)"
    r = CliRunner().invoke(main, ["conformance", str(tmp_path), "--games", "1", "--lockstep-log", str(log),
                                  "--json"], catch_exceptions=False)
    rows = {Path(row["file"]).name: row["logged"] for row in json.loads(r.stdout)["files"]}
    assert rows["Blackjack2.rcy"] == rows["Blackjack2.gdl"] == "DIVERGED at seed 9 (logged)"


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
