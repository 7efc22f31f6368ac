"""Random RECYCLE games, derived over the IR by category and type.

The categories are the IR's own: a location, a card collection, a card, an integer
expression, a condition, an action, a choice, a stage. Each derives a fresh, typed subtree
whose variables are bound where it stands (`Env`: the variables in scope by type, the
game's locations, storages, point maps and card attributes), so that RECYCLE's checker
(`recycle/check.py`) finds no error in the result. Only the v0.5.10 constructs that
`translators/recycle_text.py` prints are derived (no `mem`, no v0.3 forms).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace

from .. import ir

RANKS = ("ACE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "JACK", "QUEEN", "KING")
SUITS = ("CLUBS", "DIAMONDS", "HEARTS", "SPADES")
CATEGORIES = ("location", "cards", "card", "dest", "int", "bool", "action", "block", "choice", "stage")


@dataclass(frozen=True)
class IrBounds:
    """Size bounds of a derivation."""

    players: tuple = (2, 4)
    ranks: tuple = (3, 13)
    stages: int = 3
    depth: int = 3            # nesting of expressions and actions below a category's root
    items: int = 3            # actions in a `do`, options in a choice


@dataclass(frozen=True)
class Env:
    """What a derivation may name where it stands."""

    players: int
    bounds: IrBounds
    vars: tuple = ()                         # (name, type) in scope, innermost last
    locations: tuple = (("game", "iloc", "STOCK"), ("game", "vloc", "TABLE"), ("player", "iloc", "HAND"),
                        ("player", "vloc", "SHOWN"))
    storages: tuple = (("game", "ROUND"), ("player", "SCORE"))
    points: tuple = ("WORTH",)
    attrs: tuple = (("RANK", RANKS), ("SUIT", SUITS))
    depth: int = 0

    def of(self, t: str) -> list[str]:
        """The variables of type `t` in scope."""
        return [n for n, vt in self.vars if vt == t]

    def bind(self, t: str) -> tuple["Env", str]:
        """A fresh variable of type `t` and the environment with it."""
        taken = {n for n, _ in self.vars}
        name = next(c for c in ("C", "D", "E", "P", "Q", "R", "S", "V", "W", "X") + tuple(
            f"V{chr(65 + i)}" for i in range(26)) if c not in taken)
        return replace(self, vars=self.vars + ((name, t),)), name

    def deeper(self) -> "Env":
        return replace(self, depth=self.depth + 1)

    @property
    def leaf(self) -> bool:
        return self.depth >= self.bounds.depth


def random_game(rng: random.Random, bounds: IrBounds = IrBounds()) -> ir.Game:
    """A fresh game: a deck of RANK x SUIT in the game's STOCK, a point map WORTH, then
    stages of derived actions and choices; the score is each player's SCORE."""
    players = rng.randint(*bounds.players)
    ranks = RANKS[:rng.randint(*bounds.ranks)]
    env = Env(players, bounds, attrs=(("RANK", ranks), ("SUIT", SUITS)))
    deck = ir.Deck((ir.AttrNode(("RANK",), (ir.AttrNode(ranks, ()),)),
                    ir.AttrNode(("SUIT",), (ir.AttrNode(SUITS, ()),))))
    stock = ir.Location(ir.GameOwner(), "iloc", ir.Name("STOCK"))
    setup = ir.Setup(ir.IntLit(players), None, (ir.CreateDeck(None, stock, deck),))
    worth = ir.SetPoints(ir.PointsRef(ir.GameOwner(), ir.Name("WORTH")),
                         tuple(ir.Award(((ir.Name("RANK"), ir.Name(r)),), ir.IntLit(i + 1))
                               for i, r in enumerate(ranks)))
    hand = ir.CardAt("top", ir.Location(ir.Var("P"), "iloc", ir.Name("HAND")))
    deal = ir.ForAll(ir.AllOf("player"), "P",
                     ir.Repeat(ir.IntLit(rng.randint(1, 5)), ir.Move(ir.CardAt("top", stock), hand)))
    stages = tuple(stage(rng, env) for _ in range(rng.randint(1, bounds.stages)))
    body = (ir.Do((worth, ir.Shuffle(stock), deal)),) + stages
    score = ir.IntStorage(ir.PlayerRef("current"), ir.Name("SCORE"))
    return ir.Game((), setup, body, ir.Scoring("max", score))


def derive(category: str, rng: random.Random, env: Env):
    """A fresh derivation of `category` (one of CATEGORIES) in `env`."""
    return globals()[category if category in ("stage", "choice", "action", "block") else "_" + category](rng, env)


# ---------------------------------------------------------------- owners and names
def _player(rng, env):
    vs = env.of("player")
    r = rng.random()
    if vs and r < 0.3:
        return ir.Var(rng.choice(vs))
    if r < 0.8:
        return ir.PlayerRef(rng.choice(("current", "current", "next", "previous")))
    return ir.PlayerRef(ir.IntLit(rng.randrange(env.players)))


def _owner(rng, env, kind):
    return ir.GameOwner() if kind == "game" else _player(rng, env)


def _location(rng, env):
    kind, vis, name = rng.choice(env.locations)
    return ir.Location(_owner(rng, env, kind), vis, ir.Name(name))


def _storage(rng, env):
    kind, name = rng.choice(env.storages)
    return ir.IntStorage(_owner(rng, env, kind), ir.Name(name))


def _points_ref(rng, env):
    return ir.PointsRef(ir.GameOwner(), ir.Name(rng.choice(env.points)))


# ---------------------------------------------------------------- expressions
def _cards(rng, env):
    vs = env.of("cards")
    r = rng.random()
    if vs and r < 0.2:
        return ir.Var(rng.choice(vs))
    if env.leaf or r < 0.6:
        return _location(rng, env)
    e = env.deeper()
    if r < 0.75:
        inner, var = e.bind("card")
        return ir.Filter(_cards(rng, e), var, _bool(rng, inner))
    if r < 0.85:
        return ir.SetOp("union", (_location(rng, e), _location(rng, e)))
    if r < 0.95 or not env.points:
        return ir.Sequence(rng.choice(("top", "bottom")), _small(rng), _cards(rng, e))
    return ir.Sort(_cards(rng, e), _points_ref(rng, env))


def _card(rng, env):
    vs = env.of("card")
    if vs and rng.random() < 0.4:
        return ir.Var(rng.choice(vs))
    e = env.deeper()
    if env.points and rng.random() < 0.2:
        return ir.Extreme(rng.choice(("max", "min")), _cards(rng, e), _points_ref(rng, env))
    return ir.CardAt(rng.choice(("top", "bottom")), _cards(rng, e))


def _dest(rng, env):
    """Where a moved card goes: the simulator takes only (top|bottom|N LOCATION)."""
    return ir.CardAt(rng.choice(("top", "top", "bottom")), _location(rng, env))


def _small(rng):
    return ir.IntLit(rng.randint(1, 3))


def _int(rng, env):
    r = rng.random()
    if env.leaf or r < 0.3:
        return ir.IntLit(rng.randint(0, 10)) if rng.random() < 0.6 else _storage(rng, env)
    e = env.deeper()
    if r < 0.5:
        return ir.Size(_cards(rng, e))
    if r < 0.65:
        return _storage(rng, env)
    if r < 0.8:
        op = rng.choice(("+", "-", "*", "//", "%"))
        # a literal divisor: the checker refuses a literal 0, and nothing else can be 0 here
        right = ir.IntLit(rng.randint(1, 5)) if op in ("//", "%") else _int(rng, e)
        return ir.Arith(op, _int(rng, e), right)
    if env.points and r < 0.9:
        # a sum is 0 over no cards; a score of a card from an empty place is a game error
        return ir.Sum(_cards(rng, e), _points_ref(rng, env)) if rng.random() < 0.8 \
            else ir.Score(_card(rng, e), _points_ref(rng, env))
    lo = rng.randint(0, 5)
    return ir.Random(ir.IntLit(lo), ir.IntLit(lo + rng.randint(0, 5)))


def _bool(rng, env):
    r = rng.random()
    e = env.deeper()
    if env.leaf or r < 0.5:
        return ir.Compare(rng.choice(("==", "!=", "<", ">", "<=", ">=")), _int(rng, e), _int(rng, e))
    if r < (0.65 if env.of("card") else 0.55):   # a card in scope: its attributes are worth asking
        attr, values = rng.choice(env.attrs)
        att = ir.CardAtt(ir.Name(attr), _card(rng, e))
        return ir.Compare(rng.choice(("==", "!=")), att, ir.Name(rng.choice(values)))
    if r < 0.8:
        return ir.BoolOp(rng.choice(("and", "or")), (_bool(rng, e), _bool(rng, e)))
    if r < 0.87:
        return ir.Not(_bool(rng, e))
    inner, var = e.bind("player")
    return ir.Quantified(rng.choice(("all", "any")), ir.AllOf("player") if rng.random() < 0.5 else ir.Other("player"),
                         var, _bool(rng, inner))


# ---------------------------------------------------------------- actions
def action(rng, env):
    """One action (never a choice or stage: those stand only directly in a stage)."""
    r = rng.random()
    e = env.deeper()
    if env.leaf or r < 0.3:
        if rng.random() < 0.3:
            return ir.Move(_card(rng, e), _dest(rng, e))
        # mostly guarded: an unguarded move from an empty place ends the play in a game error
        src = _cards(rng, e)
        return ir.CondAct(ir.Compare(">", ir.Size(src), ir.IntLit(0)),
                          ir.Move(ir.CardAt(rng.choice(("top", "bottom")), src), _dest(rng, e)))
    if r < 0.45:
        return rng.choice((ir.SetInt, ir.Inc, ir.Dec))(_storage(rng, env), _int(rng, e))
    if r < 0.5:
        return ir.Shuffle(_location(rng, e))
    if r < 0.6:
        return ir.CondAct(_bool(rng, e), action(rng, e))
    if r < 0.67:
        return ir.Repeat(_small(rng), action(rng, e))
    if r < 0.75:
        inner, var = e.bind("player")
        return ir.ForAll(ir.AllOf("player"), var, action(rng, inner))
    if r < 0.85:
        return ir.Do(tuple(action(rng, e) for _ in range(rng.randint(1, env.bounds.items))))
    if r < 0.92:
        return ir.Cycle("next", rng.choice(("current", "next", "previous")))
    return ir.TurnPass()


def block(rng, env):
    """A `do` of actions: what stands directly in the game or a stage beside stages and choices."""
    return ir.Do(tuple(action(rng, env) for _ in range(rng.randint(1, env.bounds.items))))


def choice(rng, env):
    """A choice of derived options, some guarded, one perhaps per card of a location."""
    opts = []
    for _ in range(rng.randint(1, env.bounds.items)):
        r = rng.random()
        if r < 0.25:
            inner, var = env.bind("card")
            opts.append(ir.AnyOf(_location(rng, env), var, ir.Move(ir.Var(var), ir.CardAt("top", _location(rng, env)))))
        elif r < 0.5:
            opts.append(ir.CondAct(_bool(rng, env.deeper()), action(rng, env.deeper())))
        else:
            opts.append(action(rng, env))
    # passing is always enabled: a choice with no enabled option is a game error
    return ir.Choice(tuple(opts) + ((ir.TurnPass(),) if rng.random() < 0.8 else ()))


def stage(rng, env):
    """A player stage: until a derived condition, or the game's ROUND reaches a bound."""
    rounds = ir.Compare(">=", ir.IntStorage(ir.GameOwner(), ir.Name("ROUND")), ir.IntLit(rng.randint(1, 20)))
    end = ir.BoolOp("or", (rounds, _bool(rng, env.deeper())))
    tick = ir.Inc(ir.IntStorage(ir.GameOwner(), ir.Name("ROUND")), ir.IntLit(1))
    body = [ir.Do((tick,) + tuple(action(rng, env) for _ in range(rng.randint(0, 2))))]
    body.append(choice(rng, env))
    return ir.Stage("player", end, tuple(body))
