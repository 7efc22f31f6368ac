"""The fast KIF reader builds what the lark parser builds, lines included, or leaves the text to it."""
import random
from pathlib import Path

import pytest

from ggpbridge.gdl.ast import Const, Description, Distinct, Func, Not, Or, Rule, Var
from ggpbridge.gdl.errors import KifSyntaxError
from ggpbridge.gdl.kif import _parser, parse_kif, print_kif
from ggpbridge.gdl.kif_fast import read_fast
from ggpbridge.translate import load_description

ROOT = Path(__file__).resolve().parents[2]
KIF_FILES = sorted(p for p in ROOT.glob("**/*.kif") if ".venv" not in p.parts)


def shape(node):
    """The node as nested tuples of (type, name, line): equality of ASTs ignores lines."""
    if isinstance(node, Description):
        return tuple(map(shape, node.rules))
    if isinstance(node, Rule):
        return ("rule", node.line, shape(node.head), tuple(map(shape, node.body)))
    if isinstance(node, (Const, Var)):
        return (type(node).__name__, node.name, node.line)
    if isinstance(node, Func):
        return ("func", node.name, node.line, tuple(map(shape, node.args)))
    if isinstance(node, Not):
        return ("not", node.line, shape(node.arg))
    if isinstance(node, Or):
        return ("or", node.line, tuple(map(shape, node.args)))
    if isinstance(node, Distinct):
        return ("distinct", node.line, shape(node.a), shape(node.b))
    raise TypeError(node)


def lark(text: str):
    try:
        return _parser().parse(text)
    except Exception as e:   # noqa: BLE001 - any refusal
        return e


def agrees(text: str) -> bool:
    """Where the fast reader reads the text, lark reads the same AST with the same lines."""
    fast = read_fast(text)
    if fast is None:
        return True
    slow = lark(text)
    assert not isinstance(slow, Exception), f"fast reader accepted what lark refuses: {text!r}: {slow}"
    assert shape(fast) == shape(slow), text
    return True


@pytest.mark.parametrize("path", KIF_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_project_kif_files_read_the_same(path):
    text = path.read_text(encoding="utf-8")
    if text.startswith("\ufeff"):
        text = " " + text[1:]
    if isinstance(lark(text), Description):
        assert read_fast(text) is not None
    agrees(text)


@pytest.mark.parametrize("game", ["kuhn_poker.rcy", "leduc_poker.rcy", "agram2_c2.rcy"])
def test_translated_games_read_the_same(game):
    text = print_kif(load_description(ROOT / "games" / game))
    assert read_fast(text) is not None
    agrees(text)


_WORDS = ["a", "B", "x-1", "1+", "?v", "?W", "<=", "not", "NOT", "or", "Or", "distinct", "true", "does",
          "role", "init", "legal", "a?b", "?", '"', ";c (\n", "\n", "\v", "\u00a0", "é"]


def _term(rng, depth):
    r = rng.random()
    if depth > 3 or r < 0.4:
        return rng.choice(["a", "b1", "?x", "?Y", "Cell", "x-1", "1+", "a?b"])
    return "(" + " ".join([rng.choice(["f", "G", "cell", "succ"])] + [_term(rng, depth + 1) for _ in range(rng.randrange(4))]) + ")"


def _literal(rng, depth):
    r = rng.random()
    if depth < 3 and r < 0.15:
        return f"(not {_literal(rng, depth + 1)})"
    if depth < 3 and r < 0.25:
        return "(or " + " ".join(_literal(rng, depth + 1) for _ in range(rng.randrange(3))) + ")"
    if r < 0.35:
        return f"(distinct {_term(rng, 2)} {_term(rng, 2)})"
    if r < 0.45:
        return rng.choice(["terminal", "p", "OPEN"])
    return "(" + " ".join([rng.choice(["true", "does", "p", "q"])] + [_term(rng, 1) for _ in range(rng.randrange(3))]) + ")"


def _description(rng):
    out = []
    for _ in range(rng.randrange(1, 6)):
        head = rng.choice(["terminal", "(goal r 100)", "(p ?x)", "(not a)", "(or b)", "(distinct a b)", _term(rng, 1)])
        if rng.random() < 0.5:
            out.append(head)
        else:
            out.append(f"({rng.choice(['<=', '<='.upper()])} {head} " + " ".join(_literal(rng, 0) for _ in range(rng.randrange(4))) + ")")
    return rng.choice([" ", "\n", "\n; comment ( ?\n", "\t\r\n"]).join(out)


def test_random_descriptions_and_their_mutations_read_the_same():
    rng = random.Random(7)
    accepted = 0
    for _ in range(3000):
        text = _description(rng)
        if not isinstance(lark(text), Exception):
            accepted += read_fast(text) is not None
        agrees(text)
        tokens = text.replace("(", " ( ").replace(")", " ) ").split(" ")
        for _ in range(3):   # a token dropped, doubled or replaced: mostly not KIF any more
            i = rng.randrange(len(tokens))
            op = rng.randrange(3)
            mutated = tokens[:i] + ([] if op == 0 else [tokens[i]] * 2 if op == 1 else [rng.choice(_WORDS)]) + tokens[i + 1:]
            agrees(" ".join(mutated))
    assert accepted > 1000   # the fast reader reads what it is for, not only gives up


def test_what_it_gives_up_on_gets_lark_error():
    with pytest.raises(KifSyntaxError, match="unexpected character"):
        parse_kif('(role "a")')
    with pytest.raises(KifSyntaxError, match="never closed"):
        parse_kif("(role a)\n(<= (legal a noop)\n")
    assert parse_kif("(p a?)") == Description((Rule(Func("p", (Const("a?"),))),))   # read by lark
