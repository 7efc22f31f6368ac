"""A max/min in the conditions and `any` ranges that list an option: the last best card, no coin.

Klaverjassen's options ask for the trick's winning card so far while they are listed:

    ((and ... (!= (team (current player)) (team (owner (max (union (all player 'P ('P vloc TRICK)))
                                                         using (game points PRECEDENCE))))) ...)
     (any (filter HAND 'L (> (score 'L using ...) (score (max ...) using ...))) 'C (move 'C ...)))

CardStock flips its tie-break coin there as everywhere, so the list of legal moves would hang on
a random draw. The coin is CardStock's artefact: a score read from the max is the same whichever
tied card is kept, and a trick's winner is unique (the lead suit and trumps score apart). The
simulator therefore draws no coin in a simple form's conditions and ranges and keeps the last of
the best cards (`ggpbridge.sim.ops.listed_extreme`, as if every coin kept the newcomer); README's
deviations list it. Here that card is found by rules: the cards of the collection in scan order
(part, position), those no card beats, and the one of them no later one follows."""
from __future__ import annotations

from ggpbridge import ir
from ggpbridge.gdl.ast import variables
from ggpbridge.sim.machine import listed_heads

from .exprs import Binding, unsupported, _what
from .nodes import scan_parts
from .terms import const, f, neg, rule, true
from .untied import stored_maps


def scores_past_start(n: ir.Extreme, game: ir.Game) -> bool:
    """Whether every score n's map can give a card keeps clear of the simulator's start value
    (`listed_extreme`: -1 for a max, 2**31 - 1 for a min): below it the simulator keeps the
    collection's last card whatever it scores, where "no card beats it" finds the best. A card's
    score is the sum of the awards it matches, so the negative (positive) awards are added up;
    a map named or valued at run time is not known."""
    maps = stored_maps(n, game)
    if maps is None:
        return False
    for awards in maps:
        if not all(isinstance(a.value, ir.IntLit) for a in awards):
            return False
        values = [a.value.value for a in awards]
        if n.kind == "max" and sum(v for v in values if v < 0) < -1:
            return False
        if n.kind == "min" and sum(v for v in values if v > 0) >= 2 ** 31 - 1:
            return False
    return True


class ListedExtremes:
    """Max/min values of option heads (a mixin of `Flow`)."""

    def mark_listed(self, form) -> None:
        """Note the max/min values the simulator evaluates coin-free to list `form`'s options."""
        for h in listed_heads(form) or ():
            self.listed_ids.update(id(x) for x in h.walk() if isinstance(x, ir.Extreme))

    def listed_extreme(self, n: ir.Extreme, env):
        """(literals, card): the last card, in scan order, of those no card of the collection beats."""
        src, senv = n.source, env
        while isinstance(src, ir.Var) and getattr(senv.get(src.name), "kind", None) == "alias":
            src, senv = senv[src.name].term
        flt = None
        if isinstance(src, ir.Filter) and scan_parts(src.coll) is not None:
            src, flt = src.coll, src
        parts = scan_parts(src)
        if parts is None:
            raise unsupported(f"{n.kind} of {_what(n.source)}", n)
        if not scores_past_start(n, self.prog.game):
            raise unsupported(f"{_what(n)} under a map whose scores may pass the simulator's start "
                              f"({'-1' if n.kind == 'max' else '2**31 - 1'}), or are computed at run time", n)
        P, I, C, D, V, W, I2, P2 = (self.fresh.var(h) for h in ("p", "i", "c", "d", "v", "w", "i", "p"))
        pred = self.fresh.pred
        placed, score, scored, beaten, best, spot, later, chosen = (
            pred(h) for h in ("lm_at", "lm_val", "lm_scored", "lm_beaten", "lm_best", "lm_spot", "lm_later", "lm_card"))
        rules = []
        for pi, (kind, part) in enumerate(parts):
            if kind == "each":   # one location per player (team), in seat order
                sub = senv.child(**{part.var: Binding("logic", P, self.bind_type(part.coll, senv))})
                lits, l, o = self.loc(part.body, sub)
                head, body = f(placed, P, I, C), self.member(part.coll, senv, P) + lits
            else:
                lits, l, o = self.loc(part, senv)
                head, body = f(placed, const(pi), I, C), lits
            body = body + [true(f("at", l, o, I, C))]
            if flt is not None:
                body += self.cond(flt.cond, senv.child(**{flt.var: Binding("logic", C, "card")}))
            rules.append(rule(head, *body))
        pl, key, po = self.points(n.points, env)
        rules.append(rule(f(score, C, V), f(placed, P, I, C), *pl, f("card_points", key, po, C, V)))
        # scores up (down) a chain from each score present, as the goals do: pairs of scores
        # (or of cards, or of placed cards) are quadratic, for each max of each option
        # (Klaverjassen has 19 over 32 cards and hundreds of possible scores)
        step = (lambda a, b: f("succ", a, b)) if n.kind == "max" else (lambda a, b: f("succ", b, a))
        rules.append(rule(f(scored, W), f(score, D, W)))
        rules.append(rule(f(scored, V), step(V, W), f(scored, W)))
        rules.append(rule(f(beaten, C), f(score, C, V), step(V, W), f(scored, W)))
        rules.append(rule(f(best, P, I, C), f(placed, P, I, C), neg(f(beaten, C))))
        rules.append(rule(f(spot, P, I), f(best, P, I, C)))
        rules.append(rule(f(later, P, I), f(spot, P, I), f(spot, P2, I2), f("less", P, P2)))
        rules.append(rule(f(later, P, I), f(spot, P, I), f(spot, P, I2), f("less", I, I2)))
        # the rules stand alone: the collection and the map must not read a variable bound around them
        outer = {b.term for e in (env, senv) for b in e.values() if b.kind == "logic"}
        if env.cur is not None or senv.cur is not None or any(v in outer for r in rules for v in variables(r)):
            raise unsupported(f"{_what(n)} over cards named by a variable of its condition", n)
        # the card alone: a condition joining (part, position, card) would ground with every place
        rules.append(rule(f(chosen, C), f(best, P, I, C), neg(f(later, P, I))))
        self.rules.extend(rules)
        return [f(chosen, C)], C
