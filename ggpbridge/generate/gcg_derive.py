"""Random G_cardgame games, derived from the syntax tree's grammar within size bounds.

Each non-terminal of `gcardgame.lark` (a game, a stage, a rule, an antecedent, a card
location, a restriction, ...) has a function here that derives a fresh subtree of it.
What the grammar alone allows but the checker refuses (a hand `H5` in a three-player game,
`playit` without `show`, a `bet` restriction without a location) is never derived: the
derivation carries a `Ctx` with the game's axioms and what the surrounding rule needs, so
every derived game is one `ggpbridge check` accepts. `Bounds.lowerable` leaves out what the
lowering to the IR cannot take yet (`play`, ranking plays in `have`, two-valued cards,
`puin` of several cards, the other players on both sides of a comparison).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace

from ..gcardgame import syntax as s

RELS = ("<", ">", "=", "<=", ">=")
SHOW_RELS = RELS + ("same suit", "same number")
SUITS = ("clubs", "diamonds", "hearts", "spades")
PLAYS = ("straight flush", "four of a kind", "full house", "flush", "straight", "three of a kind",
         "two pairs", "one pair")
STAGE_NAMES = ("", "", "deal", "bet", "draw", "play", "showdown", "discard", "trade", "check")


@dataclass(frozen=True)
class Bounds:
    """Size bounds of a derivation. Ranges are inclusive."""

    players: tuple = (2, 4)
    tables: tuple = (0, 3)
    stages: int = 4          # stages per game, at least 1
    rules: int = 5           # rules per stage, at least 1
    union: int = 2           # card locations joined by `+`
    cards: int = 3           # cards moved or dealt by one rule
    tokens: int = 100        # tokens given, compared, bet
    lowerable: bool = True   # only constructs the lowering to the IR takes today


@dataclass(frozen=True)
class Ctx:
    """What a subtree must respect where it stands: the axioms and its neighbours."""

    players: int
    tables: int
    bounds: Bounds
    index: int = 0                 # a stage's number
    show: bool = False             # the rule's antecedent is a `show` (its consequent may `playit`)
    playit: bool = False           # the rule's consequent is `playit` (its antecedent must `show`)
    other: object = None           # the other side of a comparison
    min_players: int = 1           # the seats the rest of the game names (for the axioms)
    min_tables: int = 0            # the table locations it names


def is_others(x) -> bool:
    """Whether an operand stands for every other player (`KA`, `HA` in a union)."""
    if isinstance(x, s.TokenLoc):
        return x.owner == "A"
    if isinstance(x, s.CardLocs):
        return any(p.kind == "H" and p.which == "A" for p in x.parts)
    return False


def random_game(rng: random.Random, bounds: Bounds = Bounds()) -> s.Game:
    """A fresh game: axioms drawn within `bounds`, then every part derived."""
    players = rng.randint(*bounds.players)
    tables = rng.randint(*bounds.tables)
    axioms = (s.Axiom("players", players),) + ((s.Axiom("tables", tables),) if tables else ())
    ctx = Ctx(players, tables, bounds)
    stages = tuple(derive("stage", rng, replace(ctx, index=i)) for i in range(rng.randint(1, bounds.stages)))
    return s.Game(axioms, stages, derive("ranking", rng, ctx), derive("winning", rng, ctx))


def context(game: s.Game, bounds: Bounds = Bounds()) -> Ctx:
    """The derivation context of an existing game's axioms."""
    return Ctx(game.players or 1, game.tables or 0, bounds)


def derive(nt: str, rng: random.Random, ctx: Ctx):
    """A fresh derivation of non-terminal `nt` (a key of NONTERMINALS) in `ctx`."""
    return NONTERMINALS[nt](rng, ctx)


# ---------------------------------------------------------------- game level
def _stage(rng, ctx):
    b = ctx.bounds
    n = rng.randint(1, b.rules)
    coms = rng.randint(0, min(2, n - 1)) if n > 1 else rng.randint(0, 1)
    rules = [_com_rule(rng, ctx) for _ in range(coms)] + [_player_rule(rng, ctx) for _ in range(n - coms)]
    return s.Stage(ctx.index, rng.choice(STAGE_NAMES), tuple(rules))


def _rule(rng, ctx):
    return _com_rule(rng, ctx) if rng.random() < 0.25 else _player_rule(rng, ctx)


def _com_rule(rng, ctx):
    return s.Rule("com", None, _command(rng, ctx))


def _player_rule(rng, ctx):
    kind = rng.choice(("optional", "optional", "once", "mandatory"))
    ante = _antecedent(rng, ctx)
    return s.Rule(kind, ante, _consequent(rng, replace(ctx, show=isinstance(ante, s.Show))))


def _ranking(rng, ctx):
    entries = []
    if rng.random() < 0.4:
        for play in rng.sample(PLAYS, rng.randint(1, 3)):
            entries.append(s.RankPlay(play, rng.randint(1, 9) * 100))
    if rng.random() < 0.5:
        for number in sorted(rng.sample(range(1, 14), rng.randint(1, 4))):
            two = not ctx.bounds.lowerable and rng.random() < 0.3
            values = (rng.randint(1, 11),) + ((rng.randint(12, 20),) if two else ())
            entries.append(s.RankCard(number, values))
    return tuple(entries)


def _winning(rng, ctx):
    if rng.random() < 0.2:
        return None
    return s.Winning(rng.randint(0, 3), rng.randint(0, 3))


def _players_axiom(rng, ctx):
    low = max(ctx.min_players, ctx.bounds.players[0])
    return s.Axiom("players", rng.randint(low, max(low, ctx.bounds.players[1])))


def _tables_axiom(rng, ctx):
    low = ctx.min_tables
    return s.Axiom("tables", rng.randint(low, max(low, ctx.bounds.tables[1])))


# ---------------------------------------------------------------- computer commands
def _command(rng, ctx):
    amount = rng.randint(1, ctx.bounds.cards)
    r = rng.random()
    if r < 0.4:
        return s.Deal(_players(rng, ctx), amount)
    if r < 0.6 and ctx.tables:
        return s.Deal(s.CardLoc("T", rng.randrange(ctx.tables)), amount)
    return s.Give(_players(rng, ctx), _give_amount(rng, ctx))


def _deal_target(rng, ctx):
    if ctx.tables and rng.random() < 0.4:
        return s.CardLoc("T", rng.randrange(ctx.tables))
    return _players(rng, ctx)


def _players(rng, ctx):
    if rng.random() < 0.6:
        return s.AllPlayers()
    k = rng.randint(1, ctx.players)
    return s.SomePlayers(tuple(sorted(rng.sample(range(ctx.players), k))))


def _amount(rng, ctx):
    return rng.randint(1, ctx.bounds.cards)


def _puin_amount(rng, ctx):
    return 1 if ctx.bounds.lowerable else rng.randint(1, ctx.bounds.cards)


def _give_amount(rng, ctx):
    return rng.randint(1, ctx.bounds.tokens)


# ---------------------------------------------------------------- antecedents (Table 1)
def _antecedent(rng, ctx):
    kinds = ["unconditional", "tokens", "sum", "have", "draw"]
    if ctx.playit:
        kinds = ["show"]
    else:
        kinds.append("show")
        if not ctx.bounds.lowerable:
            kinds.append("play")
    kind = rng.choice(kinds)
    if kind == "unconditional":
        return s.Unconditional()
    if kind == "draw":
        return s.Draw()
    if kind == "have":
        return s.Have(_combination(rng, ctx))
    if kind == "show":
        return s.Show(_show_rel(rng, ctx), _show_locs(rng, ctx))
    if kind == "play":
        return s.Play(_card_locs(rng, ctx), _rel(rng, ctx), _card_locs(rng, ctx))
    side, node = (_tok_operand, s.Tokens) if kind == "tokens" else (_sum_operand, s.SumCond)
    left = side(rng, ctx)
    return node(left, _rel(rng, ctx), side(rng, replace(ctx, other=left)))


def _tok_operand(rng, ctx):
    if not isinstance(ctx.other, s.Number) and rng.random() < 0.3:
        return s.Number(rng.randint(0, ctx.bounds.tokens))
    return _token_loc(rng, replace(ctx, other=ctx.other if is_others(ctx.other) else None))


def _sum_operand(rng, ctx):
    if not isinstance(ctx.other, s.Number) and rng.random() < 0.3:
        return s.Number(rng.randint(0, 30))
    return _card_locs(rng, ctx)


def _card_locs(rng, ctx):
    """A union of card locations; never HA when the other side of a comparison has it."""
    no_others = ctx.bounds.lowerable and is_others(ctx.other)
    parts = []
    for _ in range(rng.randint(1, ctx.bounds.union)):
        loc = _card_loc(rng, ctx, hands=("X",) if no_others else ("X", "A"))
        if loc not in parts:
            parts.append(loc)
    return s.CardLocs(tuple(parts))


def _card_loc(rng, ctx, hands=("X", "A"), deck=True, tables=True):
    options = [("H", w) for w in hands] + [("H", j) for j in range(ctx.players)]
    if deck:
        options.append(("D", None))
    if tables:
        options += [("T", k) for k in range(ctx.tables)]
    return s.CardLoc(*rng.choice(options))


def _show_locs(rng, ctx):
    # the deck or a table: the checker accepts a hand, but `playit` onto a hand lowers to a
    # move onto a union of two locations, which the simulator refuses to compile
    return s.CardLocs((s.CardLoc(*rng.choice([("D", None)] + [("T", k) for k in range(ctx.tables)])),))


def _pifr_loc(rng, ctx):
    return _card_loc(rng, ctx, hands=())


def _puin_loc(rng, ctx):
    # not a seat's hand: the checker accepts `puin H0`, but its lowering moves a card onto a
    # union of two locations, which the simulator refuses to compile
    return s.CardLoc(*rng.choice([("D", None)] + [("T", k) for k in range(ctx.tables)]))


def _token_loc(rng, ctx, owners=None):
    if owners is None:
        owners = ["X"] + list(range(ctx.players)) + ([] if is_others(ctx.other) and ctx.bounds.lowerable else ["A"])
    return s.TokenLoc(rng.choice(owners), rng.randint(0, 1))


def _gain_loc(rng, ctx):
    # `gain KX0` is the player's own stash: a warning, it does nothing
    loc = _token_loc(rng, ctx, owners=["X", "A"] + list(range(ctx.players)))
    return replace(loc, slot=1) if loc.owner == "X" else loc


def _combination(rng, ctx):
    kinds = ["empty", "card", "number", "suit"] + ([] if ctx.bounds.lowerable else ["play"])
    kind = rng.choice(kinds)
    if kind == "empty":
        return s.EmptyCombo()
    if kind == "card":
        return s.CardCombo(rng.randint(1, 13), rng.choice(SUITS))
    if kind == "number":
        return s.NumberCombo(rng.randint(1, 13))
    if kind == "suit":
        return s.SuitCombo(rng.choice(SUITS))
    return s.PlayCombo(rng.choice(PLAYS))


def _rel(rng, ctx):
    return rng.choice(RELS)


def _show_rel(rng, ctx):
    return rng.choice(SHOW_RELS)


def _put_rel(rng, ctx):
    return rng.choice((None,) + RELS)


def _face(rng, ctx):
    return rng.choice(("up", "down"))


# ---------------------------------------------------------------- consequents (Table 2a)
def _consequent(rng, ctx):
    kinds = ["pifr", "puin", "bet", "gain", "next", "done", "out", "win", "end"]
    if ctx.show:
        kinds += ["playit", "playit"]
    kind = rng.choice(kinds)
    if kind == "pifr":
        return s.Pifr(_pifr_loc(rng, ctx), _amount(rng, ctx), _face(rng, ctx))
    if kind == "puin":
        loc = _puin_loc(rng, ctx)
        # a table is always face up and the deck face down: the other face is a warning
        face = "up" if loc.kind == "T" else "down" if loc.kind == "D" else _face(rng, ctx)
        return s.Puin(loc, _puin_amount(rng, ctx), _put_rel(rng, ctx), face)
    if kind == "bet":
        if rng.random() < 0.4:
            return s.Bet(None, None)
        target = s.Number(rng.randint(1, ctx.bounds.tokens)) if rng.random() < 0.3 else _token_loc(rng, ctx)
        return s.Bet(_rel(rng, ctx), target)
    if kind == "gain":
        return s.Gain(_gain_loc(rng, ctx))
    if kind == "playit":
        return s.PlayIt()
    if kind in ("next", "done", "out"):
        return s.Status(kind)
    return s.Win() if kind == "win" else s.End()


# The non-terminals a mutation may re-derive on their own (`gcg_mutate.points`); a `puin`'s
# place (its face depends on it) and a bet's token location are re-derived with their
# consequent.
NONTERMINALS = {
    "players_axiom": _players_axiom, "tables_axiom": _tables_axiom, "stage": _stage, "rule": _rule, "command": _command, "ranking": _ranking, "winning": _winning,
    "deal_target": _deal_target, "players": _players, "amount": _amount, "puin_amount": _puin_amount,
    "give_amount": _give_amount, "antecedent": _antecedent, "tok_operand": _tok_operand,
    "sum_operand": _sum_operand, "card_locs": _card_locs, "show_locs": _show_locs, "pifr_loc": _pifr_loc,
    "gain_loc": _gain_loc, "combination": _combination, "rel": _rel,
    "show_rel": _show_rel, "put_rel": _put_rel, "face": _face, "consequent": _consequent,
}
