"""The compatibility bar: every real CardStock file reads, checks and round-trips."""
from __future__ import annotations

import pytest

from conftest import CORPUS, corpus_files
from ggpbridge.errors import PositionedError
from ggpbridge.recycle import parse_file, parse_text
from ggpbridge.recycle.check import check
from ggpbridge.translators.recycle_text import to_text

# Files in the corpus that are invalid under CardStock's own grammar or crash its engine;
# we report them with a positioned error instead (see the closing note of issue #2).
KNOWN_INVALID = {
    "gdl/CrazyEights4.gdl": (49, 34, "expected a collection"),          # (set (game sto X) (SUIT (HEARTS)))
    "gdl/GoFish2.gdl": (115, 2, "a ')' is missing before it"),        # scoring swallowed by the last stage
    "rcy/ContinuousPairs4.rcy": (108, 39, "collection of card collections"),  # (top 'PAIRS) of tuples
}

GOOD = [p for p in corpus_files("rcy", "gdl") if p.relative_to(CORPUS).as_posix() not in KNOWN_INVALID]
BROKEN = corpus_files("broken")


def _id(p):
    return p.relative_to(CORPUS).as_posix()


@pytest.mark.parametrize("path", GOOD, ids=_id)
def test_corpus_file_parses_and_checks_without_errors(corpus, path):
    loaded = parse_file(path)
    errors = [d.format() for d in check(loaded.game, loaded.source) if d.severity == "error"]
    assert errors == []


@pytest.mark.parametrize("path", GOOD, ids=_id)
def test_upgrade_round_trips(corpus, path):
    loaded = parse_file(path)
    text, renamed = to_text(loaded.game, loaded.comments)
    again = parse_text(text, "upgraded.rcy", dialect="0.5.10")
    assert again.game == loaded.game
    assert renamed == {}
    # comments survive the upgrade
    assert len(again.comments) == len(loaded.comments)


@pytest.mark.parametrize("rel", sorted(KNOWN_INVALID))
def test_known_invalid_files_fail_with_a_positioned_error(corpus, rel):
    line, col, words = KNOWN_INVALID[rel]
    try:
        loaded = parse_file(CORPUS / rel)
    except PositionedError as e:
        diag = e.diagnostic()
    else:
        [diag] = [d for d in check(loaded.game, loaded.source) if d.severity == "error"]
    assert (diag.pos.line, diag.pos.col) == (line, col) and words in diag.message
    assert diag.format().startswith(f"{CORPUS / rel}:{line}:{col}: error:")


@pytest.mark.parametrize("path", BROKEN, ids=_id)
def test_broken_files_never_crash(corpus, path):
    try:
        loaded = parse_file(path)
    except PositionedError as e:
        assert e.pos.line > 0 and str(e).startswith(str(path))
        return
    for d in check(loaded.game, loaded.source):
        assert d.pos.line > 0


def test_corpus_is_all_there(corpus):
    assert len(corpus_files("rcy", "gdl")) >= 190
    assert len(BROKEN) >= 15
