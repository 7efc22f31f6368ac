"""`ir.PlayValue` (G_cardgame's `play`) as GDL rules: the best score of a ranking of poker plays
found among a collection's cards, else its highest card's rank (docs/gcardgame.md, decision 14).

Every relation below takes the logic variables of the enclosing rule first (`A`):
* `card(A, C, R, S, N)`: card C, of rank R (the point map) and suit S, index N, is in the cards;
* `k_of(A, R)`: K cards of rank R (K = 2, 3, 4), and `flush(A, S)`: five cards of suit S — K
  cards with increasing indices, so that each set is found once and not K! times;
* `rank(A, R)` / `rank_suit(A, R, S)`: a rank present (in a suit), the ace (rank ACE_HIGH)
  also as 1; a straight is five ranks each the successor of the one before;
* `play_i(A)`: the i-th ranking entry's play is present;
* `value(A, V)`: the score of a present play that no present play outscores. The scores are
  constants, so that order is fixed here, rule by rule, and no `less` is needed over them;
  without a play, the highest rank present, and 0 for no card.

A comparison of play values (or of one with a literal), as G_cardgame's `play` and `have`
lower, goes through `play_less`/`play_leq`: facts over the few values a play value can take
(the scores, the point map's values, 0) and the literal. The scores then need not be in the
integer tables — which span every integer from the lowest to the highest bound, so that a
score of 900 in a game whose tokens count to 30 would make them thirty times longer.
"""
from __future__ import annotations

from ggpbridge import ir
from ggpbridge.gdl.ast import Not

from .exprs import _number, unsupported
from .export import card
from .terms import const, distinct, f, name, rule


def play_value(xc, n: ir.PlayValue, env):
    """(literals, term): the value of `n` (see the module's text); `xc` is the ExprCompiler."""
    xc.plays["general"].append(n)   # a value that may be stored: its scores must be in the tables
    return _value(xc, n, env)


def compare(xc, n: ir.Compare, env) -> list | None:
    """Literals for a comparison of play values or of one with a literal, through their own order
    (`play_less`, `play_leq`); None when an operand is anything else (the general path)."""
    sides = (n.left, n.right)
    if not any(isinstance(x, ir.PlayValue) for x in sides) or \
            not all(isinstance(x, ir.IntLit) or (isinstance(x, ir.PlayValue) and _scores(x) is not None
                                                   and isinstance(x.points.name, ir.Name)) for x in sides):
        return None
    st = xc.plays
    terms, lits = [], []
    for x in sides:
        if isinstance(x, ir.IntLit):
            st["values"].add(x.value)
            terms.append(const(x.value))
            continue
        st["values"].update(_scores(x))
        st["maps"].add(name(x.points.name.value))
        st["compared"].append(x)
        la, t = _value(xc, x, env)
        lits, terms = lits + la, terms + [t]
    a, b = terms
    if n.op == "==":
        return xc.equal(lits, a, [], b, env)
    if n.op == "!=":
        return lits + [distinct(a, b)]
    rel = "play_less" if n.op in ("<", ">") else "play_leq"
    return lits + [f(rel, a, b) if n.op in ("<", "<=") else f(rel, b, a)]


def order_facts(flow, values_by_map: dict) -> list:
    """`play_less`/`play_leq` over every value a compared play value can take and the literals it
    is compared with (the emitter calls this once the point maps' values are known)."""
    st = flow.plays
    if not st["compared"]:
        return []
    values = set(st["values"]) | {0}
    for key in st["maps"]:
        values |= values_by_map.get(key, set())
    vs = sorted(values)
    return [rule(f("play_less", const(a), const(b))) for a in vs for b in vs if a < b] + \
        [rule(f("play_leq", const(a), const(b))) for a in vs for b in vs if a <= b]


def scores_apart(flow) -> set:
    """The ids of the score literals that only compared play values read: the integer tables need
    not reach them."""
    st = flow.plays
    stored = {id(s) for x in st["general"] for _, s in x.ranking}
    return {id(s) for x in st["compared"] for _, s in x.ranking} - stored


def _scores(n: ir.PlayValue):
    """The ranking's scores when every one is a literal, else None."""
    if all(isinstance(s, ir.IntLit) for _, s in n.ranking):
        return [s.value for _, s in n.ranking]
    return None


def _value(xc, n: ir.PlayValue, env):
    if not isinstance(n.suit, ir.Name):
        raise unsupported("a suit attribute named at run time", n)
    scores = []
    for play, score in n.ranking:
        k = _number(*xc.val(score, env))
        if k is None:
            raise unsupported(f"the score of {play!r} computed at run time", score)
        scores.append((play, k))
    _card_index(xc)
    fresh, add = xc.fresh, xc.rules.append
    args, dom = xc.context(env)
    C, R, S, N = (fresh.var(h) for h in "crsn")
    pl, key, po = xc.points(n.points, env)
    card_rel = fresh.pred("pv_card")
    add(rule(f(card_rel, *args, C, R, S, N), *dom, *xc.member(n.cards, env, C), *pl,
             f("card_points", key, po, C, R), f("card_att", C, name(n.suit.value), S), f("card_index", C, N)))
    plays = _Plays(xc, card_rel, args)
    present = []
    for play, _ in scores:
        head = f(fresh.pred("pv_play"), *args)
        for body in plays.bodies(play):
            add(rule(head, *body))
        present.append(head)
    value, some, nonempty, beaten = (fresh.pred(h) for h in ("pv_value", "pv_some", "pv_nonempty", "pv_beaten"))
    V = fresh.var("v")
    for (_, k), head in zip(scores, present):
        better = [Not(h) for (_, k2), h in zip(scores, present) if k2 > k]
        add(rule(f(value, *args, const(k)), head, *better))
        add(rule(f(some, *args), head))
    R2, C2, S2, N2 = (fresh.var(h) for h in "rcsn")
    add(rule(f(beaten, *args, R), f(card_rel, *args, C, R, S, N), f(card_rel, *args, C2, R2, S2, N2), f("less", R, R2)))
    add(rule(f(value, *args, R), f(card_rel, *args, C, R, S, N), Not(f(beaten, *args, R)), Not(f(some, *args))))
    add(rule(f(nonempty, *args), f(card_rel, *args, C, R, S, N)))
    add(rule(f(value, *args, const(0)), *dom, Not(f(nonempty, *args))))
    return [f(value, *args, V)], V


def _card_index(xc) -> None:
    """`card_index(C, N)` facts, once per translation: an order of the cards for counting them."""
    if "card_index" in xc.used:
        return
    xc.used.add("card_index")
    xc.rules.extend(rule(f("card_index", card(k), const(k))) for k in range(len(xc.lay.cards)))


class _Plays:
    """The rule bodies of each play, their shared relations made on first use."""

    def __init__(self, xc, card_rel: str, args: list):
        self.xc, self.card, self.args = xc, card_rel, args
        self.made: dict = {}

    def var(self, h):
        return self.xc.fresh.var(h)

    def _cards(self, k: int, same: str):
        """Body of k cards with increasing indices sharing a rank ("rank") or a suit ("suit"); the
        shared term."""
        shared = self.var("x")
        body, prev = [], None
        for _ in range(k):
            c, r, s, i = (self.var(h) for h in "crsn")
            body.append(f(self.card, *self.args, c, shared if same == "rank" else r, shared if same == "suit" else s, i))
            if prev is not None:
                body.append(f("less", prev, i))
            prev = i
        return body, shared

    def of_a_kind(self, k: int) -> str:
        """`k_of(A, R)`: k cards of rank R."""
        if ("kind", k) not in self.made:
            pred = self.made[("kind", k)] = self.xc.fresh.pred(f"pv_{k}_of")
            body, r = self._cards(k, "rank")
            self.xc.rules.append(rule(f(pred, *self.args, r), *body))
        return self.made[("kind", k)]

    def flush(self) -> str:
        if "flush" not in self.made:
            pred = self.made["flush"] = self.xc.fresh.pred("pv_flush")
            body, s = self._cards(5, "suit")
            self.xc.rules.append(rule(f(pred, *self.args, s), *body))
        return self.made["flush"]

    def ranks(self, suited: bool) -> str:
        """`rank(A, R)` (`rank_suit(A, R, S)`): a rank present (in a suit), the ace also as 1."""
        key = ("ranks", suited)
        if key not in self.made:
            pred = self.made[key] = self.xc.fresh.pred("pv_rank_suit" if suited else "pv_rank")
            c, r, s, i = (self.var(h) for h in "crsn")
            tail = (s,) if suited else ()
            self.xc.rules.append(rule(f(pred, *self.args, r, *tail), f(self.card, *self.args, c, r, s, i)))
            self.xc.rules.append(rule(f(pred, *self.args, const(1), *tail), f(pred, *self.args, const(ir.ACE_HIGH), *tail)))
        return self.made[key]

    def straight(self, suited: bool) -> list:
        pred = self.ranks(suited)
        tail = (self.var("s"),) if suited else ()
        rs = [self.var("r") for _ in range(5)]
        body = [f(pred, *self.args, rs[0], *tail)]
        for a, b in zip(rs, rs[1:]):
            body += [f("succ", a, b), f(pred, *self.args, b, *tail)]
        return body

    def bodies(self, play: str) -> list:
        """The rule bodies (a disjunction) under which the play is present."""
        a = self.args
        r1, r2 = self.var("r"), self.var("r")
        if play == "one pair":
            return [[f(self.of_a_kind(2), *a, r1)]]
        if play == "two pairs":
            pair = self.of_a_kind(2)
            return [[f(pair, *a, r1), f(pair, *a, r2), f("less", r1, r2)]]
        if play == "three of a kind":
            return [[f(self.of_a_kind(3), *a, r1)]]
        if play == "full house":
            return [[f(self.of_a_kind(3), *a, r1), f(self.of_a_kind(2), *a, r2), distinct(r1, r2)]]
        if play == "four of a kind":
            return [[f(self.of_a_kind(4), *a, r1)]]
        if play == "flush":
            return [[f(self.flush(), *a, self.var("s"))]]
        if play == "straight":
            return [self.straight(False)]
        if play == "straight flush":
            return [self.straight(True)]
        raise unsupported(f"the play {play!r}", None)
