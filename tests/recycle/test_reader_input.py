"""Text that cannot be a game is refused at its first bad byte; reading stays linear."""
from __future__ import annotations

import pytest

from ggpbridge.errors import RecycleSyntaxError
from ggpbridge.recycle import parse_file, parse_text
from ggpbridge.recycle.dialects import V03, V0510, detect

GAME = """(game
 (setup (create players 2)
  (create deck (game iloc STOCK) (deck (RANK (ACE, TWO)) (SUIT (HEARTS)))))
 (do ((shuffle (game iloc STOCK))))
 (scoring max ((current player) sto SCORE)))
"""


def _refused(path) -> RecycleSyntaxError:
    with pytest.raises(RecycleSyntaxError) as e:
        parse_file(path)
    return e.value


def test_binary_file_is_refused_at_1_1(tmp_path):
    f = tmp_path / "blob.rcy"
    f.write_bytes(b"\x00\x01\x02\xff" * 1000 + GAME.encode())
    err = _refused(f)
    assert (err.pos.line, err.pos.col) == (1, 1)
    assert "not UTF-8" in err.message or "binary" in err.message


def test_invalid_utf8_in_a_comment_is_refused_at_its_byte(tmp_path):
    # not silently read as Latin-1: the position of the first bad byte is given
    f = tmp_path / "latin.rcy"
    f.write_bytes(b";; fine\n;; caf\xe9\n" + GAME.encode())
    err = _refused(f)
    assert (err.pos.line, err.pos.col) == (2, 7)
    assert "not UTF-8" in err.message and "0xe9" in err.message
    assert str(f) in err.diagnostic().format()


def test_nul_byte_in_a_comment_is_refused_with_its_position():
    with pytest.raises(RecycleSyntaxError) as e:
        parse_text(GAME + ";; a\x00b\n")
    assert (e.value.pos.line, e.value.pos.col) == (6, 5)
    assert "U+0000" in e.value.message


def test_a_diagnostic_quotes_the_line_lark_counted():
    # lines are counted at '\n' only (as the lexer does); a form feed or a lone '\r'
    # in a comment is not a line break when the offending line is quoted
    text = GAME.replace("(do", ";; a\x0cb\rc\n (do $")
    with pytest.raises(RecycleSyntaxError) as e:
        parse_text(text)
    assert e.value.pos.line == 5
    assert "(do $" in e.value.diagnostic().format()


def test_comments_do_not_move_positions_or_change_the_game():
    commented = "".join(line + " ;; note (\n" for line in GAME.splitlines())
    plain, loaded = parse_text(GAME), parse_text(";; head\n" + commented)
    assert loaded.game == plain.game
    assert loaded.game.setup.pos.line == plain.game.setup.pos.line + 1
    assert loaded.game.setup.pos.col == plain.game.setup.pos.col
    assert [c[0].line for c in loaded.comments] == list(range(1, 7))
    assert loaded.comments[1][0].col == len(GAME.splitlines()[0]) + 2


@pytest.mark.parametrize("text, dialect", [
    ("(game (stage player (end (each)) (comp)))", V03),
    ("(game ;; where each comp\n (x))", V0510),    # marks inside comments do not count
    ("(game (xwhere) (eachy) (Xcomp))", V0510),    # nor inside longer words
])
def test_detection_needs_whole_words_outside_comments(text, dialect):
    assert detect(text).dialect == dialect


def test_an_unclosed_paren_is_found_past_brackets_in_comments():
    text = ";; (( not brackets\n" + GAME.replace("(shuffle (game iloc STOCK))))", "(shuffle (game iloc STOCK)))")
    with pytest.raises(RecycleSyntaxError) as e:
        parse_text(text)
    assert "never closed" in e.value.message and (e.value.pos.line, e.value.pos.col) == (2, 1)


def test_a_quoted_line_shows_control_characters_as_one_column_each():
    with pytest.raises(RecycleSyntaxError) as e:
        parse_text("(game\n  (setup \x01\x00))")
    assert e.value.diagnostic().format().splitlines()[1:] == ["      (setup ??))", "             ^"]
