"""Folding the static setup (ggpbridge/sim/fold.py): cards a game puts where nothing reads them
before its first chance event are not created, and the folded game plays as the original,
seed for seed; a setup whose effect would change without those cards is not folded."""
from __future__ import annotations

import pytest

from conftest import GAMES
from gcardgame.variants import BLACKJACK, TEXAS, LastState
from ggpbridge.crosscheck import checked_translation
from ggpbridge.frontends import load_game
from ggpbridge.recycle import parse_text
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.fold import fold_loaded, fold_setup, sinks
from ggpbridge.sim.players import make_players
from ggpbridge.sim.playout import play


def _final_cards(prog, seed: int):
    """The play's result and, per location and owner, its cards as attribute dicts (ASIDE left out)."""
    keep = LastState()
    r = play(prog, seed, make_players("random", prog.lay.n, seed), observer=keep)
    c = keep.live.c
    where = {(vn, owner): [prog.lay.cards[k] for k in c.loc(slot, owner)]
             for vn, slot in prog.lay.loc_slots.items() if vn != ("hloc", "ASIDE")
             for owner in range(prog.lay.owners)}
    return r.status, r.scores, where


def test_the_put_aside_pile_and_texas_burn_pile_are_sinks():
    assert sinks(load_game(GAMES / "texas_holdem.gcg").game) == {("hloc", "ASIDE"), ("vloc", "TB")}
    assert sinks(load_game(GAMES / "blackjack.gcg").game) == {("hloc", "ASIDE")}


@pytest.mark.parametrize("name, sets, cards", [("texas_holdem.gcg", TEXAS, 32), ("blackjack.gcg", BLACKJACK, 13),
                                               ("uno.gcg", {"NUMBERS": 3, "SUITS": 2, "DEALA": 1}, 6)])
def test_a_small_variant_is_created_with_its_declared_deck_and_plays_the_same(name, sets, cards):
    loaded = load_game(GAMES / name)
    folded = fold_loaded(loaded, sets)
    small, whole = compile_loaded(folded, sets), compile_loaded(loaded, sets)
    # NUMBERS x SUITS cards, the first numbers of the first suits
    assert len(small.lay.cards) == cards
    assert len(whole.lay.cards) == 52
    for seed in range(40):
        assert _final_cards(small, seed) == _final_cards(whole, seed), seed


def test_the_whole_deck_is_not_folded():
    game = load_game(GAMES / "blackjack.gcg").game
    assert fold_setup(game, None) is game
    assert fold_setup(game, {"NUMBERS": 13, "SUITS": 4}) is game


def test_the_translation_sizes_its_tables_by_the_declared_deck():
    loaded = load_game(GAMES / "blackjack.gcg")
    small = checked_translation(loaded, BLACKJACK)
    whole = checked_translation(loaded, None)
    facts = [r for r in small.description.rules if r.head.name == "card_id"]
    assert len(facts) == 13 and len(small.prog.lay.cards) == 13
    # a sum of the 13 clubs counts at most 1+...+9 + 4 x 10 with the ace low, plus 9 for an ace
    # raised to 10: below the paper's 52-card sum (341)
    assert small.bounds[1] <= 85 + 9 + 1 < whole.bounds[1]


# A setup that takes the top two cards aside: without them, it would take two others.
# The folded game would differ, so nothing is folded.
BY_COUNT = """(game (setup (create players 2)
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR)) (SUIT (RED)))))
  (do ((repeat 2 (move (top (game iloc STOCK)) (top (game hloc OUT))))
       (shuffle (game iloc STOCK))))
  (stage player
    (end (== (size (game iloc STOCK)) 0))
    (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))
  (scoring max (size ((current player) iloc HAND))))
"""

# The same, but the pile taken aside is read later: not a sink.
READ_LATER = BY_COUNT.replace("(scoring max (size ((current player) iloc HAND)))",
                              "(scoring max (size (game hloc OUT)))")


def test_a_setup_whose_effect_depends_on_the_cards_is_not_folded():
    game = parse_text(BY_COUNT, "t.rcy").game
    assert sinks(game) == {("hloc", "OUT")}
    assert fold_setup(game) is game


def test_a_pile_that_is_read_is_not_a_sink():
    game = parse_text(READ_LATER, "t.rcy").game
    assert ("hloc", "OUT") not in sinks(game)
    assert fold_setup(game) is game


# The card put aside is remembered first: the copy in `mem M` is read after the first chance
# event (the score counts it), so the card is not dead although its pile is a sink. Folded, the
# setup would find no ONE, remember nothing and score 10 less.
REMEMBERED = """(game (setup (create players 2)
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR)) (SUIT (RED)))))
  (do (((> (size (filter (game iloc STOCK) 'C (== (cardatt RANK 'C) ONE))) 0)
         (do ((remember (top (filter (game iloc STOCK) 'C (== (cardatt RANK 'C) ONE))) (top (game mem M)))
              (move (top (filter (game iloc STOCK) 'C (== (cardatt RANK 'C) ONE))) (top (game hloc OUT))))))
       (shuffle (game iloc STOCK))))
  (stage player
    (end (== (size (game iloc STOCK)) 0))
    (choice ((move (top (game iloc STOCK)) (top ((current player) vloc HAND))))))
  (scoring max (+ (size ((current player) vloc HAND)) (* 10 (size (game mem M))))))
"""


def test_a_card_remembered_before_it_is_put_aside_is_not_folded():
    game = parse_text(REMEMBERED, "t.rcy").game
    assert sinks(game) == {("hloc", "OUT")}
    assert fold_setup(game) is game


# The bottom card, bound to 'X before the shuffle, is put aside when it is the ONE. The pile is a
# sink, but 'X is read after the shuffle. Folded, 'X would be the TWO, which has the same id there
# (ids are not renumbered in variables): the score would lose its 10.
CARD_VARIABLE = """(game (setup (create players 2)
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR, FIVE)) (SUIT (RED)))))
  (do ((let (bottom (game iloc STOCK)) 'X
         (do (((== (cardatt RANK 'X) ONE) (move 'X (top (game hloc OUT))))
              (shuffle (game iloc STOCK))
              ((== (cardatt RANK 'X) ONE) (set (game sto K) 1)))))))
  (stage player
    (end (== (size (game iloc STOCK)) 0))
    (choice ((move (top (game iloc STOCK)) (top ((current player) vloc HAND))))))
  (scoring max (+ (size ((current player) vloc HAND)) (* 10 (game sto K)))))
"""


def test_a_card_variable_bound_across_the_first_event_to_a_dead_card_is_not_folded():
    game = parse_text(CARD_VARIABLE, "t.rcy").game
    assert sinks(game) == {("hloc", "OUT")}
    assert fold_setup(game) is game
