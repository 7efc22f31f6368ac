"""Bad KIF files (not UTF-8, nested without end) give a positioned error from every command, never a traceback."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from ggpbridge.cli import main
from ggpbridge.gdl.errors import KifSyntaxError
from ggpbridge.gdl.kif import MAX_DEPTH, parse_kif, read_kif

GOOD = "(role a)\n(init (s 1))\n(<= (legal a noop) (true (s 1)))\n(goal a 100)\n(<= terminal (true (s 1)))\n"


def _not_utf8(tmp_path: Path) -> Path:
    path = tmp_path / "latin.kif"
    # line 3, after "(init (p caf": the 0xe9 of a Latin-1 'é'
    path.write_bytes(GOOD.replace("(init (s 1))\n", "(init (s 1))\n(init (p caf\xe9))\n").encode("latin-1"))
    return path


def _nested(depth: int) -> str:
    return GOOD + "(init (p " + "(f " * depth + "x" + ")" * depth + "))\n"


def test_a_file_that_is_not_utf8_names_the_first_bad_byte(tmp_path):
    path = _not_utf8(tmp_path)
    with pytest.raises(KifSyntaxError) as info:
        read_kif(path)
    e = info.value
    assert (e.filename, e.line, e.col) == (str(path), 3, 13)
    assert "0xe9" in e.message and "UTF-8" in e.message


def test_a_byte_order_mark_is_read():
    assert parse_kif("\ufeff" + GOOD) == parse_kif(GOOD)


@pytest.mark.parametrize("args", [
    ["validate"], ["translate"], ["translate", "--to", "asp"], ["playout", "--engine", "clingo", "-n", "1"],
    ["query", "--engine", "asp"], ["match"], ["export", "--repo", "REPO"],
])
def test_every_command_reports_a_file_that_is_not_utf8(tmp_path, args):
    path = _not_utf8(tmp_path)
    argv = [a.replace("REPO", str(tmp_path / "repo")) for a in args]
    argv = argv[:1] + [str(path)] + (["terminates"] if argv[0] == "query" else []) + argv[1:]
    result = CliRunner().invoke(main, argv)
    assert result.exit_code in (1, 2), result.output
    assert not isinstance(result.exception, UnicodeDecodeError)
    assert isinstance(result.exception, (SystemExit, type(None)))
    assert f"{path}:3:13: error:" in result.output


def test_deep_nesting_is_a_positioned_error():
    text = _nested(MAX_DEPTH)     # the `(init (p` around it make two levels more
    with pytest.raises(KifSyntaxError) as info:
        parse_kif(text, "deep.kif")
    e = info.value
    assert e.line == 6 and e.col == len("(init (p ") + len("(f ") * (MAX_DEPTH - 2) + 1   # the (MAX_DEPTH - 1)th `(f`
    assert f"deeper than {MAX_DEPTH}" in e.message


def test_nesting_within_the_limit_reads_and_comments_do_not_count():
    parse_kif(_nested(MAX_DEPTH - 2))
    parse_kif(GOOD + "; " + "(" * (10 * MAX_DEPTH) + "\n")


@pytest.mark.parametrize("args", [["validate"], ["translate"], ["translate", "--to", "asp"],
                                  ["playout", "--engine", "clingo", "-n", "1"]])
def test_every_command_reports_deep_nesting(tmp_path, args):
    path = tmp_path / "deep.kif"
    path.write_text(_nested(1000), encoding="utf-8")
    result = CliRunner().invoke(main, args[:1] + [str(path)] + args[1:])
    assert result.exit_code in (1, 2), result.output
    assert isinstance(result.exception, (SystemExit, type(None))), repr(result.exception)
    assert f"{path}:6:" in result.output and "nested deeper than" in result.output


def test_the_deepest_accepted_nesting_goes_through_every_command(tmp_path):
    """The limit protects the recursive walks over terms (hashing, printing, clingo's terms):
    every command handles what the reader accepts."""
    path = tmp_path / "deep.kif"
    path.write_text(_nested(MAX_DEPTH - 2), encoding="utf-8")
    for args in (["validate"], ["translate"], ["translate", "--to", "asp"],
                 ["playout", "--engine", "clingo", "-n", "1"]):
        result = CliRunner().invoke(main, args[:1] + [str(path)] + args[1:])
        assert result.exit_code == 0, (args, result.output, result.exception)


def test_ggp_messages_and_replies_nested_too_deep_are_protocol_errors():
    """A player's reply or a manager's message is read by the GGP layer's own S-expression reader:
    the same bound keeps its recursive walks (terms, printing) within the stack."""
    from ggpbridge.ggp.protocol import ProtocolError, parse_message, parse_move_reply
    deep = "(f " * 1000 + "x" + ")" * 1000
    with pytest.raises(ProtocolError, match=f"nested deeper than {MAX_DEPTH}"):
        parse_move_reply(deep)
    with pytest.raises(ProtocolError, match=f"nested deeper than {MAX_DEPTH}"):
        parse_message(f"(play m1 ({deep}))")
    inner = MAX_DEPTH - 2   # (play m1 ( ... )) holds it two levels down
    assert parse_message(f"(play m1 ({'(f ' * inner}x{')' * inner}))").moves
