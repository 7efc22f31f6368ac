"""Compiling IR statements into closures that act on a `Runtime`.

A statement closure takes the runtime and returns the number of primitive actions it
executed (CardStock offers an option only when its path executes at least one).
Inside a choice, `any` asks `c.branch(n)` which element to take; the machine drives
that to enumerate options and to replay the one chosen.
"""
from __future__ import annotations

from .. import ir
from .exprs import _MISSING, ExprCompiler, _restore, fail, relative


class Branching(Exception):
    """Raised while enumerating options when an `any` meets an empty collection path."""


def _matching(index: dict, conds: list, ncards: int) -> list:
    """Cards matching every (attribute, value) pair (all cards when there is none)."""
    if not conds:
        return list(range(ncards))
    sets = [index.get(kv, ()) for kv in conds]
    first = sets[0]
    if len(sets) == 1:
        return first
    rest = [set(x) for x in sets[1:]]
    return [card for card in first if all(card in r for r in rest)]


def static_points(lay, awards) -> tuple[list, list]:
    """A point map's per-card scores from its literal awards, and the awards left for run time."""
    base = [0] * len(lay.cards)
    rest = []
    for a in awards:
        if all(isinstance(k, ir.Name) and isinstance(v, ir.Name) for k, v in a.conds) and isinstance(a.value, ir.IntLit):
            for card in _matching(lay.attr_index, [(k.value, v.value) for k, v in a.conds], len(lay.cards)):
                base[card] += a.value.value
        else:
            rest.append(a)
    return base, rest


def _prep_place(ref, idx):
    """The `prep` of taker and putter for a location: (slot, owner), and the index after them
    when the place is a position (`idx`) rather than the top or the bottom. Without an index
    it is `ref` itself: no closure nor tuple more per card moved."""
    if idx is None:
        return ref

    def prep(c):
        slot, owner = ref(c)
        return slot, owner, idx(c)
    return prep


def _take_physical(c, card, n):
    """Remove a card from the location it lies in."""
    if card is None:
        raise fail("there is no card to move (the collection is empty)", n)
    w = c.where[card]
    if w is None:
        raise fail("this card lies nowhere it could be moved from", n)
    c.loc(*w).remove(card)
    c.where[card] = None
    return card


class StmtCompiler(ExprCompiler):
    """Turns IR statements into closures; also knows the game's decks."""

    def __init__(self, lay, deck_cards: dict):
        super().__init__(lay)
        self.deck_cards = deck_cards   # id(CreateDeck node) -> list of card ids it creates
        self.created: set = set()

    def s(self, n, env):
        """A closure executing statement n; it returns how many actions ran."""
        m = getattr(self, "s_" + type(n).__name__, None)
        if m is None:
            raise fail(f"{type(n).__name__} cannot be executed here", n)
        return m(n, env)

    # ------------------------------------------------------------ structure
    def s_Do(self, n, env):
        items = [self.s(i, env) for i in n.items]

        def do(c):
            k = 0
            for f in items:
                k += f(c)
            return k
        return do

    def s_CondAct(self, n, env):
        cond, body = self.x(n.cond, env), self.s(n.body, env)
        return lambda c: body(c) if cond(c) else 0

    def s_ForAll(self, n, env):
        coll, var = self.coll(n.coll, env), n.var
        body = self.s(n.body, self.bind(n.coll, n.var, env))

        def forall(c):
            vs = c.vars
            old = vs.get(var, _MISSING)
            k = 0
            for e in list(coll(c)):
                vs[var] = e
                k += body(c)
            _restore(vs, var, old)
            return k
        return forall

    def s_AnyOf(self, n, env):
        coll, var = self.coll(n.coll, env), n.var
        inner = self.bind(n.coll, n.var, env)
        body, t = self.s(n.body, inner), inner.get(n.var)

        def anyof(c):
            items = list(coll(c))
            if not items:
                return 0
            vs = c.vars
            old = vs.get(var, _MISSING)
            e = vs[var] = items[c.branch(len(items))]
            if c.belems is not None:  # an observer (crosscheck) labels the option by its elements
                # a group's list is copied: the option's body may take cards out of it
                c.belems.append((list(e) if isinstance(e, list) else e, t))
            k = body(c)
            _restore(vs, var, old)
            return k
        return anyof

    def s_Let(self, n, env):
        value, var = self.x(n.value, env), n.var
        t = self.type_of(n.value, env)
        body = self.s(n.body, {**env, var: t})

        def let(c):
            vs = c.vars
            old = vs.get(var, _MISSING)
            v = value(c)
            vs[var] = list(v) if isinstance(v, list) else v
            k = body(c)
            _restore(vs, var, old)
            return k
        return let

    def s_Repeat(self, n, env):
        count, body = self.x(n.count, env), self.s(n.body, env)

        def repeat(c):
            k = 0
            for _ in range(count(c)):
                k += body(c)
            return k
        return repeat

    def s_RepeatAll(self, n, env):
        plan = ir.repeat_all_plan(n)
        if plan is None:
            raise fail("'repeat all' needs (move|forget (top|bottom|N COLLECTION) ...) or (move (max|min ...) ...)", n)
        return self.s(plan, env)

    # ------------------------------------------------------------ cards
    def s_Move(self, n, env):
        # CardStock creates the move (ProcessMove: source card, then destination) before it
        # executes it, so a destination computed from the source's collection sees the card
        # still there (docs/cardstock-semantics.md §3.3)
        (prep_src, take), (prep_dst, put) = self.taker(n.src, env), self.putter(n.dst, env)

        def move(c):
            src = prep_src(c)
            dst = prep_dst(c)
            put(c, dst, take(c, src), True)
            return 1
        return move

    def s_Remember(self, n, env):
        card, (prep_dst, put) = self.x(n.src, env), self.putter(n.dst, env)

        def remember(c):
            k = card(c)
            put(c, prep_dst(c), k, False)
            return 1
        return remember

    def s_Forget(self, n, env):
        prep, take = self.taker(n.card, env, physical=False)

        def forget(c):
            take(c, prep(c))
            return 1
        return forget

    def taker(self, n, env, physical: bool = True):
        """Two closures removing the designated card from where it lies: `prep(c)` evaluates
        the card's operands (its location, its index, the card itself) and gives what
        `take(c, prepped)` needs to remove it; take returns the card."""
        if isinstance(n, ir.CardAt) and isinstance(n.source, ir.Location):
            ref = self.loc_ref(n.source, env)
            w = n.where
            idx = None if w in ("top", "bottom") else self.x(w, env)

            def take_at(c, prepped):
                slot, owner = prepped[0], prepped[1]
                lst = c.loc(slot, owner)
                if not lst:
                    raise fail("a card is taken from an empty location", n)
                if w == "top":
                    card = lst.pop()
                elif w == "bottom":
                    card = lst.pop(0)
                else:
                    k = prepped[2]
                    if not 0 <= k < len(lst):
                        raise fail(f"card {k} of a location holding {len(lst)}", n)
                    card = lst.pop(k)
                if physical:
                    c.where[card] = None
                if c.drawlog is not None and idx is None and c.btrace is None:
                    c.drawlog.append((slot, owner, card, c.fpos >= len(c.forced or ())))
                return card
            return _prep_place(ref, idx), take_at
        if not physical:
            raise fail("forget takes (top|bottom|N MEM-LOCATION)", n)
        if isinstance(n, ir.CardAt) and isinstance(n.source, ir.Var):
            # a card taken from a variable's collection leaves that collection too
            src, pick = self.x(n.source, env), self.x(n, env)

            def prep_var(c):
                return pick(c), src(c)

            def take_from_var(c, prepped):
                card, lst = prepped
                if isinstance(lst, list) and card in lst:
                    lst.remove(card)
                return _take_physical(c, card, n)
            return prep_var, take_from_var
        return self.x(n, env), lambda c, card: _take_physical(c, card, n)

    def putter(self, n, env):
        """Two closures placing a card at the designated place: `prep(c)` evaluates the
        destination (its location and index), `put(c, prepped, card, physical)` inserts."""
        if not (isinstance(n, ir.CardAt) and isinstance(n.source, ir.Location)):
            raise fail("a card goes to (top|bottom|N LOCATION)", n)
        ref = self.loc_ref(n.source, env)
        w = n.where
        idx = None if w in ("top", "bottom") else self.x(w, env)
        mem = n.source.vis == "mem"

        def put(c, prepped, card, physical):
            slot, owner = prepped[0], prepped[1]
            lst = c.loc(slot, owner)
            if w == "top":
                lst.append(card)
            elif w == "bottom":
                lst.insert(0, card)
            else:
                lst.insert(prepped[2], card)
            if physical and not mem:
                c.where[card] = (slot, owner)
            if c.watch is not None:
                c.watch.size(slot, len(lst))
        return _prep_place(ref, idx), put

    def s_Shuffle(self, n, env):
        target = self.coll(n.target, env)
        t = n.target
        where = (t.vis, t.name.value) if isinstance(t, ir.Location) and isinstance(t.name, ir.Name) else None

        def shuffle(c):
            c.shuffle(target(c), where)
            return 1
        return shuffle

    def s_Faro(self, n, env):
        a, b = self.coll(n.first, env), self.coll(n.second, env)
        ref_a = self.loc_ref(n.first, env) if isinstance(n.first, ir.Location) else None
        if ref_a is None:
            raise fail("a faro shuffle interleaves two locations", n)

        def faro(c):
            x, y = a(c), b(c)
            merged = []
            for i in range(max(len(x), len(y))):
                if i < len(x):
                    merged.append(x[i])
                if i < len(y):
                    merged.append(y[i])
            slot, owner = ref_a(c)
            x[:] = merged
            y[:] = []
            for card in merged:
                c.where[card] = (slot, owner)
            return 1
        return faro

    # ------------------------------------------------------------ storages
    def _int_target(self, n: ir.IntStorage, env):
        owner = self.owner(n.owner, env)
        key = self.slot_of(self.lay.sto_slots, n.key, env)
        return lambda c: (key(c), owner(c))

    def s_SetInt(self, n, env):
        tgt, val = self._int_target(n.target, env), self.x(n.value, env)

        def set_int(c):
            v = val(c)
            k, o = tgt(c)
            c.ints(k)[o] = v
            if c.watch is not None:
                c.watch.integer(k, v)
            return 1
        return set_int

    def s_Inc(self, n, env):
        return self._add(n, env, 1)

    def s_Dec(self, n, env):
        return self._add(n, env, -1)

    def _add(self, n, env, sign: int):
        tgt, val = self._int_target(n.target, env), self.x(n.value, env)

        def add(c):
            v = val(c)
            k, o = tgt(c)
            row = c.ints(k)
            row[o] += sign * v
            if c.watch is not None:
                c.watch.integer(k, row[o])
            return 1
        return add

    def s_SetStr(self, n, env):
        owner = self.owner(n.target.owner, env)
        key = self.slot_of(self.lay.str_slots, n.target.key, env)
        val = self.x(n.value, env)

        def set_str(c):
            v = val(c)
            c.strs(key(c))[owner(c)] = str(v)
            return 1
        return set_str

    def s_SetPoints(self, n, env):
        owner = self.owner(n.target.owner, env)
        key = self.slot_of(self.lay.pts_slots, n.target.name, env)
        index, ncards = self.lay.attr_index, len(self.lay.cards)
        base, rest = static_points(self.lay, n.awards)
        dynamic = [([(self.x(k, env), self.x(v, env)) for k, v in a.conds], self.x(a.value, env)) for a in rest]

        def set_points(c):
            table = base[:]
            for conds, value in dynamic:
                pts = value(c)
                for card in _matching(index, [(k(c), v(c)) for k, v in conds], ncards):
                    table[card] += pts
            c.points(key(c))[owner(c)] = table
            return 1
        return set_points

    # ------------------------------------------------------------ flow
    def s_Cycle(self, n, env):
        t = n.target
        who = relative(t, "player", self.lay.n) if isinstance(t, str) else self.x(t, env)
        slot = 1 if n.when == "next" else 0

        def cycle(c):
            c.cyc[-1][slot] = who(c)
            return 1
        return cycle

    def s_TurnPass(self, n, env):
        return lambda c: 1

    def s_CreateDeck(self, n, env):
        blocks = self.deck_cards[id(n)]
        prep, put = self.putter(ir.CardAt("top", n.location), env)

        def create(c):
            for cards in blocks:
                if c.where[cards[0]] is None:
                    dst = prep(c)
                    for card in cards:
                        put(c, dst, card, True)
                    return 1
            raise fail("this deck is created more often than it can be in play: decks created during "
                       "play are supported once each", n)
        return create

    def s_CreateTeams(self, n, env):
        raise fail("teams created during play are not supported", n)

    def s_Choice(self, n, env):
        raise fail("a choice can only stand directly in a stage or the game body", n)

    def s_Stage(self, n, env):
        raise fail("a stage cannot stand inside an action", n)
