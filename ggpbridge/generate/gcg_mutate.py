"""Mutation and crossover of G_cardgame games, on the syntax tree.

A mutation point is a subtree together with the non-terminal it derives from and the
context it stands in (`points`). A mutation replaces one point by a fresh derivation of
the same non-terminal in the same context; a crossover swaps two points of the same
non-terminal and compatible context between two games. An axiom (`players`, `tables`) is
re-derived no lower than the seats and tables the rest of the game names. Both operations
keep a game that `check` accepts one that it accepts, by the same construction as
`gcg_derive`.
"""
from __future__ import annotations

import random
from dataclasses import replace

from ..gcardgame import syntax as s
from .gcg_derive import Bounds, Ctx, context, derive, is_others


def points(game: s.Game, bounds: Bounds = Bounds()):
    """Every mutation point of the game: (path, non-terminal, context); a path is a tuple of
    field names and tuple indices from the root."""
    ctx = context(game, bounds)
    seats, tables = _refs((game.stages, game.ranking))
    for i, a in enumerate(game.axioms):
        yield ("axioms", i), f"{a.name}_axiom", replace(ctx, min_players=seats, min_tables=tables)
    yield ("ranking",), "ranking", ctx
    yield ("winning",), "winning", ctx
    for i, stage in enumerate(game.stages):
        yield from _node(stage, ("stages", i), "stage", replace(ctx, index=i))


def _node(n, path, nt, ctx):
    yield path, nt, ctx
    sub = []
    if isinstance(n, s.Stage):
        sub = [(("rules", i), "rule", ctx) for i in range(len(n.rules))]
    elif isinstance(n, s.Rule):
        if n.kind == "com":
            sub = [("consequent", "command", ctx)]
        else:
            sub = [("antecedent", "antecedent", replace(ctx, playit=isinstance(n.consequent, s.PlayIt))),
                   ("consequent", "consequent", replace(ctx, show=isinstance(n.antecedent, s.Show)))]
    elif isinstance(n, (s.Tokens, s.SumCond)):
        side = "tok_operand" if isinstance(n, s.Tokens) else "sum_operand"
        sub = [("left", side, replace(ctx, other=n.right)), ("op", "rel", ctx),
               ("right", side, replace(ctx, other=n.left))]
    elif isinstance(n, s.Play):
        # as for tokens and sums: a re-derived side must not bring HA where the other has it
        sub = [("left", "card_locs", replace(ctx, other=n.right)), ("op", "rel", ctx),
               ("right", "card_locs", replace(ctx, other=n.left))]
    elif isinstance(n, s.Have):
        sub = [("combination", "combination", ctx)]
    elif isinstance(n, s.Show):
        sub = [("rel", "show_rel", ctx), ("loc", "show_locs", ctx)]
    elif isinstance(n, s.Pifr):
        sub = [("loc", "pifr_loc", ctx), ("amount", "amount", ctx), ("face", "face", ctx)]
    elif isinstance(n, s.Puin):
        sub = [("amount", "puin_amount", ctx), ("rel", "put_rel", ctx)]
    elif isinstance(n, s.Gain):
        sub = [("loc", "gain_loc", ctx)]
    elif isinstance(n, s.Deal):
        sub = [("target", "deal_target", ctx), ("amount", "amount", ctx)]
    elif isinstance(n, s.Give):
        sub = [("players", "players", ctx), ("amount", "give_amount", ctx)]
    for step, sub_nt, sub_ctx in sub:
        key = step if isinstance(step, tuple) else (step,)
        yield from _node(get(n, key), path + key, sub_nt, sub_ctx)


def get(n, path: tuple):
    """The subtree of `n` at `path`."""
    for step in path:
        n = n[step] if isinstance(step, int) else getattr(n, step)
    return n


def put(n, path: tuple, value):
    """A copy of `n` with the subtree at `path` replaced by `value`."""
    if not path:
        return value
    step, rest = path[0], path[1:]
    if isinstance(step, int):
        items = list(n)
        items[step] = put(items[step], rest, value)
        return tuple(items)
    return replace(n, **{step: put(getattr(n, step), rest, value)})


def mutate(game: s.Game, rng: random.Random, bounds: Bounds = Bounds(),
           pts: list | None = None) -> tuple[s.Game, tuple, str]:
    """One mutant: a point drawn uniformly (from `pts`, the game's `points`, when given),
    replaced by a fresh derivation that differs from it when the non-terminal has another
    derivation (a few tries). Returns (mutant, path, nt)."""
    path, nt, ctx = rng.choice(pts if pts is not None else list(points(game, bounds)))
    return put(game, path, redraw(get(game, path), lambda: derive(nt, rng, ctx))), path, nt


def redraw(old, fresh, tries: int = 8):
    """`fresh()`, drawn again (up to `tries` draws in all) while it equals `old`."""
    for _ in range(tries):
        new = fresh()
        if new != old:
            break
    return new


def _refs(n) -> tuple[int, int]:
    """One more than the highest seat and table index a subtree names (0 when none)."""
    seat = table = 0
    stack = [n]
    while stack:
        x = stack.pop()
        if isinstance(x, tuple):
            stack.extend(x)
        elif isinstance(x, s.CardLoc):
            if x.kind == "H" and isinstance(x.which, int):
                seat = max(seat, x.which + 1)
            elif x.kind == "T":
                table = max(table, x.which + 1)
        elif isinstance(x, s.TokenLoc) and isinstance(x.owner, int):
            seat = max(seat, x.owner + 1)
        elif isinstance(x, s.SomePlayers):
            seat = max(seat, max(x.seats) + 1)
        elif isinstance(x, s.Node):
            stack.extend(getattr(x, f) for f in x.__slots__ if f != "pos")
    return seat, table


def _fits(value, ctx: Ctx) -> bool:
    seat, table = _refs(value)
    return seat <= ctx.players and table <= ctx.tables


def _fits_slot(value, nt: str, ctx: Ctx) -> bool:
    """Beyond the key: the value's own content must be allowed in the slot."""
    if not _fits(value, ctx):
        return False
    if nt.endswith("_axiom"):
        return value.value >= (ctx.min_players if nt == "players_axiom" else ctx.min_tables)
    if nt == "antecedent" and ctx.playit:
        return isinstance(value, s.Show)
    if nt == "consequent" and not ctx.show:
        return not isinstance(value, s.PlayIt)
    if nt in ("tok_operand", "sum_operand"):
        if isinstance(ctx.other, s.Number) and isinstance(value, s.Number):
            return False
        return not (ctx.bounds.lowerable and is_others(ctx.other) and is_others(value))
    if nt == "card_locs" and ctx.other is not None:   # a side of `play`
        return not (ctx.bounds.lowerable and is_others(ctx.other) and is_others(value))
    return True


def crossover(a: s.Game, b: s.Game, rng: random.Random, bounds: Bounds = Bounds(),
              pts_a: list | None = None, pts_b: list | None = None):
    """Two offspring: `a` with one subtree taken from `b`, and `b` with the subtree of `a` it
    replaced (same non-terminal; each fits where it lands). None when no pair of points fits."""
    pa = list(pts_a if pts_a is not None else points(a, bounds))
    pb = pts_b if pts_b is not None else list(points(b, bounds))
    rng.shuffle(pa)
    for path_a, nt, ctx_a in pa:
        va = get(a, path_a)
        fits = [(path_b, ctx_b) for path_b, nt_b, ctx_b in pb if nt_b == nt
                and _fits_slot(get(b, path_b), nt, ctx_a) and _fits_slot(va, nt, ctx_b)
                and get(b, path_b) != va]
        if fits:
            path_b, ctx_b = rng.choice(fits)
            vb = get(b, path_b)
            if nt == "stage":   # stages are numbered by their place in the game
                va, vb = replace(va, index=ctx_b.index), replace(vb, index=ctx_a.index)
            return put(a, path_a, vb), put(b, path_b, va), nt
    return None
