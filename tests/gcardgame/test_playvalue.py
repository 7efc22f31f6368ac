"""The IR extension PlayValue (G_cardgame's `play`, docs/gcardgame.md decision 14): the value
of known poker hands by the rules of poker, on the evaluator, on both simulator engines and
on the GDL translation in lockstep; the node's checker, JSON and printer cases."""
from __future__ import annotations

import os

import pytest

from conftest import GAMES
from ggpbridge import ir
from ggpbridge.crosscheck import crosscheck
from ggpbridge.errors import Source, UnsupportedConstructError
from ggpbridge.gdl.validate import is_valid, validate
from ggpbridge.gcardgame import parse_file, parse_text, to_recycle
from ggpbridge.gcardgame.lower_exprs import RANKS, SUITS, cmp, deck, hand_down, lit, play_value, points, sto
from ggpbridge.ir_json import from_data, to_data
from ggpbridge.recycle import Loaded
from ggpbridge.recycle.check import check
from ggpbridge.sim import compile_loaded, fast_path, play_fast
from ggpbridge.sim.players import make_players
from ggpbridge.sim.playout import FINISHED, play
from ggpbridge.sim.plays import play_value as evaluate
from ggpbridge.translate import translate_loaded
from ggpbridge.translators.recycle_text import to_text

# the paper's ranking (section 2.1), in its order
TEXAS = (("straight flush", 900), ("four of a kind", 800), ("full house", 700), ("flush", 600), ("straight", 500),
         ("three of a kind", 400), ("two pairs", 300), ("one pair", 200))
FACES = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}
SUIT = {"C": "CLUBS", "D": "DIAMONDS", "H": "HEARTS", "S": "SPADES"}


def number(card: str) -> int:
    return FACES.get(card[0]) or int(card[0])


def value(hand: str, ranking=TEXAS) -> int:
    """The evaluator on a hand written `AS KH 2C` (ace high: the default ranking's 14)."""
    cards = hand.split()
    return evaluate([14 if number(c) == 1 else number(c) for c in cards], [c[1] for c in cards], ranking)


# (hand, value): each category by poker's rules, the best play of seven cards counting
HANDS = [
    ("AS KS QS JS TS", 900),            # royal flush
    ("AH 2H 3H 4H 5H", 900),            # the ace-low straight flush (decision 14)
    ("9C 8C 7C 6C 5C 5D 5H", 900),      # a straight flush beats the trips beside it
    ("7S 7H 7D 7C 2S", 800),
    ("7S 7H 7D 2C 2S", 700),
    ("7S 7H 7D 2C 2S 2H", 700),         # two trips make a full house
    ("2S 9S JS KS 4S", 600),
    ("2S 9S JS KS 4S 4H 4D", 600),      # a flush beats the trips among the seven
    ("5S 6H 7D 8C 9S", 500),
    ("AS 2H 3D 4C 5S", 500),            # ace low
    ("TS JH QD KC AS", 500),            # ace high
    ("2S 3H 4D 5C 6S 6H", 500),
    ("7S 7H 7D KC 2S", 400),
    ("7S 7H 2D 2C KS", 300),
    ("7S 7H 2D 2C KS KH AS", 300),      # three pairs are two pairs
    ("7S 7H 2D 9C KS", 200),
    ("AS 9H 7D 4C 2S", 14),             # no play: the highest card, the ace high
    ("KS 9H 7D 4C 2S", 13),
    ("7S", 7),
    ("", 0),
    ("KS AH 2D 3C 4S", 14),             # no straight round the corner
    ("2S 3S 4S 5S 7S 6H", 600),         # a flush and a straight, not of the same cards
]
# one of each of the lower plays, no card twice: a table for the lockstep below
MIXED = [("2S 9S JS KS 4S", 600), ("5H 6H 7D 8C 9D", 500), ("QH QD QC 3D 6D", 400), ("TH TD 4H 4D AC", 300),
         ("8H 8D 3H 5C JC", 200), ("KH 9H 7S 4C 2D", 13)]
HANDS += MIXED


@pytest.mark.parametrize("hand,expected", HANDS, ids=[h or "empty" for h, _ in HANDS])
def test_known_hands_have_their_poker_value(hand, expected):
    assert value(hand) == expected


def test_equal_plays_are_equal_whatever_their_cards():
    # no kickers (decision 14): the paper gives a play one fixed score
    assert value("AS AH KD QC JS") == value("2S 2H 3D 4C 6S") == 200
    assert value("KS QS 9S 7S 5S") == value("2H 3H 4H 5H 7H")


def test_the_ranking_table_decides_not_poker():
    # a table may score a pair above a flush, and leave plays out: an unscored play is no play
    ranking = (("flush", 50), ("one pair", 60))
    assert value("2S 9S JS KS 4S 4H", ranking) == 60
    assert value("2S 9S JS KS 4S", ranking) == 50
    assert value("5S 6H 7D 8C 9S", ranking) == 9


# ---------------------------------------------------------------- the engines
def hands_game(hands: list[str], ranking=TEXAS) -> Loaded:
    """An IR game (no text: RECYCLE cannot spell PlayValue) that deals each player the given
    cards face down and scores each player the value of their hand, compares values (the first
    two hands', the last one's with 300) into table storages, then lets player 0 pick heads or
    tails."""
    c = ir.Var("C")

    def named(card: str):
        cond = ir.BoolOp("and", (cmp("==", ir.CardAtt(ir.Name("RANK"), c), ir.Name(RANKS[number(card) - 1])),
                                 cmp("==", ir.CardAtt(ir.Name("SUIT"), c), ir.Name(SUIT[card[1]]))))
        return ir.CardAt("top", ir.Filter(deck(), "C", cond))

    high = ir.SetPoints(points("HIGH"), tuple(ir.Award(((ir.Name("RANK"), ir.Name(r)),), lit(14 if i == 0 else i + 1))
                                              for i, r in enumerate(RANKS)))
    moves = tuple(ir.Move(named(card), ir.CardAt("top", hand_down(ir.PlayerRef(lit(p)))))
                  for p, h in enumerate(hands) for card in h.split())
    q = ir.Var("Q")
    scored = tuple((play, lit(score)) for play, score in ranking)
    valued = ir.ForAll(ir.AllOf("player"), "Q", ir.SetInt(sto(q, "V"), play_value(hand_down(q), scored, ir.Pos())))
    attrs = (ir.AttrNode(("RANK",), (ir.AttrNode(RANKS, ()),)), ir.AttrNode(("SUIT",), (ir.AttrNode(SUITS, ()),)))
    setup = ir.Setup(lit(len(hands)), None, (ir.CreateDeck(None, deck(), ir.Deck(attrs)),))
    # the first two hands compared by every operator, the last with a literal: the translation's
    # own order of play values (play_less, play_leq), where the states are compared below
    def pv(p):
        return play_value(hand_down(ir.PlayerRef(lit(p))), scored, ir.Pos())
    ops = {"LT": "<", "LE": "<=", "EQ": "==", "NE": "!=", "GT": ">", "GE": ">="}
    pairs = [(key, op, pv(0), pv(1)) for key, op in ops.items()] if len(hands) > 1 else []
    pairs.append(("LAST", ">=", pv(len(hands) - 1), lit(300)))
    compared = tuple(ir.CondAct(cmp(op, a, b), ir.SetInt(sto(ir.GameOwner(), key), lit(1))) for key, op, a, b in pairs)
    # a decision after the values, at which the lockstep compares the states (the values too)
    coin = ir.Choice(tuple(ir.SetInt(sto(ir.GameOwner(), "COIN"), lit(k)) for k in (0, 1)))
    game = ir.Game((), setup, (ir.Do((high,) + moves + (valued,) + compared), coin),
                   ir.Scoring("max", sto(ir.PlayerRef("current"), "V")))
    return Loaded(game, Source("hands", ""), "gcardgame", "built in the test")


def _tables(hands: list[str]) -> list[list[str]]:
    """The hands dealt as games of at most three players, no card twice in a game."""
    out: list = []
    for h in hands:
        cards = set(h.split())
        for t in out:
            if len(t) < 3 and not cards & {c for x in t for c in x.split()}:
                t.append(h)
                break
        else:
            out.append([h])
    return out


TABLES = _tables([h for h, _ in HANDS])


@pytest.mark.parametrize("hands", TABLES, ids=[str(i) for i in range(len(TABLES))])
def test_both_engines_value_dealt_hands(hands):
    loaded = hands_game(hands)
    assert [d.format() for d in check(loaded.game, loaded.source)] == []
    prog = compile_loaded(loaded)
    fast = fast_path(prog)
    assert fast is not None
    want = [dict(HANDS)[h] for h in hands]
    a = play(prog, 0, make_players("random", len(hands), 0))
    b = play_fast(prog, fast, 0, make_players("random", len(hands), 0), 10_000)
    assert (a.status, a.scores) == (FINISHED, want), a.error
    assert (b.status, b.scores) == (FINISHED, want)


@pytest.mark.slow
@pytest.mark.parametrize("hands", [TABLES[0], TABLES[1], [h for h, _ in MIXED]], ids=["high", "corners", "low"])
def test_the_translation_values_dealt_hands_as_the_simulator_does(hands):
    # lockstep: at player 0's decision after the values, clingo's state (every player's value
    # among it) is the simulator's, which the test above checks against poker's rules
    rep = crosscheck(hands_game(hands), 1, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 1 and rep.decisions == 1


def test_the_node_round_trips_through_json_and_is_refused_as_recycle_text():
    game = hands_game(["AS AH", "2C"]).game
    assert from_data(to_data(game)) == game
    with pytest.raises(UnsupportedConstructError) as info:
        to_text(game)
    assert "PlayValue" in info.value.message


def test_the_checker_refuses_an_unknown_play():
    loaded = hands_game(["AS AH"], ranking=(("one pair", 200), ("royal mess", 5)))
    msgs = [d.format() for d in check(loaded.game, loaded.source)]
    assert msgs and all("unknown play 'royal mess'" in m for m in msgs)


# ---------------------------------------------------------------- the paper's Texas, lowered
def texas():
    return to_recycle(parse_file(GAMES / "texas_holdem.gcg"))


def test_texas_lowers_unchanged_with_its_showdown_by_play_value():
    loaded = texas()
    assert [d.format() for d in check(loaded.game, loaded.source)] == []
    values = [x for x in loaded.game.walk() if isinstance(x, ir.PlayValue)]
    # `HX + T0 > HA + T0` against every live other (decision 10): the player's value twice
    # (above 0, above each other's), each other's once; a mandatory rule is owed before and
    # after the pass's choice, so it is lowered twice
    assert len(values) == 2 * 3
    assert {tuple((p, s.value) for p, s in v.ranking) for v in values} == {TEXAS}
    with pytest.raises(UnsupportedConstructError):
        to_text(loaded.game)


def test_texas_showdowns_move_tokens_without_creating_any():
    prog = compile_loaded(texas())
    rs = [play(prog, seed, make_players("random", 3, seed)) for seed in range(25)]
    assert all(r.status == FINISHED for r in rs), [r.error for r in rs]
    assert {sum(r.scores) for r in rs} == {297}


def test_the_generated_simulator_plays_texas_as_the_closure_engine():
    prog = compile_loaded(texas())
    fast = fast_path(prog)
    assert fast is not None
    for seed in range(30):
        a = play(prog, seed, make_players("random", 3, seed))
        b = play_fast(prog, fast, seed, make_players("random", 3, seed), 100_000)
        assert (b.status, b.scores, len(b.decisions)) == (a.status, a.scores, len(a.decisions)), seed


def test_have_a_play_holds_exactly_when_the_hand_holds_it():
    # decision 19: `have one pair` is the pair itself, not a value at least a pair's (a flush
    # without a pair scores more); here each player is dealt 5 cards and is out without a pair
    text = ("players 3\nstage 0\n  com deal ALL 5\nstage 1\n  mandatory have one pair out\n"
            "ranking\n  flush 600\n  one pair 200\nwinning\n  not out 1\n")
    lowered = to_recycle(parse_text(text, "pairs.gcg"))
    prog = compile_loaded(lowered)
    rows = [play(prog, seed, make_players("random", 3, seed)) for seed in range(40)]
    assert all(r.status == FINISHED for r in rows)
    # a 5-card hand holds a pair with probability 1 - (48·44·40·36/(51·50·49·48)) ≈ 0.49
    outs = sum(r.scores.count(0) for r in rows)
    assert 0.3 < outs / 120 < 0.7
    cond = next(x for x in lowered.game.walk() if isinstance(x, ir.PlayValue))
    assert [p for p, _ in cond.ranking] == ["one pair"]


def test_texas_translates_to_valid_gdl2():
    desc = translate_loaded(texas(), 2)
    assert is_valid(validate(desc))


SLOW = os.environ.get("GGPBRIDGE_SLOW_TESTS") == "1"


@pytest.mark.slow
@pytest.mark.skipif(not SLOW, reason="minutes of clingo; runs with GGPBRIDGE_SLOW_TESTS=1")
def test_a_small_texas_plays_in_lockstep_through_its_showdown():
    # two players with 2 tokens each (the declared GIVEA): every stage, the showdown's `play`
    # against the other's hand included, agrees step by step (2 plays took 124 s of CPU)
    text = (GAMES / "texas_holdem.gcg").read_text(encoding="utf-8").replace("players 3", "players 2")
    rep = crosscheck(to_recycle(parse_text(text, "texas2.gcg")), 1, seed=0, overrides={"GIVEA": 2})
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == 1 and rep.rule_errors == [] and rep.decisions > 5
