"""The corpus through the translation: valid GDL-II, or 'unsupported' at a position; never wrong output."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import CORPUS, corpus_files
from ggpbridge.cli import main
from ggpbridge.recycle import parse_file
from ggpbridge.conformance import translation_status

# Corpus files (relative to the corpus) that translate to valid GDL-II: a regression guard.
# A file that starts to translate may be added; one that stops fails the test.
TRANSLATED = Path(__file__).resolve().parents[1] / "data" / "corpus-translated.txt"
# Files that are invalid under CardStock's own rules: the translation refuses them as errors.
EXPECTED_FAILURES = Path(__file__).resolve().parents[1] / "data" / "corpus-expected-failures.txt"
_UNSUPPORTED = re.compile(r"unsupported at .+:\d+:\d+: \S")


def _loadable(files):
    for path in files:
        try:
            yield path, parse_file(path)
        except Exception:   # syntax errors of broken files are the front-end's tests' business
            continue


@pytest.mark.slow
def test_every_corpus_file_translates_to_valid_gdl2_or_names_the_unsupported_construct(corpus):
    statuses = {path.relative_to(CORPUS).as_posix(): translation_status(loaded)
                for path, loaded in _loadable(corpus_files("rcy", "gdl"))}
    assert len(statuses) >= 190
    invalid_games = {ln.split("#")[0].strip() for ln in EXPECTED_FAILURES.read_text().splitlines()} - {""}
    odd = {k: v for k, v in statuses.items()
           if not (v.startswith("valid (") or _UNSUPPORTED.match(v) or (v.startswith("error: ") and k in invalid_games))}
    assert odd == {}, "translations that are neither valid nor a positioned 'unsupported'"
    valid = {k for k, v in statuses.items() if v.startswith("valid (")}
    listed = {ln.split("#")[0].strip() for ln in TRANSLATED.read_text().splitlines()} - {""}
    assert listed - valid == set(), "files that translated before and no longer do"
    # valid, but refused by the clingo machine before grounding (ggpbridge.gdl.tables): none since
    # Hearts3/4.gdl (card precedences of 100 and more summed as scores, 11,000 numbers) write
    # their numbers as digits (translators/recycle_gdl/wide.py)
    too_large = {k for k, v in statuses.items() if "too large to ground" in v}
    assert too_large == set()


def test_the_conformance_table_has_a_translation_column(corpus, tmp_path):
    # a game of ours whose options hang on a random integer drawn while they are listed: refused
    refused = tmp_path / "random_options.rcy"
    refused.write_text("(game (setup (create players 2) (create deck (game iloc S) (deck (R (A, B)))))\n"
                       " (stage player (end (== (size (game iloc S)) 0))\n"
                       "  (choice (((== (random 1 .. 2) 1) (move (top (game iloc S)) (top (game iloc T))))\n"
                       "           (move (top (game iloc S)) (top (game iloc U))))))\n"
                       " (scoring max ((current player) sto SCORE)))\n")
    files = [CORPUS / "rcy" / "Agram4.rcy", refused]
    r = CliRunner().invoke(main, ["conformance", *map(str, files), "--games", "1", "--translate", "--json"],
                           catch_exceptions=False)
    rows = {Path(x["file"]).name: x["translation"] for x in json.loads(r.stdout)["files"]}
    assert rows["Agram4.rcy"].startswith("valid (")
    assert re.match(r"unsupported at .*random_options\.rcy:3:\d+: ", rows["random_options.rcy"])
    text = CliRunner().invoke(main, ["conformance", str(files[0]), "--games", "1", "--translate"]).output
    assert "translation" in text and "valid" in text
