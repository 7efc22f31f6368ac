"""The searching players: parameters, seeding, skill, and what they may see."""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from conftest import GAMES
from ggpbridge.cli import main
from ggpbridge.recycle import parse_file, parse_text
from ggpbridge.sim import compile_loaded, play, simulate
from ggpbridge.sim.determinize import deal_hidden, visible
from ggpbridge.sim.machine import Live
from ggpbridge.sim.mcts import ISMCTSPlayer, MCTSPlayer
from ggpbridge.sim.pipmc import PIPMCPlayer
from ggpbridge.sim.players import View, describe_players, make_players, parse_players

# Each seat once picks S (the score) or X (nothing); S is offered second, so `first` never takes it.
ONE_GOOD_OPTION = ("(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO)))))"
                   " (stage player (end (== (game sto T) 2))"
                   "  (choice ((do ((inc (game sto T) 1) (inc ((current player) sto X) 1)))"
                   "           (do ((inc (game sto T) 1) (inc ((current player) sto S) 1))))))"
                   " (scoring max ((current player) sto S)))")


def prog_of(name):
    return compile_loaded(parse_file(GAMES / name))


def share(prog, spec, n, seed=0):
    return [s["win_share"] for s in simulate(prog, n, seed, spec).report()["seats"]]


def state_at(prog, seed, seat):
    """A copy of the game of `seed` (random players) where `seat` first has a real decision."""
    found = []

    class Grab:
        def __init__(self):
            self.rng = random.Random(seed)

        def choose(self, view, options):
            if view.player == seat and not found:
                live = view.live
                copy = Live(prog)
                copy.c.thaw(live.c.freeze())
                copy.c.vars = dict(live.c.vars)
                copy.set_control(live.control())
                found.append((copy, list(options)))
            return self.rng.randrange(len(options))
    play(prog, seed, [Grab()] * prog.lay.n)
    return found[0]


def swap_hidden(live, seat):
    """The same game with two cards that `seat` cannot see exchanged between hidden locations."""
    lay, c = live.prog.lay, live.c
    spots = [(s, o) for s, row in enumerate(c.L) for o, cards in enumerate(row)
             if cards and not visible(lay.loc_vis[s], o, seat, lay)]
    (s1, o1), (s2, o2) = spots[0], spots[1]
    other = Live(live.prog)
    other.c.thaw(c.freeze())
    other.c.vars = dict(c.vars)
    other.set_control(live.control())
    a, b = other.c.L[s1][o1], other.c.L[s2][o2]
    a[0], b[0] = b[0], a[0]
    other.c.thaw(other.c.freeze())   # recompute where each card lies
    return other


# ---------------------------------------------------------------- specs
def test_specs_with_parameters_and_defaults():
    assert parse_players("pipmc:20, random,mcts,ISMCTS:7,first") == [
        ("pipmc", 20), ("random", None), ("mcts", 200), ("ismcts", 7), ("first", None)]
    assert parse_players("pipmc") == [("pipmc", 10)]
    assert describe_players("pipmc,mcts:5") == "pipmc:10,mcts:5 (sees all cards)"


@pytest.mark.parametrize("spec, words", [("pipmc:x", "positive integer"), ("pipmc:0", "positive integer"),
                                          ("mcts:-3", "positive integer"), ("random:2", "takes no parameter"),
                                          ("smart", "unknown player 'smart'")])
def test_bad_specs_are_usage_errors_listing_the_players(spec, words):
    with pytest.raises(ValueError, match=words):
        parse_players(spec)
    r = CliRunner().invoke(main, ["simulate", str(GAMES / "kuhn_poker.rcy"), "--players", spec])
    assert r.exit_code == 2 and words in r.output and "ismcts[:N]" in r.output and "Traceback" not in r.output


def test_seat_rngs_depend_on_seed_and_seat_only():
    a = make_players("pipmc,pipmc", 2, 5)
    b = make_players("pipmc,pipmc", 2, 5)
    c = make_players("pipmc,pipmc", 2, 6)
    draw = [p.rng.random() for p in a]
    assert draw == [p.rng.random() for p in b]
    assert draw[0] != draw[1] and draw != [p.rng.random() for p in c]


# ---------------------------------------------------------------- skill
def test_smart_players_take_the_winning_option():
    prog = compile_loaded(parse_text(ONE_GOOD_OPTION))
    assert share(prog, "random", 200)[0] == pytest.approx(0.5, abs=0.08)
    assert share(prog, "first,random", 200)[0] < 0.4
    for spec in ("pipmc:4", "mcts:10", "ismcts:10"):
        assert share(prog, f"{spec},random", 200)[0] > 0.7, spec   # 0.75: the opponent ties half the time


@pytest.mark.parametrize("spec", ["pipmc", "mcts:60", "ismcts:60"])
def test_smart_players_beat_random_at_kuhn_poker(spec):
    prog = prog_of("kuhn_poker.rcy")
    base = share(prog, "random", 300)
    assert abs(base[0] - 0.5) < 0.08
    assert share(prog, f"{spec},random", 150)[0] > 0.62
    assert share(prog, f"random,{spec}", 150)[1] > 0.62


def test_same_seed_same_games():
    prog = prog_of("agram.rcy")
    for spec in ("pipmc:3,random", "mcts:10,ismcts:10,random"):
        a = simulate(prog, 6, 11, spec).report()
        b = simulate(prog, 6, 11, spec).report()
        for k in ("seconds", "games_per_second"):
            a.pop(k, None), b.pop(k, None)
        assert a == b


# ---------------------------------------------------------------- hidden information
def test_a_determinization_keeps_what_the_seat_sees_and_the_sizes():
    prog = prog_of("agram.rcy")
    live, _ = state_at(prog, 3, 1)
    lay, c = prog.lay, live.c
    L = deal_hidden(c, 1, random.Random(0))
    moved = 0
    for s, row in enumerate(c.L):
        for o, cards in enumerate(row):
            if visible(lay.loc_vis[s], o, 1, lay):
                assert L[s][o] == cards
            else:
                assert len(L[s][o]) == len(cards)
                moved += L[s][o] != cards
    assert moved   # the other hands and the stock were dealt anew
    def cards(rows):
        return sorted(x for row in rows for cs in row if cs for x in cs)
    assert cards(L) == cards(c.L)


@pytest.mark.parametrize("game", ["agram.rcy", "hearts.rcy", "whist.rcy", "kuhn_poker.rcy"])
def test_the_determinization_hides_exactly_what_observe_hides(game):
    from ggpbridge.sim.stepwise import observe
    prog = prog_of(game)
    live, _ = state_at(prog, 0, 1)
    lay = prog.lay
    for seat in range(lay.n):
        seen = observe(live, seat)["locations"]
        assert seen
        for (who, vis, name), shown in seen.items():
            owner = 0 if who[0] == "game" else 1 + who[1] if who[0] == "player" else 1 + lay.n + who[1]
            assert visible(vis, owner, seat, lay) == isinstance(shown, tuple), (who, vis, name)


@pytest.mark.parametrize("game, seat", [("agram.rcy", 1), ("kuhn_poker.rcy", 0), ("kuhn_poker.rcy", 1)])
def test_determinizations_ignore_where_hidden_cards_truly_are(game, seat):
    prog = prog_of(game)
    live, _ = state_at(prog, 4, seat)
    other = swap_hidden(live, seat)
    assert other.c.L != live.c.L
    assert deal_hidden(live.c, seat, random.Random(9)) == deal_hidden(other.c, seat, random.Random(9))
    # a seat that sees one of the swapped cards is told apart (the test can fail)
    seer = next(p for p in range(prog.lay.n) if p != seat)
    assert deal_hidden(live.c, seer, random.Random(9)) != deal_hidden(other.c, seer, random.Random(9))


@pytest.mark.parametrize("make", [lambda r: PIPMCPlayer(r, 5), lambda r: ISMCTSPlayer(r, 40)])
def test_honest_players_choose_alike_on_states_differing_only_in_hidden_cards(make):
    prog = prog_of("agram.rcy")
    for seed in range(4):
        live, options = state_at(prog, seed, 1)
        other = swap_hidden(live, 1)
        a, b = make(random.Random(seed)), make(random.Random(seed))
        assert a.choose(View(live, 1), options) == b.choose(View(other, 1), options)
        assert a.rng.getstate() == b.rng.getstate()   # the same draws: the same search


def test_mcts_reads_the_hidden_cards():
    # the cheater's search differs between the two states, which the honest ones' cannot
    prog = prog_of("agram.rcy")
    differ = False
    for seed in range(4):
        live, options = state_at(prog, seed, 1)
        other = swap_hidden(live, 1)
        a, b = MCTSPlayer(random.Random(seed), 40), MCTSPlayer(random.Random(seed), 40)
        a.choose(View(live, 1), options), b.choose(View(other, 1), options)
        differ = differ or a.rng.getstate() != b.rng.getstate()
    assert differ


def test_the_search_leaves_the_real_game_alone():
    prog = prog_of("agram.rcy")
    live, options = state_at(prog, 2, 0)
    before = (live.c.freeze(), live.control())
    for p in (PIPMCPlayer(random.Random(1), 3), MCTSPlayer(random.Random(1), 20), ISMCTSPlayer(random.Random(1), 20)):
        p.choose(View(live, 0), options)
        assert (live.c.freeze(), live.control()) == before


# ---------------------------------------------------------------- costs and labels
def test_forced_moves_cost_no_playouts():
    prog = prog_of("agram.rcy")
    real = []

    class Counting(PIPMCPlayer):
        def choose(self, view, options):
            real.append(len(options))
            return super().choose(view, options)
    p = Counting(random.Random(0), 3)
    play(prog, 8, [p] + make_players("random", 3, 8)[1:])
    assert p.choose(None, ["only"]) == 0 and p.spent == 3 * sum(k for k in real if k > 1)
    assert 1 in real or p.spent < 3 * sum(real)   # agram's last trick is forced for everybody
    for cls in (MCTSPlayer, ISMCTSPlayer):
        q = cls(random.Random(0), 5)
        assert q.choose(None, ["only"]) == 0 and q.spent == 0


def test_every_output_labels_mcts_as_seeing_all_cards():
    args = ["simulate", str(GAMES / "kuhn_poker.rcy"), "-n", "3", "--players", "mcts:5,random"]
    table = CliRunner().invoke(main, args).output
    rep = json.loads(CliRunner().invoke(main, args + ["--json"]).output)
    assert "mcts:5 (sees all cards)" in table and rep["players"] == "mcts:5 (sees all cards),random"
    from ggpbridge.sim.metrics import strategy_potential
    sp = strategy_potential(prog_of("kuhn_poker.rcy"), 0, 4, 0, "mcts:5")
    assert sp["player"] == "mcts:5 (sees all cards)"


# ---------------------------------------------------------------- strategy potential
def test_strategy_potential_of_one_good_option_is_a_quarter():
    from ggpbridge.sim.metrics import strategy_potential
    prog = compile_loaded(parse_text(ONE_GOOD_OPTION))
    # random in seat 0: S with chance 1/2, so 1/2 of the win on average; PIPMC always takes S: 3/4
    sp = strategy_potential(prog, seat=0, n=300, seed=0, player="pipmc:4")
    lo, hi = sp["interval"]
    assert lo < 0.25 < hi and lo > 0.1
    assert sp["share"] == pytest.approx(0.75, abs=0.06) and sp["random_share"] == pytest.approx(0.5, abs=0.06)


def test_strategy_potential_is_nil_without_real_choices():
    from ggpbridge.sim.metrics import strategy_potential
    prog = prog_of("war.rcy")   # every decision is forced: PIPMC plays as random does, on the same seeds
    sp = strategy_potential(prog, seat=1, n=20, seed=0)
    assert sp["potential"] == 0 and sp["interval"] == (0, 0)


@pytest.mark.parametrize("game", ["uno.gcg", "hearts.rcy", "gops.rcy", "leduc_poker.rcy", "crazy_eights.rcy",
                                  "whist.rcy"])
def test_searching_players_play_games_of_every_front_end(game):
    if game.endswith(".gcg"):
        from ggpbridge.gcardgame import parse_file as read_gcg, to_recycle
        prog = compile_loaded(to_recycle(read_gcg(GAMES / game)))
    else:
        prog = prog_of(game)
    seats = [PIPMCPlayer(random.Random(1), 1), ISMCTSPlayer(random.Random(2), 5)]
    if prog.lay.n > 2:
        seats += [MCTSPlayer(random.Random(3), 5)] + make_players("random", prog.lay.n, 0)[3:]
    r = play(prog, 3, seats)
    assert r.status == "finished" and r.error is None
    assert all(p.spent > 0 for p in seats[:3] if hasattr(p, "spent"))   # each searched at some real decision
