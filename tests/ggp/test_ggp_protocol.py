"""GGP messages: reading in any case, printing, and clear errors for malformed text."""
from __future__ import annotations

import pytest

from ggpbridge.errors import GgpBridgeError
from ggpbridge.gdl.ast import Const, Func
from ggpbridge.ggp.protocol import (Abort, Info, Play, Preview, ProtocolError, Start, Stop, error_reply,
                                    info_reply, parse_message, parse_move_reply, print_message)

RULES = "(role a) (<= (legal a noop) (true (s 1))) (init (s 1)) (<= terminal (true (s 2)))"


@pytest.mark.parametrize("case", [str.lower, str.upper, str])
def test_every_message_reads_in_any_case(case):
    assert parse_message(case("(info)")) == Info()
    start = parse_message(case(f"(START M1 A ({RULES}) 10 5)"))
    assert isinstance(start, Start) and (start.match_id, start.role, start.startclock, start.playclock) == \
        ("m1", "a", 10, 5)
    assert len(start.description().rules) == 4
    assert parse_message(case("(PLAY M1 NIL)")) == Play("m1", moves=None)
    assert parse_message(case("(PLAY M1 ((MARK 1 1) NOOP))")) == \
        Play("m1", moves=(Func("mark", (Const("1"), Const("1"))), Const("noop")))
    assert parse_message(case("(PLAY M1 0 NIL NIL)")) == Play("m1", turn=0, percepts=())
    assert parse_message(case("(PLAY M1 3 (CHOOSE 2) ((SAW X) Y))")) == \
        Play("m1", turn=3, last_move=Func("choose", (Const("2"),)),
             percepts=(Func("saw", (Const("x"),)), Const("y")))
    assert parse_message(case("(STOP M1 4 NOOP ())")) == Stop("m1", turn=4, last_move=Const("noop"), percepts=())
    assert parse_message(case("(STOP M1 (A B))")) == Stop("m1", moves=(Const("a"), Const("b")))
    assert parse_message(case("(ABORT M1)")) == Abort("m1")
    assert parse_message(case(f"(PREVIEW ({RULES}) 30)")) == Preview(RULES if case is str.lower or case is str
                                                                       else RULES.upper(), 30)


def test_printing_reads_back_and_follows_the_gdl2_conventions():
    messages = [Info(), Start("m", "a", RULES, 10, 2.5), Play("m"), Play("m", moves=(Const("a"),)),
                Play("m", turn=0), Play("m", turn=2, last_move=Const("noop"), percepts=()),
                Stop("m", turn=5, last_move=Func("f", (Const("1"),)), percepts=(Const("p"),)),
                Abort("m"), Preview(RULES, 3)]
    for message in messages:
        assert parse_message(print_message(message)) == message
    assert print_message(Play("m", turn=0)) == "(play m 0 nil nil)"
    assert print_message(Play("m", turn=1, last_move=Const("noop"), percepts=())) == "(play m 1 noop ())"
    assert print_message(Play("m")) == "(play m nil)"
    assert print_message(Start("m", "a", RULES, 10, 2.5)).endswith(" 10 2.5)")


@pytest.mark.parametrize("text, words", [
    ("", "empty message"),
    ("(play m1", "never closed"),
    ("(info))", "text after the end"),
    (")", "unmatched"),
    ("info", "starts with a keyword"),
    ("((info))", "starts with a keyword"),
    ("(hello)", "unknown message 'hello'"),
    ("(info extra)", "info takes 0"),
    ("(start m a (role a) 10)", "start takes 5"),
    ("(start m (a) ((role a)) 10 10)", "a role is a name"),
    ("(start m a ((role a)) ten 10)", "start clock must be a positive number"),
    ("(start m a ((role a)) 10 -1)", "play clock must be a positive number"),
    ("(start m a ((role a) (<= x)) 10 10)", None),  # a fact-less rule is still well-formed KIF
    ("(start m a ((role a) (<= )) 10 10)", "not well-formed KIF"),
    ("(play m 1 2)", "play takes 2 or 4"),
    ("(play m x noop ())", "turn must be a natural number"),
    ("(play m (((a) b)))", "must start with a name"),
    ("(play m 2 noop x)", "percepts must be a list"),
    ("(play m 1 ?x ())", "not a ground term"),
    ("(play (m) nil)", "match id is a name"),
    ('(play m "unterminated)', "unterminated string"),
])
def test_malformed_messages_are_explained(text, words):
    if words is None:
        parse_message(text)
        return
    with pytest.raises(ProtocolError) as err:
        message = parse_message(text)
        if isinstance(message, Start):
            message.description()
    assert words in str(err.value)
    assert isinstance(err.value, GgpBridgeError)


def test_replies():
    assert info_reply("me", busy=False) == "((name me) (status available))"
    assert info_reply("me", busy=True) == "((name me) (status busy))"
    assert error_reply('bad "x"\n here') == "(error \"bad 'x' here\")"
    assert parse_move_reply("(MARK 1 2)\n") == Func("mark", (Const("1"), Const("2")))
    with pytest.raises(ProtocolError, match="answered with an error"):
        parse_move_reply('(error "no")')


@pytest.mark.parametrize("wrap", [1, 2])
def test_rules_wrapped_in_one_more_list_read_as_the_plain_rules(wrap):
    # ggp-base's runner (the Dresden GameController) sends (START id role (((role a) ...)) sc pc)
    rules = "(" * wrap + RULES + ")" * wrap
    start = parse_message(f"(START M1 A ({rules}) 60 10)")
    assert start.rules == RULES and start.description() == parse_message(f"(start m1 a ({RULES}) 60 10)").description()
    assert parse_message(f"(preview ({rules}) 5)").rules == RULES


def test_a_description_of_one_sentence_is_not_unwrapped():
    assert parse_message("(start m a ((role a)) 10 10)").rules == "(role a)"
    assert parse_message("(start m a (terminal) 10 10)").rules == "terminal"


@pytest.mark.parametrize("text", [
    "(play m 1 " + "(f " * 100_000 + ")" * 100_000 + " ())",
    "(start m " + "(" * 100_000 + ")" * 100_000 + " ((role a)) 1 1)",
])
def test_deep_nesting_is_a_clear_error_not_a_crash(text):
    with pytest.raises(ProtocolError, match="nested deeper than"):
        parse_message(text)


@pytest.mark.parametrize("text", [
    "(info) " + "x" * 100_000,
    "(" + "x" * 100_000 + ")",
    "(play " + "(x " * 100 + "y" * 100_000 + ")" * 100 + " nil)",
    "(start m a ((role a)) " + "9" * 100_000 + "x 1)",
])
def test_errors_quote_a_short_excerpt_of_a_long_message(text):
    with pytest.raises(ProtocolError) as err:
        parse_message(text)
    assert len(str(err.value)) < 300
