"""v0.3 forms of the RECYCLE paper's era, read as that era's grammar and engine read them:
`(any LOC)` as a card inside a condition is "some card of LOC", and `(sum RAWSTORAGE)` sums
a storage over the players (or teams) the owner names."""
from __future__ import annotations

from ggpbridge import ir
from ggpbridge.ir_norm import up_to_names
from ggpbridge.recycle import parse_text
from ggpbridge.recycle.check import check
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.machine import Live

# the current player may pass only while holding a heart: (any HAND) in a condition
ANY_IN_CONDITION = """(game
  (setup (create players 2) (create teams (0) (1))
    (create deck (game iloc STOCK) (deck (rank (2, 3)) (suit (hearts, spades)))))
  (comp (() (move (top (game iloc STOCK)) (top ((all player) iloc HAND)) 2)))
  (stage player (end (== (size ((all player) iloc HAND)) 0))
    (choice
      ((== (cardatt suit (any ((current player) iloc HAND))) hearts)
       (move (top ((current player) iloc HAND)) (top (game vloc PILE))))
      ((!= (cardatt suit (any ((current player) iloc HAND))) hearts)
       (move (bottom ((current player) iloc HAND)) (top (game vloc PILE))))))
  (scoring max (((current player) player) sto SCORE)))"""

THE_SAME_IN_V0510 = """(game
  (setup (create players 2) (create teams (0) (1))
    (create deck (game iloc STOCK) (deck (RANK (TWO, THREE)) (SUIT (HEARTS, SPADES)))))
  (do ((all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
  (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
    (choice (
      ((any ((current player) iloc HAND) 'C (== (cardatt SUIT 'C) HEARTS))
       (move (top ((current player) iloc HAND)) (top (game vloc PILE))))
      ((any ((current player) iloc HAND) 'C (!= (cardatt SUIT 'C) HEARTS))
       (move (bottom ((current player) iloc HAND)) (top (game vloc PILE)))))))
  (scoring max ((current player) sto SCORE)))"""


def test_any_card_in_a_condition_is_some_card_of_the_location():
    old = parse_text(ANY_IN_CONDITION)
    assert old.dialect == "0.3"
    assert not [d for d in check(old.game, old.source) if d.severity == "error"]
    cond = old.game.body[1].body[0].options[0].cond
    assert isinstance(cond, ir.Quantified) and cond.quant == "any"
    assert up_to_names(old.game) == up_to_names(parse_text(THE_SAME_IN_V0510).game)


def test_a_player_holding_a_heart_and_a_spade_has_both_options():
    prog = compile_loaded(parse_text(ANY_IN_CONDITION))
    for seed in range(20):
        live = Live(prog, seed)
        live.setup()
        ch = live.advance()
        suits = {prog.lay.cards[k]["suit"] for k in live.c.L[prog.lay.loc_slot("iloc", "HAND")][1]}
        assert len(live.options(ch)) == len(suits), (seed, suits)


# partners (0, 2) and (1, 3); each turn the current player scores 1 and its team's storage
# is set to the sum over the team's players; `(sum ((all player) sto S))` counts every turn
SUMS = """(game
  (setup (create players 4) (create teams (0, 2) (1, 3))
    (create deck (game iloc STOCK) (deck (rank (a, b, c, d, e, f)))))
  (stage player (end (== (size (game iloc STOCK)) 0))
    (choice (() (move (top (game iloc STOCK)) (top ((current player) iloc HAND)))
                (inc ((current player) sto S) 1)
                (set (game sto TEAMSUM) (sum (((current team) player) sto S)))
                (set (game sto ALL) (sum ((all player) sto S)))
                (set (game sto ONE) (sum ((current player) sto S))))))
  (scoring max (((current player) player) sto S)))"""


def _storages(text, engine):
    from ggpbridge.sim import play
    from ggpbridge.sim.codegen import compile_fast
    from ggpbridge.sim.players import make_players
    loaded = parse_text(text)
    assert not [d for d in check(loaded.game, loaded.source) if d.severity == "error"]
    prog = compile_loaded(loaded)
    if engine == "generated":
        assert compile_fast(prog) is not None
    live = Live(prog, 0)
    live.setup()
    seen = []
    while (ch := live.advance()) is not None:
        live.choose(ch, live.options(ch)[0])
        g = {k: live.c.I[prog.lay.sto_slots[k]][0] for k in ("TEAMSUM", "ALL", "ONE")}
        seen.append((live.c.cyc[-1][0], g))
    assert play(prog, 0, make_players("random", 4, 0)).status == "finished"
    return seen


def test_a_storage_sum_adds_over_the_owners_named():
    g = parse_text(SUMS).game
    assert g is not None and parse_text(SUMS).dialect == "0.3"
    sets = g.body[0].body[0].options[0].items
    team, every, one = (s.value for s in sets[2:5])
    assert isinstance(team, ir.IntSum) and team.coll == ir.TeamRef("current")
    assert isinstance(every, ir.IntSum) and every.coll == ir.AllOf("player")
    assert isinstance(one, ir.IntStorage)
    seen = _storages(SUMS, "closure")
    # after turn k (players 0,1,2,3,0,1 in turn) the current player's team has scored:
    # turn 1 (player 0): 1; turn 2 (player 1): 1; turn 3 (player 2): 2; turn 4 (player 3): 2;
    # turn 5 (player 0): 3; turn 6 (player 1): 3
    assert [s["TEAMSUM"] for _, s in seen] == [1, 1, 2, 2, 3, 3]
    assert [s["ALL"] for _, s in seen] == [1, 2, 3, 4, 5, 6]
    assert [s["ONE"] for _, s in seen] == [1, 1, 1, 1, 2, 2]


def test_both_engines_play_a_storage_sum_alike():
    import random
    from ggpbridge.sim import play
    from ggpbridge.sim.codegen import compile_fast
    from ggpbridge.sim.players import make_players
    text = SUMS.replace("(scoring max (((current player) player) sto S))",
                        "(scoring max (sum (((current team) player) sto S)))")
    prog = compile_loaded(parse_text(text))
    fast = compile_fast(prog)
    assert fast is not None
    for seed in range(5):
        ref = play(prog, seed, make_players("random", 4, seed))
        got = fast(random.Random(seed), lambda p, n: 0, 100_000, [])
        assert (got[0], got[1]) == (ref.status, ref.scores) and ref.scores == [3, 3, 3, 3]


def test_upgrade_and_translation_refuse_a_storage_sum_by_position():
    from ggpbridge.errors import UnsupportedConstructError
    from ggpbridge.translators.recycle_text import to_text
    import pytest
    g = parse_text(SUMS).game
    with pytest.raises(UnsupportedConstructError) as e:
        to_text(g)
    assert e.value.pos.line == 7 and "no v0.5.10 form" in e.value.message
