"""The simulator executes RECYCLE as CardStock does: small games with known outcomes."""
from __future__ import annotations

import pytest

from ggpbridge.errors import GameDefinitionError
from ggpbridge.recycle import parse_text
from ggpbridge.sim import compile_loaded, play, simulate
from ggpbridge.sim.machine import Live
from ggpbridge.sim.players import FirstPlayer, make_players

DECK = "(create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR)) (SUIT (RED, BLUE))))"


def program(body: str, players: int = 3, scoring: str = "(scoring max ((current player) sto S))", extra: str = ""):
    text = f"(game {extra} (setup (create players {players}) {DECK}) {body} {scoring})"
    return compile_loaded(parse_text(text, "t.rcy"))


def run(prog, seed=0):
    live = Live(prog, seed)
    live.setup()
    log = []
    while True:
        ch = live.advance()
        if ch is None:
            return live, log
        opts = live.options(ch)
        log.append((live.current_player(), len(opts)))
        live.choose(ch, opts[0])


def ints(live, name):
    slot = live.prog.lay.sto_slots[name]
    return live.c.ints(slot)


def test_stage_cycles_players_and_advances_from_the_second_iteration():
    # each turn appends the player to a counter; the stage ends after 5 turns
    prog = program("(stage player (end (== (game sto T) 5))"
                   " (choice ((do ((inc (game sto T) 1) (inc ((current player) sto S) 1))))))")
    live, log = run(prog)
    assert [p for p, _ in log] == [0, 1, 2, 0, 1]
    assert ints(live, "S")[1:4] == [2, 2, 1]


def test_cycle_next_queues_and_cycle_current_switches_now():
    prog = program("(stage player (end (== (game sto T) 4))"
                   " (choice ((do ((inc (game sto T) 1) (inc ((current player) sto S) 1) (cycle next (2 player)))))))")
    _, log = run(prog)
    assert [p for p, _ in log] == [0, 2, 2, 2]
    prog = program("(stage player (end (== (game sto T) 3))"
                   " (do ((cycle current (1 player))))"
                   " (choice ((do ((inc (game sto T) 1) (inc ((current player) sto S) 1))))))")
    _, log = run(prog)
    assert [p for p, _ in log] == [1, 1, 1]   # current is set to 1 at the start of every turn


def test_nested_stage_starts_from_the_outer_current_player():
    prog = program("(stage player (end (== (game sto R) 2))"
                   "  (stage player (end (== (game sto T) 2)) (choice ((inc (game sto T) 1))))"
                   "  (do ((set (game sto T) 0) (inc (game sto R) 1))))")
    _, log = run(prog)
    # round 1 led by 0 (0,1), round 2 by the outer cycle's next player 1 (1,2)
    assert [p for p, _ in log] == [0, 1, 1, 2]


def test_any_enumerates_options_and_conditions_filter_them():
    prog = program("(do ((shuffle (game iloc STOCK)) (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"
                   "(stage player (end (== (size ((0 player) iloc HAND)) 0))"
                   " (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE))))"
                   "          ((== 1 2) (turn pass)))))", players=1)
    _, log = run(prog)
    assert log == [(0, 2), (0, 1)]


def test_a_choice_without_any_enabled_option_is_a_positioned_error():
    prog = program("(stage player (end (== 1 2)) (choice (((== 1 2) (turn pass)))))")
    r = play(prog, 3, make_players("random", 3, 3))
    assert r.status == "error" and "no enabled option" in r.error and ":1:" in r.error


def test_move_top_bottom_and_index():
    prog = program("(do ((move (top (game iloc STOCK)) (bottom (game vloc A)))"
                   " (move (bottom (game iloc STOCK)) (top (game vloc A)))"
                   " (move (2 (game iloc STOCK)) (1 (game vloc A)))))", players=1)
    live, _ = run(prog)
    lay = live.prog.lay
    a = live.c.loc(lay.loc_slots[("vloc", "A")], 0)
    stock = live.c.loc(lay.loc_slots[("iloc", "STOCK")], 0)
    names = [(lay.cards[x]["RANK"], lay.cards[x]["SUIT"]) for x in a]
    # STOCK holds the deck in creation order, top last: (FOUR, BLUE) on top, (ONE, RED) at the bottom
    assert names == [("FOUR", "BLUE"), ("TWO", "BLUE"), ("ONE", "RED")]
    assert len(stock) == 5


def test_point_maps_sum_every_matching_award_and_max_uses_them():
    prog = program("(do ((set (game points P) (((RANK : FOUR) 10) ((SUIT : RED) 1) ((RANK : FOUR) 5)))"
                   " (set (game sto X) (score (top (game iloc STOCK)) using (game points P)))"
                   " (set (game sto Y) (sum (game iloc STOCK) using (game points P)))"
                   " (set (game sto Z) (score (max (game iloc STOCK) using (game points P)) using (game points P)))))",
                   players=1)
    live, _ = run(prog)
    x, y, z = (ints(live, k)[0] for k in "XYZ")
    assert (x, y, z) == (15, 16 + 15 + 3, 16)


def test_same_seed_same_game_and_seeds_differ():
    prog = program("(do ((shuffle (game iloc STOCK))"
                   " (all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND))))))"
                   " (do ((all player 'P (set ('P sto S) (score (top ('P iloc HAND)) using (game points V))))))",
                   extra="", players=3)
    a = [play(prog, s, make_players("random", 3, s)).scores for s in range(6)]
    b = [play(prog, s, make_players("random", 3, s)).scores for s in range(6)]
    assert a == b


def test_ties_split_the_win_and_min_scoring():
    prog = program("(do ((inc ((1 player) sto S) 1)))", scoring="(scoring min ((current player) sto S))")
    r = play(prog, 0, [FirstPlayer()] * 3)
    assert r.scores == [0, 1, 0] and r.winners == [0, 2] and r.ranks == [1.5, 3, 1.5]


def test_declared_values_can_be_overridden():
    text = f"(game (declare 2 'N) (setup (create players 'N) {DECK}) (do ((turn pass))) (scoring max 0))"
    loaded = parse_text(text)
    assert compile_loaded(loaded, {"N": 5}).lay.n == 5
    with pytest.raises(GameDefinitionError, match="declares no variable 'M"):
        compile_loaded(loaded, {"M": 1})


def test_games_with_check_errors_are_refused():
    with pytest.raises(GameDefinitionError, match="cannot be simulated"):
        program("(do ((move (top ('Q iloc HAND)) (top (game vloc PILE)))))")


def test_cardatt_of_an_empty_collection_is_empty_but_moving_from_it_fails():
    prog = program("(do (((== (cardatt RANK (top (game vloc EMPTY))) ONE) (inc (game sto X) 1))"
                   " ((== (cardatt RANK (top (game vloc EMPTY))) (game str NOTHING)) (inc (game sto Y) 1))))", players=1)
    live, _ = run(prog)
    assert (ints(live, "X")[0], ints(live, "Y")[0]) == (0, 1)
    prog = program("(do ((move (top (game vloc EMPTY)) (top (game vloc PILE)))))", players=1)
    r = play(prog, 0, [FirstPlayer()])
    assert r.status == "error" and "empty location" in r.error and r.seed == 0


def test_an_option_sees_the_effects_of_its_own_earlier_actions():
    # CardStock enumerates options by running them tentatively: after the draw, the hand
    # holds one card more, and each of them is an option (an empty hand had none before).
    prog = program("(do ((move (top (game iloc STOCK)) (top ((0 player) iloc HAND)))))"
                   "(stage player (end (== (size (game vloc PILE)) 2))"
                   " (choice ((do ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))"
                   "               (any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE)))))))))",
                   players=1)
    live, log = run(prog)
    assert log == [(0, 2), (0, 2)]
    lay = live.prog.lay
    assert len(live.c.loc(lay.loc_slots[("vloc", "PILE")], 0)) == 2
    assert len(live.c.loc(lay.loc_slots[("iloc", "STOCK")], 0)) == 5


def test_a_scoring_that_breaks_a_rule_is_each_plays_positioned_error_not_the_runs():
    # the scoring takes the top 3 cards of an empty place: every play ends, and then cannot be scored
    prog = program("(stage player (end (== (game sto D) 1)) (choice (((== 1 1) (set (game sto D) 1)))))",
                   scoring="(scoring max (size (top 3 (game vloc NOWHERE))))")
    r = play(prog, 0, make_players("random", 3, 0))
    assert r.status == "error" and "top 3 cards" in r.error and r.error.startswith("t.rcy:1:")
    stats = simulate(prog, 4, 0, "random", 1000)
    assert stats.status["error"] == 4
