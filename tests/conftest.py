"""Shared fixtures: where the CardStock corpus and our games are."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
CORPUS = Path(os.environ.get("GGPBRIDGE_CORPUS", ROOT.parent / "shared" / "corpus" / "cardstock"))
# A valid RECYCLE game that scores 6,000 a turn and multiplies two storages: its translation's
# integer tables (12,003 values; the digits of wide.py do not multiply, so it keeps the tables)
# are too large to ground (ggpbridge.gdl.tables).
TOO_LARGE_GAME = ("(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (ONE, TWO)))))"
                  " (stage player (end (== (game sto T) 2))"
                  "  (choice ((do ((inc (game sto T) 1) (inc ((current player) sto S) 6000)"
                  "                (set ((current player) sto P) (* (game sto T) ((current player) sto S))))))))"
                  " (scoring max ((current player) sto S)))")


# Single cases of parametrized tests that take many seconds: the quick subset
# (`pytest -m "not slow"`, README) leaves them out; whole tests are marked where they are defined.
SLOW_CASES = {
    "tests/sim/test_codegen.py::test_games_match_closure_engine[war_cardstock.rcy]",
    "tests/sim/test_codegen.py::test_games_match_closure_engine[war_underdog.rcy]",
    "tests/translate/test_crosscheck.py::test_no_divergence[war_n4_seat.rcy-5]",
    "tests/query/test_asp_engine.py::test_verdicts_and_their_witnesses[tictactoe-cycle-None]",
}


def pytest_collection_modifyitems(config, items):
    """Mark the SLOW_CASES slow."""
    for item in items:
        if item.nodeid in SLOW_CASES:
            item.add_marker(pytest.mark.slow)


def corpus_files(*subdirs: str, recursive: bool = True) -> list[Path]:
    """Game files under the corpus subdirectories (empty when the corpus is absent)."""
    out: list[Path] = []
    for sub in subdirs:
        base = CORPUS / sub
        pattern = "**/*" if recursive else "*"
        out += sorted(p for p in base.glob(pattern) if p.suffix in (".rcy", ".gdl", ".rkt"))
    return out


@pytest.fixture(autouse=True)
def _in_a_scratch_directory(tmp_path, monkeypatch):
    """Every test runs in a directory of its own, so what a command writes beside it by default
    (`query`'s witness files, `translate`'s outputs) never lands in the checkout."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The corpus directory; CI must have it, a developer machine may not."""
    if not CORPUS.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"the CardStock corpus is missing at {CORPUS}")
        pytest.skip("CardStock corpus not found beside the checkout")
    return CORPUS


# GGP player processes (tests/ggp): here rather than in a conftest of their own, whose module
# name `conftest` would shadow this one for the tests that import GAMES and CORPUS from it.
@pytest.fixture(scope="module")
def legal_player():
    """One `legal` player process shared by a test module."""
    from ggp_helpers import PlayerProcess
    player = PlayerProcess("legal")
    yield player
    player.stop()


@pytest.fixture
def fresh_player():
    """A `random` player process of its own."""
    from ggp_helpers import PlayerProcess
    player = PlayerProcess("random")
    yield player
    player.stop()


def mangle(draw, toks: list, rounds: int, extra: dict) -> list:
    """The readers' fuzz tests' token edits, 1 to `rounds` of them: delete, duplicate or swap a
    token, or one of the reader's own edits (`extra`: name -> edit(draw, toks, i))."""
    from hypothesis import strategies as st
    for _ in range(draw(st.integers(1, rounds))):
        if not toks:
            break
        i = draw(st.integers(0, len(toks) - 1))
        op = draw(st.sampled_from(["delete", "duplicate", "swap", *extra]))
        if op == "delete":
            del toks[i]
        elif op == "duplicate":
            toks.insert(i, toks[i])
        elif op == "swap":
            j = draw(st.integers(0, len(toks) - 1))
            toks[i], toks[j] = toks[j], toks[i]
        else:
            extra[op](draw, toks, i)
    return toks


def best_sums(x, bound: int):
    """The IR with every Sum replaced by the BestSum of the same cards (LOW, HIGH, bound): the
    BestSum tests' games, which RECYCLE text cannot spell."""
    from dataclasses import fields, replace

    from ggpbridge import ir
    if isinstance(x, ir.Sum):
        return ir.BestSum(x.cards, x.points, ir.PointsRef(x.points.owner, ir.Name("HIGH")), ir.IntLit(bound),
                          pos=x.pos)
    if isinstance(x, ir.Node):
        return replace(x, **{f.name: best_sums(getattr(x, f.name), bound) for f in fields(x) if f.name != "pos"})
    if isinstance(x, tuple):
        return tuple(best_sums(v, bound) for v in x)
    return x


# the paper's Texas with its showdown compared by sums, Blackjack with a one-valued ace:
# everything else of the two games needs no IR extension (variant(*TEXAS_BY_SUM))
TEXAS_BY_SUM = ("texas_holdem", "mandatory play HX + T0 > HA + T0", "mandatory sum HX + T0 > HA + T0")
BLACKJACK_ACE_10 = ("blackjack", "card 1 1 | 10", "card 1 10")


def variant(name: str, old: str, new: str):
    """games/NAME.gcg, read and checked with its line OLD replaced by NEW."""
    from ggpbridge.gcardgame import parse_text
    text = (GAMES / f"{name}.gcg").read_text()
    assert old in text
    return parse_text(text.replace(old, new), f"{name}-variant.gcg")
