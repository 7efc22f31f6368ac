"""Typed reading of the papers' v0.3 dialect into the same IR as v0.5.x.

v0.3 differs in form, not in kind, and every difference is made explicit here so no
later stage knows about it:
- `(comp (COND ACTION...) ...)` is a `do`; `(choice (COND ACTION...) ...)` a choice,
  with `()` the always-true condition;
- `(any LOC)` inside a move of a choice branches: the option becomes `(any LOC 'V ...)`;
  inside a condition it is "some card of LOC" (`(any LOC 'V COND)`), as that era's engine
  read a card in a condition (every card of its location, true when one matches);
- `((all player) ...)` / `((any player) ...)` are quantifiers: around the comparison
  they stand in (for every / for some player), around the action (every player), and
  inside `union` a union over players — CardStock's thesis engine reads them so;
- `LOC where (all|any|none COND...)` is a filter whose conditions say `each`;
- `(initialize points NAME (...))` sets `(game points NAME)` and `using NAME` reads it;
- `(move A B N|all)` repeats the move;
- `(sum (OWNERS sto KEY))`, a sum without `using`, adds the storage KEY of every owner named:
  `(all|any player)` every player, `(all|any team)` every team, `((current team) player)` the
  players of the current team, one owner just its own (`IntSum`), as that era's engine did.
"""
from __future__ import annotations

from .. import ir
from .builder import Builder
from .reader import Atom, SList


class Builder03(Builder):
    """Reads one game form of the v0.3 dialect into `ir.Game`."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self._fresh = 0
        self._quants: list[list] = []   # pending (all|any player) quantifiers, innermost last
        self._anys: list[list] = []     # pending (any LOC) choices, innermost last
        self._each: list[str] = []      # variable standing for `each` in where clauses
        self._ctx: list[str] = []       # "cond" or "act": what the innermost reading is part of

    def fresh(self, stem: str) -> str:
        self._fresh += 1
        return f"{stem}{self._fresh}"

    # ------------------------------------------------------------ structure
    def stage_item(self, x):
        h = self.head(x)
        if h == "comp":
            return ir.Do(tuple(self.gameactions(x, choice=False)), pos=x.pos)
        if h == "choice":
            return ir.Choice(tuple(self.gameactions(x, choice=True)), pos=x.pos)
        if h == "stage":
            return self.stage(x)
        raise self.fail("expected a stage, comp or choice here", x)

    def gameactions(self, x: SList, choice: bool) -> list:
        out = []
        for g in x.items[1:]:
            if not isinstance(g, SList) or not g.items or not isinstance(g.items[0], SList):
                raise self.fail(f"a {x.items[0].text} item is (CONDITION ACTION ...), with () for always", g)
            cond = None if not g.items[0].items else self.bool_(g.items[0])
            self._anys.append([])
            acts = [self.stmt(a) for a in g.items[1:]]
            anys = self._anys.pop()
            if anys and not choice:
                raise self.fail("'any' offers a choice, and a comp block has no player to make it", g)
            if not acts:
                raise self.fail("this item has a condition but no action", g)
            if cond is None and not choice and not anys:
                out.extend(acts)
                continue
            body = acts[0] if len(acts) == 1 else ir.Do(tuple(acts), pos=g.pos)
            for coll, var, pos in reversed(anys):
                body = ir.AnyOf(coll, var, body, pos=pos)
            out.append(body if cond is None else ir.CondAct(cond, body, pos=g.pos))
        return out

    def stmt(self, x):
        self._quants.append([])
        self._ctx.append("act")
        try:
            s = self._stmt03(x)
        finally:
            self._ctx.pop()
        for quant, coll, var, pos in reversed(self._quants.pop()):
            if quant != "all":
                raise self.fail("'(any player)' in an action is ambiguous: use it in a condition", pos)
            s = ir.ForAll(coll, var, s, pos=x.pos)
        return s

    def _stmt03(self, x):
        h = self.head(x)
        if h == "initialize":
            it = x.items
            if len(it) != 4 or not self.kw(it[1], "points") or not isinstance(it[2], Atom):
                raise self.fail("expected (initialize points NAME (AWARD ...))", x)
            target = ir.PointsRef(ir.GameOwner(pos=it[2].pos), ir.Name(it[2].text, pos=it[2].pos), pos=it[2].pos)
            return ir.SetPoints(target, self.awards(it[3]), pos=x.pos)
        if h in ("move", "remember") and len(x.items) == 4:
            count = x.items[3]
            inner = SList(x.items[:3], x.pos, x.end)
            body = super().stmt(inner)
            if self.kw(count, "all"):
                return ir.RepeatAll(body, pos=x.pos)
            return ir.Repeat(self.int_(count), body, pos=x.pos)
        return super().stmt(x)

    # ------------------------------------------------------------ points
    def points(self, x):
        if isinstance(x, Atom) and x.kind == "name":
            return ir.PointsRef(ir.GameOwner(pos=x.pos), ir.Name(x.text, pos=x.pos), pos=x.pos)
        return super().points(x)

    def awards(self, x):
        if not isinstance(x, SList):
            raise self.fail("a point map is a list of awards ((all (KEY (VALUE)) N) ...)", x)
        out = []
        for a in x.items:
            if not isinstance(a, SList) or len(a.items) < 3 or not self.kw(a.items[0], "all", "any"):
                raise self.fail("a v0.3 award is (all|any (KEY (VALUE))... POINTS)", a)
            conds = tuple(self.subaward(s) for s in a.items[1:-1])
            if a.items[0].text == "any" and len(conds) > 1:
                raise self.fail("an 'any' award with several conditions has no v0.5 equivalent", a)
            out.append(ir.Award(conds, self.int_(a.items[-1]), pos=a.pos))
        return tuple(out)

    # ------------------------------------------------------------ owners and quantifiers
    def owner(self, x):
        if isinstance(x, SList) and len(x.items) == 2 and self.kw(x.items[1], "player", "team"):
            d = x.items[0]
            if self.kw(d, "all", "any"):
                var = self.fresh("P" if x.items[1].text == "player" else "T")
                if not self._quants:
                    raise self.fail(f"'({d.text} {x.items[1].text})' stands where no condition or action can hold it", x)
                self._quants[-1].append((d.text, ir.AllOf(x.items[1].text, pos=x.pos), var, x))
                return ir.Var(var, pos=x.pos)
            if isinstance(d, SList):  # ((current player) player): the inner reference
                return self.owner(d)
        return super().owner(x)

    def bool_(self, x):
        if isinstance(x, SList) and not x.items:
            return ir.TrueCond(pos=x.pos)
        h = self.head(x)
        if h in ("and", "or", "not"):
            return super().bool_(x)
        self._quants.append([])
        self._ctx.append("cond")
        try:
            b = super().bool_(x)
        finally:
            self._ctx.pop()
        for quant, coll, var, _ in reversed(self._quants.pop()):
            b = ir.Quantified(quant, coll, var, b, pos=x.pos)
        return b

    def cards_arg(self, x):
        self._quants.append([])
        c = super().cards_arg(x)
        for quant, coll, var, at in reversed(self._quants.pop()):
            if quant != "all":
                raise self.fail("'(any player)' cannot stand in a union", at)
            c = ir.AggCards(coll, var, c, pos=x.pos)
        return c

    def str_(self, x):
        if isinstance(x, Atom) and x.kind == "int":  # v0.3 names may be digits: (rank (10))
            return ir.Name(x.text, pos=x.pos)
        return super().str_(x)

    # ------------------------------------------------------------ cards, where, each
    def card(self, x):
        if self.kw(x, "each"):
            if not self._each:
                raise self.fail("'each' is only meaningful inside a where clause", x)
            return ir.Var(self._each[-1], pos=x.pos)
        if isinstance(x, SList) and len(x.items) == 2 and self.kw(x.items[0], "any"):
            if self._ctx and self._ctx[-1] == "cond":   # some card of the location
                var = self.fresh("C")
                self._quants[-1].append(("any", self.cards(x.items[1]), var, x))
                return ir.Var(var, pos=x.pos)
            if not self._anys:
                raise self.fail("'any' card is only possible inside a choice", x)
            var = self.fresh("C")
            self._anys[-1].append((self.cards(x.items[1]), var, x.pos))
            return ir.Var(var, pos=x.pos)
        return super().card(x)

    def value(self, x):
        if self.kw(x, "each"):
            return self.card(x)
        return super().value(x)

    def int_(self, x):
        if self.head(x) == "score" and len(x.items) == 4 and self.kw(x.items[1], "each"):
            return ir.Score(self.card(x.items[1]), self.points(x.items[3]), pos=x.pos)
        if self.head(x) == "sum" and len(x.items) == 2:
            return self.storage_sum(x, x.items[1])
        return super().int_(x)

    def storage_sum(self, x: SList, sto):
        """`(sum (OWNERS sto KEY))`: KEY summed over the owners named (v0.3's rawstorage sum)."""
        if not (isinstance(sto, SList) and len(sto.items) == 3 and self.kw(sto.items[1], "sto")):
            raise self.fail("a sum without 'using' adds a storage: (sum (OWNERS sto KEY))", x)
        who, key = sto.items[0], self.str_(sto.items[2])
        coll = None
        if isinstance(who, SList) and len(who.items) == 2 and self.kw(who.items[1], "player", "team"):
            d, kind = who.items[0], who.items[1].text
            if self.kw(d, "all", "any"):      # every player (team): `any` sums them all too
                coll = ir.AllOf(kind, pos=who.pos)
            elif isinstance(d, SList) and kind == "player" and len(d.items) == 2 and self.kw(d.items[1], "team"):
                coll = super().owner(d)       # ((current team) player): the team's players
        if coll is None:                      # one owner: its own storage
            return ir.IntStorage(self.owner(who), key, pos=sto.pos)
        var = self.fresh("S")
        return ir.IntSum(coll, var, ir.IntStorage(ir.Var(var, pos=who.pos), key, pos=sto.pos), pos=x.pos)

    def cards(self, x):
        if isinstance(x, SList) and len(x.items) == 5 and self.kw(x.items[3], "where") \
                and self.kw(x.items[1], "vloc", "iloc", "mem"):
            loc = super().cards(SList(x.items[:3], x.pos, x.end))
            var = self.fresh("E")
            self._each.append(var)
            try:
                cond = self.where(x.items[4])
            finally:
                self._each.pop()
            return ir.Filter(loc, var, cond, pos=x.pos)
        return super().cards(x)

    def coll(self, x):
        if isinstance(x, SList) and len(x.items) == 5 and self.kw(x.items[3], "where"):
            return self.cards(x)
        return super().coll(x)

    def where(self, x):
        if not (isinstance(x, SList) and len(x.items) >= 2 and self.kw(x.items[0], "all", "any", "none")):
            raise self.fail("a where clause is (all|any|none (CONDITION) ...)", x)
        conds = [self.bool_(c) for c in x.items[1:]]
        q = x.items[0].text
        b = conds[0] if len(conds) == 1 else ir.BoolOp("and" if q == "all" else "or", tuple(conds), pos=x.pos)
        return ir.Not(b, pos=x.pos) if q == "none" else b
