"""Locations, token amounts and conditions of G_cardgame as IR expressions.

Naming (RECYCLE v0.5.10 names are `[A-Z]+`, so indices become letters): the deck is
`(game hloc D)` (nobody sees it), table Tk is `(game vloc T<letter k>)`, a hand is two
locations, `(j iloc HAND)` face down and `(j vloc UP)` face up; stash, bet and status are
the player storages STASH, BET and STATUS (0 playing, 1 next, 2 done, 3 out). Card numbers
are the RANK names ONE..THIRTEEN, scored by the point maps NUMBER (1..13), HIGH (the
default ranking, the ace 14) and VALUE (the ranking's card values, else the number).
"""
from __future__ import annotations

from .. import ir
from ..errors import NOPOS, Pos, UnsupportedConstructError
from . import syntax as s

RANKS = ("ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "ELEVEN", "TWELVE",
         "THIRTEEN")
SUITS = ("CLUBS", "DIAMONDS", "HEARTS", "SPADES")
PLAYING, NEXT, DONE, OUT = 0, 1, 2, 3


def letters(i: int) -> str:
    """0 -> A, 25 -> Z, 26 -> BA: an index as a name RECYCLE can spell."""
    out = ""
    while True:
        out = chr(ord("A") + i % 26) + out
        i //= 26
        if i == 0:
            return out


def cur(pos: Pos = NOPOS) -> ir.PlayerRef:
    """The current player."""
    return ir.PlayerRef("current", pos=pos)


def seat(j: int, pos: Pos = NOPOS) -> ir.PlayerRef:
    """The player in seat j."""
    return ir.PlayerRef(ir.IntLit(j, pos=pos), pos=pos)


def game() -> ir.GameOwner:
    """The table (game-level owner)."""
    return ir.GameOwner()


def sto(owner, key: str, pos: Pos = NOPOS) -> ir.IntStorage:
    """An integer storage of an owner."""
    return ir.IntStorage(owner, ir.Name(key, pos=pos), pos=pos)


def loc(owner, vis: str, name: str, pos: Pos = NOPOS) -> ir.Location:
    """A card location."""
    return ir.Location(owner, vis, ir.Name(name, pos=pos), pos=pos)


def deck(pos: Pos = NOPOS) -> ir.Location:
    """The deck D."""
    return loc(game(), "hloc", "D", pos)


def table(k: int, pos: Pos = NOPOS) -> ir.Location:
    """Table location Tk."""
    return loc(game(), "vloc", "T" + letters(k), pos)


def hand_down(owner, pos: Pos = NOPOS) -> ir.Location:
    """A player's face-down hand cards."""
    return loc(owner, "iloc", "HAND", pos)


def hand_up(owner, pos: Pos = NOPOS) -> ir.Location:
    """A player's face-up hand cards."""
    return loc(owner, "vloc", "UP", pos)


def hand(owner, pos: Pos = NOPOS) -> ir.SetOp:
    """A player's whole hand, face down and face up."""
    return ir.SetOp("union", (hand_down(owner, pos), hand_up(owner, pos)), pos=pos)


def points(name: str) -> ir.PointsRef:
    """A game-level point map."""
    return ir.PointsRef(game(), ir.Name(name))


def lit(n: int, pos: Pos = NOPOS) -> ir.IntLit:
    """An integer literal."""
    return ir.IntLit(n, pos=pos)


def cmp(op: str, a, b, pos: Pos = NOPOS) -> ir.Compare:
    """A comparison; `=` is RECYCLE's `==`."""
    return ir.Compare("==" if op == "=" else op, a, b, pos=pos)


def both(*conds):
    """The conjunction of the conditions that are not None (None when none is left)."""
    conds = [c for c in conds if c is not None]
    if not conds:
        return None
    return conds[0] if len(conds) == 1 else ir.BoolOp("and", tuple(conds))


def when(cond, body, pos: Pos = NOPOS):
    """`body` guarded by `cond`; a statement with no guard (None) stands bare, as RECYCLE writes it."""
    return body if cond is None else ir.CondAct(cond, body, pos=pos)


def either(*conds):
    """The disjunction of the conditions; None (always) when any of them is None."""
    if any(c is None for c in conds):
        return None
    return conds[0] if len(conds) == 1 else ir.BoolOp("or", tuple(conds))


def status(owner, pos: Pos = NOPOS) -> ir.IntStorage:
    """A player's status storage."""
    return sto(owner, "STATUS", pos)


def live(owner) -> ir.Compare:
    """The player is not out."""
    return cmp("!=", status(owner), lit(OUT))


_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "=": "="}


def against_best(x, op: str, value_of, pos: Pos) -> ir.Node:
    """`x op max(value_of(Q) for Q live other players)`, 0 when there is none (decision 10),
    as quantifiers: every value compared is a natural number, so the maximum is at least 0."""
    q = ir.Var("Q", pos=pos)
    others = ir.Other("player", pos=pos)

    def some(o):
        return ir.Quantified("any", others, "Q", both(live(q), cmp(o, x, value_of(q), pos)), pos=pos)

    def every(o):
        return ir.Quantified("all", others, "Q", ir.BoolOp("or", (ir.Not(live(q)), cmp(o, x, value_of(q), pos))),
                             pos=pos)

    if op == "<":
        return some("<")
    if op == "<=":
        return ir.BoolOp("or", (some("<="), cmp("<=", x, lit(0), pos)), pos=pos)
    if op == ">":
        return both(cmp(">", x, lit(0), pos), every(">"))
    if op == ">=":
        return every(">=")
    return both(every(">="), ir.BoolOp("or", (some("=="), cmp("==", x, lit(0), pos)), pos=pos))


def compare_sides(left, op: str, right, single, value_of_other, what: str, pos: Pos):
    """Compare two operands, either of which may stand for every live other player (`KA`,
    `HA`): `single(x)` lowers a plain operand, `value_of_other(x, Q)` the value of one of
    the others."""
    lo, ro = _is_others(left), _is_others(right)
    if lo and ro:
        raise UnsupportedConstructError(f"'{what}' with the other players on both sides: which of them "
                                        f"would be compared with which is not defined", pos)
    if ro:
        return against_best(single(left), op, lambda q: value_of_other(right, q), pos)
    if lo:
        return against_best(single(right), _FLIP[op], lambda q: value_of_other(left, q), pos)
    return cmp(op, single(left), single(right), pos)


def _is_others(x) -> bool:
    if isinstance(x, s.TokenLoc):
        return x.owner == "A"
    if isinstance(x, s.CardLocs):
        return any(p.kind == "H" and p.which == "A" for p in x.parts)
    return False


# ---------------------------------------------------------------- tokens
def token(t, other=None) -> ir.Node:
    """A token location's amount (or a number); `other` is the player standing for KA."""
    if isinstance(t, s.Number):
        return lit(t.value, t.pos)
    owner = other if t.owner == "A" else cur(t.pos) if t.owner == "X" else seat(t.owner, t.pos)
    return sto(owner, "STASH" if t.slot == 0 else "BET", t.pos)


# ---------------------------------------------------------------- cards
def card_loc(c: s.CardLoc, other=None) -> ir.Node:
    """One card location as an IR card collection; `other` stands for HA."""
    if c.kind == "D":
        return deck(c.pos)
    if c.kind == "T":
        return table(c.which, c.pos)
    owner = other if c.which == "A" else cur(c.pos) if c.which == "X" else seat(c.which, c.pos)
    return hand(owner, c.pos)


def card_locs(cs: s.CardLocs, other=None) -> ir.Node:
    """Locations joined with `+` as one collection."""
    parts = []
    for p in cs.parts:
        x = card_loc(p, other)
        # one flat union: the translation sums and counts a union of locations, not of unions
        parts.extend(x.args if isinstance(x, ir.SetOp) else (x,))
    return parts[0] if len(parts) == 1 else ir.SetOp("union", tuple(parts), pos=cs.pos)


def card_sum(cs, other=None) -> ir.Node:
    """The sum of the cards' values (decision 15, single-valued cards only), or a number."""
    if isinstance(cs, s.Number):
        return lit(cs.value, cs.pos)
    return ir.Sum(card_locs(cs, other), points("VALUE"), pos=cs.pos)


def best_card_sum(cs, bound: int, other=None) -> ir.Node:
    """The sum of the cards' values where a two-valued card counts its highest value (point
    map RAISED) as long as the total stays at most `bound` (decision 15), or a number."""
    if isinstance(cs, s.Number):
        return lit(cs.value, cs.pos)
    return ir.BestSum(card_locs(cs, other), points("VALUE"), points("RAISED"), lit(bound, cs.pos), pos=cs.pos)


def card_relation(rel: str, card, top, pos: Pos) -> ir.Compare:
    """A `show`/`puin` restriction of a hand card against a location's top card (decision 17)."""
    if rel in ("same suit", "same number"):
        attr = "SUIT" if rel == "same suit" else "RANK"
        return cmp("==", ir.CardAtt(ir.Name(attr), card, pos=pos), ir.CardAtt(ir.Name(attr), top, pos=pos), pos)
    return cmp(rel, ir.Score(card, points("HIGH"), pos=pos), ir.Score(top, points("HIGH"), pos=pos), pos)


def has(combo, pos: Pos) -> ir.Node:
    """`have COMBINATION` on the current player's hand (decision 19)."""
    h = hand(cur(pos), pos)
    c = ir.Var("C", pos=pos)

    def att(a, v):
        return cmp("==", ir.CardAtt(ir.Name(a), c), ir.Name(v), pos)

    if isinstance(combo, s.EmptyCombo):
        return cmp("==", ir.Size(h, pos=pos), lit(0), pos)
    if isinstance(combo, s.CardCombo):
        cond = both(att("RANK", RANKS[combo.number - 1]), att("SUIT", combo.suit.upper()))
    elif isinstance(combo, s.NumberCombo):
        cond = att("RANK", RANKS[combo.number - 1])
    elif isinstance(combo, s.SuitCombo):
        cond = att("SUIT", combo.suit.upper())
    else:
        return has_play(combo.play, h, pos)
    return ir.Quantified("any", h, "C", cond, pos=pos)


def play_value(cards, ranking: tuple, pos: Pos) -> ir.PlayValue:
    """The value of a collection of cards through the game's ranking (decision 14): the best
    play's score, else the highest card in the default ranking HIGH."""
    return ir.PlayValue(cards, ranking, points("HIGH"), ir.Name("SUIT", pos=pos), pos=pos)


def has_play(play: str, cards, pos: Pos) -> ir.Compare:
    """The cards hold the play (decision 19): valued with that play alone, scored one above every
    card's rank, they reach that score exactly when the play is among them — whatever the
    ranking scores it, and whatever better play the cards also hold."""
    top = ir.ACE_HIGH + 1
    return cmp(">=", play_value(cards, ((play, lit(top, pos)),), pos), lit(top, pos), pos)
