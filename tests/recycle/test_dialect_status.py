"""`check` names the dialect a file was read as, or says why no dialect fits it: never `v?`."""
from __future__ import annotations

import json

from click.testing import CliRunner

from conftest import corpus_files
from ggpbridge.cli import main

# v0.5.0 by its awards, with a keyword no dialect has
NO_DIALECT = """(game
  (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, TWO)))))
  (do ((put points 'P (((RANK (A)) 1)))))
  (scoring max ((current player) sto S)))
"""

# v0.3 by its `comp`, and readable only as v0.3 when asked
V03 = """(game
  (setup (create players 2) (create teams (0) (1))
    (create deck (game iloc STOCK) (deck (RANK (A, TWO)))))
  (comp (() (shuffle (game iloc STOCK))))
  (stage player (end (== (size (game iloc STOCK)) 0))
    (choice (() (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))
  (scoring max (size ((current player) iloc HAND))))
"""


def check(*paths, extra=()):
    return CliRunner().invoke(main, ["check", *extra, *map(str, paths)])


def test_a_file_no_dialect_reads_says_where_each_fails(tmp_path):
    f = tmp_path / "put.gdl"
    f.write_text(NO_DIALECT)
    r = check(f)
    assert r.exit_code == 1 and "v?" not in r.output
    assert "no dialect fits: v0.5.0 fails at 3:9" in r.output and "v0.5.10 at 3:9" in r.output
    assert "v0.3 at" in r.output
    data = json.loads(check(f, extra=["--json"]).output)[0]
    assert data["dialect"] is None and data["dialect_note"].startswith("no dialect fits")


def test_an_empty_file_and_a_given_dialect_are_named(tmp_path):
    f = tmp_path / "empty.rcy"
    f.write_text("")
    assert "no dialect fits: the file is empty" in check(f).output
    g = tmp_path / "old.gdl"
    g.write_text(V03)
    r = check(g, extra=["--dialect", "0.5.10"])
    assert r.exit_code == 1 and "(v0.5.10, as given;" in r.output and "v?" not in r.output


def test_no_corpus_file_shows_an_unknown_dialect(corpus):
    files = corpus_files("rcy", "gdl", "broken")
    r = check(*files)
    assert len(files) > 150 and "v?" not in r.output


def test_bytes_that_are_no_text_are_not_blamed_on_a_dialect(tmp_path):
    latin, binary = tmp_path / "latin.rcy", tmp_path / "binary.rcy"
    latin.write_bytes(b";; caf\xe9\n(game)\n")
    binary.write_bytes(b"\x7fELF\x02\x01\x01")
    r = CliRunner().invoke(main, ["check", str(latin), str(binary)])
    assert r.exit_code == 1 and "no dialect fits" not in r.output
    assert f"{latin}:1:7: error: not UTF-8 text: byte 0xe9" in r.output and f"{latin}: FAILED (not text;" in r.output
    assert f"{binary}:1:1: error: binary data" in r.output and f"{binary}: FAILED (not text;" in r.output
