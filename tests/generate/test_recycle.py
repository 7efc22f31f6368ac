"""RECYCLE over the IR: generated games, mutants of the bundled games and crossovers all
pass `check` and compile on the simulator; every category is reached."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from conftest import GAMES
from ggpbridge.generate import errors_in, generate, mutants
from ggpbridge.generate.gcg_mutate import get, put
from ggpbridge.generate.ir_derive import CATEGORIES, random_game
from ggpbridge.generate.ir_mutate import crossover, mutate, points
from ggpbridge.recycle import parse_file, parse_text
from ggpbridge.recycle.check import check
from ggpbridge.sim import compile_loaded
from ggpbridge.translators.recycle_text import to_text


def _clean(path):
    loaded = parse_file(path)
    return not [d for d in check(loaded.game, loaded.source) if d.severity == "error"]


RCY = [p for p in sorted(GAMES.glob("*.rcy")) if _clean(p)]


def _quick(name, text):
    errs = errors_in(name, text)
    assert not errs, text + "\n" + "\n".join(d.format() for d in errs)


def test_generated_games_print_read_back_equal_and_compile():
    rng = random.Random(1)
    for i in range(100):
        game = random_game(rng)
        text, renamed = to_text(game)
        assert not renamed
        loaded = parse_text(text, f"g{i}.rcy")
        assert loaded.game == game
        _quick(f"g{i}.rcy", text)
        if i % 10 == 0:   # compiling is the costly part
            compile_loaded(loaded)


@pytest.mark.parametrize("path", RCY, ids=lambda p: p.name)
def test_mutants_of_a_bundled_game_check_and_compile(path):
    for m in mutants(path, 12, seed=1):
        _quick(m.name, m.text)
        compile_loaded(parse_text(m.text, m.name))


@pytest.mark.slow
def test_thousands_of_generated_and_mutated_games_check():
    for m in generate("recycle", 1500, seed=9):
        _quick(m.name, m.text)
    for path in RCY:
        for m in mutants(path, 100, seed=9):
            _quick(m.name, m.text)


def test_a_mutation_replaces_one_subtree_of_its_category():
    rng = random.Random(2)
    parent = parse_file(GAMES / "war.rcy").game
    for _ in range(100):
        child, path, cat = mutate(parent, rng)
        assert put(child, path, get(parent, path)) == parent
        assert cat in CATEGORIES


def test_every_category_is_a_mutation_point():
    seen = Counter()
    for path in RCY:
        seen.update(c for _, c, _ in points(parse_file(path).game))
    rng = random.Random(3)
    for _ in range(20):
        seen.update(c for _, c, _ in points(random_game(rng)))
    assert set(CATEGORIES) - set(seen) == set()


def test_crossovers_between_bundled_games_check():
    rng = random.Random(4)
    games = {p.name: parse_file(p).game for p in RCY}
    done = 0
    for _ in range(30):
        a, b = rng.sample(sorted(games), 2)
        pair = crossover(games[a], games[b], rng)
        if pair is None:
            continue
        done += 1
        for g in pair[:2]:
            _quick("x.rcy", to_text(g)[0])
    assert done > 20


def test_a_seed_gives_the_same_games():
    a = [m.text for m in generate("recycle", 10, seed=3)]
    assert a == [m.text for m in generate("recycle", 10, seed=3)]
    assert a != [m.text for m in generate("recycle", 10, seed=4)]
