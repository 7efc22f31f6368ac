"""`generate`, `mutate` and `stats` from the command line."""
from __future__ import annotations

import json

from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main
from ggpbridge.folder_stats import summarise, table5_columns
from ggpbridge.gcardgame import parse_text, to_recycle
from ggpbridge.sim import compile_loaded


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_generate_writes_files_that_check_accepts(tmp_path):
    for lang in ("gcardgame", "recycle"):
        r = _run("generate", "--lang", lang, "-n", 6, "--seed", 2, "-o", tmp_path / lang, "--json")
        assert r.exit_code == 0, r.output
        rep = json.loads(r.output)
        assert rep["written"] == 6 and rep["with_errors"] == 0
        files = [f["file"] for f in rep["files"]]
        assert sorted(files) == sorted(str(p) for p in (tmp_path / lang).iterdir())
        r = _run("check", "-q", *files)
        assert r.exit_code == 0, r.output


def test_generate_is_deterministic_by_seed(tmp_path):
    for out in ("a", "b"):
        assert _run("generate", "--lang", "gcardgame", "-n", 3, "--seed", 9, "-o", tmp_path / out).exit_code == 0
    for f in (tmp_path / "a").iterdir():
        assert f.read_bytes() == (tmp_path / "b" / f.name).read_bytes()


def test_mutate_and_crossover(tmp_path):
    r = _run("mutate", GAMES / "uno.gcg", "-n", 5, "--seed", 1, "-o", tmp_path, "--json")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    assert rep["written"] == 5 and rep["with_errors"] == 0
    texts = {(tmp_path / f"uno_m000{i}.gcg").read_text() for i in range(5)}
    assert len(texts) == 5 and all("mutant" in t for t in texts)
    r = _run("mutate", GAMES / "war.rcy", "--crossover", GAMES / "gops.rcy", "-n", 4, "-o", tmp_path)
    assert r.exit_code == 0, r.output
    assert _run("check", "-q", *sorted(tmp_path.glob("war_m*.rcy"))).exit_code == 0


def test_crossover_across_languages_is_a_clear_error(tmp_path):
    r = _run("mutate", GAMES / "war.rcy", "--crossover", GAMES / "uno.gcg", "-n", 1, "-o", tmp_path)
    assert r.exit_code == 2
    assert "same language" in r.output and "Traceback" not in r.output


def _prog(text):
    return compile_loaded(to_recycle(parse_text(text, "t.gcg")))


# Three games whose outcome follows from the rules alone: seat 0 plays first and wins at once;
# nobody can score, so every play is a tie; the deck of 52 cannot deal 30 cards to 2 players.
WIN0 = "players 3\nstage 0\n  mandatory unconditional win\n"
TIE = "players 2\nstage 0\n  unconditional done\n"
CRASH = "players 2\nstage 0\n  com deal ALL 30\n"


def test_table5_columns_follow_from_the_rules():
    assert table5_columns(_prog(WIN0), 4, 0, "random", 10_000)["won"] == [4, 0, 0]
    tie = table5_columns(_prog(TIE), 3, 0, "random", 10_000)
    assert (tie["won"], tie["draws"], tie["crashes"]) == ([0, 0], 3, 0)
    crash = table5_columns(_prog(CRASH), 2, 0, "random", 10_000)
    assert (crash["crashes"], crash["draws"], crash["turns"]) == (2, 0, None)


def test_stats_and_simulate_give_one_row_for_a_gcardgame_game(tmp_path):
    # the same plays (seeds 0..n-1) through both commands: the same columns, in rules played
    sim = json.loads(_run("simulate", GAMES / "uno.gcg", "-n", 15, "--json").output)["outcomes"]
    row = json.loads(_run("stats", GAMES / "uno.gcg", "-n", 15, "--json").output)["games"][0]
    assert (row["won"], row["draws"], row["crashes"], row["crash_causes"]) == \
        (sim["won"], sim["draws"], sim["crashed"], sim["crashes"])
    assert row["unit"] == "rules" and row["turns"] == round(sim["mean"]["rules"], 2)


def test_stats_crashes_a_play_over_100_rules(tmp_path):
    # nobody can ever be done: every play is stopped by the step cap long after 100 rules,
    # and Table 5 calls that a crash over the limit, before the step cap
    (tmp_path / "loop.gcg").write_text("players 2\nstage 0\n  unconditional next\n")
    row = json.loads(_run("stats", tmp_path, "-n", 2, "--max-steps", 3000, "--json").output)["games"][0]
    assert (row["crashes"], row["crash_causes"], row["turns"], row["limit"]) == (2, {"over 100 rules": 2}, None, 100)


def test_stats_keeps_the_choice_unit_for_recycle_and_says_so():
    rep = json.loads(_run("stats", GAMES / "war.rcy", GAMES / "uno.gcg", "-n", 3, "--json").output)
    units = {r["file"].rsplit("/", 1)[-1]: r["unit"] for r in rep["games"]}
    assert units == {"war.rcy": "choices", "uno.gcg": "rules"}
    # two units cannot be averaged together
    assert rep["total"]["turns"] is None and rep["total"]["unit"] == "choices+rules"
    assert "unit" in _run("stats", GAMES / "war.rcy", "-n", 1).output


def test_spread_seeds_give_each_game_its_own_plays(tmp_path):
    text = (GAMES / "uno.gcg").read_text()
    for name in ("a.gcg", "b.gcg"):
        (tmp_path / name).write_text(text)
    rows = json.loads(_run("stats", tmp_path, "-n", 2, "--seed", 5, "--spread-seeds", "--json").output)["games"]
    assert [r["seed"] for r in rows] == [5, 7]
    # b's row is exactly the plays of seeds 7 and 8
    alone = json.loads(_run("stats", tmp_path / "b.gcg", "-n", 2, "--seed", 7, "--json").output)["games"][0]
    assert {k: v for k, v in rows[1].items() if k != "file"} == {k: v for k, v in alone.items() if k != "file"}


def test_players_fixed_for_generated_games_and_mutants(tmp_path):
    assert _run("generate", "--lang", "gcardgame", "-n", 8, "--players", 3, "-o", tmp_path / "g").exit_code == 0
    assert _run("mutate", GAMES / "blackjack.gcg", "--keep-players", "-n", 40, "-o", tmp_path / "m").exit_code == 0
    for f in [*(tmp_path / "g").iterdir(), *(tmp_path / "m").iterdir()]:
        assert "\nplayers 3\n" in "\n" + f.read_text(), f
    r = _run("generate", "--lang", "recycle", "--players", 3, "-o", tmp_path / "r")
    assert r.exit_code == 2 and "--players" in r.output


def test_stats_over_a_folder_keeps_going_past_an_unplayable_game(tmp_path):
    (tmp_path / "a_win.gcg").write_text(WIN0)
    (tmp_path / "b_tie.gcg").write_text(TIE)
    (tmp_path / "c_bad.gcg").write_text("players 2\nstage 0\n  have 14 win\n")
    r = _run("stats", tmp_path, "-n", 3, "--json")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    rows = {row["file"].rsplit("/", 1)[-1]: row for row in rep["games"]}
    assert rows["a_win.gcg"]["won"] == [3, 0, 0] and rows["b_tie.gcg"]["draws"] == 3
    assert "c_bad.gcg:3:8" in rows["c_bad.gcg"]["error"]
    assert rep["total"] == {"games": 2, "unplayable": 1, "plays": 6, "won": [3, 0, 0], "draws": 3, "crashes": 0,
                            "turns": rep["total"]["turns"], "unit": "rules"}
    r = _run("stats", tmp_path, "-n", 1)
    assert "won by 2" in r.output and "total" in r.output


def test_every_row_adds_up_on_generated_games(tmp_path):
    assert _run("generate", "--lang", "gcardgame", "-n", 12, "--seed", 4, "-o", tmp_path).exit_code == 0
    summary = summarise([tmp_path], 3, max_steps=20_000)
    for row in summary.rows:
        assert "error" not in row, row
        assert sum(row["won"]) + row["draws"] + row["crashes"] == row["plays"] == 3
