"""Options over subsets after an option's first action (issue #38, Scopa): the played card read as
the top it was put on (firstmove.py), an `any` whose range an earlier `any`'s body empties
(killers.py), subsets named by their masks (subsetopts.py) with the play ended as `overflow`
beyond MOST cards. Lock-stepped on a fishing game of ours (tests/translate/data/subset_captures.rcy)."""
from __future__ import annotations

import pytest

from ggpbridge.crosscheck import crosscheck
from ggpbridge.recycle import parse_file, parse_text
from ggpbridge.translators.recycle_gdl import subsetopts

from conftest import ROOT
from test_coverage_cases import refusal

GAME = ROOT / "tests" / "translate" / "data" / "subset_captures.rcy"


def variant(old: str, new: str, name: str, path=GAME):
    text = path.read_text()
    assert old in text
    return parse_text(text.replace(old, new), name)


@pytest.mark.slow
def test_captures_of_one_card_or_of_subsets_agree_with_the_simulator(monkeypatch):
    named = []   # the simulator's subsets the lockstep named (each option offered, each decision)
    real = subsetopts.element_mask
    monkeypatch.setattr(subsetopts, "element_mask", lambda c, group: named.append(group) or real(c, group))
    rep = crosscheck(parse_file(GAME), 6, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 6 and rep.rule_errors == [] and rep.decisions > 0, rep.as_dict()
    assert named and all(len(g) > 1 for g in named), named   # subsets were offered (of 2 cards or more)


@pytest.mark.slow
def test_a_table_beyond_the_masks_ends_the_play_as_overflow_never_agreeing(monkeypatch):
    # with masks for 3 positions, the table's 4 cards at the first choice are beyond them: every
    # play ends there as `overflow` of its own kind, before any option is compared
    monkeypatch.setattr(subsetopts, "MOST", 3)
    rep = crosscheck(parse_file(GAME), 3, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.overflowed == [0, 1, 2] and rep.overflow_kinds == {"subset options": 3}, rep.as_dict()
    assert rep.decisions == 0, rep.as_dict()


@pytest.mark.slow
def test_taking_both_captures_diverges(monkeypatch):
    # broken on purpose: the subsets' `any` may be taken with the single capture (whose body
    # sets GOT, emptying its range): clingo offers moves the simulator does not have
    from ggpbridge.translators.recycle_gdl.options import Options

    def forgetting(real):
        def run(self, inner, *args):
            saved = [a.killers for a in inner]
            for a in inner:
                a.killers = []
            try:
                return real(self, inner, *args)
            finally:
                for a, k in zip(inner, saved):
                    a.killers = k
        return run
    monkeypatch.setattr(Options, "_inner_ways", forgetting(Options._inner_ways))
    monkeypatch.setattr(Options, "_inner_conds", forgetting(Options._inner_conds))
    rep = crosscheck(parse_file(GAME), 6, seed=0)
    assert rep.divergence is not None and "options differ" in rep.divergence["what"], rep.as_dict()


def test_a_later_any_whose_range_an_earlier_body_changes_is_refused_with_its_position():
    # without the GOT test the subsets' range reads the table the single capture took a card from
    loaded = variant("(and (== ((current player) sto GOT) 0)\n", "(and\n", "no_killer.rcy")
    e = refusal(loaded)
    assert "an `any` after its first action" in e.message and (e.pos.line, e.pos.col) == (24, 12), e


def test_subsets_of_a_union_are_refused_with_their_position():
    loaded = variant("(subsets (game vloc TABLE))", "(subsets (union (game vloc TABLE) ((current player) vloc WON)))",
                     "union_subsets.rcy")
    e = refusal(loaded)
    assert "subsets of other than one location" in e.message and (e.pos.line, e.pos.col) == (24, 17), e


def test_a_later_write_to_the_played_pile_keeps_the_option_refused():
    # the single capture puts the table card on the played pile: its top is no longer the card played
    loaded = variant("(move 'Y (top ((current player) vloc WON)))", "(move 'Y (top ((current player) vloc PLAYED)))",
                     "played_again.rcy")
    e = refusal(loaded)
    assert "an `any` after its first action" in e.message, e


@pytest.mark.parametrize("name, at", [("killer_owner", (25, 12)), ("killer_named", (23, 12)),
                                      ("firstmove_named", (17, 11))])
def test_a_storage_or_location_named_by_what_the_option_changes_keeps_it_refused(name, at):
    # killer_*: the storage the capture sets is renamed before the subsets' filter reads the same
    # text (the token's holder changes, or the str key); firstmove_named: the played pile is
    # renamed before the later range reads (top L): the same text means another storage or top
    e = refusal(parse_file(ROOT / "tests" / "translate" / "data" / f"{name}.rcy"))
    assert "an `any` after its first action" in e.message and (e.pos.line, e.pos.col) == at, e


def test_subsets_named_by_positions_where_the_cards_lie_not_where_they_are_remembered():
    # mem_subsets.rcy remembers table cards in a memory location: a subset's mask is read from
    # the table's positions, so the options listed are the same on both sides
    rep = crosscheck(parse_file(ROOT / "tests" / "translate" / "data" / "mem_subsets.rcy"), 10, seed=0)
    assert rep.divergence is None and rep.playouts == 10, rep.as_dict()
    # subsets of the memory location itself are refused: a copy has two positions
    e = refusal(variant("(subsets (game vloc TABLE))", "(subsets (game mem SEEN))", "mem_only.rcy",
                        ROOT / "tests" / "translate" / "data" / "mem_subsets.rcy"))
    assert "subsets of a memory location" in e.message, e


def test_subsets_of_a_location_the_option_chooses_are_refused_with_a_clear_reason():
    # the 8-card test runs before the choice, where the head's `any player 'P` has chosen nothing
    e = refusal(parse_file(ROOT / "tests" / "translate" / "data" / "owner_subsets.rcy"))
    assert "subsets of a location named by what the option chooses" in e.message, e
    assert (e.pos.line, e.pos.col) == (14, 28), e
