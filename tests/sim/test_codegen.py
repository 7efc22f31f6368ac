"""The generated fast playout plays the same games as the closure engine."""
from __future__ import annotations

import random

import pytest

from ggpbridge.recycle import parse_file
from ggpbridge.sim import compile_loaded, play
from ggpbridge.sim.codegen import compile_fast
from conftest import CORPUS, GAMES

SEEDS = range(20)
MAX_STEPS = 20_000
REQUIRED = ("agram.rcy", "war.rcy", "pairs.rcy", "gops.rcy", "kuhn_poker.rcy")


class _Shared:
    """A closure-engine player drawing its decisions from a shared random stream."""

    def __init__(self, rng):
        self.rng = rng

    def choose(self, view, options):
        return self.rng.randrange(len(options))


def _program(path):
    try:
        return compile_loaded(parse_file(path))
    except Exception:  # a game the closure engine cannot load either
        return None


def _compare(path):
    prog = _program(path)
    if prog is None:
        pytest.skip("not loadable by the closure engine")
    fast = compile_fast(prog)
    if fast is None:
        if path.name in REQUIRED:
            pytest.fail(f"{path.name} must compile to the fast path")
        pytest.skip("uses a construct the fast path does not support")
    for seed in SEEDS:
        drng = random.Random(1000 + seed)
        ref = play(prog, seed, [_Shared(drng)] * prog.lay.n, max_steps=MAX_STEPS)
        drng = random.Random(1000 + seed)
        trace = []
        status, scores, _ = fast(random.Random(seed), lambda p, n: drng.randrange(n), MAX_STEPS, trace)
        assert status == ref.status, (seed, ref.error)
        assert trace == [(d.player, d.options) for d in ref.decisions], seed
        if status == "finished":
            assert scores == ref.scores, seed


@pytest.mark.parametrize("name", sorted(p.name for p in GAMES.glob("*.rcy")))
def test_games_match_closure_engine(name):
    _compare(GAMES / name)


def _corpus_sample():
    files = sorted((CORPUS / "rcy").glob("*.rcy")) if (CORPUS / "rcy").is_dir() else []
    return [p.name for p in files[::3]][:32]


@pytest.mark.parametrize("name", _corpus_sample() or ["<absent>"])
def test_corpus_matches_closure_engine(name):
    if name == "<absent>":
        pytest.skip("CardStock corpus not found beside the checkout")
    _compare(CORPUS / "rcy" / name)


def test_required_games_compile():
    for name in REQUIRED:
        assert compile_fast(compile_loaded(parse_file(GAMES / name))) is not None, name
