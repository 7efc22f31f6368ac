"""Mutation and crossover of RECYCLE games, on the IR.

A mutation point is a subtree of one of `ir_derive.CATEGORIES` with the environment it
stands in: the variables in scope with their types (found by RECYCLE's own checker), and
the game's locations, storages, point maps and card attributes, so that a fresh derivation
names only what the game has. Setup, declarations, point maps and the targets of `set`/
`inc`/`dec` are not points (their form is fixed by where they stand); neither is anything
under a `remember`/`forget` or naming a `mem` location. Crossover swaps two points of the
same category and type whose free variables are bound, with those types, where they land.
"""
from __future__ import annotations

import random
from dataclasses import fields, replace

from .. import ir
from ..recycle.check import analyse, element, player_count
from .gcg_mutate import get, put, redraw
from .ir_derive import RANKS, SUITS, Env, IrBounds, derive

_STATEMENTS = (ir.Move, ir.Shuffle, ir.SetInt, ir.Inc, ir.Dec, ir.CondAct, ir.Repeat, ir.ForAll, ir.Do,
               ir.Cycle, ir.TurnPass, ir.Let, ir.RepeatAll)
_BINDERS = (ir.ForAll, ir.AnyOf, ir.Filter, ir.Quantified, ir.AggCards, ir.IntSum)
_TYPED = frozenset({"int", "bool", "card", "cards"})   # the types an expression point may have


def game_env(game: ir.Game, bounds: IrBounds = IrBounds()) -> Env:
    """What derivations in `game` may name: its own locations, storages, point maps and
    card attributes (the generator's defaults where the game has none)."""
    locs, stos, points, attrs = set(), set(), set(), {}
    for n in game.walk():
        if isinstance(n, ir.Location) and n.vis != "mem" and isinstance(n.name, ir.Name) \
                and isinstance(n.owner, (ir.GameOwner, ir.PlayerRef)):
            locs.add(("game" if isinstance(n.owner, ir.GameOwner) else "player", n.vis, n.name.value))
        elif isinstance(n, ir.IntStorage) and isinstance(n.key, ir.Name) \
                and isinstance(n.owner, (ir.GameOwner, ir.PlayerRef)):
            stos.add(("game" if isinstance(n.owner, ir.GameOwner) else "player", n.key.value))
        elif isinstance(n, ir.SetPoints) and isinstance(n.target.name, ir.Name):
            points.add(n.target.name.value)
        elif isinstance(n, ir.Deck):
            for a in n.attrs:
                _attrs(a, attrs)
    env = Env(player_count(game) or 1, bounds, points=tuple(sorted(points)))
    return replace(env, locations=tuple(sorted(locs)) or env.locations, storages=tuple(sorted(stos)) or env.storages,
                   attrs=tuple((k, tuple(v)) for k, v in sorted(attrs.items())) or (("RANK", RANKS), ("SUIT", SUITS)))


def _attrs(a: ir.AttrNode, out: dict) -> None:
    # an attribute node's names are either attribute names (with subs) or values (leaves)
    for sub in a.subs:
        for name in a.names:
            out.setdefault(name, [])
            out[name] += [v for v in sub.names if v not in out[name]]
        for subsub in sub.subs:
            _attrs(subsub, out)


def points(game: ir.Game, bounds: IrBounds = IrBounds()):
    """Every mutation point: (path, category, env)."""
    checker = analyse(game)
    env = game_env(game, bounds)
    for d in game.declares:
        env = replace(env, vars=env.vars + ((d.var, checker.expr(d.value, {})),))
    for i, s in enumerate(game.body):
        yield from _walk(s, ("body", i), env, checker, stmt="block")
    yield from _walk(game.scoring.value, ("scoring", "value"), env, checker, stmt=False)


def _category(n, stmt, checker, env: Env):
    if isinstance(n, ir.Location) and not isinstance(n.name, ir.Name):
        return None   # a computed name: a fresh one could not stand for it
    if stmt == "block":   # the game's and a stage's own items: a stage, a choice or a block
        return "stage" if isinstance(n, ir.Stage) else "choice" if isinstance(n, ir.Choice) else "block"
    if stmt:
        return "action" if isinstance(n, _STATEMENTS) else None
    if isinstance(n, ir.Location):
        return "location" if n.vis != "mem" else None
    if isinstance(n, ir.Var):
        return None
    t = checker.expr(n, dict(env.vars))
    return t if t in _TYPED else None


def _walk(n, path, env: Env, checker, stmt: bool):
    if isinstance(n, (ir.Remember, ir.Forget, ir.SetPoints, ir.CreateDeck, ir.CreateTeams, ir.AnyOf)):
        return   # fixed forms; an `any` is rebuilt with its whole choice
    if any(isinstance(x, ir.Location) and x.vis == "mem" for x in n.walk()):
        return
    cat = "dest" if stmt == "dest" else _category(n, stmt, checker, env)
    if cat is not None:
        yield path, cat, env
    inner = env
    if isinstance(n, _BINDERS):
        t = checker.expr(n.coll, dict(env.vars))
        inner = replace(env, vars=env.vars + ((n.var, element(t)),))
    elif isinstance(n, ir.Let):
        inner = replace(env, vars=env.vars + ((n.var, checker.expr(n.value, dict(env.vars))),))
    for f in fields(n):
        if f.name == "pos" or _fixed(n, f.name):
            continue
        v = getattr(n, f.name)
        sub_env = inner if f.name in ("cond", "body") else env
        sub_stmt = "block" if isinstance(n, ir.Stage) and f.name == "body" else f.name in ("body", "items", "options")
        if isinstance(n, (ir.Filter, ir.Quantified)) and f.name == "cond":
            sub_stmt = False
        if isinstance(n, ir.Move) and f.name == "dst":
            sub_stmt = "dest"   # the simulator takes only (top|bottom|N LOCATION) here
        if isinstance(v, ir.Node):
            yield from _walk(v, path + (f.name,), sub_env, checker, sub_stmt)
        elif isinstance(v, tuple):
            for i, x in enumerate(v):
                if isinstance(x, ir.Node):
                    yield from _walk(x, path + (f.name, i), sub_env, checker, sub_stmt)


def _fixed(n, name: str) -> bool:
    """Fields whose value an arbitrary expression of their type could make an error: a
    storage set, a seat index, a random range's bounds, a divisor."""
    return (isinstance(n, (ir.SetInt, ir.Inc, ir.Dec)) and name == "target"
            or isinstance(n, (ir.PlayerRef, ir.TeamRef, ir.Random))
            or isinstance(n, ir.Arith) and n.op in ("//", "%") and name == "right"
            or isinstance(n, ir.RepeatAll))   # its body must stay a move or forget


def mutate(game: ir.Game, rng: random.Random, bounds: IrBounds = IrBounds(), pts: list | None = None):
    """One mutant: a point drawn uniformly (from `pts`, the game's `points`, when given),
    replaced by a fresh derivation of its category in its environment. Returns (mutant,
    path, category)."""
    path, cat, env = rng.choice(pts if pts is not None else list(points(game, bounds)))
    return put(game, path, redraw(get(game, path), lambda: derive(cat, rng, replace(env, depth=0)))), path, cat


def _free(n, bound=frozenset()) -> set:
    """The variables a subtree uses that it does not bind."""
    out = set()
    if isinstance(n, ir.Var):
        return {n.name} - bound
    inner = bound | {n.var} if isinstance(n, (*_BINDERS, ir.Let)) else bound
    for f in fields(n):
        if f.name == "pos":
            continue
        v = getattr(n, f.name)
        own = inner if f.name in ("cond", "body") else bound
        for x in (v if isinstance(v, tuple) else (v,)):
            if isinstance(x, ir.Node):
                out |= _free(x, own)
    return out


def _fits(value, env_from: Env, env_to: Env) -> bool:
    have_from, have_to = dict(env_from.vars), dict(env_to.vars)
    return all(v in have_to and have_to[v] == have_from.get(v) for v in _free(value))


def crossover(a: ir.Game, b: ir.Game, rng: random.Random, bounds: IrBounds = IrBounds(),
              pts_a: list | None = None, pts_b: list | None = None):
    """Two offspring exchanging one subtree of the same category (and type); None when no
    pair fits. A seat index or name that exists in one game only may move with it: the
    checker still passes (locations and storages are made by use), the play may differ."""
    pa = list(pts_a if pts_a is not None else points(a, bounds))
    pb = pts_b if pts_b is not None else list(points(b, bounds))
    rng.shuffle(pa)
    na, nb = player_count(a), player_count(b)
    for path_a, cat, env_a in pa:
        va = get(a, path_a)
        if not _seats_fit(va, nb):
            continue
        fits = [(path_b, env_b) for path_b, cat_b, env_b in pb if cat_b == cat
                and _fits(va, env_a, env_b) and _fits(get(b, path_b), env_b, env_a)
                and _seats_fit(get(b, path_b), na) and get(b, path_b) != va]
        if fits:
            path_b, env_b = rng.choice(fits)
            return put(a, path_a, get(b, path_b)), put(b, path_b, va), cat
    return None


def _seats_fit(n, players) -> bool:
    if players is None:
        return True
    return all(not isinstance(x, ir.PlayerRef) or not isinstance(x.which, ir.IntLit) or x.which.value < players
               for x in n.walk())
