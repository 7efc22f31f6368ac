"""G_cardgame: the printer round-trips, random games reach every rule of the grammar, and
generated, mutated and crossed games all pass `check` and compile on the simulator."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from conftest import GAMES
from ggpbridge.gcardgame import parse_file, parse_text, to_recycle
from ggpbridge.gcardgame.reader import _parser
from ggpbridge.generate import errors_in, generate, mutants
from ggpbridge.generate.gcg_derive import NONTERMINALS, Bounds, random_game
from ggpbridge.generate.gcg_mutate import crossover, get, mutate, points, put
from ggpbridge.generate.gcg_print import to_text
from ggpbridge.sim import compile_loaded

GCG = sorted(GAMES.glob("*.gcg"))


@pytest.mark.parametrize("path", GCG, ids=lambda p: p.name)
def test_printing_a_bundled_game_reads_back_the_same_tree(path):
    game = parse_file(path, strict=False).game
    assert parse_text(to_text(game, "a comment\non two lines"), strict=False).game == game


def _quick(text, name="g.gcg"):
    errs = errors_in(name, text)
    assert not errs, text + "\n" + "\n".join(d.format() for d in errs)


def test_generated_games_read_back_check_and_compile():
    for i, m in enumerate(generate("gcardgame", 150, seed=11)):
        _quick(m.text, m.name)
        loaded = parse_text(m.text, m.name)
        assert not loaded.warnings, [w.format() for w in loaded.warnings]
        if i % 15 == 0:   # compiling costs ~0.1 s: the slow test compiles more
            compile_loaded(to_recycle(loaded))   # the checker and the simulator agree it is a game


@pytest.mark.slow
def test_thousands_of_generated_and_mutated_games_check():
    for i, m in enumerate(generate("gcardgame", 3000, seed=5)):
        _quick(m.text, m.name)
        if i % 10 == 0:
            compile_loaded(to_recycle(parse_text(m.text, m.name)))
    for m in mutants(GAMES / "uno.gcg", 2000, seed=5):
        _quick(m.text, m.name)
    for name in ("texas_holdem.gcg", "blackjack.gcg"):   # `play` and two-valued sums too
        for m in mutants(GAMES / name, 1000, seed=5, keep_players=True):
            _quick(m.text, m.name)


def test_a_mutated_side_of_play_never_brings_ha_where_the_other_side_has_it():
    # Texas's mutant 366 (seed 0) re-derived `H2 + HA` against `HA + T0`, which the checker refuses
    made = list(mutants(GAMES / "texas_holdem.gcg", 367, seed=0, keep_players=True))
    _quick(made[366].text, made[366].name)
    assert "play" in made[366].text


def test_a_seed_gives_the_same_games_and_game_i_does_not_depend_on_n():
    a = [m.text for m in generate("gcardgame", 20, seed=3)]
    assert a == [m.text for m in generate("gcardgame", 20, seed=3)]
    assert a[7] == [m.text for m in generate("gcardgame", 8, seed=3)][7]
    assert a != [m.text for m in generate("gcardgame", 20, seed=4)]
    assert len(set(a)) == len(a)


def _rule_names():
    """Every rule and alias of the grammar as it names parse-tree nodes (inlined `?` rules
    without an alias never name one)."""
    out = set()
    for r in _parser().rules:
        name = r.alias or r.origin.name
        if not str(name).startswith("_") and not (r.options.expand1 and not r.alias):
            out.add(str(name))
    return out


def _tree_names(texts):
    seen = set()
    for t in texts:
        seen |= {str(x.data) for x in _parser().parse(t + "\n").iter_subtrees()}
    return seen


def test_every_rule_of_the_grammar_is_reached():
    rng = random.Random(1)
    texts = [to_text(random_game(rng, Bounds(lowerable=False))) for _ in range(400)]
    missing = _rule_names() - _tree_names(texts)
    assert not missing
    # what the lowering cannot take yet is still a game the G_cardgame checker accepts
    for text in texts[:100]:
        assert not parse_text(text, "g.gcg", strict=False).diagnostics


def test_lowerable_games_leave_out_only_what_the_lowering_cannot_take():
    rng = random.Random(2)
    texts = [to_text(random_game(rng)) for _ in range(400)]
    assert _rule_names() - _tree_names(texts) == {"play", "combo_play"}


def test_every_nonterminal_is_a_mutation_point_somewhere():
    rng = random.Random(3)
    seen = Counter()
    for _ in range(200):
        seen.update(nt for _, nt, _ in points(random_game(rng, Bounds(lowerable=False))))
    assert set(NONTERMINALS) - set(seen) == set()


def test_a_mutation_changes_one_subtree_and_keeps_the_rest():
    rng = random.Random(4)
    parent = parse_file(GAMES / "uno.gcg").game
    kinds = Counter()
    for _ in range(200):
        child, path, nt = mutate(parent, rng)
        kinds[nt] += 1
        assert child != parent or nt in ("winning", "ranking")   # UNO has none: none may stay none
        assert put(child, path, get(parent, path)) == parent
        _quick(to_text(child))
    assert len(kinds) >= 10


def test_crossover_exchanges_subtrees_of_one_nonterminal():
    rng = random.Random(5)
    games = [random_game(rng) for _ in range(40)] + [parse_file(GAMES / "uno.gcg").game]
    done = 0
    for _ in range(80):
        a, b = rng.sample(games, 2)
        pair = crossover(a, b, rng)
        if pair is None:
            continue
        done += 1
        a2, b2, nt = pair
        assert a2 != a and b2 != b
        for g in (a2, b2):
            _quick(to_text(g))
    assert done > 60
