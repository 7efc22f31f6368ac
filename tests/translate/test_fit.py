"""Translations with tables fitted to sampled plays: smaller, exact inside the fit, `overflow` beyond it."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import GAMES, TOO_LARGE_GAME
from ggpbridge import translate
from ggpbridge.cli import main
from ggpbridge.crosscheck import Divergence, Lockstep, crosscheck
from ggpbridge.gdl.ast import Description
from ggpbridge.gdl.kif import parse_kif, to_kif
from ggpbridge.gdl.machine import ClingoMachine
from ggpbridge.gdl.validate import validate
from ggpbridge.playouts import run
from ggpbridge.recycle import parse_file, parse_text
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.extent import measure
from ggpbridge.translators.recycle_gdl import Fit, Translation

WAR = GAMES / "war_n4_winner.rcy"


def test_measure_records_the_fullest_location_and_the_range_of_each_integer():
    prog = compile_loaded(parse_file(WAR))
    ext = measure(prog, 30)
    sizes, ints = ext.named(prog)
    assert ext.plays == 30 and not ext.failed
    # the deck starts whole, a battle holds one card, and the winner ends holding all four
    assert sizes[("iloc", "STOCK")] == 4
    assert sizes[("vloc", "BATTLE")] == 1
    assert sizes[("iloc", "HAND")] == 4
    assert ints["FACE"] == (0, 4)   # unset, then the ranks 1..4


# Between two decisions a card goes up in the air and comes back, and a tally rises and falls:
# at every decision AIR is empty and TEMP is 0.
STRETCH = """
(game
  (setup
    (create players 2)
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE)))))
  (stage player
    (end (> (game sto ROUNDS) 3))
    (choice
      ((inc ((current player) sto SCORE) 1)
       (inc ((current player) sto SCORE) 2)))
    (do
      ((inc (game sto ROUNDS) 1)
       (inc (game sto TEMP) 7)
       (repeat 3 (move (top (game iloc STOCK)) (top (game vloc AIR))))
       (repeat 3 (move (top (game vloc AIR)) (top (game iloc STOCK))))
       (dec (game sto TEMP) 7))))
  (scoring max ((current player) sto SCORE)))
"""


def test_what_a_stretch_between_decisions_puts_and_takes_is_measured_too():
    loaded = parse_text(STRETCH)
    prog = compile_loaded(loaded)
    sizes, ints = measure(prog, 5).named(prog)
    assert sizes[("vloc", "AIR")] == 3 and ints["TEMP"] == (0, 7)
    rep = crosscheck(loaded, 4, seed=0, fit=5)
    assert rep.divergence is None and not rep.overflowed and rep.playouts == 4


def _fluents(fit):
    return len(ClingoMachine(Translation(parse_file(GAMES / "agram2_c2.rcy").game, 2, None, fit).description)
               .domain.fluents)


@pytest.mark.slow
def test_a_fitted_translation_grounds_fewer_fluents_and_agrees_with_the_simulator():
    loaded = parse_file(GAMES / "agram2_c2.rcy")
    fit = translate.measured_fit(loaded, 50)
    assert _fluents(fit) * 2 < _fluents(None)
    rep = crosscheck(loaded, 8, seed=100, fit=50)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 8 and not rep.overflowed


@pytest.mark.parametrize("small", [Fit({("iloc", "HAND"): 2}, {}), Fit({}, {"FACE": (0, 2)})],
                         ids=["positions", "integers"])
def test_a_play_beyond_the_fit_ends_as_overflow_and_is_counted_not_compared(monkeypatch, small):
    monkeypatch.setattr(translate, "measured_fit", lambda *a, **k: small)
    rep = crosscheck(parse_file(WAR), 12, seed=0, fit=1)
    assert rep.divergence is None, rep.divergence
    assert rep.overflowed and rep.playouts == 12 and rep.overflow_kinds == {"tables": len(rep.overflowed)}


def test_a_bag_fuller_than_its_fit_ends_as_overflow(monkeypatch):
    # Agram's hands are bags (their order is never read): a deal of two cards overflows a room of one
    monkeypatch.setattr(translate, "measured_fit", lambda *a, **k: Fit({("iloc", "HAND"): 1}, {}))
    loaded = parse_file(GAMES / "agram2_c2.rcy")
    assert any(ln.name == "iloc_hand" for ln in Translation(loaded.game).bags)
    rep = crosscheck(loaded, 2, seed=0, fit=1)
    assert rep.divergence is None and rep.overflowed == [0, 1] and rep.decisions == 0


def test_without_the_overflow_guard_a_too_small_fit_plays_another_game():
    # the guard is what keeps a fitted translation honest: drop it and cards vanish
    ls = Lockstep(parse_file(WAR))
    tr = ls.tr = Translation(parse_file(WAR).game, 2, None, Fit({("iloc", "HAND"): 2}, {}))
    rules = [r for r in tr.description.rules if "overflow" not in to_kif(r.head) or "room" not in to_kif(r)]
    assert len(rules) < len(tr.description.rules)
    ls.gdl = ClingoMachine(Description(tuple(rules)))
    with pytest.raises(Divergence):
        for seed in range(12):
            ls.play(seed)


def test_a_clingo_playout_beyond_the_fit_has_no_outcome(monkeypatch):
    monkeypatch.setattr(translate, "measured_fit", lambda *a, **k: Fit({("iloc", "HAND"): 2}, {}))
    rep = run(WAR, "clingo", 4, fit=1)
    assert rep["finished"] < 4
    assert any("overflow" in (g.get("error") or "") for g in rep["games"])


def test_translate_fit_cli_gives_a_smaller_valid_translation(tmp_path):
    texts = {}
    for fit in ("0", "30"):
        out = tmp_path / f"fit{fit}.kif"
        res = CliRunner().invoke(main, ["translate", str(GAMES / "agram2_c2.rcy"), "--fit", fit, "-o", str(out)])
        assert res.exit_code == 0, res.output
        texts[fit] = out.read_text()
    desc = parse_kif(texts["30"])
    assert [d for d in validate(desc) if d.severity == "error"] == []
    assert "(room " in texts["30"] and "(room " not in texts["0"]
    assert len(ClingoMachine(desc).domain.fluents) < len(ClingoMachine(parse_kif(texts["0"])).domain.fluents)


def test_playout_and_crosscheck_clis_take_fit():
    res = CliRunner().invoke(main, ["playout", str(WAR), "-n", "3", "--engine", "clingo", "--fit", "40", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["finished"] == 3
    res = CliRunner().invoke(main, ["crosscheck", str(WAR), "-n", "3", "--fit", "40", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["overflowed"] == []
    res = CliRunner().invoke(main, ["playout", str(WAR), "--fit", "40"])
    assert res.exit_code != 0 and "--fit" in res.output


@pytest.mark.parametrize("fit", ["0", "30"])
def test_conformance_lockstep_column_with_and_without_a_fit(fit):
    res = CliRunner().invoke(main, ["conformance", str(WAR), "--games", "5", "--crosscheck", "3", "--fit", fit,
                                    "--json"])
    assert res.exit_code == 0, res.output
    row = json.loads(res.output[res.output.index("{"):])["files"][0]
    assert row["translation"].startswith("valid") and row["lockstep"] == "3/3 agree"


def test_conformance_names_a_translation_too_large_to_ground_in_both_columns(tmp_path):
    big = tmp_path / "big.rcy"
    big.write_text(TOO_LARGE_GAME)
    res = CliRunner().invoke(main, ["conformance", str(big), "--games", "5", "--crosscheck", "3", "--json"])
    assert res.exit_code == 0, res.output
    row = json.loads(res.output[res.output.index("{"):])["files"][0]
    assert re.fullmatch(r"valid \(\d+ rules; too large to ground: [\d,]+ facts in its arithmetic tables\)",
                        row["translation"])
    assert row["lockstep"].startswith("error: too large to ground: (less), (plus)")


@pytest.mark.slow
def test_a_fitted_table_holds_every_value_the_fitting_plays_wrote():
    # 4 cards times 100: beyond the static bound of an increment by a count (the number of cards),
    # so the worst-case table is too small; the fitted one takes the values the plays wrote
    loaded = parse_file(Path(__file__).parent / "data" / "hundreds.rcy")
    assert Translation(loaded.game).bounds[1] < 400
    rep = crosscheck(loaded, 4, seed=0, fit=20)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 4 and rep.overflowed == [] and rep.decisions == 4 * 8
