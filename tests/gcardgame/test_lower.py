"""Lowering G_cardgame into the IR: valid RECYCLE, and played by the simulator as
docs/gcardgame.md decides (observed through the winning conditions)."""
from __future__ import annotations

import operator

import pytest

from conftest import BLACKJACK_ACE_10, GAMES, TEXAS_BY_SUM, variant
from ggpbridge import ir
from ggpbridge.gcardgame import parse_file, parse_text, to_recycle
from ggpbridge.gcardgame.lower import lower
from ggpbridge.recycle import parse_text as parse_recycle
from ggpbridge.recycle.check import check
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.players import make_players
from ggpbridge.sim.playout import FINISHED, play
from ggpbridge.translators.recycle_text import to_text


def program(loaded):
    return compile_loaded(to_recycle(loaded))


def results(loaded, seeds):
    prog = program(loaded)
    return [play(prog, seed, make_players("random", loaded.game.players, seed)) for seed in seeds]


def scores_of(text: str, seeds=range(1)) -> list:
    """The final scores of each seed's game, every game finished."""
    rs = results(parse_text(text, "t.gcg"), seeds)
    assert all(r.status == FINISHED for r in rs), [(r.status, r.error) for r in rs]
    return [r.scores for r in rs]


def line_of(name: str, needle: str) -> int:
    """The line of a bundled game on which `needle` first occurs."""
    lines = (GAMES / f"{name}.gcg").read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


@pytest.mark.parametrize("loaded", [lambda: parse_file(GAMES / "uno.gcg"), lambda: variant(*TEXAS_BY_SUM),
                                    lambda: variant(*BLACKJACK_ACE_10)], ids=["uno", "texas-by-sum", "blackjack-ace-10"])
def test_lowered_games_are_valid_recycle_that_reads_back_the_same(loaded):
    loaded = loaded()
    game = lower(loaded.game)
    assert [d.format() for d in check(game, loaded.source)] == []
    text, renamed = to_text(game)
    assert renamed == {}
    assert parse_recycle(text, "lowered.rcy").game == game


def test_uno_games_end_with_one_winner_or_a_draw():
    rs = results(parse_file(GAMES / "uno.gcg"), range(40))
    assert all(r.status == FINISHED for r in rs)
    outcomes = {tuple(sorted(r.scores)) for r in rs}
    # a `win` scores above everything else (decision 13); without it everybody scores 0
    assert outcomes == {(0, 0, 0), (0, 0, 1)}


@pytest.mark.parametrize("spec", [TEXAS_BY_SUM, BLACKJACK_ACE_10], ids=["texas-by-sum", "blackjack-ace-10"])
def test_tokens_are_never_created_or_lost(spec):
    # one point per token (stash plus bet, decision 12): bets and gains only move the 3 x 99
    rs = results(variant(*spec), range(25))
    assert all(r.status == FINISHED for r in rs), [r.error for r in rs]
    assert {sum(r.scores) for r in rs} == {297}
    assert len({tuple(r.scores) for r in rs}) > 5   # and the games differ


def test_blackjacks_sums_count_the_ace_high_up_to_21():
    loaded = parse_file(GAMES / "blackjack.gcg")
    game = lower(loaded.game)
    assert [d.format() for d in check(game, loaded.source)] == []
    sums = [n for n in game.walk() if isinstance(n, ir.BestSum)]
    # `sum HX > 21` and `sum HX > HA` (the current hand and each other's), both bounded by the 21
    assert sums and {n.bound for n in sums} == {ir.IntLit(21)}
    assert {(n.low.name.value, n.high.name.value) for n in sums} == {("VALUE", "RAISED")}
    maps = {n.target.name.value: {a.conds[0][1].value: a.value.value for a in n.awards}
            for n in game.walk() if isinstance(n, ir.SetPoints)}
    assert (maps["VALUE"]["ONE"], maps["RAISED"]["ONE"]) == (1, 10)
    assert maps["VALUE"]["THIRTEEN"] == maps["RAISED"]["THIRTEEN"] == 10
    assert maps["VALUE"]["SEVEN"] == maps["RAISED"]["SEVEN"] == 7


def test_blackjack_keeps_every_token_and_the_two_valued_ace_changes_games():
    rs = results(parse_file(GAMES / "blackjack.gcg"), range(40))
    assert all(r.status == FINISHED for r in rs), [r.error for r in rs]
    assert {sum(r.scores) for r in rs} == {297}
    # an ace counted 1 where 10 would bust, or 10 where it fits: some game ends otherwise
    # than with the ace always 10
    ten = results(variant(*BLACKJACK_ACE_10), range(40))
    assert [r.scores for r in rs] != [r.scores for r in ten]


OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "=": operator.eq}


@pytest.mark.parametrize("stashes", [(5, 3, 4), (4, 4, 2), (0, 0, 0), (2, 7, 7)])
@pytest.mark.parametrize("op", list(OPS))
def test_ka_compares_with_the_largest_bet_of_the_live_others(op, stashes):
    gives = "\n".join(f"  com give player {p} {n}" for p, n in enumerate(stashes) if n)
    text = (f"players 3\nstage 0\n{gives}\n  com deal ALL 1\nstage 1\n  mandatory tokens KX0 {op} KA0 out\n"
            "winning\n  not out 1\n")
    # decision 10, played in seat order: each player compares with the largest stash of
    # the others not yet out (0 when there is none)
    alive = [True] * 3
    for p in range(3):
        best = max((stashes[q] for q in range(3) if q != p and alive[q]), default=0)
        if OPS[op](stashes[p], best):
            alive[p] = False
    assert scores_of(text) == [[int(a) for a in alive]]


def test_a_bet_after_the_move_satisfies_its_restriction():
    base = "players 3\nstage 0\n  com give ALL 10\nstage 1\n  mandatory unconditional bet >= 7\nstage 2\n"
    # every bet is 7..10 (decision 9): nobody is below 7 ...
    assert {tuple(s) for s in scores_of(base + "  mandatory tokens KX1 < 7 out\nwinning\n  not out 1\n", range(20))} \
        == {(1, 1, 1)}
    # ... and the amount is the player's choice: some bets are below 10
    assert (1, 1, 1) != min(tuple(s) for s in scores_of(base + "  mandatory tokens KX1 < 10 out\nwinning\n  not out 1\n",
                                                         range(20)))


def test_gain_takes_the_other_bets_into_the_stash():
    text = ("players 2\nstage 0\n  com give ALL 10\nstage 1\n  mandatory unconditional bet λ λ\n"
            "stage 2\n  mandatory tokens KX1 > KA1 gain KA1\nwinning\n  token 1\n")
    seen = set()
    for a, b in scores_of(text, range(30)):
        # the higher bet takes the lower one: the loser keeps 10 - bet, the winner the rest
        assert a + b == 20 and (a == b == 10 or min(a, b) < 10)
        seen.add(a == b)
    assert seen == {True, False}


def test_once_rules_let_a_stage_end_and_a_stage_that_cannot_end_never_finishes():
    once = "players 2\nstage 0\n  once unconditional next\n  draw next\nwinning\n  not out 1\n"
    assert scores_of(once, range(5)) == [[1, 1]] * 5
    # without `once`, `next` is always playable: the stage never ends (a crash in Table 5)
    forever = "players 2\nstage 0\n  unconditional next\n"
    assert {r.status for r in results(parse_text(forever), range(3))} != {FINISHED}


def test_uno_draw_is_an_antecedent_that_moves_a_card_and_needs_a_deck():
    game = lower(parse_file(GAMES / "uno.gcg").game)
    moves = [n for n in game.walk() if isinstance(n, ir.Move) and n.pos.line == line_of("uno", "draw next")]
    assert len(moves) == 1 and moves[0].src.source.name == ir.Name("D")
    assert moves[0].dst.source.vis == "iloc"   # drawn face down (decision 7)


def test_pifr_up_puts_the_card_face_up_in_the_hand():
    game = lower(variant(*BLACKJACK_ACE_10).game)
    (move,) = [n for n in game.walk() if isinstance(n, ir.Move) and n.pos.line == line_of("blackjack", "pifr")]
    assert move.dst.source == ir.Location(ir.PlayerRef("current"), "vloc", ir.Name("UP"))


EVERY_CONSTRUCT = """players 3
tables 2
stage 0
  com deal ALL 3
  com deal player 1 1
  com deal players 0 and 2 1
  com deal T0 1
  com deal H2 1
  com give ALL 20
  com give players 0, 1 and 2 5
  com give player 2 1
stage 1
  mandatory unconditional bet λ λ
  once unconditional bet > K01
  once unconditional bet <= 30
  once tokens KX1 >= KA1 pifr D*1 down
  once tokens K00 < 100 puin T0*1 > up
  once unconditional puin T1*1 λ down
  once show < T0 playit
  once show same suit T0 next
  once draw pifr H1*1 up
  once have hearts gain KA1
  once have 2 of clubs gain K01
  once have 13 gain KX1
  once sum HX + T0 >= HA + T0 done
  once sum HX < 30 next
  once have λ end
  mandatory tokens KX0 = 0 out
  unconditional done
winning
  token 2
  not out 7
"""


def test_every_construct_without_an_extension_lowers_and_plays():
    loaded = parse_text(EVERY_CONSTRUCT, "every.gcg")
    game = lower(loaded.game)
    assert [d.format() for d in check(game, loaded.source)] == []
    rs = results(loaded, range(40))
    assert {r.status for r in rs} == {FINISHED}, [r.error for r in rs if r.error]
    # tokens are only moved: 3 x 25 + 1 given, two points each, plus 7 per player not out
    for r in rs:
        assert (sum(r.scores) - 2 * 76) % 7 == 0 and 0 <= sum(r.scores) - 2 * 76 <= 21


def test_show_does_not_hold_against_an_empty_location():
    # T1 stays empty: no card can be shown against it, so the rule never wins (decision 17)
    text = "players 2\ntables 2\nstage 0\n  com deal ALL 2\nstage 1\n  show > T1 win\n"
    assert scores_of(text, range(5)) == [[0, 0]] * 5
    # with a card on T1, a hand card of its suit can be shown and wins
    played = "players 2\ntables 2\nstage 0\n  com deal ALL 4\n  com deal T1 1\nstage 1\n  show same suit T1 win\n"
    assert [1, 0] in scores_of(played, range(20))


def test_com_amounts_are_declared_so_that_a_game_can_be_shrunk():
    loaded = variant(*BLACKJACK_ACE_10)
    assert [(d.var, d.value) for d in lower(loaded.game).declares] == [
        ("NUMBERS", ir.IntLit(13)), ("SUITS", ir.IntLit(4)), ("DEALA", ir.IntLit(2)), ("GIVEA", ir.IntLit(99))]
    prog = compile_loaded(to_recycle(loaded), {"GIVEA": 5, "DEALA": 1})
    rs = [play(prog, seed, make_players("random", 3, seed)) for seed in range(20)]
    # 3 x 5 tokens are all there is: bets of at most 5, nothing created or lost
    assert {r.status for r in rs} == {FINISHED} and {sum(r.scores) for r in rs} == {15}


def test_a_win_outranks_any_score_whatever_the_declared_amounts():
    text = ("players 2\nstage 0\n  com give player 0 3\n  com give ALL 4\nstage 1\n  mandatory tokens KX0 < 5 win\n"
            "winning\n  token 1\n  not out 1\n")
    # player 1 (4 tokens) wins although player 0 (7 tokens) has more: 7 + 1 < the win bonus
    assert scores_of(text) == [[8, 4 + 1 + (3 + 4 * 2) + 1 + 1]]
    prog = compile_loaded(to_recycle(parse_text(text)), {"GIVEA": 50})
    r = play(prog, 0, make_players("random", 2, 0))
    assert r.winners == [1] and r.scores[0] == 54 + 1   # 54 tokens, not out


def test_the_deck_is_declared_so_that_it_can_be_shrunk():
    from ggpbridge.sim.machine import Live
    loaded = parse_file(GAMES / "uno.gcg")
    plain, small = compile_loaded(to_recycle(loaded)), compile_loaded(to_recycle(loaded), {"NUMBERS": 3, "SUITS": 2, "DEALA": 1})
    # the paper's deck puts nothing aside, so the games are those of the deck as written
    assert [play(plain, s, make_players("random", 3, s)).winners for s in range(10)] == \
        [play(program(loaded), s, make_players("random", 3, s)).winners for s in range(10)]
    live = Live(small, 0)
    live.setup()
    live.advance()   # to the first choice: the deck is trimmed, shuffled and dealt
    lay, c = small.lay, live.c
    in_play = [card for vis, name in lay.loc_slots if name != "ASIDE"
               for owner in range(lay.owners) for card in c.loc(lay.loc_slots[(vis, name)], owner)]
    kept = {(lay.attr["RANK"][k], lay.attr["SUIT"][k]) for k in in_play}
    assert len(in_play) == 6 and kept == {(r, s) for r in ("ONE", "TWO", "THREE") for s in ("CLUBS", "DIAMONDS")}
