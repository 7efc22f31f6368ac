"""Ability cards as a mutation (issue #36): a card whose drawing changes one rule at run time.

The seed (a 2009 post on War with ability cards) hangs pre-, default and post-functions on
every step of play, and lets a drawn card add to them. Over the IR the same thing is a
rewrite of a game with a drawing choice (an option `(move (top SRC) DST)`, SRC a current
player's location or a table pile):

1. the card: one per player, with a fresh value of one of the game's card attributes (the
   others NONE), made in a side location and shuffled into each player's SRC (or into the
   table's SRC) before the drawing stage;
2. the hook, a post-function on the draw: a `do` right after the choice, taken when the card
   just drawn is the ability; the card goes under SRC and its drawer draws again (the seed's
   "draw another card": its DrawCardNode queued again), with the kind's own change;
3. the kind's one change of the flow (`KINDS`): nothing more (`again`), a point gained
   (`gain`), a post-function derived afresh (`post`), or one later rule R of the round made
   into `(do (((== F 0) R) ((!= F 0) R') (set F 0)))` where the hook sets the flag F: R' is R
   with its order comparisons reversed (`reverse`), one move sent to another location
   (`redirect`), or one subtree re-derived as `mutate` does (`rederive`): the seed's mask.

`plan` draws every random decision; `build` applies a plan, optionally with counters (how
often the hook fired, how often R' was taken) that `trial` reads off seeded plays.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace

from .. import ir
from .gcg_mutate import get, put
from .ir_derive import IrBounds, action
from .ir_mutate import game_env, mutate as mutate_subtree, points

KINDS = ("again", "gain", "post", "reverse", "redirect", "rederive")
FLAGGED = ("reverse", "redirect", "rederive")
_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}
CURRENT = ir.PlayerRef("current")
FIRED, TAKEN = "fired", "rule taken"   # the labels of `build(count=True)`'s counters


class NoAbility(ValueError):
    """The game offers no place for an ability of the kind asked for."""


@dataclass(frozen=True)
class Plan:
    """Every random decision of one ability, in the parent's paths."""

    kind: str
    value: str                 # the card's fresh attribute value, also the flag's storage key
    attr: str                  # the attribute it is a value of
    attrs: tuple               # all the game's card attributes, in deck order
    draw: tuple                # path of the drawing choice
    move: ir.Move              # the drawing move
    draw_node: ir.Node | None = None   # the parent's choice and rule (for their source lines)
    rule_node: ir.Node | None = None
    rule: tuple | None = None  # flagged kinds: path of the rule R
    changed: ir.Node | None = None   # R' (flagged kinds) or the added action (gain, post)
    side: str = "ABILITIES"    # the side location the cards are made in
    counters: tuple = ("FIRED", "TAKEN")   # fresh storage keys for `build(count=True)`
    note: str = ""             # what R' changes, readably

    def describe(self) -> str:
        """One paragraph saying what the card does, for the file's header comment."""
        from ..translators.recycle_text import stmt_text
        src = self.move.src.source.name.value
        head = (f"ability `{self.kind}`: a card {self.attr} {self.value} per player, shuffled into {src}; "
                f"drawn by the choice at {_dotted(self.draw, self.draw_node)}, it goes under {src} "
                f"and its drawer draws again")
        if self.kind == "gain":
            return head + f", after gaining a point: {stmt_text(self.changed)}"
        if self.kind == "post":
            return head + f", after this action: {stmt_text(self.changed)}"
        if self.kind in FLAGGED:
            return head + f"; the next time the rule at {_dotted(self.rule, self.rule_node)} runs, {self.note}"
        return head


def _dotted(path: tuple, node: ir.Node | None = None) -> str:
    where = ".".join(str(x) for x in path)
    return f"{where} (the parent's line {node.pos.line})" if node is not None and node.pos else where


def _text(n) -> str:
    from ..translators.recycle_text import stmt_text
    return f"`{stmt_text(n)}`"


# ---------------------------------------------------------------- where an ability can hook
def draw_points(game: ir.Game) -> list[tuple[tuple, ir.Move]]:
    """The drawing choices: (path, move) for each choice standing in a stage or `do` whose
    options include a move of the top or bottom card of a current player's location or of a
    table pile to the top or bottom of another named location."""
    out = []
    for path, n in _statements(game.body, ("body",)):
        if not isinstance(n, ir.Choice) or not isinstance(path[-1], int):
            continue   # the hook goes beside the choice: it must stand in a stage's or a do's items
        for opt in n.options:
            mv = opt.body if isinstance(opt, ir.CondAct) and opt.cond is not None else opt
            if _is_draw(mv):
                out.append((path, mv))
                break
    return out


def _is_draw(mv) -> bool:
    def named(loc):
        return isinstance(loc, ir.Location) and isinstance(loc.name, ir.Name) and loc.vis != "mem"
    return (isinstance(mv, ir.Move) and isinstance(mv.src, ir.CardAt) and mv.src.where in ("top", "bottom")
            and named(mv.src.source)
            and (mv.src.source.owner == CURRENT or isinstance(mv.src.source.owner, ir.GameOwner))
            and isinstance(mv.dst, ir.CardAt) and mv.dst.where in ("top", "bottom") and named(mv.dst.source)
            and isinstance(mv.dst.source.owner, (ir.GameOwner, ir.PlayerRef))
            and mv.dst.source != mv.src.source)


def _statements(items: tuple, path: tuple):
    """(path, node) of every statement, choice and stage under a body, depth first."""
    for i, n in enumerate(items):
        yield from _statement(n, path + (i,))


def _statement(n, p: tuple):
    yield p, n
    if isinstance(n, ir.Stage):
        yield from _statements(n.body, p + ("body",))
    elif isinstance(n, ir.Do):
        yield from _statements(n.items, p + ("items",))
    elif isinstance(n, (ir.CondAct, ir.ForAll, ir.Repeat, ir.Let)) and isinstance(n.body, ir.Node):
        yield from _statement(n.body, p + ("body",))


def later_rules(game: ir.Game, draw: tuple) -> list[tuple]:
    """Paths of the rules an ability drawn at `draw` may change: the other statements of the
    stages around the draw (and the `do`s and guarded statements inside them), which run
    after it within the same round or the next; never a choice, a stage, or memory."""
    out = []
    for k in range(len(draw) - 1, 1, -1):
        if not isinstance(draw[k], int) or draw[k - 1] not in ("body", "items"):
            continue
        holder = get(game, draw[:k - 1])
        if not isinstance(holder, (ir.Stage, ir.Do)):
            continue
        for i, n in enumerate(getattr(holder, draw[k - 1])):
            if i != draw[k]:
                out += _rules(n, draw[:k] + (i,))
    return out


def _rules(n, path: tuple) -> list[tuple]:
    if isinstance(n, (ir.Choice, ir.Stage, ir.AnyOf)) or any(
            isinstance(x, ir.Location) and x.vis == "mem" or isinstance(x, (ir.Remember, ir.Forget, ir.Choice))
            for x in n.walk()):
        return []
    out = [path]
    if isinstance(n, ir.Do):
        for i, x in enumerate(n.items):
            out += _rules(x, path + ("items", i))
    elif isinstance(n, ir.CondAct) and isinstance(n.body, (ir.Do, ir.CondAct)):
        out += _rules(n.body, path + ("body",))
    return out


# ---------------------------------------------------------------- the kinds' changes
def _reversed(rule):
    """R with every order comparison turned round; None when it has none. All of them,
    not one: the branches of a comparison (higher wins, lower wins) must stay exclusive."""
    def flip(v):
        if isinstance(v, tuple):
            return tuple(flip(x) for x in v)
        if not isinstance(v, ir.Node):
            return v
        kw = {f: flip(getattr(v, f)) for f in v.__dataclass_fields__ if f != "pos"}
        if isinstance(v, ir.Compare) and v.op in _FLIP:
            kw["op"] = _FLIP[v.op]
        return replace(v, **kw)
    out = flip(rule)
    ops = sorted({n.op for n in rule.walk() if isinstance(n, ir.Compare) and n.op in _FLIP})
    return (out, "it runs with its order comparisons reversed (" + ", ".join(f"{o} as {_FLIP[o]}" for o in ops)
            + ")") if out != rule else None


def _redirected(rule, game: ir.Game, rng: random.Random):
    """R with one move's destination another location the game uses; None when R moves nothing."""
    moves = [p for p, n in _paths(rule, ()) if isinstance(n, ir.Move) and isinstance(n.dst, ir.CardAt)
             and isinstance(n.dst.source, ir.Location) and n.dst.where in ("top", "bottom")]
    if not moves:
        return None
    path = rng.choice(moves)
    mv = get(rule, path)
    old = mv.dst.source
    locs = [loc for loc in game_env(game).locations if loc[1:] != (old.vis, getattr(old.name, "value", None))]
    if not locs:
        return None
    kind, vis, name = rng.choice(locs)
    owner = ir.GameOwner() if kind == "game" else old.owner if not isinstance(old.owner, ir.GameOwner) else CURRENT
    new = ir.CardAt(rng.choice(("top", "bottom")), ir.Location(owner, vis, ir.Name(name)))
    return put(rule, path, replace(mv, dst=new)), f"its move {_text(mv)} goes to {_text(new)} instead"


def _paths(n, path):
    yield path, n
    for f in n.__dataclass_fields__:
        if f == "pos":
            continue
        v = getattr(n, f)
        if isinstance(v, ir.Node):
            yield from _paths(v, path + (f,))
        elif isinstance(v, tuple):
            for i, x in enumerate(v):
                if isinstance(x, ir.Node):
                    yield from _paths(x, path + (f, i))


def _rederived(game: ir.Game, rule: tuple, rng: random.Random):
    """R with one of its mutation points re-derived, as `mutate` does."""
    pts = [p for p in points(game) if p[0][:len(rule)] == rule]
    if not pts:
        return None
    child, where, _ = mutate_subtree(game, rng, pts=pts)
    new = get(child, rule)
    return (new, f"its part {_text(get(game, where))} is {_text(get(child, where))} instead") \
        if new != get(game, rule) else None


def _gain(game: ir.Game):
    """A point for the drawer: one more of the integer the scoring reads, or the top card of
    the next player's scored location taken under the drawer's (never their last)."""
    for n in game.scoring.value.walk():
        if isinstance(n, ir.IntStorage) and n.owner == CURRENT and isinstance(n.key, ir.Name):
            return ir.Inc(n, ir.IntLit(1))
    for n in game.scoring.value.walk():
        if isinstance(n, ir.Location) and n.owner == CURRENT and isinstance(n.name, ir.Name) and n.vis != "mem":
            theirs = replace(n, owner=ir.PlayerRef("next"))
            return ir.CondAct(ir.Compare(">", ir.Size(theirs), ir.IntLit(1)),
                              ir.Move(ir.CardAt("top", theirs), ir.CardAt("bottom", n)))
    return None


# ---------------------------------------------------------------- plan and build
def _names(game: ir.Game) -> set:
    out = set()
    for n in game.walk():
        if isinstance(n, ir.Name):
            out.add(n.value)
        elif isinstance(n, ir.AttrNode):
            out.update(x for x in n.names if isinstance(x, str))
    return out


def _fresh(base: str, taken: set) -> str:
    name, k = base, 1
    while name in taken:
        k += 1
        name = f"{base}{k}"
    taken.add(name)
    return name


def plan(game: ir.Game, rng: random.Random, kind: str | None = None, bounds: IrBounds = IrBounds()) -> Plan:
    """The random decisions of one ability added to `game` (a kind drawn uniformly among those
    the game offers when `kind` is None). NoAbility when the game has no drawing choice, or
    no place for the kind asked for."""
    draws = draw_points(game)
    if not draws:
        raise NoAbility("the game has no drawing choice (a move of the top card of a current player's pile "
                        "or a table pile to a named location) for an ability card to hook onto")
    attrs = tuple(name for name, _ in game_env(game, bounds).attrs)
    if not any(isinstance(d, (ir.CreateDeck, ir.Repeat)) for d in game.setup.decks):
        raise NoAbility("the game makes no deck in its setup for an ability card to join")
    kinds = [kind] if kind else list(KINDS)
    if kind is not None and kind not in KINDS:
        raise NoAbility(f"unknown ability kind {kind!r}; known: {', '.join(KINDS)}")
    rng.shuffle(kinds)
    taken = _names(game)
    draw, move = rng.choice(draws)
    for k in kinds:
        changed, rule, note = None, None, ""
        if k == "gain":
            changed = _gain(game)
        elif k == "post":
            env = game_env(game, bounds)
            changed = action(rng, replace(env, depth=0))
        elif k in FLAGGED:
            rules = later_rules(game, draw)
            rng.shuffle(rules)
            for rule in rules:
                r = get(game, rule)
                made = (_reversed(r) if k == "reverse" else _redirected(r, game, rng) if k == "redirect"
                        else _rederived(game, rule, rng))
                if made is not None:
                    changed, note = made
                    break
        if changed is None and k != "again":
            continue
        return Plan(k, _fresh(k.upper(), taken), rng.choice(attrs), attrs, draw, move, rule=rule, changed=changed,
                    side=_fresh("ABILITIES", taken), counters=(_fresh("FIRED", taken), _fresh("TAKEN", taken)),
                    note=note, draw_node=get(game, draw), rule_node=get(game, rule) if rule else None)
    raise NoAbility(f"no place in this game for an ability of kind {kind!r}")


def build(game: ir.Game, p: Plan, count: bool = False) -> ir.Game:
    """The game with the planned ability. `count` adds two game counters (`counters` of the
    plan, labelled FIRED and TAKEN by `tallies`): the hook fired, the changed rule taken."""
    def sto(key):
        return ir.IntStorage(ir.GameOwner(), ir.Name(key))

    def tick(key):
        return (ir.Inc(sto(key), ir.IntLit(1)),) if count else ()

    flag = sto(p.value)
    if p.kind in FLAGGED:
        rule = get(game, p.rule)
        game = put(game, p.rule, ir.Do((
            ir.CondAct(ir.Compare("==", flag, ir.IntLit(0)), rule),
            ir.CondAct(ir.Compare("!=", flag, ir.IntLit(0)), ir.Do((p.changed, *tick(p.counters[1])))),
            ir.SetInt(flag, ir.IntLit(0)))))
    src, dst = p.move.src.source, p.move.dst
    drawn = ir.CardAt(dst.where, dst.source)
    effect = (ir.SetInt(flag, ir.IntLit(1)),) if p.kind in FLAGGED else (p.changed,) if p.changed else ()
    hook = ir.Do((ir.CondAct(ir.Compare("==", ir.CardAtt(ir.Name(p.attr), drawn), ir.Name(p.value)), ir.Do((
        *tick(p.counters[0]),
        ir.Move(drawn, ir.CardAt("bottom", src)),
        *effect,
        ir.CondAct(ir.Compare(">", ir.Size(src), ir.IntLit(0)), p.move)))),))
    holder_path, i = p.draw[:-1], p.draw[-1]
    items = get(game, holder_path)
    game = put(game, holder_path, items[:i + 1] + (hook,) + items[i + 1:])
    # step 0 of the seed's War: each player's side deck is shuffled into their own pile
    side = ir.Location(ir.GameOwner(), "iloc", ir.Name(p.side))
    if isinstance(src.owner, ir.GameOwner):   # a shared pile: every player's card goes into it
        deal = ir.Do((ir.RepeatAll(ir.Move(ir.CardAt("top", side), ir.CardAt("top", src))), ir.Shuffle(src)))
    else:
        mine = replace(src, owner=ir.Var("P"))
        deal = ir.ForAll(ir.AllOf("player"), "P", ir.Do((
            ir.Move(ir.CardAt("top", side), ir.CardAt("top", mine)), ir.Shuffle(mine))))
    top = p.draw[1]
    game = replace(game, body=game.body[:top] + (ir.Do((deal,)),) + game.body[top:])
    card = ir.Deck(tuple(ir.AttrNode((a,), (ir.AttrNode((p.value if a == p.attr else "NONE",), ()),))
                         for a in p.attrs))
    make = ir.Repeat(game.setup.players, ir.CreateDeck(None, side, card))
    return replace(game, setup=replace(game.setup, decks=game.setup.decks + (make,)))


def tallies(p: Plan) -> dict:
    """The counters of `build(..., count=True)` as `Program.count` takes them."""
    return {FIRED: ir.IntStorage(ir.GameOwner(), ir.Name(p.counters[0])),
            TAKEN: ir.IntStorage(ir.GameOwner(), ir.Name(p.counters[1]))}


def add_ability(game: ir.Game, rng: random.Random, kind: str | None = None):
    """One ability added to `game`: (mutant, plan)."""
    p = plan(game, rng, kind)
    return build(game, p), p


@dataclass
class Trial:
    """Seeded plays of a built ability with its counters: how often it fired and its changed
    rule was taken, and the first play that ended in a game error (seed, message)."""

    plays: int = 0
    fired: int = 0
    taken: int = 0
    error: tuple | None = None


def trial(game: ir.Game, p: Plan, plays: int = 4, seed: int = 0, max_steps: int = 20_000) -> Trial:
    """Play `build(game, p, count=True)` `plays` times (random players, seeds seed..) and
    count the ability's effect; a game error stops the trial and is returned in it."""
    from ..recycle import parse_text
    from ..sim import compile_loaded, fast_path, play, play_fast
    from ..sim.playout import ERROR
    from ..sim.players import make_players
    from ..translators.recycle_text import to_text
    text, _ = to_text(build(game, p, count=True))
    prog = compile_loaded(parse_text(text, "ability.rcy"))
    prog.count(tallies(p))
    fast, out = fast_path(prog), Trial()
    for s in range(seed, seed + plays):
        seats = make_players("random", prog.lay.n, s)
        r = play_fast(prog, fast, s, seats, max_steps) if fast is not None else None
        r = r if r is not None else play(prog, s, seats, max_steps)
        out.plays += 1
        if r.status == ERROR:
            out.error = (s, r.error)
            return out
        out.fired += r.tallies.get(FIRED, 0)
        out.taken += r.tallies.get(TAKEN, 0)
    return out
