"""Mangled .gcg games give positioned errors, never an uncaught exception."""
from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import GAMES, mangle
from ggpbridge.errors import PositionedError, UnsupportedConstructError, only_errors
from ggpbridge.gcardgame import parse_text
from ggpbridge.gcardgame.lower import lower
from ggpbridge.recycle import Loaded
from ggpbridge.recycle.check import check
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.players import make_players
from ggpbridge.sim.playout import play

TEXTS = [(GAMES / f"{n}.gcg").read_text(encoding="utf-8") for n in ("texas_holdem", "blackjack", "uno")]
# words, operators and newlines, so that lines can be split, joined and reordered
TOKEN = re.compile(r"#[^\n]*|\n|\([^)\n]*\)|[^\s]+")
JUNK = ["(", ")", "*", "+", "|", "->", "-", "K", "H9", "T7", "K91", "λ", "≤", "0", "99999999999999999999",
        "stage", "ranking", "winning", "com", "mandatory", "once", ",", "and", "\t", "\ufeff", "\r\n", "é", ";"]


def _insert(draw, toks, i):
    toks.insert(i, draw(st.sampled_from(JUNK)))


def _cut(draw, toks, i):
    toks[i] = toks[i][: draw(st.integers(0, max(len(toks[i]) - 1, 0)))]


@st.composite
def mangled(draw):
    toks = TOKEN.findall(draw(st.sampled_from(TEXTS)))
    return " ".join(mangle(draw, toks, 5, {"insert": _insert, "cut": _cut}))


def _read(text: str):
    try:
        loaded = parse_text(text, "fuzz.gcg", strict=False)
    except PositionedError as e:
        assert e.message and str(e).startswith("fuzz.gcg")
        return None
    for d in loaded.diagnostics:
        assert d.severity in ("error", "warning") and d.format().startswith("fuzz.gcg")
    if only_errors(loaded.diagnostics):
        return loaded
    # a game the checker passes lowers to IR that RECYCLE's checker passes too, or names
    # the construct that waits for an IR extension, at its position
    try:
        game = lower(loaded.game)
    except UnsupportedConstructError as e:
        assert e.pos
        return loaded
    assert [d.format() for d in check(game, loaded.source) if d.severity == "error"] == []
    # and the simulator plays it without an internal error (a game error, a cycle or the
    # step cap are outcomes, not failures)
    prog = compile_loaded(Loaded(game, loaded.source, "gcardgame", "lowered"))
    r = play(prog, 0, make_players("random", loaded.game.players, 0), max_steps=3000)
    assert not r.internal, r.error
    return loaded


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mangled())
def test_mangled_games_never_escape_as_an_uncaught_exception(text):
    _read(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_never_escapes_as_an_uncaught_exception(text):
    _read(text)


def test_a_long_chain_of_locations_reads():
    # `+` chains are the only repetition inside a rule: a long one must not exhaust the stack
    chain = " + ".join(["T0"] * 3000)
    loaded = parse_text(f"players 2\ntables 1\nstage 0\n  play {chain} > HA win\n", "long.gcg")
    assert len(loaded.game.stages[0].rules[0].antecedent.left.parts) == 3000
