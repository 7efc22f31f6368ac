"""The lockstep check: the simulator and clingo on the translation agree, and a wrong translation is caught."""
from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import CORPUS, GAMES
from ggpbridge.cli import main
from ggpbridge.crosscheck import Divergence, Lockstep, crosscheck
from ggpbridge.gdl.ast import Const, Description, Distinct, Var
from ggpbridge.gdl.kif import to_kif
from ggpbridge.gdl.machine import ClingoMachine
from ggpbridge.recycle import parse_file
from ggpbridge.sim.stepwise import Chance, StepMachine, Terminal
from ggpbridge.translators.recycle_gdl import Translation

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("game,n", [("war_n4_winner.rcy", 20), ("war_n4_seat.rcy", 5), ("kuhn_poker.rcy", 5),
                                    ("agram2_c2.rcy", 2)])
def test_no_divergence(game, n):
    rep = crosscheck(parse_file(GAMES / game), n, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == n and rep.decisions > 0 and rep.chance > 0
    assert rep.gdl_steps > rep.decisions + rep.chance   # automatic steps of the translation


@pytest.mark.slow
def test_cycling_deals_agree_up_to_the_cap():
    rep = crosscheck(parse_file(GAMES / "war_n4_seat.rcy"), 5, seed=0)
    assert rep.divergence is None and rep.capped   # seat order cycles from n = 4


def _tampered(ls: Lockstep, drop) -> None:
    desc = ls.tr.description
    ls.gdl = ClingoMachine(Description(tuple(r for r in desc.rules if not drop(r))))


def test_a_wrong_translation_is_reported_with_its_replay():
    ls = Lockstep(parse_file(GAMES / "war_n4_winner.rcy"))
    # forget to put a moved card at the bottom of the winner's hand
    _tampered(ls, lambda r: r.head.name == "ins" and any(getattr(a, "name", "") == "0" for a in r.head.args[2:3]))
    with pytest.raises(Exception) as info:
        for seed in range(10):
            ls.play(seed)
    d = info.value.detail
    assert d["what"] == "the states differ"
    assert d["history"] and "only_simulator" in d
    assert any("iloc_hand" in x for x in d["only_simulator"])


@pytest.mark.slow
def test_wrong_options_are_reported():
    ls = Lockstep(parse_file(GAMES / "agram2_c2.rcy"))
    # drop the follower's "must follow suit" option
    _tampered(ls, lambda r: r.head.name == "option_ok" and "(option1 1 " in to_kif(r.head))
    with pytest.raises(Exception) as info:
        for seed in range(10):
            ls.play(seed)
    assert "options differ" in info.value.detail["what"]


@pytest.mark.slow
def test_wrong_percepts_are_reported():
    # the lockstep asks for percepts only before a decision: a missing one is still caught there
    ls = Lockstep(parse_file(GAMES / "kuhn_poker.rcy"))
    _tampered(ls, lambda r: r.head.name == "sees" and getattr(r.head.args[1], "name", "") == "at")
    with pytest.raises(Divergence) as info:
        ls.play(0)
    assert "percepts differ" in info.value.detail["what"] and info.value.detail["only_simulator"]


def _rewritten(ls: Lockstep, rewrite) -> None:
    """Play the lockstep against the translation with each rule replaced by rewrite(rule)."""
    desc = ls.tr.description
    ls.gdl = ClingoMachine(Description(tuple(rewrite(r) for r in desc.rules)), percepts=True)


def test_percepts_missing_for_a_later_player_alone_are_reported():
    # player 1 no longer sees the cards it may see; player 0's percepts are untouched
    ls = Lockstep(parse_file(GAMES / "kuhn_poker.rcy"))

    def blind_player1(r):
        if r.head.name == "sees" and getattr(r.head.args[1], "name", "") == "at":
            return replace(r, body=(*r.body, Distinct(r.head.args[0], Const("player1"))))
        return r
    _rewritten(ls, blind_player1)
    with pytest.raises(Divergence) as info:
        ls.play(0)
    assert info.value.detail["what"] == "player 1's percepts differ"
    assert info.value.detail["only_simulator"] and not info.value.detail["only_clingo"]


def test_final_goals_that_differ_are_reported():
    # the translation pays the beaten player and not the winner: every state, option and percept
    # still agrees, only the goals at the end differ
    ls = Lockstep(parse_file(GAMES / "kuhn_poker.rcy"))

    def swapped(r):
        if r.head.name == "goal" and isinstance(r.head.args[0], Var) and not any(
                getattr(b, "name", "") == "true" for b in r.body):
            value = {"100": "0", "0": "100"}[r.head.args[1].name]
            return replace(r, head=replace(r.head, args=(r.head.args[0], Const(value))))
        return r
    _rewritten(ls, swapped)
    with pytest.raises(Divergence) as info:
        ls.play(0)
    what = info.value.detail["what"]
    assert what.startswith("goals differ: simulator ") and "clingo " in what
    assert info.value.detail["history"]   # it got to the end of the play


def _played_alone(prog, seed) -> tuple:
    """(decisions, chance events) of the simulator alone, drawing as the lockstep does: one
    number from the seed's generator at every event (an outcome, or an option)."""
    m, rng = StepMachine(prog), random.Random(seed)
    s, decisions, chance = m.initial_state(), 0, 0
    while not isinstance(node := m.node(s), Terminal):
        if isinstance(node, Chance):
            k, chance = rng.randrange(node.n), chance + 1
        else:
            k, decisions = rng.randrange(len(node.options)), decisions + 1
        s = m.next_state(s, k)
    return decisions, chance


def test_the_counts_reported_are_the_events_and_steps_played():
    loaded = parse_file(GAMES / "kuhn_poker.rcy")
    ls = Lockstep(loaded)
    steps = []
    next_state = ls.gdl.next_state
    ls.gdl.next_state = lambda s, joint: (steps.append(joint), next_state(s, joint))[1]
    for seed in range(3):
        steps.clear()
        assert ls.play(seed) == (*_played_alone(ls.prog, seed), len(steps), "over")
    progress = []
    rep = crosscheck(loaded, 3, seed=0, progress=progress.append)
    alone = [_played_alone(ls.prog, seed) for seed in range(3)]
    assert (rep.playouts, rep.decisions, rep.chance) == (3, sum(d for d, _ in alone), sum(c for _, c in alone))
    assert progress == [1, 1, 1]


def test_crosscheck_cli_json():
    res = CliRunner().invoke(main, ["crosscheck", str(GAMES / "war_n4_loser.rcy"), "-n", "3", "--seed", "4", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["playouts"] == 3 and data["divergence"] is None and data["seed"] == 4
    # which translation was checked: the digest of the KIF text `translate` prints
    kif = CliRunner().invoke(main, ["translate", str(GAMES / "war_n4_loser.rcy"), "--to", "gdl2"])
    assert data["kif_sha256"] == hashlib.sha256(kif.output.encode()).hexdigest()


def test_locations_whose_order_is_never_read_are_bags():
    ls = Lockstep(parse_file(GAMES / "agram2_c2.rcy"))
    names = {c.name for c in ls.tr.bags}
    # hands are only chosen from and tested for emptiness; the stock is a deck (shuffled, then
    # dealt from its top: tests/translate/test_decks.py); a trick's max is scanned in order
    assert "iloc_hand" in names and "iloc_stock" in names and "vloc_played" not in names
    assert {c.name for c in ls.tr.decks} == {"iloc_stock"}
    init = {str(x) for x in ls.gdl.initial_state()}
    assert any(x.startswith("in(iloc_stock,") for x in init) and not any(x.startswith("at(") for x in init)


def test_a_card_never_put_into_a_bag_is_reported():
    ls = Lockstep(parse_file(GAMES / "agram2_c2.rcy"))
    _tampered(ls, lambda r: r.head.name == "nx" and r.head.args[0].name == "in"
              and any(getattr(b, "name", "") == "put" for b in r.body))
    with pytest.raises(Divergence) as err:
        ls.play(0)
    # the hands stay empty, so the translation ends the game after the deal
    assert "seed 0" in str(err.value) and "game is over" in str(err.value)


def test_runaway_cap_and_time_limit_keep_what_was_played(monkeypatch):
    rep = crosscheck(parse_file(GAMES / "war_n4_seat.rcy"), 5, seed=0, max_events=50)
    assert rep.divergence is None and rep.playouts == 5 and len(rep.capped) >= 1

    class Clock:   # a second passes at every reading: no dependence on the machine's speed
        t = 0.0

        def perf_counter(self):
            self.t += 1.0
            return self.t
    import ggpbridge.crosscheck as module
    monkeypatch.setattr(module, "time", Clock())
    rep = crosscheck(parse_file(GAMES / "war_n4_winner.rcy"), 1000, seed=0, time_limit=2.5)
    assert rep.divergence is None and rep.playouts == 2
    assert rep.stopped == "time limit of 2.5 s reached after 2 playouts"
    # the setup (one reading of the clock) is not counted in the limit
    assert rep.setup_seconds == 1.0 and rep.seconds == 4.0


def test_running_out_of_memory_in_a_playout_keeps_the_playouts_before(monkeypatch):
    import ggpbridge.crosscheck as module
    play = module.Lockstep.play

    def third_runs_out(self, seed, max_events):
        if seed == 2:
            raise MemoryError
        return play(self, seed, max_events)
    monkeypatch.setattr(module.Lockstep, "play", third_runs_out)
    rep = crosscheck(parse_file(GAMES / "war_n4_winner.rcy"), 5, seed=0)
    assert rep.playouts == 2 and rep.gdl_steps > 0 and rep.divergence is None
    assert rep.stopped == "out of memory in the playout of seed 2, after 2 playouts"


def test_the_report_so_far_is_handed_on_after_every_playout():
    seen = []
    rep = crosscheck(parse_file(GAMES / "war_n4_winner.rcy"), 3, seed=7,
                     on_playout=lambda r: seen.append((r.playouts, r.gdl_steps, r.seconds)))
    assert [p for p, _, _ in seen] == [1, 2, 3]
    steps = [g for _, g, _ in seen]
    assert 0 < steps[0] < steps[1] < steps[2] == rep.gdl_steps
    assert all(0 < t for _, _, t in seen) and seen[-1][2] <= rep.seconds


def test_an_integer_beyond_the_table_ends_the_play_as_overflow():
    # long_count.rcy adds 5 to a tally 31 times: 155 is past the table the game's
    # literals and steps give. The translation must not go on with a wrong tally.
    loaded = parse_file(DATA / "long_count.rcy")
    ls = Lockstep(loaded)
    lo, hi = ls.tr.bounds
    assert hi < 155
    with pytest.raises(Divergence) as err:
        ls.play(0)
    assert f"integers {lo}..{hi}" in str(err.value) and "overflow" in str(err.value)
    # on the translation alone: the play is cut there, with no winner
    m, s = ls.gdl, ls.gdl.initial_state()
    while not m.is_terminal(s):
        s = m.next_state(s, {r: m.legal_moves(s, r)[0] for r in m.roles()})
    assert "overflow" in {str(x) for x in s}
    assert set(m.goals(s).values()) == {0}
    assert "--fit N" in str(err.value)   # the way out is named


LEDUC_BIG_ANTE = [str(GAMES / "leduc_poker.rcy"), "--set", "ANTE=25", "--set", "BIGBET=40", "-n", "1"]


def test_a_variant_that_outgrows_the_static_tables_is_told_to_fit_them():
    # Leduc's pot with a 25-chip ante passes the unfitted tables at the first raise: the
    # command names --fit
    r = CliRunner().invoke(main, ["crosscheck", *LEDUC_BIG_ANTE])
    assert r.exit_code == 1 and "bounds are too small" in r.output and "--fit N" in r.output, r.output


@pytest.mark.slow
def test_the_same_variant_fitted_agrees():
    r = CliRunner().invoke(main, ["crosscheck", *LEDUC_BIG_ANTE, "--fit", "10"])
    assert r.exit_code == 0 and "1 of 1 playouts agree" in r.output, r.output


@pytest.mark.slow
def test_a_count_that_ends_the_game_past_a_threshold_fits_the_table(corpus):
    # NinetyEight: a king sets the pile total to 98, and the next card (worth up to 9)
    # passes 98 and ends the game: the table must hold 107
    ls = Lockstep(parse_file(CORPUS / "rcy" / "NinetyEight2.rcy"))
    assert ls.tr.bounds[1] >= 98 + 9
    rep = crosscheck(parse_file(CORPUS / "rcy" / "NinetyEight2.rcy"), 1, seed=0)
    assert rep.divergence is None and rep.playouts == 1


def test_a_cycle_stack_deeper_than_its_table_ends_the_play_as_overflow():
    # each round leaves one more cycle level pushed (a stage over on entry): ten rounds
    ls = Lockstep(parse_file(DATA / "deep_stack.rcy"))
    assert ls.tr.depth < 10
    with pytest.raises(Divergence, match=f"stage depth {ls.tr.depth}\\) and ended as `overflow`"):
        ls.play(0)


@pytest.mark.slow
def test_sums_of_points_agree_and_are_built_only_where_read():
    loaded = parse_file(DATA / "pile_sums.rcy")
    rep = crosscheck(loaded, 20, seed=0)
    assert rep.divergence is None and rep.playouts == 20
    tr = Lockstep(loaded).tr
    # the running sums exist for the one (map, location) pair the scoring adds up
    assert [tuple(a.name for a in r.head.args) for r in tr.description.rules
            if r.head.name == "sum_of"] == [("value", "vloc_pile")]
    # a pile can hold every card: the table holds the sum of their best VALUE scores
    value = sum(max(lo_hi[1], 0) for (key, _), lo_hi in tr.card_range.items() if key.name == "value")
    assert tr.bounds[1] >= value == tr._sum_range(Const("value"))[1]


def test_a_map_not_set_yet_gives_every_card_0_points(tmp_path):
    # pile_sums.rcy with the ODD map never set: every card scores 0 with it, so the option
    # guarded by a positive ODD score is never enabled (on both engines)...
    text = (DATA / "pile_sums.rcy").read_text()
    odd = """      (set (game points ODD)
        (((RANK : ACE) 300) ((RANK : KING) 300)))
"""
    assert odd in text
    scoring = "(scoring max (sum ((current player) vloc PILE) using (game points VALUE)))"
    assert scoring in text
    game = tmp_path / "odd_unset.rcy"
    # and the piles are summed with it: every sum is 0, every player wins
    game.write_text(text.replace(odd, "").replace(scoring, scoring.replace("VALUE", "ODD")))
    ls = Lockstep(parse_file(game))
    for seed in range(3):
        assert ls.play(seed)[3] == "over"


def test_a_sum_is_bounded_by_the_scores_of_the_map_it_reads():
    # Hearts sums a trick's penalty points; its card precedence map (hundreds per card)
    # once made the table 52 x the largest score of any map: 5,929 integers, then OOM
    tr = Translation(parse_file(GAMES / "hearts.rcy").game)
    biggest = max(v for vs in tr.values_by_map.values() for v in vs)
    assert tr.bounds[1] < biggest * len(tr.prog.lay.cards) // 4
    for key, _ in tr.flow.sums:
        assert tr.bounds[1] >= tr._sum_range(key)[1]
