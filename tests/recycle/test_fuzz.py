"""Mangled corpus files give positioned errors, never an uncaught exception."""
from __future__ import annotations

import re

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import CORPUS, GAMES, corpus_files, mangle
from ggpbridge.errors import PositionedError
from ggpbridge.recycle import parse_text
from ggpbridge.recycle.check import check
from ggpbridge.translators.recycle_text import to_text

SOURCES = [p for p in corpus_files("rcy", "gdl") if p.stat().st_size < 6000][:40] or sorted(GAMES.glob("*.rcy"))
TEXTS = [p.read_text(encoding="utf-8-sig") for p in SOURCES] + [(GAMES / "agram_v03.gdl").read_text()]
TOKEN = re.compile(r";;[^\n]*|\(|\)|'?[^\s()]+")


def _paren(draw, toks, i):
    toks.insert(i, draw(st.sampled_from(["(", ")"])))


def _unparen(draw, toks, i):
    parens = [k for k, t in enumerate(toks) if t in "()"]
    if parens:
        del toks[draw(st.sampled_from(parens))]


@st.composite
def mangled(draw):
    toks = TOKEN.findall(draw(st.sampled_from(TEXTS)))
    return "\n".join(mangle(draw, toks, 4, {"paren": _paren, "unparen": _unparen}))


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mangled())
def test_mangled_input_never_escapes_as_an_uncaught_exception(text):
    try:
        loaded = parse_text(text, "fuzz.rcy")
    except PositionedError as e:
        assert e.message and str(e).startswith("fuzz.rcy")
        return
    for d in check(loaded.game, loaded.source):
        assert d.severity in ("error", "warning")
    to_text(loaded.game, loaded.comments)


def test_fuzz_sources_come_from_the_corpus_when_present(corpus):
    assert all(CORPUS in p.parents for p in SOURCES)


def test_a_v03_file_whose_missing_paren_is_not_the_only_fault_is_a_syntax_error():
    # found by the fuzzer: a stray ')' before a v0.3 game that also lacks its final ')'; supplying
    # that ')' does not make it readable, and the second parse's error used to escape uncaught
    text = ")\n" + (GAMES / "agram_v03.gdl").read_text()
    with pytest.raises(PositionedError) as info:
        parse_text(text, "fuzz.rcy")
    assert str(info.value).startswith("fuzz.rcy:")
