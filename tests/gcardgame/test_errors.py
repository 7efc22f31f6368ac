"""Bad .gcg input: positioned errors with the line and a caret, never a traceback."""
from __future__ import annotations

import pytest

from ggpbridge.errors import GameDefinitionError, Pos, PositionedError
from ggpbridge.gcardgame import GcardgameSyntaxError, parse_text

HEAD = "players 3\ntables 2\nstage 0\n"


def column(text: str, line: int, token: str | None) -> int:
    """The 1-based column of `token` on the line, or just past the line's end for None."""
    row = text.split("\n")[line - 1]
    return len(row) + 1 if token is None else row.index(token) + 1


def ids(table):
    return [t[0].rstrip("\n").splitlines()[-1].strip() or t[0] for t in table]


SYNTAX = [
    # (text, line, the token the caret must point at, words the message must hold)
    (HEAD + "  mandatory tokens KX1 < K out\n", 4, "K out", ["word 'K'", "a token location"]),
    (HEAD + "  com deal ALL\n", 4, None, ["end of line", "a number"]),
    (HEAD + "  foo bar\n", 4, "foo", ["word 'foo'", "'unconditional'"]),
    (HEAD + "  once unconditional nxt\n", 4, "nxt", ["word 'nxt'", "'next'", "'done'"]),
    (HEAD + "  show same colour T0 playit\n", 4, "colour", ["word 'colour'", "'suit'", "'number'"]),
    (HEAD + "  bet λ λ\n", 4, "bet", ["a rule starts with its antecedent", "'unconditional bet ...'"]),
    (HEAD + "  com deal H1 2 3\n", 4, "3", ["'3'", "the end of the line"]),
    (HEAD + "  draw next $\n", 4, "$", ["unexpected character '$'"]),
    (HEAD + "  unconditional pifr D 1 up\n", 4, "1", ["'1'", "'*'"]),
    (HEAD + "  com give players 0 1 5\n", 4, "1 5", ["'1'", "'and'"]),
    ("stage x\n", 1, "x", ["word 'x'", "a number"]),
    ("players 3\nstage 0 (a\n", 2, "(", ["'('", "parentheses"]),
    ("players 3\nranking\n  one pair 200\nstage 0\n", 4, "stage", ["'stage'"]),
    ("players 3\nstage 0\n  draw next\nwinning\n  token\n", 5, None, ["end of line", "a number"]),
    (HEAD + "  have one pair\n", 4, None, ["end of line", "'win'"]),
    (HEAD + "  com deal ALL 2 extra\n", 4, "extra", ["word 'extra'"]),
]


@pytest.mark.parametrize("text,line,token,words", SYNTAX, ids=ids(SYNTAX))
def test_syntax_errors_point_at_the_offending_token_and_say_what_was_expected(text, line, token, words):
    with pytest.raises(GcardgameSyntaxError) as info:
        parse_text(text, "bad.gcg")
    e = info.value
    col = column(text, line, token)
    assert e.pos == Pos(line, col)
    head, quoted, caret = str(e).split("\n")
    assert head.startswith(f"bad.gcg:{line}:{col}: error: ")
    assert quoted == "    " + text.split("\n")[line - 1]
    assert caret == " " * (4 + col - 1) + "^"
    for w in words:
        assert w in e.message, e.message


def test_an_error_at_the_end_of_a_file_without_final_newline_is_positioned():
    with pytest.raises(GcardgameSyntaxError) as info:
        parse_text("players 3\nstage 0\n  once unconditional", "bad.gcg")
    assert info.value.pos == Pos(3, 21) and "end of line" in info.value.message


SEMANTIC = [
    # (text, line, token, message): locations the axioms do not create
    (HEAD + "  play H5 > HX win\n", 4, "H5", "there is no hand H5: the game has 3 players (H0 to H2)"),
    (HEAD + "  com deal T2 1\n", 4, "T2", "there is no table location T2: the game has 2 table locations (T0 to T1)"),
    ("players 3\nstage 0\n  com deal T0 1\n", 3, "T0", "no table locations (no 'tables N' line)"),
    (HEAD + "  tokens K31 > KX1 win\n", 4, "K31", "there is no token location K31: the game has 3 players (K00 to K21)"),
    (HEAD + "  unconditional bet > K30\n", 4, "K30", "there is no token location K30"),
    (HEAD + "  com give players 0 and 3 10\n", 4, "players", "there is no player 3"),
    (HEAD + "  com deal player 7 1\n", 4, "player", "there is no player 7"),
    # amounts and moves that make no sense
    (HEAD + "  com deal ALL 0\n", 4, "deal", "'deal' of 0 cards deals nothing"),
    (HEAD + "  unconditional pifr D*0 up\n", 4, "pifr", "'pifr' of 0 cards moves nothing"),
    (HEAD + "  unconditional puin T0*0 λ up\n", 4, "puin", "'puin' of 0 cards moves nothing"),
    (HEAD + "  com deal D 3\n", 4, "D", "cannot deal into it"),
    (HEAD + "  com deal HX 3\n", 4, "HX", "the dealer has no current player"),
    (HEAD + "  unconditional pifr HX*1 up\n", 4, "HX", "cannot take them from the player's own hand"),
    (HEAD + "  unconditional pifr HA*1 up\n", 4, "HA", "every other hand at once"),
    (HEAD + "  unconditional puin HX*1 λ up\n", 4, "HX", "HX cannot receive them"),
    (HEAD + "  unconditional playit\n", 4, "playit", "'playit' places the cards a 'show' antecedent chose"),
    (HEAD + "  show same suit T0 + T1 playit\n", 4, "T1", "not of a union"),
    (HEAD + "  show same suit HA playit\n", 4, "HA", "HA is every other player's hand"),
    (HEAD + "  unconditional bet > λ\n", 4, "bet", "a restriction needs a token location"),
    (HEAD + "  have 14 of hearts win\n", 4, "14", "there is no card numbered 14"),
    (HEAD + "  have 0 win\n", 4, "0", "there is no card numbered 0"),
    # the game's structure
    ("tables 2\nstage 0\n  draw next\n", 1, "tables", "no 'players N' line"),
    ("players 0\nstage 0\n  draw next\n", 1, "players", "at least one player"),
    ("players 3\nplayers 4\nstage 0\n  draw next\n", 2, "players", "'players' is given twice (first at line 1)"),
    ("players 53\nstage 0\n  draw next\n", 1, "players", "at most 52 players"),
    ("players 3\ntables 99999999999999999999\nstage 0\n  draw next\n", 2, "tables", "at most 52 tables"),
    ("players 3\n", 1, "players", "the game has no stages"),
    ("players 3\nstage 0\n  draw next\nstage 2\n  draw next\n", 4, "stage", "stage 2 where stage 1 is due"),
    ("players 3\nstage 1\n  draw next\n", 2, "stage", "stage 1 where stage 0 is due"),
    (HEAD + "  draw next\nranking\n  one pair 2\n  one pair 3\n", 7, "one", "'one pair' is ranked twice (first at line 6)"),
    (HEAD + "  draw next\nranking\n  card 14 3\n", 6, "card", "there is no card numbered 14"),
]


@pytest.mark.parametrize("text,line,token,message", SEMANTIC, ids=[t[3][:50] for t in SEMANTIC])
def test_checker_errors_are_positioned(text, line, token, message):
    with pytest.raises(GameDefinitionError) as info:
        parse_text(text, "bad.gcg")
    e = info.value
    col = column(text, line, token)
    assert e.pos == Pos(line, col), str(e)
    assert message in e.message
    assert str(e).startswith(f"bad.gcg:{line}:{col}: error: ")
    assert str(e).endswith("\n" + " " * (4 + col - 1) + "^")


WARNINGS = [
    (HEAD + "  unconditional bet λ K01\n", 4, "K01", "without a restriction the location is ignored"),
    (HEAD + "  unconditional puin T0*1 λ down\n", 4, "puin", "table locations are always face up"),
    (HEAD + "  unconditional puin D*1 λ up\n", 4, "puin", "the deck is always face down"),
    (HEAD + "  unconditional gain KX0\n", 4, "KX0", "it does nothing"),
    (HEAD + "  tokens 1 < 2 win\n", 4, "tokens", "never changes"),
    (HEAD + "  sum 1 < 2 win\n", 4, "sum", "never changes"),
    ("players 3\nstage 0\n", 2, "stage", "stage 0 has no rules"),
    (HEAD + "  com give ALL 0\n", 4, "give", "gives nothing"),
    (HEAD + "  com give players 1 and 1 3\n", 4, "players", "player 1 is listed twice"),
    (HEAD + "  draw next\nranking\n  card 1 1 | 1\n", 6, "card", "lists a value twice"),
]


@pytest.mark.parametrize("text,line,token,message", WARNINGS, ids=[t[3][:50] for t in WARNINGS])
def test_warnings_are_positioned_and_do_not_stop_reading(text, line, token, message):
    loaded = parse_text(text, "w.gcg")
    (d,) = loaded.warnings
    assert (d.severity, d.pos) == ("warning", Pos(line, column(text, line, token))), d.format()
    assert message in d.message


def test_without_strict_every_error_is_listed_in_source_order():
    text = "players 2\nstage 1\n  play H2 > H3 win\n  com deal T0 0\n"
    loaded = parse_text(text, "many.gcg", strict=False)
    found = [(d.severity, d.pos.line, d.pos.col) for d in loaded.diagnostics]
    assert found == [("error", 2, 1), ("error", 3, 8), ("error", 3, 13), ("error", 4, 7), ("error", 4, 12)]


def test_every_error_is_a_positioned_error_of_the_project():
    assert issubclass(GcardgameSyntaxError, PositionedError)
    assert issubclass(GameDefinitionError, PositionedError)
