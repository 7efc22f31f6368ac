"""The semantic checker finds what the grammar cannot."""
from __future__ import annotations

import pytest

from ggpbridge import ir
from ggpbridge.recycle import parse_text
from ggpbridge.recycle.check import check

HEAD = "(game (declare 2 'N) (setup (create players 'N) (create deck (game iloc STOCK) (deck (RANK (A, B)))))\n"
TAIL = "\n (scoring max ((current player) sto SCORE)))"


def diags(body: str, severity: str = "error"):
    loaded = parse_text(HEAD + body + TAIL, "c.rcy")
    return [d for d in check(loaded.game, loaded.source) if d.severity == severity]


def one(body: str, severity: str = "error"):
    found = diags(body, severity)
    assert len(found) == 1, [d.format() for d in found]
    return found[0]


def test_clean_game_has_no_diagnostics():
    assert diags("(do ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))") == []


def test_unbound_variable_is_positioned():
    d = one("(do ((move (top ('Q iloc HAND)) (top (game vloc PILE)))))")
    assert "unbound variable 'Q" in d.message and (d.pos.line, d.pos.col) == (2, 18)
    assert d.format().startswith("c.rcy:2:18: error:") and d.format().endswith("^")


def test_integer_where_a_card_is_expected():
    d = one("(do ((move 3 (top (game vloc PILE)))))")
    assert "must be a card, found an integer" in d.message


def test_card_variable_used_as_integer():
    d = one("(do ((all (game iloc STOCK) 'C (inc ((current player) sto SCORE) 'C))))")
    assert "must be an integer, found a card" in d.message


def test_comparing_a_name_with_a_number():
    d = one("(do (((== (cardatt RANK (top (game iloc STOCK))) 3) (turn pass))))")
    assert "compares a name with an integer" in d.message


def test_player_out_of_range():
    d = one("(do ((inc ((2 player) sto SCORE) 1)))")
    assert "player 2 is out of range" in d.message


def test_team_out_of_range_and_bad_team_members():
    text = ("(game (setup (create players 2) (create teams (0, 1) (2)) (create deck (game iloc S) (deck (R (A)))))"
            " (do ((inc ((2 team) sto X) 1) (inc ((1 team) sto X) 1))) (scoring max 1))")
    msgs = sorted(d.message for d in check(parse_text(text).game) if d.severity == "error")
    assert msgs == ["team 2 is out of range: there are 2 teams (0..1)",
                    "team member 2 is out of range: players are 0..1"]


def test_point_map_never_set_suggests_the_near_name():
    d = one("(do ((set (game points POWER) (((RANK : A) 1)))"
            " (inc ((current player) sto SCORE) (score (top (game iloc STOCK)) using (game points POWRE)))))",
            severity="warning")
    assert "POWRE is used but never set" in d.message and "did you mean POWER" in d.message


def test_any_outside_a_choice_in_the_ir_is_an_error():
    loc = ir.Location(ir.GameOwner(), "iloc", ir.Name("STOCK"))
    g = parse_text(HEAD + "(do ((turn pass)))" + TAIL).game
    bad = ir.Do((ir.AnyOf(loc, "C", ir.Move(ir.Var("C"), ir.CardAt("top", loc))),))
    g2 = ir.Game(g.declares, g.setup, (bad,), g.scoring)
    [d] = [d for d in check(g2) if d.severity == "error"]
    assert "no choice encloses it" in d.message


def test_moving_into_memory_and_remembering_into_a_place():
    errs = diags("(do ((move (top (game iloc STOCK)) (top (game mem M)))"
                 " (remember (top (game iloc STOCK)) (top (game vloc PILE)))))")
    assert len(errs) == 2
    assert "mem location: use remember" in errs[0].message and "copies a card into a mem" in errs[1].message


def test_empty_random_range_and_division_by_zero():
    errs = diags("(do ((set (game sto X) (random 5 .. 2)) (set (game sto Y) (// 4 0))))")
    assert [("empty" in e.message, "division by zero" in e.message) for e in errs] == [(True, False), (False, True)]


def test_unused_declare_is_a_warning():
    text = "(game (declare 3 'UNUSED) (setup (create players 2)) (do ((turn pass))) (scoring max 1))"
    [w] = [d for d in check(parse_text(text).game) if d.severity == "warning"]
    assert "'UNUSED is declared but never used" in w.message


@pytest.mark.parametrize("body", [
    "(stage player (end (== (size ((current player) iloc HAND)) 0)) (choice ((any ((current player) iloc HAND) 'C"
    " (move 'C (top (game vloc PILE)))))))",
    "(do ((let (filter (game iloc STOCK) 'C (== (cardatt RANK 'C) A)) 'AS (repeat all (move (top 'AS) (top (game vloc P)))))))",
])
def test_binders_scope_their_variables(body):
    assert diags(body) == []
