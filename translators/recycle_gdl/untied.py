"""A max/min that can never meet a tie: a plain value, without the coin steps of scans.py.

The simulator scans bottom to top and flips a coin whenever a card scores exactly the best so
far (CardStock's tie-break). scans.py reproduces those coins with steps of their own, which it
can only place where the simulator evaluates the max once. Pitch scores the highest and lowest
trump won, inside a filter's condition, in operands of `or` that the simulator may skip:

    (let (filter (union (all player 'MP ('MP vloc TRICKSWON))) 'UC (== (cardatt SUIT 'UC) (game str TRUMP)))
         'ONLYTRUMP ... (== (cardatt RANK 'C) (cardatt RANK (max 'ONLYTRUMP using (game points PRECEDENCE)))))

Every card of ONLYTRUMP has the same suit, and every map the game ever stores as PRECEDENCE
gives cards of one suit distinct scores (suit awards are the same for all of them, rank
awards differ), so no scan of it ever ties and no coin is ever drawn, however often it runs.
Such a max is then the one card of the collection that no other card beats (`v_Extreme`).

The proof (`never_ties`): the collection is a filter whose condition requires
`(== (cardatt A 'v) E)`, E not reading the element; the points map is named by a constant and
every `set` of that name in the game awards constants, except awards whose only run-time values
are values of A (the same for every card of the collection, whether they match or not: each such
value is tried both ways). Then, for every value of A and every way those awards may match, the
deck's cards of that value must score pairwise differently (and a max above -1, CardStock's start).
A map never set when the scan runs scores every card 0, and two cards tie: the map must be set
before the read on every path, or before any card can reach the scanned locations (setfirst.py;
Pitch sets PRECEDENCE in each trick before the trick's cards are won). Otherwise the max/min is
refused as it was before this module (`unsupported` at it)."""
from __future__ import annotations

from itertools import product

from ggpbridge import ir

from .effects import conjuncts
from .exprs import Binding, unsupported, _what
from .nodes import scan_parts
from .setfirst import filled_after_set, set_before
from .terms import f, neg

_MAX_UNKNOWN = 4   # run-time award values tried both ways: 2^4 score tables per attribute value


def resolve(coll, env):
    """The collection a variable bound by a `let` alias stands for, with its env."""
    while isinstance(coll, ir.Var):
        b = env.get(coll.name)
        if b is None or b.kind != "alias":
            return None, None
        coll, env = b.term
    return coll, env


def group_attribute(coll):
    """The attribute A that a filter (of filters) requires to equal one value for all its cards, else None."""
    while isinstance(coll, ir.Filter):
        for c in conjuncts(coll.cond):
            if not (isinstance(c, ir.Compare) and c.op == "=="):
                continue
            for att, other in ((c.left, c.right), (c.right, c.left)):
                if (isinstance(att, ir.CardAtt) and isinstance(att.attr, ir.Name) and att.card == ir.Var(coll.var)
                        and ir.Var(coll.var) not in set(other.walk())
                        and not any(isinstance(x, (ir.Random, ir.Extreme)) for x in other.walk())):
                    return att.attr.value
        coll = coll.coll
    return None


def never_ties(x: ir.Extreme, coll, game: ir.Game, cards: list) -> bool:
    """Whether no scan of x (over `coll`, x's source resolved) can meet two equal scores (module doc)."""
    attr = group_attribute(coll)
    maps = stored_maps(x, game)
    if attr is None or maps is None or not each_card_once(coll):
        return False
    return bool(maps) and all(_distinct_per_group(a, attr, cards, x.kind == "max") for a in maps)


def stored_maps(x: ir.Extreme, game: ir.Game) -> list | None:
    """The awards of every `set` of the points map x reads, or None when the map is named at run
    time, or some `set` names one at run time (it might be this one)."""
    name = x.points.name
    if not isinstance(name, ir.Name):
        return None
    sets = [s for s in game.walk() if isinstance(s, ir.SetPoints)]
    if any(not isinstance(s.target.name, ir.Name) for s in sets):
        return None
    return [s.awards for s in sets if s.target.name.value == name.value]


def each_card_once(coll) -> bool:
    """Whether the collection under `coll`'s filters can hold no card twice: one location, or one
    per player owned by that player. A union naming a location twice holds its cards twice, and
    equal scores flip coins however distinct the deck's scores are."""
    while isinstance(coll, ir.Filter):
        coll = coll.coll
    parts = scan_parts(coll)
    if parts is None or len(parts) != 1:
        return False
    kind, part = parts[0]
    return kind == "loc" or (part.coll.kind == "player" and part.body.owner == ir.Var(part.var))


def _distinct_per_group(awards, attr: str, cards: list, want_max: bool) -> bool:
    fixed, unknown = [], []   # (conds, points); unknown: (conds on other attributes, points, the A value's expr)
    for a in awards:
        if not isinstance(a.value, ir.IntLit) or not all(isinstance(k, ir.Name) for k, _ in a.conds):
            return False
        runtime = [(k, v) for k, v in a.conds if not isinstance(v, ir.Name)]
        if any(k.value != attr for k, _ in runtime) or len({v for _, v in runtime}) > 1:
            return False
        conds = [(k.value, v.value) for k, v in a.conds if isinstance(v, ir.Name)]
        if runtime:
            unknown.append((conds, a.value.value, runtime[0][1]))
        else:
            fixed.append((conds, a.value.value))
    exprs = list(dict.fromkeys(e for _, _, e in unknown))
    if len(exprs) > _MAX_UNKNOWN:
        return False
    groups: dict = {}
    for card in cards:
        groups.setdefault(card.get(attr), []).append(card)
    for members in groups.values():
        for matches in product((False, True), repeat=len(exprs)):
            on = {e for e, m in zip(exprs, matches) if m}
            scores = [sum(p for conds, p in fixed if _match(card, conds))
                      + sum(p for conds, p, e in unknown if e in on and _match(card, conds))
                      for card in members]
            if len(set(scores)) < len(scores) or (want_max and min(scores) <= -1):
                return False
            if not want_max and max(scores) >= 2 ** 31 - 1:
                return False
    return True


def _match(card: dict, conds) -> bool:
    return all(card.get(k) == v for k, v in conds)


class Untied:
    """Max/min values read in place where no scan can tie (a mixin of `Flow`)."""

    def untied(self, x: ir.Extreme, env) -> bool:
        """Whether x never ties (module doc); if so it is read in place from now on."""
        coll, _ = resolve(x.source, env)
        game = self.prog.game
        if coll is None or not never_ties(x, coll, game, self.lay.cards):
            return False
        if not (set_before(x, game) or filled_after_set(x, coll, game)):
            return False
        self.untied_ids.add(id(x))
        return True

    def v_Extreme(self, n, env):
        """The card of the collection that no other card beats (it is unique: see `untied`)."""
        if id(n) in self.listed_ids:   # in the conditions and ranges that list an option (listedmax.py)
            return self.listed_extreme(n, env)
        if id(n) not in self.untied_ids:
            raise unsupported(f"{_what(n)}", n)
        c, d, v, w = (self.fresh.var(h) for h in "cdvw")
        pl, key, po = self.points(n.points, env)
        beats = f("less", v, w) if n.kind == "max" else f("less", w, v)
        beaten = self.exists("beaten", env.child(**{"$c": Binding("logic", c, "card")}),
                             pl + [f("card_points", key, po, c, v)] + self.member(n.source, env, d)
                             + [f("card_points", key, po, d, w), beats])
        return self.member(n.source, env, c) + [neg(beaten)], c
