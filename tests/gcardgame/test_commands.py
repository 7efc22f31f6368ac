"""The commands take G_cardgame files (`.gcg`) through the one front-end entry (ggpbridge.frontends):
what lowers plays and translates; what waits for an IR extension is a positioned error."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main

UNO, TEXAS, BLACKJACK = (str(GAMES / g) for g in ("uno.gcg", "texas_holdem.gcg", "blackjack.gcg"))


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_check_names_the_language_and_accepts_the_papers_three_games():
    r = run("check", UNO, TEXAS, BLACKJACK)
    assert r.exit_code == 0, r.output
    assert f"{UNO}: ok (G_cardgame; 0 error(s)" in r.output
    assert f"{TEXAS}: ok (G_cardgame; 0 error(s)" in r.output and "no dialect fits" not in r.output
    assert f"{BLACKJACK}: ok (G_cardgame; 0 error(s)" in r.output


def test_simulate_plays_uno_to_its_end_and_splits_the_wins():
    r = run("simulate", UNO, "-n", "100", "--json")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    assert rep["finished"] == 100 and len(rep["seats"]) == 3
    assert sum(s["win_share"] for s in rep["seats"]) == pytest.approx(1.0)


def test_a_construct_that_is_not_lowered_is_a_positioned_error_not_a_traceback(tmp_path):
    game = tmp_path / "puin2.gcg"
    game.write_text("players 2\ntables 1\nstage 0\n  com deal ALL 3\nstage 1\n  mandatory unconditional puin T0*2 λ up\n",
                    encoding="utf-8")
    r = run("simulate", str(game), "-n", "3")
    assert r.exit_code != 0
    assert f"{game}:6:27: unsupported: 'puin' of 2 cards" in r.output
    assert "Traceback" not in r.output


def test_simulate_plays_texas_showdowns_by_the_ranking():
    r = run("simulate", TEXAS, "-n", "50", "--json")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    assert rep["finished"] == 50 and sum(s["win_share"] for s in rep["seats"]) == pytest.approx(1.0)


def test_translate_gives_valid_gdl2_and_the_dialect_option_is_refused(tmp_path):
    out = tmp_path / "uno.kif"
    assert run("translate", UNO, "--to", "gdl2", "-o", str(out)).exit_code == 0
    r = run("validate", str(out))
    assert r.exit_code == 0 and "0 errors" in r.output and "GDL-II" in r.output
    r = run("simulate", UNO, "-n", "1", "--dialect", "0.5.10")
    assert r.exit_code != 0 and "G_cardgame file" in r.output and "Traceback" not in r.output


def test_info_names_the_language():
    r = run("info", UNO)
    assert r.exit_code == 0 and r.output.splitlines()[0].endswith("(G_cardgame)")


def test_a_file_that_is_not_utf8_is_refused_at_its_first_bad_byte(tmp_path):
    bad = tmp_path / "latin.gcg"
    bad.write_bytes((GAMES / "uno.gcg").read_bytes().replace(b"\n", b"\n# caf\xe9\n", 1))
    r = run("check", str(bad))
    assert r.exit_code == 1 and f"{bad}:2:6: error: not UTF-8 text: byte 0xe9" in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize("setting, bound", [("SUITS=5", "1..4"), ("SUITS=0", "1..4"), ("NUMBERS=20", "1..13"),
                                            ("NUMBERS=0", "1..13"), ("NUMBERS=-1", "1..13")])
def test_a_deck_size_the_deck_cannot_have_is_a_setting_error_for_every_command(setting, bound):
    # before: SUITS=5 or NUMBERS=20 kept the 52 cards silently, and 0 failed every game at
    # `com deal` with "a card is taken from an empty location"
    uno = str(GAMES / "uno.gcg")
    name, value = setting.split("=")
    for args in (["show", uno, "--seed", "0"], ["simulate", uno, "-n", "2"], ["query", uno, "terminates"],
                 ["translate", uno, "--to", "gdl2"]):
        r = run(*args, "--set", setting)
        assert r.exit_code == 2 and "Traceback" not in r.output, (args, r.output)
        assert (f"error: --set {setting}: '{name} is declared as an integer in {bound} (the "
                f"{'suits' if name == 'SUITS' else 'highest card number'} of the deck") in r.output, r.output
        assert f"not {value}" in r.output and "empty location" not in r.output


def test_the_deck_sizes_within_the_bounds_still_play():
    r = run("simulate", str(GAMES / "uno.gcg"), "-n", "2", "--set", "NUMBERS=3", "--set", "SUITS=2",
            "--set", "DEALA=1", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["games"] == 2
