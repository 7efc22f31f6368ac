"""Parsing of `.gcg` text into the syntax tree of `syntax.py`, with lark (LALR).

Syntax errors are `GcardgameSyntaxError`s positioned at the offending token, and name
what the grammar expected there in the file's own words (keywords quoted, locations and
numbers described), so that a designer can fix the line from the message alone.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import lark
from lark import v_args

from ..errors import Pos, PositionedError, Source
from . import syntax as s


class GcardgameSyntaxError(PositionedError):
    """The text is not well-formed G_cardgame (`.gcg`)."""


_GRAMMAR = Path(__file__).with_name("gcardgame.lark")


class _KeepWord:
    """A no-op post-lexer whose only use is `always_accept`: WORD is used by no rule (it
    exists so that an unknown word lexes as one token the error can name), and lark drops
    unused terminals unless a post-lexer asks for them."""

    always_accept = ("WORD",)

    def process(self, stream):
        return stream


@lru_cache(maxsize=None)
def _parser() -> lark.Lark:
    return lark.Lark(_GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer="basic",
                     propagate_positions=True, maybe_placeholders=False, postlex=_KeepWord())


_REL = {"≤": "<=", "≥": ">="}


def _rel(tok) -> str:
    return _REL.get(str(tok), str(tok))


def _at(meta) -> Pos:
    return Pos(meta.line, meta.column) if not meta.empty else Pos()


def _tpos(tok: lark.Token) -> Pos:
    return Pos(tok.line, tok.column)


_LAMBDA = object()   # λ before its meaning is known from where it stands


@v_args(meta=True)
class _Build(lark.Transformer):
    """Tree to syntax nodes; every node gets the position of its first token."""

    def start(self, meta, items):
        axioms = tuple(x for x in items if isinstance(x, s.Axiom))
        stages = tuple(x for x in items if isinstance(x, s.Stage))
        ranking = next((x for x in items if isinstance(x, tuple)), ())
        winning = next((x for x in items if isinstance(x, s.Winning)), None)
        return s.Game(axioms, stages, ranking, winning, pos=Pos(1, 1))

    def players_decl(self, meta, items):
        return s.Axiom("players", int(items[0]), pos=_at(meta))

    def tables_decl(self, meta, items):
        return s.Axiom("tables", int(items[0]), pos=_at(meta))

    def stage(self, meta, items):
        index = int(items[0])
        name = ""
        rules = items[1:]
        if rules and isinstance(rules[0], lark.Token) and rules[0].type == "STAGE_NAME":
            name = str(rules[0])[1:-1].strip()
            rules = rules[1:]
        return s.Stage(index, name, tuple(rules), pos=_at(meta))

    # ------------------------------------------------------------ rules
    def com_rule(self, meta, items):
        return s.Rule("com", None, items[0], pos=_at(meta))

    def player_rule(self, meta, items):
        kind = "optional"
        if isinstance(items[0], str) and items[0] in ("mandatory", "once"):
            kind, items = items[0], items[1:]
        items = [x for x in items if not (isinstance(x, lark.Token) and x.type == "ARROW")]
        ante, cons = items
        return s.Rule(kind, ante, cons, pos=_at(meta))

    def modifier(self, meta, items):
        return str(items[0])

    def deal(self, meta, items):
        return s.Deal(items[0], int(items[1]), pos=_at(meta))

    def give(self, meta, items):
        return s.Give(items[0], int(items[1]), pos=_at(meta))

    def all_players(self, meta, items):
        return s.AllPlayers(pos=_at(meta))

    def some_players(self, meta, items):
        return s.SomePlayers(tuple(int(t) for t in items), pos=_at(meta))

    def lam(self, meta, items):
        return _LAMBDA

    # ------------------------------------------------------------ antecedents
    def unconditional(self, meta, items):
        return s.Unconditional(pos=_at(meta))

    def tokens(self, meta, items):
        left, op, right = items
        return s.Tokens(self._tok_operand(left), _rel(op), self._tok_operand(right), pos=_at(meta))

    def play(self, meta, items):
        left, op, right = items
        return s.Play(left, _rel(op), right, pos=_at(meta))

    def sum(self, meta, items):
        left, op, right = items
        return s.SumCond(self._num_or(left), _rel(op), self._num_or(right), pos=_at(meta))

    def have(self, meta, items):
        return s.Have(items[0], pos=_at(meta))

    def draw(self, meta, items):
        return s.Draw(pos=_at(meta))

    def show(self, meta, items):
        return s.Show(items[0], items[1], pos=_at(meta))

    def show_rel(self, meta, items):
        if len(items) == 1 and isinstance(items[0], lark.Token) and items[0].type == "REL":
            return _rel(items[0])
        return "same " + items[-1]

    def same_what(self, meta, items):
        return str(items[0])

    def card_locs(self, meta, items):
        return s.CardLocs(tuple(items), pos=_at(meta))

    def card_loc(self, meta, items):
        tok = items[0]
        text = str(tok)
        if tok.type == "DECK":
            return s.CardLoc("D", None, pos=_tpos(tok))
        rest = text[1:]
        return s.CardLoc(text[0], int(rest) if rest.isdigit() else rest, pos=_tpos(tok))

    @staticmethod
    def _tok_operand(x):
        if isinstance(x, lark.Token) and x.type == "INT":
            return s.Number(int(x), pos=_tpos(x))
        text = str(x)
        owner = text[1:-1]
        return s.TokenLoc(int(owner) if owner.isdigit() else owner, int(text[-1]), pos=_tpos(x))

    @staticmethod
    def _num_or(x):
        if isinstance(x, lark.Token):
            return s.Number(int(x), pos=_tpos(x))
        return x

    # ------------------------------------------------------------ combinations
    def combo_empty(self, meta, items):
        return s.EmptyCombo(pos=_at(meta))

    def combo_card(self, meta, items):
        return s.CardCombo(int(items[0]), items[1], pos=_at(meta))

    def combo_number(self, meta, items):
        return s.NumberCombo(int(items[0]), pos=_at(meta))

    def combo_suit(self, meta, items):
        return s.SuitCombo(items[0], pos=_at(meta))

    def combo_play(self, meta, items):
        return s.PlayCombo(items[0], pos=_at(meta))

    def suit(self, meta, items):
        return str(items[0])

    def play_name(self, meta, items):
        name = " ".join(map(str, items))
        return "four of a kind" if name == "poker" else name   # "Poker (800)" in the paper's list

    # ------------------------------------------------------------ consequents
    def pifr(self, meta, items):
        loc, amount, face = items
        return s.Pifr(loc, int(amount), face, pos=_at(meta))

    def puin(self, meta, items):
        loc, amount, rel, face = items
        return s.Puin(loc, int(amount), None if rel is _LAMBDA else _rel(rel), face, pos=_at(meta))

    def face(self, meta, items):
        return str(items[0])

    def bet(self, meta, items):
        rel, target = items
        if target is not _LAMBDA:
            target = self._tok_operand(target)
        return s.Bet(None if rel is _LAMBDA else _rel(rel), None if target is _LAMBDA else target, pos=_at(meta))

    def gain(self, meta, items):
        return s.Gain(self._tok_operand(items[0]), pos=_at(meta))

    def playit(self, meta, items):
        return s.PlayIt(pos=_at(meta))

    def status(self, meta, items):
        return s.Status(str(items[0]), pos=_at(meta))

    def win(self, meta, items):
        return s.Win(pos=_at(meta))

    def end(self, meta, items):
        return s.End(pos=_at(meta))

    # ------------------------------------------------------------ ranking, winning
    def ranking(self, meta, items):
        return tuple(items)

    def rank_play(self, meta, items):
        return s.RankPlay(items[0], int(items[1]), pos=_at(meta))

    def rank_card(self, meta, items):
        return s.RankCard(int(items[0]), tuple(int(t) for t in items[1:]), pos=_at(meta))

    def winning(self, meta, items):
        per_token = not_out = 0
        for kind, value in items:
            if kind == "token":
                per_token = value
            else:
                not_out = value
        return s.Winning(per_token, not_out, pos=_at(meta))

    def win_token(self, meta, items):
        return ("token", int(items[0]))

    def win_not_out(self, meta, items):
        return ("not out", int(items[0]))


def read(source: Source) -> s.Game:
    """Parse `.gcg` text into its syntax tree; a malformed text raises GcardgameSyntaxError."""
    text = source.text[1:] if source.text.startswith("\ufeff") else source.text
    try:
        tree = _parser().parse(text + "\n")
    except lark.UnexpectedInput as e:
        raise _syntax_error(e, text, source) from None
    try:
        return _Build().transform(tree)
    except lark.exceptions.VisitError as e:  # a builder bug, never the designer's: keep it loud
        raise e.orig_exc from None


# ---------------------------------------------------------------- error messages
_DESCRIBE = {
    "INT": "a number", "HAND": "a hand (H0, HX, HA, ...)", "DECK": "the deck D", "TABLE": "a table location (T0, ...)",
    "TOKLOC": "a token location (K00, KX1, KA1, ...)", "REL": "a restriction (<, >, =, <=, >=)",
    "STAGE_NAME": "a stage name in parentheses", "ARROW": "'->'", "_NL": "the end of the line",
    "$END": "the end of the file", "WORD": "a word",
}


_CONSEQUENTS = {"pifr", "puin", "bet", "gain", "playit", "next", "done", "out", "win", "end"}


def _expected(names) -> str:
    terms = {t.name: t for t in _parser().terminals}
    words = set()
    for n in names:
        if n in _DESCRIBE:
            words.add(_DESCRIBE[n])
        elif n in terms and terms[n].pattern.type == "str":
            words.add(repr(terms[n].pattern.value))
        else:
            words.add(n)
    out = sorted(words)
    return ", ".join(out[:16]) + (", ..." if len(out) > 16 else "")


def _accepts(e: lark.UnexpectedToken) -> set:
    # LALR merges look-aheads of states that share `_NL+`, so `e.expected` may list tokens
    # of other blocks (ranking entries after a rule); trying each token on a copy of the
    # parser gives only those that can really follow.
    try:
        return set(e.interactive_parser.accepts()) or set(e.expected)
    except Exception:   # the interactive parser is a convenience for the message only
        return set(e.expected)


def _syntax_error(e: lark.UnexpectedInput, text: str, source: Source) -> GcardgameSyntaxError:
    if isinstance(e, lark.UnexpectedCharacters):
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else "?"
        hint = ""
        if ch == "K":
            hint = " (a token location is K, a seat or X or A, then 0 for the stash or 1 for the bet: K01, KX1, KA1)"
        elif ch in "HT":
            hint = " (card locations are H0, HX, HA, D, T0, ...)"
        elif ch == "(":
            hint = " (a stage name is written in parentheses on the stage's line: stage 0 (pre-flop))"
        return GcardgameSyntaxError(f"unexpected character {ch!r}{hint}", Pos(e.line, e.column), source)
    if isinstance(e, lark.UnexpectedToken):
        tok = e.token
        if tok.type == "$END":
            lines = text.split("\n")
            pos = Pos(len(lines), len(lines[-1]) + 1)
            found = "end of file"
        else:
            pos = Pos(tok.line, tok.column)
            found = "end of line" if tok.type == "_NL" else repr(str(tok))
        if tok.type == "WORD":
            found = f"word {str(tok)!r}"
        accepts = _accepts(e)
        hint = ""
        if str(tok) in _CONSEQUENTS and "UNCONDITIONAL" in accepts:
            hint = f" (a rule starts with its antecedent: 'unconditional {tok} ...' for a rule without a condition)"
        return GcardgameSyntaxError(f"unexpected {found}{hint}: expected {_expected(accepts)}", pos, source)
    return GcardgameSyntaxError(str(e).splitlines()[0], Pos(getattr(e, "line", 1) or 1, getattr(e, "column", 1) or 1), source)
