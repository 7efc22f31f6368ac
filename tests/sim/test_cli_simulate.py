"""The simulate command as a user runs it."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_json_report_and_reproducibility():
    a = json.loads(run("simulate", str(GAMES / "kuhn_poker.rcy"), "-n", "50", "--seed", "3", "--json").stdout)
    b = json.loads(run("simulate", str(GAMES / "kuhn_poker.rcy"), "-n", "50", "--seed", "3", "--json").stdout)
    for k in ("seconds", "games_per_second"):
        a.pop(k), b.pop(k)
    assert a == b
    assert a["games"] == 50 and a["finished"] == 50
    assert abs(sum(s["win_share"] for s in a["seats"]) - 1) < 1e-9


def test_set_overrides_a_declared_variable():
    r = run("simulate", str(GAMES / "agram.rcy"), "-n", "20", "--set", "HANDSIZE=2", "--json")
    rep = json.loads(r.stdout)
    assert rep["choices_per_game"]["distribution"] == {"8": 20}   # 4 players x 2 tricks


def test_unknown_variable_and_bad_set_are_clean_errors():
    r = CliRunner().invoke(main, ["simulate", str(GAMES / "agram.rcy"), "--set", "NOPE=1"])
    assert r.exit_code == 2 and "declares no variable 'NOPE" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["simulate", str(GAMES / "agram.rcy"), "--set", "NOPE"])
    assert r.exit_code == 2 and "NAME=VALUE" in r.output
    r = CliRunner().invoke(main, ["simulate", str(GAMES / "agram.rcy"), "--players", "random,smart"])
    assert r.exit_code == 2 and "unknown player 'smart'" in r.output and "Traceback" not in r.output


def test_table_output_names_runaway_seeds():
    r = run("simulate", str(GAMES / "war_n4_seat.rcy"), "-n", "60")
    assert "cycle seeds" in r.output and "wins" in r.output


def test_interrupt_keeps_what_was_computed():
    from ggpbridge.recycle import parse_file
    from ggpbridge.sim import compile_loaded, simulate
    prog = compile_loaded(parse_file(GAMES / "kuhn_poker.rcy"))
    done = []

    def progress(k):
        done.append(k)
        if len(done) == 7:
            raise KeyboardInterrupt
    stats = simulate(prog, 100, 0, progress=progress)
    assert stats.interrupted and stats.games == 7 and stats.report()["finished"] == 7


def test_players_see_only_their_own_hand():
    from ggpbridge.recycle import parse_file
    from ggpbridge.sim import compile_loaded, play

    seen = []

    class Spy:
        def choose(self, view, options):
            obs = view.observation()["locations"]
            seen.append((view.player, {k: v for k, v in obs.items() if k[1] == "iloc" and k[0][0] == "player"}))
            return 0
    prog = compile_loaded(parse_file(GAMES / "agram.rcy"))
    play(prog, 1, [Spy() for _ in range(4)])
    assert seen
    for me, hands in seen:
        visible = [k[0][1] for k, v in hands.items() if isinstance(v, tuple)]
        assert visible == [me]   # its own hand only; the others show as counts
        assert all(isinstance(v, int) for k, v in hands.items() if k[0][1] != me)


def test_a_rule_error_met_while_playing_names_the_file_line_and_column(tmp_path):
    # every player must play a card each turn; player 0 holds one card, player 1 two,
    # so player 0's second turn takes a card from an empty hand
    game = tmp_path / "short_hand.rcy"
    game.write_text("""(game
  (setup (create players 2)
         (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE)))))
  (do ((move (top (game iloc STOCK)) (top ((0 player) iloc HAND)))
       (repeat 2 (move (top (game iloc STOCK)) (top ((1 player) iloc HAND))))))
  (stage player
    (end (all player 'P (== (size ('P iloc HAND)) 0)))
    (choice ((move (top ((current player) iloc HAND)) (top (game vloc PILE))))))
  (scoring max (size ((current player) iloc HAND))))
""")
    res = CliRunner().invoke(main, ["simulate", str(game), "-n", "2"])
    assert f"seed 0: {game}:8:20: error: a card is taken from an empty location" in res.output
    assert "<input>" not in res.output


def test_a_set_value_of_the_wrong_kind_is_a_positioned_error_for_every_command():
    # before: every game ended in "internal error: TypeError" (simulate), a traceback
    # (show, query, translate --to asp), or a translation with a name for an integer (gdl2)
    kuhn = str(GAMES / "kuhn_poker.rcy")
    for args in (["simulate", kuhn, "-n", "3"], ["show", kuhn, "--seed", "1"], ["query", kuhn, "terminates"],
                 ["translate", kuhn, "--to", "asp"], ["translate", kuhn, "--to", "gdl2"]):
        r = CliRunner().invoke(main, args + ["--set", "ANTE=two"])
        assert r.exit_code == 2 and "Traceback" not in r.output, args
        assert "kuhn_poker.rcy:21:3: error: --set ANTE=two: 'ANTE is declared as an integer, not a name" in r.output
    r = CliRunner().invoke(main, ["simulate", str(GAMES / "lost_cities.rcy"), "-n", "1", "--set", "COLOURS=RED"])
    assert r.exit_code == 2 and "'COLOURS is declared as a list of names, not a name" in r.output


@pytest.mark.parametrize("value, shown", [("3.5", "'3.5'"), ("", "an empty value"), ("-1.0", "'-1.0'")])
def test_a_set_value_that_is_no_name_is_not_called_a_name(value, shown):
    # before: "--set ANTE=3.5: 'ANTE is declared as an integer, not a name", though 3.5 is no name
    r = CliRunner().invoke(main, ["simulate", str(GAMES / "kuhn_poker.rcy"), "-n", "1", "--set", f"ANTE={value}"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert (f"kuhn_poker.rcy:21:3: error: --set ANTE={value}: 'ANTE is declared as an integer; {shown} is not "
            f"an integer") in r.output, r.output
    assert "not a name" not in r.output
    r = CliRunner().invoke(main, ["simulate", str(GAMES / "lost_cities.rcy"), "-n", "1", "--set", "COLOURS="])
    assert "'COLOURS is declared as a list of names; an empty value is not a list of names" in r.output


def test_a_run_where_no_game_finished_shows_dashes_not_none():
    from pathlib import Path
    cycle = Path(__file__).parent / "data" / "runaway_cycle.rcy"
    r = run("simulate", str(cycle), "-n", "3")
    assert "finished 0, cycles 3" in r.stdout
    # before: "None" in every mean cell, and "choices per game: None (sd 0.0)"
    assert "None" not in r.stdout
    rows = [line.split() for line in r.stdout.splitlines() if line[:2] in ("0 ", "1 ")]
    assert rows and all(row[1:] == ["-"] * 5 for row in rows)
    assert "choices per game: -; steps per game: - (no game finished)" in r.stdout
