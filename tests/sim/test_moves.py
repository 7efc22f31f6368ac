"""Moves that read what they change, and `repeat all` (issue #32), in both simulator engines.

CardStock creates a move (source card, then destination collection) before it executes it
(docs/cardstock-semantics.md §3.3), so a destination computed from the collection the
moved card lies in still sees that card. `repeat all` runs once per card of its source's
collection as it is when the repeat starts (§3.4), however that collection changes.
"""
from __future__ import annotations

import random
from pathlib import Path

from ggpbridge.recycle import parse_file, parse_text
from ggpbridge.sim import compile_loaded, play
from ggpbridge.sim.codegen import compile_fast
from ggpbridge.sim.machine import Live

DATA = Path(__file__).parent / "data"
RANK = {"TWO": 2, "THREE": 3, "FOUR": 4, "FIVE": 5}


def _final(prog, seed):
    """The end state of one game (every choice takes the first option)."""
    live = Live(prog, seed)
    live.setup()
    while (ch := live.advance()) is not None:
        live.choose(ch, live.options(ch)[0])
    return live


def _cards(live, vis, name, player):
    return list(live.c.loc(live.prog.lay.loc_slot(vis, name), 1 + player))


def test_trick_goes_to_the_owner_of_the_highest_card_seen_before_the_move():
    prog = compile_loaded(parse_file(DATA / "trick_to_owner.rcy"))
    lay, outcomes = prog.lay, set()
    for seed in range(12):
        live = _final(prog, seed)
        hands = [_cards(live, "iloc", "HAND", p) for p in range(2)]
        assert not _cards(live, "vloc", "TRICK", 0) and not _cards(live, "vloc", "TRICK", 1)
        assert len(hands[0]) + len(hands[1]) == 2
        # player 0's card is moved while both trick cards lie there: it goes to player 0
        # exactly when it is the higher one; player 1's card is then alone, and stays with 1
        if hands[0]:
            (mine,) = hands[0]
            (theirs,) = hands[1]
            assert RANK[lay.cards[mine]["RANK"]] > RANK[lay.cards[theirs]["RANK"]], seed
        outcomes.add(len(hands[0]))
    assert outcomes == {0, 1}   # both cases occur in these seeds


def _both_engines(prog, seeds=range(20)):
    fast = compile_fast(prog)
    assert fast is not None, "the generated engine must handle this game"
    for seed in seeds:
        drng = random.Random(1000 + seed)

        class Shared:
            def choose(self, view, options):
                return drng.randrange(len(options))
        ref = play(prog, seed, [Shared()] * prog.lay.n)
        assert ref.status == "finished", (seed, ref.error)
        drng = random.Random(1000 + seed)
        trace = []
        status, scores, _ = fast(random.Random(seed), lambda p, n: drng.randrange(n), 20_000, trace)
        assert (status, scores) == (ref.status, ref.scores), seed
        assert trace == [(d.player, d.options) for d in ref.decisions], seed


def test_generated_engine_resolves_the_destination_first_too():
    _both_engines(compile_loaded(parse_file(DATA / "trick_to_owner.rcy")))


def test_destination_index_is_read_before_the_card_leaves():
    # (size A) as the index into A itself: read before the move, it is one past the last card
    # once the card is out, so the card goes back on top; read after, it would be one lower
    text = """(game (setup (create players 2)
        (create deck (game vloc A) (deck (RANK (ONE, TWO, THREE)) (SUIT (RED)))))
      (do ((move (bottom (game vloc A)) ((- (size (game vloc A)) 1) (game vloc A)))))
      (scoring max 0))"""
    prog = compile_loaded(parse_text(text, "t.rcy"))
    live = _final(prog, 0)
    ranks = [live.prog.lay.cards[k]["RANK"] for k in _cards(live, "vloc", "A", -1)]
    assert ranks == ["TWO", "THREE", "ONE"]
    _both_engines(prog, range(3))


VALUE = {"ONE": 1, "TWO": 2, "THREE": 3, "FOUR": 4}


def test_repeat_all_runs_once_per_card_of_its_source_as_it_starts():
    prog = compile_loaded(parse_file(DATA / "repeat_all_sources.rcy"))
    cards = prog.lay.cards
    for seed in range(12):
        live = _final(prog, seed)
        stock = _cards(live, "vloc", "STOCK", -1)
        piles = [_cards(live, "vloc", "PILE", p) for p in range(2)]
        hands = [_cards(live, "vloc", "HAND", p) for p in range(2)]
        # a filter over the hand: every red card went, and only those
        assert all(cards[k]["SUIT"] == "BLUE" for h in hands for k in h), seed
        # a filter over the stock onto its own bottom: each blue card moved once (below the
        # red ones); the max: one card; the stock onto itself: each card once, order kept
        assert len(stock) == 3, seed
        suits = [cards[k]["SUIT"] for k in stock]
        assert suits == sorted(suits), seed   # BLUE before RED, bottom first
        # the max went to a pile: no card left in the stock is above every card of the piles
        ones = [_cards(live, "vloc", "ONES", p) for p in range(2)]
        assert all(cards[k]["RANK"] == "ONE" for p in ones for k in p), seed
        assert sum(map(len, piles)) + sum(map(len, hands)) + sum(map(len, ones)) == 5, seed
        best = max(VALUE[cards[k]["RANK"]] for p in piles for k in p)
        assert all(VALUE[cards[k]["RANK"]] <= best for k in stock), seed


def test_repeat_all_of_a_pair_moves_both_of_its_cards():
    prog = compile_loaded(parse_file(DATA / "repeat_all_tuple.rcy"))
    cards, sizes = prog.lay.cards, set()
    for seed in range(12):
        live = _final(prog, seed)
        for p in range(2):
            pairs = _cards(live, "vloc", "PAIRS", p)
            sizes.add(len(pairs))
            assert len(pairs) in (0, 2), seed
            if pairs:
                assert cards[pairs[0]]["RANK"] == cards[pairs[1]]["RANK"], seed
    assert sizes == {0, 2}


def test_generated_engine_repeats_as_the_closure_engine():
    for name in ("repeat_all_sources.rcy", "repeat_all_tuple.rcy"):
        _both_engines(compile_loaded(parse_file(DATA / name)))


def test_engines_draw_an_actions_chance_in_one_order():
    # a storage whose owner and value both take chance: the value first in both engines
    _both_engines(compile_loaded(parse_file(DATA / "chance_operands.rcy")))


def test_a_position_outside_the_source_is_an_error_in_both_engines():
    # the last turn takes card -1 of a one-card location: an error, never the top card
    text = """(game (setup (create players 2)
        (create deck (game vloc A) (deck (RANK (ONE, TWO, THREE)) (SUIT (RED)))))
      (stage player (end (== (size (game vloc A)) 0))
        (choice ((move ((- (size (game vloc A)) 2) (game vloc A)) (top ((current player) vloc HAND))))))
      (scoring max (size ((current player) vloc HAND))))"""
    prog = compile_loaded(parse_text(text, "t.rcy"))
    ref = play(prog, 0, [None] * 2)
    assert ref.status == "error" and "card -1 of a location holding 1" in ref.error
    status, _, _ = compile_fast(prog)(random.Random(0), lambda p, n: 0, 1000, [])
    assert status == "error"
