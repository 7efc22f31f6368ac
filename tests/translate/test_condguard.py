"""Arithmetic inside a condition whose result the integer tables cannot hold (condguard.py).

`data/cond_arith.rcy` (ours) counts up to 3 in a storage X. Its variants compare 50 times X with
120: 150 is past the unfitted tables (their top is 121, from the literals). Such a play must end
as `overflow` (which the unfitted lockstep reports as tables too small), never go on with the
comparison silently false. Operands whose range is known statically (card scores plus a
literal) widen the tables instead and need no test."""
from __future__ import annotations

from pathlib import Path

import pytest

import ggpbridge.translators.recycle_gdl.condguard as condguard
from ggpbridge.crosscheck import Divergence, Lockstep
from ggpbridge.gdl.ast import Const, Func

from test_coverage_cases import differs_on, variant

GAME = Path(__file__).parent / "data" / "cond_arith.rcy"
# under a `not`, a comparison silently false would offer the choice at X = 3
CHOICE = ("(< ((current player) sto X) 3)", "(not (> (* ((current player) sto X) 50) 120))")
AFTER = ("(> ('P sto X) 2)", "(> (* ('P sto X) 50) 120)")
# always true (a score is 1..8): the sums 31..38 pass the unfitted tables' top (32)
PLAY = "(move (top ((current player) iloc HAND)) (top (game vloc PILE))))))"
STATIC = (PLAY, "(any (filter ((current player) iloc HAND) 'D (> (+ (score 'D using (game points PTS)) 30) "
                "(size (game vloc PILE)))) 'C (move 'C (top (game vloc PILE)))))))")


def guard_rules(desc) -> list:
    """The rules deriving `overflow` from an operand's missing value (condguard._off_literals)."""
    return [r for r in desc.rules if r.head == Func("nx", (Const("overflow"),)) and "cond_off" in repr(r.body)]


def lockstep(change, fit: int = 0) -> Lockstep:
    return Lockstep(variant(GAME, *change, "cond_arith"), fit=fit)


def endings(ls, seeds: int) -> list:
    """How each play ends: 'over', or the divergence's `what`."""
    out = []
    for seed in range(seeds):
        try:
            out.append(ls.play(seed)[-1])
        except Divergence as e:
            out.append(e.detail["what"])
    return out


def test_the_plain_game_has_no_test_and_agrees():
    ls = Lockstep(variant(GAME, "(game", "(game", "cond_arith"))
    assert not guard_rules(ls.tr.description) and not ls.tr.choice_guards
    assert set(endings(ls, 8)) == {"over"}


@pytest.mark.parametrize("change", [CHOICE, AFTER], ids=["choice", "after the stage"])
def test_a_product_of_a_storage_off_the_tables_ends_the_play_as_overflow(change):
    ls = lockstep(change)
    lo, hi = ls.tr.bounds
    assert hi < 150 and guard_rules(ls.tr.description)
    ends = endings(ls, 16)
    # some plays count three times (150 is off the tables), some do not (they agree)
    assert "over" in ends, ends
    off = [e for e in ends if e != "over"]
    assert off and all("overflow" in e and "too small" in e for e in off), ends


def test_a_choice_so_tested_waits_one_step_and_is_overflow_when_it_is_offered():
    ls = lockstep(CHOICE)
    [cid] = ls.tr.choice_guards
    wait = ls.tr.flow.choice_label[cid]
    test = ls.tr.flow.choice_test_label[cid]
    assert wait != test
    # the test reads the state the choice is offered in, at the step before it
    assert all(r.body[0] == Func("true", (Func("pc", (Const(test),)),)) for r in guard_rules(ls.tr.description))


@pytest.mark.slow
@pytest.mark.parametrize("change", [CHOICE, AFTER], ids=["choice", "after the stage"])
def test_without_its_tests_the_lockstep_finds_the_comparison_silently_false(change):
    ls = lockstep(change)
    desc = ls.tr.description
    tests = guard_rules(desc)
    differs_on(ls, tuple(r for r in desc.rules if r not in tests), 16)


@pytest.mark.slow
@pytest.mark.parametrize("change", [CHOICE, AFTER], ids=["choice", "after the stage"])
def test_fitted_tables_hold_what_the_fitting_plays_compute_and_keep_the_test(change):
    ls = lockstep(change, fit=20)
    assert ls.tr.bounds[1] >= 150 and guard_rules(ls.tr.description)
    assert set(endings(ls, 12)) == {"over"}


def test_an_operand_of_static_range_widens_the_tables_without_a_test():
    ls = lockstep(STATIC)
    assert ls.tr.bounds[1] >= 38 and not guard_rules(ls.tr.description)
    assert set(endings(ls, 8)) == {"over"}


def test_without_the_widening_the_lockstep_finds_the_options_differ(monkeypatch):
    real = condguard.resolve

    def narrow(tr, flow):
        # keep the tests (there are none here), drop the ranges
        return [], real(tr, flow)[1]
    monkeypatch.setattr(condguard, "resolve", narrow)
    ls = lockstep(STATIC)
    assert ls.tr.bounds[1] < 38
    with pytest.raises(Divergence) as err:
        for seed in range(8):
            ls.play(seed)
    assert "differ" in err.value.detail["what"]


def test_a_number_of_a_fixed_range_has_a_static_range():
    move = PLAY[:-3]
    bid = (PLAY, f"(any (range 1..2) 'B ((< (+ 'B 30) (+ (size (game vloc PILE)) 33)) {move})) {move})))")
    ls = lockstep(bid)
    assert ls.tr.bounds[1] >= 41 and not guard_rules(ls.tr.description)
    assert set(endings(ls, 6)) == {"over"}


@pytest.mark.slow
@pytest.mark.parametrize("union, top", [("(game vloc PILE) ((current player) iloc HAND)", 38),
                                        ("(game vloc PILE) (game vloc PILE)", 46)],
                         ids=["two locations", "one location twice"])
def test_the_size_of_a_union_is_bounded_by_the_cards_each_part_can_hold(union, top):
    # 8 cards: a card lies in one location at a time, but a union lists a location as often as
    # it is named (the simulator's SetOp), so PILE twice can count 16
    size = f"(size (union {union}))"
    change = (PLAY, f"(any (filter ((current player) iloc HAND) 'D (> (+ {size} 30) (score 'D using "
                    "(game points PTS)))) 'C (move 'C (top (game vloc PILE)))))))")
    ls = lockstep(change)
    assert ls.tr.bounds[1] >= top and not guard_rules(ls.tr.description)
    assert ls.tr.bounds[1] < 46 or top == 46
    assert set(endings(ls, 6)) == {"over"}


# review of the first version: each of these diverged (or ended every play as overflow)
AFTER_PLAIN = "(do ((all player 'P ((> ('P sto X) 2) (set ('P sto W) 1)))))"
MOVE = PLAY[:-3]
VALUES = {   # a computed value taken where it is used: tested like a comparison's operand
    "let": (AFTER_PLAIN, "(do ((all player 'P (let (* ('P sto X) 50) 'V ((> 'V 120) (set ('P sto W) 1))))))"),
    "repeat": (AFTER_PLAIN, "(do ((all player 'P (repeat (- (* ('P sto X) 50) 119) (inc ('P sto W) 1)))))"),
    "option let": (PLAY, f"{MOVE} (let (* ((current player) sto X) 50) 'V ((> 'V 120) {MOVE})))))"),
    # a declared 'K hidden by a `let` of the same name: not the constant 1
    "shadowed": (AFTER_PLAIN, "(do ((all player 'P (let ('P sto X) 'K ((> (* 'K 50) 120) (set ('P sto W) 1))))))"),
    "scoring": ("(scoring max ((current player) sto W))",
                "(scoring max (size (filter ((current player) iloc HAND) 'C (> (* ((current player) sto X) 50) 120))))"),
}


@pytest.mark.slow
@pytest.mark.parametrize("where", VALUES)
def test_a_value_computed_off_the_tables_is_never_silently_wrong(where):
    change = VALUES[where]
    if where == "shadowed":
        change = (change[0], change[1]), ("(game", "(game (declare 1 'K)")
    else:
        change = (change,)
    text = GAME.read_text()
    for old, new in change:
        assert old in text
        text = text.replace(old, new, 1)
    from ggpbridge.recycle import parse_text
    loaded = parse_text(text, "cond_arith")
    ls = Lockstep(loaded)
    ends = endings(ls, 16)
    off = [e for e in ends if e != "over"]
    assert "over" in ends and off and all("too small" in e for e in off), ends
    assert set(endings(Lockstep(parse_text(text, "cond_arith"), fit=20), 12)) == {"over"}


@pytest.mark.slow
@pytest.mark.parametrize("head", ["(let ((current player) sto X) 'V", "(any (range 0..((current player) sto X)) 'V"])
def test_a_number_bound_at_run_time_is_tested_over_its_values_only(head):
    # 'V is the count (0..3) or a number up to it: V + X + 20 never leaves the tables, so no play
    # may end as overflow (tested over every number of the tables, it would leave them)
    change = (PLAY, f"{MOVE} {head} ((> (+ 'V (+ ((current player) sto X) 20)) 40) {MOVE})))))")
    ls = lockstep(change)
    assert guard_rules(ls.tr.description) or ls.tr.choice_guards
    assert set(endings(ls, 8)) == {"over"}


def test_a_sum_over_a_union_naming_a_location_twice_counts_it_twice():
    # PILE's scores add up to 36 at most, 72 through the union: the tables must reach 82
    change = (AFTER_PLAIN, "(do (((> (+ (sum (union (game vloc PILE) (game vloc PILE)) using (game points PTS)) 10) "
                           "60) (set ((0 player) sto W) 1))))")
    ls = lockstep(change)
    assert ls.tr.bounds[1] >= 82 and not guard_rules(ls.tr.description)
    assert set(endings(ls, 8)) == {"over"}


def test_a_number_filtered_by_the_condition_itself_is_tested_over_the_range():
    # 'B runs over 0..3 filtered by the very comparison that leaves the tables at X = 3: its
    # binder is the range, not the filter (which fails exactly when the value is missing)
    change = (PLAY, f"{MOVE} (any (filter (range 0..3) 'B (> (+ 'B (* ((current player) sto X) 50)) 120)) 'V "
                    f"{MOVE}))))")
    ls = lockstep(change)
    ends = endings(ls, 16)
    off = [e for e in ends if e != "over"]
    assert "over" in ends and off and all("too small" in e for e in off), ends


# second review: each of these dropped an option the simulator offers (forms of an option)
SECOND = {
    # 'V adds through the tables itself: its binder is still the let, the product is tested
    "let binder": f"(let (+ ((current player) sto X) 1) 'V ((> (* 'V 50) 120) {MOVE}))",
    # an `all` over a range as an option, judged at the choice, binds its number too
    "all as an option": "(all (range 2..3) 'B ((> (+ (* 'B 60) ((current player) sto X)) 130) "
                        "(do ((move (bottom ((current player) iloc HAND)) (top (game vloc PILE))) "
                        "(inc ((current player) sto W) 1)))))",
    # a range's end off the tables would leave the range empty
    "range end": f"(any (range 1..(* ((current player) sto X) 60)) 'V ((< 'V 3) {MOVE}))",
}


def with_option(form: str) -> tuple:
    """The change adding option `form` after the plain play."""
    assert form.count("(") == form.count(")")
    return PLAY, f"{MOVE} {form})))"


@pytest.mark.slow
@pytest.mark.parametrize("where", SECOND)
def test_a_number_bound_through_the_tables_is_still_tested(where):
    ls = lockstep(with_option(SECOND[where]))
    ends = endings(ls, 16)
    off = [e for e in ends if e != "over"]
    assert off and all("too small" in e for e in off), ends


def test_a_filters_size_does_not_cancel_its_locations():
    # HAND minus its cards of rank ONE, times 10: up to 40, not 0 (the two sizes are not one)
    ls = lockstep(with_option("((> (* (- (size ((current player) iloc HAND)) (size (filter ((current player) "
                              f"iloc HAND) 'Y (== (cardatt RANK 'Y) ONE)))) 10) 25) {MOVE})"))
    assert ls.tr.bounds[1] >= 40 and not guard_rules(ls.tr.description)
    assert set(endings(ls, 8)) == {"over"}


def test_a_lookup_reading_a_sum_is_part_of_what_is_tested():
    # third review: the remainder of a sum read the sum's result as an input, unbound in the
    # test, which then fired on every play (X is at most 3: every value here is small)
    ls = lockstep(with_option(f"((> (+ (% (+ ((current player) sto X) 7) 5) ((current player) sto X)) 60) {MOVE})"))
    assert guard_rules(ls.tr.description)
    assert set(endings(ls, 8)) == {"over"}
