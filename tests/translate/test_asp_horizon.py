"""`translate --to asp` chooses a horizon the game's plays fit in, deterministically."""
from __future__ import annotations

import re

import clingo
from click.testing import CliRunner

from ggpbridge.cli import main

# no decision at all: 120 passes of a stage, two players; a play is 121 joint moves of the
# translation (each pass one: the increment runs in the step of the end test), more than the
# old fixed default of 100
LONG = """(game
  (setup
    (create players 2)
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO)))))
  (stage player
    (end (== (game sto COUNT) 120))
    (do ((inc (game sto COUNT) 1))))
  (scoring max (size ((current player) iloc HAND))))
"""


def _translate(path, *extra):
    r = CliRunner().invoke(main, ["translate", str(path), "--to", "asp", *extra])
    assert r.exit_code == 0, r.output
    return r.stdout


def _satisfiable(text: str) -> bool:
    ctl = clingo.Control(["1"])
    ctl.add("base", [], text)
    ctl.ground([("base", [])])
    return ctl.solve().satisfiable


def test_the_default_horizon_fits_the_plays_and_says_how(tmp_path):
    game = tmp_path / "long.rcy"
    game.write_text(LONG)
    text = _translate(game)
    horizon = int(re.search(r"#const horizon = (\d+)\.", text).group(1))
    assert horizon >= 121
    assert re.search(r"% Horizon \d+: 1.5 x the longest of 3 seeded random plays \(121 joint moves\)", text)
    assert _satisfiable(text)           # plain clingo finds a play that ends
    assert _translate(game) == text     # the same input gives the same bytes


def test_an_explicit_horizon_is_kept(tmp_path):
    game = tmp_path / "long.rcy"
    game.write_text(LONG)
    text = _translate(game, "--horizon", "100")
    assert "#const horizon = 100." in text and "% Horizon 100: as asked" in text
    assert not _satisfiable(text)       # too short for every play, as the header of asp.md warns


def test_a_game_too_large_to_play_still_translates_with_the_default_and_says_so(tmp_path):
    from conftest import TOO_LARGE_GAME
    game = tmp_path / "big.rcy"
    game.write_text(TOO_LARGE_GAME)
    text = _translate(game)
    assert "#const horizon = 100." in text
    assert "% Horizon 100: the default; not known to fit the game's plays: the game could not be played" in text


def test_a_game_whose_plays_cycle_is_not_played_on_clingo_and_the_header_says_why(tmp_path, monkeypatch):
    import ggpbridge.playouts as playouts
    game = tmp_path / "cycle.rcy"
    game.write_text((__import__("pathlib").Path(__file__).parents[1] / "sim/data/runaway_cycle.rcy").read_text())

    def refuse(*a, **k):
        raise AssertionError("the clingo measurement ran on a game the simulator shows never ends")
    monkeypatch.setattr(playouts, "measured_horizon", refuse)
    text = _translate(game)
    assert "#const horizon = 100." in text
    assert re.search(r"% Horizon 100: the default; not known to fit the game's plays: random plays of the game "
                     r"cycle \(simulator, seeds 0", text)


def test_a_game_longer_than_a_measuring_play_is_not_played_on_clingo(tmp_path, monkeypatch):
    import ggpbridge.playouts as playouts
    game = tmp_path / "long.rcy"
    game.write_text(LONG.replace("120))", "2500))"))
    monkeypatch.setattr(playouts, "measured_horizon", lambda *a, **k: (_ for _ in ()).throw(AssertionError()))
    text = _translate(game)
    assert re.search(r"% Horizon 100: .*a random play takes \d+ simulator steps, each at least one joint move", text)
