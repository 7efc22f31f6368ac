"""G_cardgame syntax tree -> `.gcg` text, in the layout of the bundled games.

The inverse of `gcardgame.reader`: reading the printed text gives back an equal tree
(positions aside). Generated and mutated games are written with it, so that they are files
a designer can read and edit like `games/uno.gcg`.
"""
from __future__ import annotations

from ..gcardgame import syntax as s

_LAMBDA = "λ"


def to_text(game: s.Game, comment: str = "") -> str:
    """The game as `.gcg` text; `comment` (may span lines) goes first, as `#` lines."""
    out = [f"# {line}".rstrip() for line in comment.splitlines()]
    out += [f"{a.name} {a.value}" for a in game.axioms]
    for stage in game.stages:
        name = f" ({stage.name})" if stage.name else ""
        out += ["", f"stage {stage.index}{name}"]
        out += [f"  {rule_text(r)}" for r in stage.rules]
    if game.ranking:
        out += ["", "ranking"] + [f"  {rank_entry_text(e)}" for e in game.ranking]
    if game.winning is not None:
        out += ["", "winning", f"  token {game.winning.per_token}", f"  not out {game.winning.not_out}"]
    return "\n".join(out) + "\n"


def rule_text(rule: s.Rule) -> str:
    """One rule line, without indentation."""
    if rule.kind == "com":
        return "com " + node_text(rule.consequent)
    head = "" if rule.kind == "optional" else rule.kind + " "
    return f"{head}{node_text(rule.antecedent)} {node_text(rule.consequent)}"


def rank_entry_text(e) -> str:
    """`straight flush 900` or `card 1 1 | 10`."""
    if isinstance(e, s.RankPlay):
        return f"{e.play} {e.score}"
    return f"card {e.number} " + " | ".join(map(str, e.values))


def _players(p) -> str:
    if isinstance(p, s.AllPlayers):
        return "ALL"
    seats = list(map(str, p.seats))
    if len(seats) == 1:
        return f"player {seats[0]}"
    return f"players {', '.join(seats[:-1])} and {seats[-1]}"


def _opt(x) -> str:
    return _LAMBDA if x is None else str(x)


def node_text(n) -> str:
    """The text of one antecedent, consequent, combination or location."""
    match n:
        case s.Unconditional():
            return "unconditional"   # the paper's own word for the λ antecedent
        case s.EmptyCombo():
            return _LAMBDA
        case s.Tokens(left=l, op=op, right=r):
            return f"tokens {l} {op} {r}"
        case s.Play(left=l, op=op, right=r):
            return f"play {l} {op} {r}"
        case s.SumCond(left=l, op=op, right=r):
            return f"sum {l} {op} {r}"
        case s.Have(combination=c):
            return f"have {node_text(c)}"
        case s.Draw():
            return "draw"
        case s.Show(rel=rel, loc=loc):
            return f"show {rel} {loc}"
        case s.CardCombo(number=num, suit=suit):
            return f"{num} of {suit}"
        case s.NumberCombo(number=num):
            return str(num)
        case s.SuitCombo(suit=suit):
            return suit
        case s.PlayCombo(play=play):
            return play
        case s.Pifr(loc=loc, amount=a, face=f):
            return f"pifr {loc}*{a} {f}"
        case s.Puin(loc=loc, amount=a, rel=rel, face=f):
            return f"puin {loc}*{a} {_opt(rel)} {f}"
        case s.Bet(rel=rel, target=t):
            return f"bet {_opt(rel)} {_opt(t)}"
        case s.Gain(loc=loc):
            return f"gain {loc}"
        case s.PlayIt():
            return "playit"
        case s.Status(which=w):
            return w
        case s.Win():
            return "win"
        case s.End():
            return "end"
        case s.Deal(target=t, amount=a):
            where = str(t) if isinstance(t, s.CardLoc) else _players(t)
            return f"deal {where} {a}"
        case s.Give(players=p, amount=a):
            return f"give {_players(p)} {a}"
        case s.CardLoc() | s.CardLocs() | s.TokenLoc() | s.Number():
            return str(n)
    raise TypeError(f"not a G_cardgame node: {n!r}")
