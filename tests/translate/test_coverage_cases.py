"""Constructs the translation learnt for issue #38's coverage: award values known when the game
is translated, storages named at run time, filters of filters. Each is lock-stepped on a small
game of ours (tests/translate/data) and its translation checked against values worked out by hand."""
from __future__ import annotations

import pytest

from ggpbridge import ir
from ggpbridge.crosscheck import crosscheck
from ggpbridge.errors import UnsupportedConstructError
from ggpbridge.gdl.ast import Func
from ggpbridge.recycle import parse_file, parse_text
from ggpbridge.translate import translate_loaded
from ggpbridge.translators.recycle_gdl.exprs import Env
from ggpbridge.translators.recycle_gdl.flatten import merged_filter
from ggpbridge.translators.recycle_gdl.folding import constant

from conftest import ROOT

DATA = ROOT / "tests" / "translate" / "data"


def agree(path, n: int, **kw):
    rep = crosscheck(parse_file(path), n, seed=0, **kw)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == n and rep.rule_errors == [], rep.as_dict()
    return rep


def diverges(path, n: int, what: str):
    """N lockstep seeds of PATH on a translation broken on purpose: the divergence is found,
    and its `what` names WHAT."""
    rep = crosscheck(parse_file(path), n, seed=0)
    assert rep.divergence is not None and what in rep.divergence["what"], rep.as_dict()
    return rep


def count_one_more(monkeypatch, module) -> None:
    """Break MODULE: every number it reads from a count (its `_number`) is one more."""
    real = module._number
    monkeypatch.setattr(module, "_number", lambda lits, t: real(lits, t) + 1)


def complement_groups(monkeypatch, module) -> None:
    """Break MODULE: the group of a partition's value holds the cards NOT of that value."""
    real = module._value_filter

    def others(part, at):
        value, cards = real(part, at)
        return value, ir.Filter(cards.coll, cards.var, ir.Not(cards.cond, pos=at.pos), pos=cards.pos)
    monkeypatch.setattr(module, "_value_filter", others)


def differs_on(ls, rules, seeds: int) -> str:
    """Play a Lockstep's first SEEDS seeds with its translation replaced by RULES (broken on
    purpose): the `what` of the divergence found, which must not be an overflow."""
    from ggpbridge.gdl.ast import Description
    from ggpbridge.gdl.machine import ClingoMachine
    ls.gdl = ClingoMachine(Description(rules))
    with pytest.raises(Exception) as info:
        for seed in range(seeds):
            ls.play(seed)
    what = info.value.detail["what"]
    assert "differ" in what and "overflow" not in what, info.value.detail
    return what


def variant(path, old: str, new: str, name: str):
    """The game of PATH with OLD (which it must contain) replaced by NEW, read as NAME."""
    text = path.read_text()
    assert old in text
    return parse_text(text.replace(old, new), name)


def facts(desc, rel: str) -> set:
    return {tuple(a.name for a in r.head.args) for r in desc.rules
            if not r.body and isinstance(r.head, Func) and r.head.name == rel}


def small_game(do: str, name: str):
    """A two-player game of a deck S of cards R in {A, B} that runs DO and scores (game sto N)."""
    return parse_text("(game (setup (create players 2) (create deck (game iloc S) (deck (R (A, B)))))"
                      f" (do ({do})) (scoring max (game sto N)))", name)


def refusal(loaded) -> UnsupportedConstructError:
    """The error translating LOADED stops on."""
    with pytest.raises(UnsupportedConstructError) as info:
        translate_loaded(loaded, 2)
    return info.value


def test_awards_computed_from_constants_are_the_static_table():
    loaded = parse_file(DATA / "computed_awards.rcy")
    desc = translate_loaded(loaded, 2)
    by_card = {c: v for _, _, c, v in facts(desc, "pts_value")}
    ranks = {f"c{k}": card["RANK"] for k, card in enumerate(cards_of(loaded))}
    # 2^3, fib 7, tri 2, fib 3 - 2 tri 2 (BASE is 3)
    want = {"ACE": "8", "KING": "13", "TWO": "3", "THREE": "m4"}
    assert {c: by_card[c] for c in ranks} == {c: want[r] for c, r in ranks.items()}
    agree(DATA / "computed_awards.rcy", 5)


def cards_of(loaded):
    from ggpbridge.sim.machine import Program
    return Program(loaded.game).lay.cards


def test_constant_folding_leaves_errors_and_huge_values_to_run_time():
    env = Env()
    lit = ir.IntLit
    assert constant(ir.Arith("^", lit(2), lit(10)), env) == 1024
    assert constant(ir.Arith("//", lit(1), lit(0)), env) is None      # the simulator's error at run time
    assert constant(ir.Fib(lit(5000)), env) is None                   # beyond every game integer
    assert constant(ir.Arith("^", lit(10), lit(7)), env) is None
    assert constant(ir.Tri(ir.IntStorage(ir.GameOwner(), ir.Name("X"))), env) is None


def test_storages_named_at_run_time_agree_with_the_simulator():
    desc = translate_loaded(parse_file(DATA / "named_counters.rcy"), 2)
    # the colour storages are the names of the list the key walks, not every name of the game
    assert facts(desc, "sto_name") == {("red",), ("blue",), ("total",)}
    agree(DATA / "named_counters.rcy", 8)


def test_a_storage_named_by_a_name_never_set_is_the_empty_name():
    # ('P sto ('P str FAV)) before FAV is set: the simulator counts in the storage named "" (no_value)
    desc = translate_loaded(parse_file(DATA / "unset_key.rcy"), 2)
    assert ("no_value",) in facts(desc, "sto_name")
    agree(DATA / "unset_key.rcy", 6)


def test_a_filter_of_a_filter_is_one_filter_of_both_conditions():
    loaded = small_game("(set (game sto N) (size (filter (filter (game iloc S) 'X (== (cardatt R 'X) A))"
                        " 'Y (== (cardatt R 'Y) B))))", "ff.rcy")
    outer = next(x for x in loaded.game.walk() if isinstance(x, ir.Filter) and isinstance(x.coll, ir.Filter))
    merged = merged_filter(outer)
    assert isinstance(merged.coll, ir.Location) and merged.var == "X"
    assert merged.cond == ir.BoolOp("and", (outer.coll.cond, ir.Compare("==", ir.CardAtt(ir.Name("R"), ir.Var("X")),
                                                                         ir.Name("B"))))
    # the outer condition reading another 'X (bound outside) would be hidden: left alone
    clash = ir.Filter(outer.coll, "Y", ir.Compare("==", ir.Var("X"), ir.Var("Y")))
    assert merged_filter(clash) is None


def test_sums_and_sizes_of_unions_per_player_and_per_listed_name_agree_with_the_simulator():
    from ggpbridge.translators.recycle_gdl.flatten import unrolled_union
    loaded = parse_file(DATA / "union_sums.rcy")
    unions = [x for x in loaded.game.walk() if isinstance(x, ir.SetOp) and isinstance(x.args[0].coll, (ir.Var,
                                                                                                     ir.NameList))]
    names = {"SIDES": ("LEFT", "RIGHT")}
    for u in unions:   # each name of the list, in its order, gives one location
        flat = unrolled_union(u, lambda c: c.names if isinstance(c, ir.NameList) else names.get(c.name))
        assert [a.name for a in flat.args] == [ir.Name("LEFT"), ir.Name("RIGHT")]
    assert len(unions) == 2
    agree(DATA / "union_sums.rcy", 8)


def test_sizes_of_intersections_and_disjunctions_agree_with_the_simulator():
    # player 0's pile named twice holds its cards twice: the intersection with the current
    # player's pile is that pile on player 0's turns, empty on player 1's
    agree(DATA / "counted_sets.rcy", 8)


def test_a_counted_set_of_a_memory_location_is_refused_with_its_position():
    error = refusal(small_game("(remember (top (game iloc S)) (top (game mem M)))"
                               " (set (game sto N) (size (intersect (game mem M) (game iloc S))))", "mem.rcy"))
    assert "intersect" in error.message and error.pos.line == 1


def test_sizes_of_the_first_and_last_partition_groups_and_subsets_agree_with_the_simulator():
    agree(DATA / "groups.rcy", 10)


def test_a_partition_by_an_attribute_no_card_has_is_one_group():
    agree(DATA / "groups_no_attribute.rcy", 6)


def test_a_partition_group_other_than_the_first_or_last_is_refused_with_its_position():
    error = refusal(small_game("(set (game sto N) (size (1 (partition R (game iloc S)))))", "nth.rcy"))
    assert "partition" in error.message and error.pos.col > 1


def test_conditions_over_the_top_and_bottom_cards_of_a_pile_agree_with_the_simulator():
    agree(DATA / "top_cards.rcy", 10)


def test_loops_over_runs_agree_with_the_simulator():
    # the lowest card of each run (largest), and the size of each run from any of its cards up
    agree(DATA / "run_scores.rcy", 10)


def test_a_loop_over_runs_with_equal_scores_ends_as_overflow_never_agreeing():
    # two cards of each rank: CardStock lists a variant of a run per card of equal score
    text = (DATA / "run_scores.rcy").read_text().replace("(deck (RANK (ONE,", "(deck (COLOR (RED, BLUE)) (RANK (ONE,")
    rep = crosscheck(parse_text(text, "run_variants.rcy"), 6, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.overflowed and rep.overflow_kinds == {"run variants": len(rep.overflowed)}


def test_a_loop_over_runs_whose_body_moves_their_cards_is_refused():
    text = (DATA / "run_scores.rcy").read_text().replace(
        "(inc ((current player) sto SCORE) (score (min 'R using (game points VALUE)) using (game points VALUE)))",
        "(move (top ((current player) vloc PILE)) (top (game vloc DISCARD)))")
    assert "body may change" in refusal(parse_text(text, "moving_runs.rcy")).message


def test_anys_over_a_hand_that_earlier_anys_of_the_option_took_cards_from_agree_with_the_simulator():
    # later `any`s range over the hand without the cards laid before them (a head `any`, body
    # `any`s in a row, a filter of the hand), and one finds nothing when the hand had one card
    rep = agree(DATA / "taken_cards.rcy", 5)
    assert rep.decisions >= 10


def test_an_any_after_a_move_into_its_own_range_is_refused():
    # the first card goes back under the hand: the second `any`'s range is not the first one's less a card
    text = (DATA / "taken_cards.rcy").read_text().replace(
        "(move 'A (top (game vloc PILE)))\n              (any",
        "(move 'A (bottom ((current player) iloc HAND)))\n              (any")
    assert "bottom ((current player) iloc HAND)" in text
    error = refusal(parse_text(text, "back_to_hand.rcy"))
    assert "`any` after its first action" in error.message and error.pos.line == 28


def test_anys_over_a_hand_an_option_first_drew_cards_into_agree_with_the_simulator():
    # the options list the cards drawn: the stock keeps its order instead of being a deck
    from ggpbridge.translators.recycle_gdl.order import decks
    loaded = parse_file(DATA / "drawn_cards.rcy")
    assert decks(loaded.game) == frozenset()
    assert {c.name for c in decks(parse_file(DATA / "taken_cards.rcy").game)} == {"iloc_stock"}
    agree(DATA / "drawn_cards.rcy", 6)


def test_a_let_of_a_partition_walked_by_an_all_agrees_with_the_simulator():
    # one snapshot per colour instead of the simulator's groups in order of their first card
    agree(DATA / "partition_lets.rcy", 8)


@pytest.mark.parametrize("old, new", [
    # the laid cards' order is read: laying colour by colour would order them differently
    ("(any player 'P (== (size ('P iloc HAND)) 0)))",
     "(or (any player 'P (== (size ('P iloc HAND)) 0)) (== (cardatt COLOR (top ((current player) vloc LAID))) PURPLE)))"),
    # a round reads the hand the other rounds take cards from
    ("(inc ((current player) sto SCORE) (- (size 'G) 1))",
     "(inc ((current player) sto SCORE) (size ((current player) iloc HAND)))"),
])
def test_a_let_of_a_partition_whose_rounds_do_not_commute_is_refused(old, new):
    text = (DATA / "partition_lets.rcy").read_text()
    assert old in text
    error = refusal(parse_text(text.replace(old, new), "ordered_laid.rcy"))
    assert "partition" in error.message and error.pos.line == 27   # the `let`


def test_awards_drawn_when_the_map_is_set_agree_with_the_simulator():
    loaded = parse_file(DATA / "drawn_awards.rcy")
    desc = translate_loaded(loaded, 2)
    per_card: dict = {}
    for r in desc.rules:
        if not r.body and isinstance(r.head, Func) and r.head.name == "pts_value":
            c = r.head.args[2].name
            per_card[c] = per_card.get(c, 0) + 1
    # a score per way the draws can go: 3 red values x 3 ONE values for a red ONE, 1 for a blue THREE
    kinds = {f"c{k}": (card["COLOR"], card["RANK"]) for k, card in enumerate(cards_of(loaded))}
    assert {per_card[c] for c, kind in kinds.items() if kind == ("RED", "ONE")} == {9}
    assert {per_card[c] for c, kind in kinds.items() if kind == ("RED", "TWO")} == {3}
    assert {per_card[c] for c, kind in kinds.items() if kind == ("BLUE", "THREE")} == {1}
    agree(DATA / "drawn_awards.rcy", 8)


def test_groups_of_a_partition_walked_in_order_and_tested_in_conditions_agree_with_the_simulator():
    # the score rounds do not commute: walked by the first card of each colour, as the simulator
    # lists the groups; the end tests some and every group; a group's worth is a filtered sum
    agree(DATA / "ordered_groups.rcy", 8)


def test_a_walk_over_groups_whose_body_moves_their_cards_is_refused():
    text = (DATA / "ordered_groups.rcy").read_text().replace(
        "(set ((current player) sto SCORE) (* 2 'S))", "(move (top 'G) (top (game vloc MIDDLE)))")
    error = refusal(parse_text(text, "moving_groups.rcy"))
    assert "partition" in error.message and error.pos.line == 37   # the `all`


def test_a_filtered_sum_past_every_literal_agrees_with_the_simulator():
    # the tables were bounded by the plain sums only: a filtered sum of 40 had no value, and
    # the translation scored 100 for both where the simulator scored 40 against 20
    rep = agree(DATA / "filtered_big_sum.rcy", 10)
    assert rep.overflowed == []
