"""RECYCLE → GDL-II / GDL: every bundled game translates to valid GDL or names what stops it."""
from __future__ import annotations

import os
import re
from pathlib import Path
import subprocess
import sys

import pytest
from click.testing import CliRunner

from ggpbridge.cli import main
from ggpbridge.errors import UnsupportedConstructError
from ggpbridge.gdl.ast import Func
from ggpbridge.gdl.kif import parse_kif, print_kif
from ggpbridge.gdl.validate import validate
from ggpbridge.recycle import parse_file, parse_text
from ggpbridge.translate import load_description, translate_loaded

from conftest import GAMES, ROOT

# What the translation does not handle yet, with the construct and where it stands.
UNSUPPORTED: dict = {}
BUNDLED = sorted(p for p in GAMES.iterdir() if p.suffix in (".rcy", ".gdl"))


def agree(game, n: int):
    """Lockstep check of a game (a path or a parsed game) from seed 0: no divergence, all n played."""
    from ggpbridge.crosscheck import crosscheck
    rep = crosscheck(parse_file(game) if isinstance(game, Path) else game, n, seed=0)
    assert rep.divergence is None, rep.divergence
    assert rep.playouts == n
    return rep


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_bundled_games_translate_to_valid_gdl2_and_gdl(path):
    if path.name in UNSUPPORTED:
        with pytest.raises(UnsupportedConstructError) as info:
            load_description(path)
        assert UNSUPPORTED[path.name] in info.value.message
        assert info.value.pos.line > 0
        assert str(info.value).startswith(f"{path}:{info.value.pos.line}:{info.value.pos.col}: unsupported: ")
        return
    for version in (2, 1):
        desc = load_description(path, version)
        errors = [d.format(str(path)) for d in validate(desc, version) if d.severity == "error"]
        assert errors == []
        heads = {r.head.name for r in desc.rules}
        assert {"role", "init", "legal", "next", "goal", "terminal", "base", "input"} <= heads
        assert ("sees" in heads) == (version == 2)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_every_name_is_a_lower_case_plain_identifier(path):
    for version in (2, 1):
        text = print_kif(load_description(path, version))
        words = set(text.replace("(", " ").replace(")", " ").split()) - {"<=", "not", "or", "distinct"}
        assert {w for w in words if not re.fullmatch(r"\??[a-z0-9_]+", w)} == set()


def test_names_are_plain_identifiers_and_random_scores_zero():
    text = print_kif(load_description(GAMES / "agram.rcy"))
    assert "(goal random 0)" in text
    assert "(role random)" in text and "(role player3)" in text
    # percepts are plain terms: never `does` inside a term
    assert "(sees ?" in text
    for rule in parse_kif(text).rules:
        if rule.head.name == "sees":
            assert rule.head.args[1].name != "does"


def test_output_is_deterministic_across_processes():
    """The same input gives the same bytes, whatever the hash seed of the process."""
    outs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        outs.append(subprocess.run([sys.executable, "-m", "ggpbridge.cli", "translate", str(GAMES / "agram.rcy")],
                                   capture_output=True, env=env, check=True, cwd=ROOT).stdout)
    assert outs[0] == outs[1] and len(outs[0]) > 10_000


def test_kif_round_trip_of_a_translation():
    desc = load_description(GAMES / "kuhn_poker.rcy")
    assert parse_kif(print_kif(desc)) == desc


def test_initial_state_is_the_simulators_deal_setup():
    desc = load_description(GAMES / "war_n4_winner.rcy")
    inits = sorted(print_kif(type(desc)((r,))).strip() for r in desc.rules if r.head.name == "init")
    # the stock is a deck (test_decks.py): its cards and their number, no positions
    assert "(init (in iloc_stock table c0))" in inits and "(init (tally iloc_stock table 4))" in inits
    assert "(init (cyc player_cycle 0 0 no_one))" in inits
    assert sum("(in " in i for i in inits) == 4 and not any("(at " in i for i in inits)


def test_gdl_relaxation_keeps_random_as_a_role_and_drops_percepts():
    desc = load_description(GAMES / "kuhn_poker.rcy", 1)
    assert not any(r.head.name == "sees" for r in desc.rules)
    roles = [r.head.args[0].name for r in desc.rules if r.head.name == "role"]
    assert roles == ["player0", "player1", "random"]


def test_declared_values_can_be_overridden():
    small = load_description(GAMES / "agram.rcy", 2, {"NUMP": 2, "HANDSIZE": 2})
    roles = [r.head.args[0].name for r in small.rules if r.head.name == "role"]
    assert roles == ["player0", "player1", "random"]


_UNSUPPORTED_GAME = """(game
  (setup (create players 2)
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE)))))
  (do ((all (union (game iloc STOCK) (game vloc PILE)) 'C (move 'C (top (game vloc PILE))))))
  (scoring max ((current player) sto SCORE)))
"""


@pytest.mark.parametrize("command", [["translate"], ["translate", "--fit", "5"], ["crosscheck", "-n", "1"],
                                     ["playout", "--engine", "clingo", "-n", "1"]])
def test_unsupported_construct_is_a_positioned_cli_error(command, tmp_path):
    game = tmp_path / "g.rcy"
    game.write_text(_UNSUPPORTED_GAME)
    res = CliRunner().invoke(main, [command[0], str(game), *command[1:]])
    assert res.exit_code == 2
    assert f"{game}:4:" in res.output and ": unsupported: 'all' over " in res.output
    assert "^" in res.output


def test_running_out_of_memory_is_a_clean_cli_error(monkeypatch):
    # Hearts4.gdl's domain grounding ran out of memory and printed clingo's traceback
    import ggpbridge.gdl.asp as asp

    def exhausted(*args, **kwargs):
        raise MemoryError("bad_alloc")
    monkeypatch.setattr(asp, "game_domain", exhausted)
    res = CliRunner().invoke(main, ["translate", str(ROOT / "examples" / "gdl" / "tictactoe.kif"),
                                    "--to", "asp", "--form", "state"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert res.output.startswith("error: out of memory.") and "--fit PLAYS" in res.output


@pytest.mark.slow
def test_run_time_location_names_list_loops_and_products_agree_with_the_simulator():
    path = ROOT / "tests" / "translate" / "data" / "colour_piles.rcy"
    text = print_kif(load_description(path))
    # piles named by a card's colour at run time: every name of the game may name one
    assert "(loc_named vloc red vloc_red)" in text and "(times " in text
    agree(path, 10)


def test_translate_cli_writes_gdl2_gdl_and_asp(tmp_path):
    r = CliRunner()
    for target, needle in (("gdl2", "(sees "), ("gdl", "(role random)"), ("asp", "legal(")):
        out = tmp_path / f"kuhn.{target}"
        res = r.invoke(main, ["translate", str(GAMES / "kuhn_poker.rcy"), "--to", target, "-o", str(out)])
        assert res.exit_code == 0, res.output
        text = out.read_text()
        assert needle in text
        if target == "gdl":
            assert "(sees " not in text


def test_a_game_with_check_errors_is_refused():
    loaded = parse_text("(game (setup (create players 2) (create deck (game iloc S) (deck (R (A)))))"
                        " (do ((move (top (game iloc S)) (top ('Q iloc H))))) (scoring max 0))")
    from ggpbridge.errors import GameDefinitionError
    with pytest.raises(GameDefinitionError, match="cannot be translated"):
        translate_loaded(loaded)


def test_move_terms_name_the_form_and_the_card():
    text = print_kif(load_description(GAMES / "agram2_c2.rcy"))
    assert "(option1 0 ?" in text and "(option1 2 ?" in text
    assert any(isinstance(r.head, Func) and r.head.name == "input" and r.head.args[1].name == "option1"
               for r in parse_kif(text).rules)


PRODUCT_GAME = """
(game
  (setup
    (create players 2)
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE)))))
  (do ((shuffle (game iloc STOCK))))
  (stage player
    (end (== (size (game iloc STOCK)) 0))
    (choice
      ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))
    (do ((set ((current player) sto SCORE) (* (size ((current player) iloc HAND)) 3)))))
  (scoring max ((current player) sto SCORE)))
"""


def test_products_with_a_constant_get_a_table_and_agree_with_the_simulator():
    loaded = parse_text(PRODUCT_GAME, "product.rcy")
    text = print_kif(translate_loaded(loaded))
    assert "(times_3 2 6)" in text
    assert not [d for d in validate(parse_kif(text)) if "never defined" in d.message]
    agree(loaded, 4)


def test_option_forms_beyond_conditions_and_anys_agree_with_the_simulator():
    path = ROOT / "tests" / "translate" / "data" / "option_forms.rcy"
    rep = agree(path, 20)
    assert rep.decisions > 40


@pytest.mark.slow
def test_anys_after_an_options_first_action_agree_with_the_simulator():
    import re
    path = ROOT / "tests" / "translate" / "data" / "option_later_anys.rcy"
    rep = agree(path, 20)
    assert rep.decisions > 100
    # one move per way a form can go: an `any` skipped (unreached or empty) leaves no element
    text = print_kif(load_description(path))
    ways = {(m.group(1), m.group(2).count("?")) for m in
            re.finditer(r"\(option_ok \?\w+ \(option\d* (\d+)((?: \?\w+)*)\)\)", text)}
    assert {("0", 2), ("1", 0), ("1", 1), ("2", 0), ("2", 2), ("3", 2), ("4", 0), ("4", 1)} <= ways


_LATER_ANYS = ROOT / "tests" / "translate" / "data" / "option_later_anys.rcy"


@pytest.mark.parametrize("old, new, what, below", [
    # the `any` ranges over the pile the move before it puts the card on
    ("(any 'COLOURS 'K\n                (set (game str NAMED) 'K))",
     "(any (game vloc PILE) 'K\n                (set (game str NAMED) (cardatt COLOUR 'K)))",
     "an option with an `any` after its first action", 0),
    # the two branches may now both run: the first puts cards where the second takes them
    ("((== ('P sto FLAG) 0)", "((>= ('P sto FLAG) 0)", "an option with an `any` after its first action", 1),
    # the list is filtered after a card is drawn into the hand it was taken from (its size
    # and an `any` over it are taken at the choice, as the simulator takes the list)
    ("(move 'R (top (game vloc PILE)))",
     "((> (size (filter 'REDS 'Y (== (cardatt RANK 'Y) ONE))) 0) (move 'R (top (game vloc PILE))))",
     "this 'let' at the head of an option (an action before a use changes it)", 0),
])
def test_an_any_after_an_action_that_changes_its_data_stays_unsupported(tmp_path, old, new, what, below):
    text = _LATER_ANYS.read_text()
    assert old in text
    changed = text.replace(old, new)
    game = tmp_path / "g.rcy"
    game.write_text(changed)
    line = changed[:changed.index(new)].count("\n") + 1 + below   # the `any` (the use), below the change
    with pytest.raises(UnsupportedConstructError) as info:
        load_description(game)
    assert info.value.message == what
    assert info.value.pos.line == line, (info.value.pos, line)


@pytest.mark.slow
def test_a_player_left_without_options_is_reported_not_a_crash(tmp_path):
    from ggpbridge.crosscheck import crosscheck
    # the same game, but it runs until every hand is empty: a player whose hand is empty
    # while the other's is not has no option (a rule error the simulator reports)
    text = (ROOT / "tests" / "translate" / "data" / "option_forms.rcy").read_text()
    game = tmp_path / "stuck.rcy"
    game.write_text(text.replace("(any player 'P (== (size ('P iloc HAND)) 0))",
                                 "(all player 'P (== (size ('P iloc HAND)) 0))"))
    rep = crosscheck(parse_file(game), 30, seed=0)
    assert rep.divergence is None and rep.playouts == 30 and rep.broken


def test_sizes_of_unions_and_counts_of_players_agree_with_the_simulator():
    path = ROOT / "tests" / "translate" / "data" / "union_counts.rcy"
    agree(path, 15)


def test_recycle_names_never_meet_the_translations_relations():
    from ggpbridge.translators.recycle_gdl.terms import name
    # a game may call a storage CURRENT or SIZE: they must not read as our relations
    assert name("CURRENT").name == "n_current" and name("SIZE").name == "n_size"
    assert name("HEARTS").name == "hearts"


def test_loops_over_a_teams_members_agree_with_the_simulator():
    path = ROOT / "tests" / "translate" / "data" / "team_rounds.rcy"
    assert "(next_member 0 0 2)" in print_kif(load_description(path))
    agree(path, 10)


@pytest.mark.slow
def test_loops_and_lets_over_cards_walk_a_snapshot_and_agree_with_the_simulator():
    path = ROOT / "tests" / "translate" / "data" / "snapshot_loops.rcy"
    text = print_kif(load_description(path))
    assert "(el " in text and "snapshot_register" in text
    rep = agree(path, 4)
    assert rep.decisions > 10


@pytest.mark.slow
@pytest.mark.parametrize("wrong", ["rest dropped", "reverse order"])
def test_a_snapshot_walked_wrongly_is_caught(wrong):
    from ggpbridge.crosscheck import Divergence, Lockstep
    from ggpbridge.gdl.ast import Description
    from ggpbridge.gdl.machine import ClingoMachine
    ls = Lockstep(parse_file(ROOT / "tests" / "translate" / "data" / "snapshot_loops.rcy"))
    rules = []
    for r in ls.tr.description.rules:
        if wrong == "rest dropped" and r.head.name == "var_put" and \
                any(getattr(b, "name", "").endswith("snap_earlier") for b in r.body):
            continue   # the loop forgets the cards after the first
        if wrong == "reverse order" and r.head.name.endswith("snap_earlier"):
            # the highest position first: a loop moving cards to a top reverses them
            r = type(r)(r.head, tuple(Func("less", b.args[::-1]) if isinstance(b, Func) and b.name == "less" else b
                                      for b in r.body))
        rules.append(r)
    ls.gdl = ClingoMachine(Description(tuple(rules)))
    with pytest.raises(Divergence) as err:
        ls.play(0)
    assert "states differ" in str(err.value)



UNION_SUM_GAME = """
(game
  (setup
    (create players 2)
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE)) (COLOUR (RED, BLUE)))))
  (do
    (
      (shuffle (game iloc STOCK))
      (set (game points VALUE) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3)))))
  (stage player
    (end (== (size (game iloc STOCK)) 0))
    (choice
      ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))
       (move (top (game iloc STOCK)) (top (game vloc TABLE)))))
    (do ((set ((current player) sto SCORE)
              (sum (union ((current player) iloc HAND) (game vloc TABLE)) using (game points VALUE))))))
  (scoring max ((current player) sto SCORE)))
"""


def test_sums_over_a_union_of_locations_add_the_parts_and_agree_with_the_simulator():
    loaded = parse_text(UNION_SUM_GAME, "union_sum.rcy")
    text = print_kif(translate_loaded(loaded))
    assert text.count("(points_sum value") >= 2   # one sum per part
    agree(loaded, 4)


@pytest.mark.slow
def test_tuples_sizes_and_cards_of_the_first_tuple_agree_with_the_simulator():
    path = ROOT / "tests" / "translate" / "data" / "tuple_sets.rcy"
    text = print_kif(load_description(path))
    # pairs and threes counted (binomials of the bins' counts), the first tuple's bin found
    assert "(tup_binom 3 4 4)" in text and "(tup_counted ranks vloc_shelf 3)" in text
    assert "(tup_want shades iloc_hand 3)" in text and "tup_first_bin" in text
    rep = agree(path, 10)
    assert rep.decisions > 100


def test_tuples_of_scores_beyond_the_bins_are_unsupported():
    # CardStock bins scores 0..12 only: a card scoring 13 would be an error there
    text = (ROOT / "tests" / "translate" / "data" / "tuple_sets.rcy").read_text()
    with pytest.raises(UnsupportedConstructError, match="outside 0..12"):
        translate_loaded(parse_text(text.replace("((RANK : THREE) 3)", "((RANK : THREE) 13)"), "t.rcy"))


@pytest.mark.slow
def test_filtered_counts_over_unions_rescan_a_max_per_element_as_the_simulator():
    # the simulator runs a filter's condition once per card, and the max inside it with it:
    # a tie flips a coin per card (one scan only would miss chance events)
    path = ROOT / "tests" / "translate" / "data" / "tied_tricks.rcy"
    rep = agree(path, 4)
    assert rep.chance > 30


def test_a_max_in_a_filter_that_reads_the_element_is_unsupported():
    text = (ROOT / "tests" / "translate" / "data" / "tied_tricks.rcy").read_text()
    # the max now depends on the card the filter looks at: one scan cannot stand for all
    bad = text.replace("(score (max (union (all player 'Q ('Q vloc TRICK))) using (game points RANKS))\n"
                       "                                using (game points RANKS)))))\n             1)",
                       "(score (max (filter (union (all player 'Q ('Q vloc TRICK))) 'U (!= 'U 'T))\n"
                       "                                     using (game points RANKS)) using (game points RANKS)))))\n"
                       "             1)", 1)
    assert bad != text
    with pytest.raises(UnsupportedConstructError):
        translate_loaded(parse_text(bad, "t.rcy"))
    # the filter inside an `any` runs once per player (until one passes): unsupported too
    head = "((< 1 (size (filter (union (all player 'P ('P vloc TRICK))) 'T"
    tail = "using (game points RANKS))))))\n          (move"
    bad = text.replace(head, "((any player 'X " + head[1:], 1).replace(tail, tail.replace(")\n", "))\n"), 1)
    assert bad.count("(any player 'X") == 1 and bad.count(")))))))\n          (move") == 1
    with pytest.raises(UnsupportedConstructError, match="more than once"):
        translate_loaded(parse_text(bad, "t.rcy"))


@pytest.mark.slow
def test_max_and_min_of_filtered_unions_agree_with_the_simulator():
    # the scan passes over the cards that fail the filter: their ties flip no coin
    path = ROOT / "tests" / "translate" / "data" / "under_the_mark.rcy"
    rep = agree(path, 8)
    assert rep.decisions == 48


# A max with ties flips coins each time it is evaluated. In a quantifier's condition the
# simulator evaluates it once per player; after the first operand of `and` only when that
# operand holds. Computed once before the test, the translation would flip other coins.
TIED_MAX_GAME = """(game
  (setup
    (create players 2)
    (create deck (game vloc STOCK) (deck (RANK (ONE, TWO, THREE)) (COLOR (RED, BLACK)))))
  (do (
    (set (game points PTS) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3)))
    (shuffle (game vloc STOCK))
    (repeat 2 (move (top (game vloc STOCK)) (top (game vloc POOL))))))
  (stage player
    (end (== (size (game vloc STOCK)) 0))
    (do (
      (TEST
        (inc ((current player) sto WINS) 1))
      (move (top (game vloc STOCK)) (top (game vloc POOL))))))
  (scoring max ((current player) sto WINS)))
"""
RED_MAX = "(== (cardatt COLOR (max (game vloc POOL) using (game points PTS))) RED)"
ODD_STOCK = "(== (% (size (game vloc STOCK)) 2) 1)"


@pytest.mark.parametrize("test, message", [
    (f"(any player 'P {RED_MAX})", "evaluated once per element of player"),
    (f"(and {ODD_STOCK} {RED_MAX})", "in a later operand of 'and'")])
def test_a_tied_max_the_simulator_evaluates_per_element_or_maybe_not_is_unsupported(test, message, monkeypatch):
    from ggpbridge.crosscheck import crosscheck
    from ggpbridge.translators.recycle_gdl.flow import Flow
    loaded = parse_text(TIED_MAX_GAME.replace("TEST", test), "tied_max.rcy")
    with pytest.raises(UnsupportedConstructError) as info:
        translate_loaded(loaded)
    assert message in info.value.message and (info.value.pos.line, info.value.pos.col) == (12, 8 + test.index("(max"))
    # computed once anyway, the translation is another game: the lockstep check finds it
    monkeypatch.setattr(Flow, "_check_evaluated_once", lambda self, x: None)
    assert crosscheck(loaded, 30, seed=0).divergence is not None


def test_a_tied_max_in_the_first_operand_is_computed_once_as_the_simulator_does():
    loaded = parse_text(TIED_MAX_GAME.replace("TEST", f"(and {RED_MAX} {ODD_STOCK})"), "tied_max.rcy")
    rep = agree(loaded, 30)
    assert rep.chance > 30 * 5   # the deal, and coins flipped at ties


def test_a_filtered_count_over_a_run_time_named_location_agrees():
    # Lost Cities' scoring: the count's helper must take the location's name as an argument,
    # or it counts the passing cards of every location at once
    agree(Path(__file__).parent / "data" / "runtime_filtered_count.rcy", 10)


def _base_and_input(desc):
    """The ground `base` fluents and `input` moves a description declares."""
    import clingo
    from ggpbridge.gdl.asp_rules import render_rules, restricted
    ctl = clingo.Control(["--warn=none"])
    with clingo.ast.ProgramBuilder(ctl) as builder:
        for stm in render_rules(restricted(desc, ["base", "input"]).rules):
            builder.add(stm)
    ctl.ground([("base", [])])
    atoms = ctl.symbolic_atoms
    return ({a.symbol.arguments[0] for a in atoms.by_signature("base", 1)},
            {tuple(a.symbol.arguments) for a in atoms.by_signature("input", 2)})


@pytest.mark.parametrize("name", ["agram2_c2.rcy", "kuhn_poker.rcy", "pairs.rcy", "gops.rcy", "war_n4_seat.rcy"])
def test_base_and_input_hold_every_fluent_and_move_the_rules_can_make(name):
    # A GGP player may build its propositions from base and input alone. An empty max/min
    # scan leaves its register at no_value, which base left out (found in agram, kuhn_poker,
    # pairs, whist, hearts): the relaxed game, negation dropped, over-approximates what can happen.
    from ggpbridge.gdl.asp import game_domain
    desc = load_description(GAMES / name)
    base, inputs = _base_and_input(desc)
    domain = game_domain(desc)
    assert domain.fluents and domain.moves
    assert sorted(map(str, domain.fluents - base)) == []
    assert sorted(map(str, domain.moves - inputs)) == []


def test_a_score_beyond_the_integers_ends_the_play_as_overflow_with_every_goal_0():
    from ggpbridge.crosscheck import crosscheck
    loaded = parse_file(ROOT / "tests" / "translate" / "data" / "score_products.rcy")
    # Plays where a player scores 2 x 40 end as `overflow`: the lockstep checks that every role
    # then has goal 0 (no player is left without a goal) and counts them; the others are compared.
    fitted = crosscheck(loaded, 20, fit=20)
    assert fitted.divergence is None and fitted.playouts == 20
    assert 0 < len(fitted.overflowed) < 20 and fitted.overflow_kinds == {"score": len(fitted.overflowed)}
    # on the worst-case translation such a play is a divergence: its bounds fall short
    worst = crosscheck(loaded, 20)
    assert worst.divergence["seed"] == min(fitted.overflowed)
    assert "score 80 is outside the translation's integers -1..41" in worst.divergence["what"]


def test_crosscheck_says_why_plays_ended_as_overflow():
    game = str(ROOT / "tests" / "translate" / "data" / "score_products.rcy")
    res = CliRunner().invoke(main, ["crosscheck", game, "-n", "20", "--fit", "20"])
    assert res.exit_code == 0, res.output
    # a score computed from the storages is not sized by the fit: raising it would not help
    assert "with a score, or a result on the way to one, outside the translation's integers" in res.output
    assert "raise --fit" not in res.output


@pytest.mark.slow
def test_a_product_beyond_the_integers_on_the_way_to_a_score_inside_them_is_a_lost_score():
    from ggpbridge.crosscheck import crosscheck
    # (- (* TIMES SIZE) 45): 2 x 40 leaves the integers, 35 does not; the simulator's score is
    # in the tables, so only clingo's goals (every one 0) tell the play apart
    loaded = parse_file(ROOT / "tests" / "translate" / "data" / "score_detour.rcy")
    fitted = crosscheck(loaded, 20, fit=20)
    assert fitted.divergence is None and fitted.playouts == 20
    assert fitted.overflowed and fitted.overflow_kinds == {"score": len(fitted.overflowed)}
    worst = crosscheck(loaded, 20)
    assert worst.divergence["seed"] == min(fitted.overflowed)
    assert "every goal is 0 (a score computed through the translation's integers" in worst.divergence["what"]


def test_a_clingo_playout_whose_score_was_lost_has_no_outcome():
    from ggpbridge.playouts import run
    from ggpbridge.translate import SCORE_OFF_TABLES
    res = run(ROOT / "tests" / "translate" / "data" / "score_products.rcy", "clingo", 20, fit=20)
    lost = [g for g in res["games"] if not g["finished"]]
    assert lost and all(g["error"] == f"{SCORE_OFF_TABLES} and ended as overflow" for g in lost)
    # every outcome counted has a winner: no play where the scores were lost counts as all 0
    assert res["finished"] == 20 - len(lost) and all(100 in g["goals"].values() for g in res["games"] if g["finished"])
