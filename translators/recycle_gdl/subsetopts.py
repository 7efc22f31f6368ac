"""Options whose element is a subset of a location: an option's `any` over `(subsets LOC)`.

Scopa captures the pool cards whose points add up to the card played:

    (any (filter (subsets POOL) 'SUB COND) 'S BODY)

The simulator (`ggpbridge.sim.ops.subsets`) lists the subsets of LOC's cards in binary
counting order, bit i standing for the card at position i (0 at the bottom), and offers one
option per subset that passes. The translation names a subset by its mask, the constant
`subset<M>`, and rewrites the `any` into forms the options already translate:

    (any (filter MASKS 'M COND[SUB := (filter LOC 'c (IN-MASK M c))]) 'M
         (let (filter LOC 'c (IN-MASK M c)) 'S BODY))

MASKS (`Masks`) ranges over the masks of LOC's positions (`subset_mask`, `mask_fits`) and
IN-MASK (`InMask`) holds when card c lies at a position whose bit M has (`mask_bit`). The mask
is read where LOC's positions are those of the choice: options.py refuses the `any` when an
action that may run before it writes LOC (as for any `any` of an option's body).

Bound: masks are listed for the first MOST positions (2^MOST masks). A choice offering such an
option while LOC holds more than MOST cards ends the play as `overflow`, marked
`many_subset_options` (the lockstep counts it apart, never as agreeing): one automatic step
before the choice tests it (`guard`).
"""
from __future__ import annotations

from ggpbridge import ir
from ggpbridge.gdl.ast import Const, Not

from .terms import const, f, rule, true

MOST = 8   # positions of LOC whose subsets are listed: 2^8 = 256 masks
MARK = "many_subset_options"


def mask_term(m: int):
    """The constant naming the subset of mask m."""
    return const(f"subset{m}")


@ir.node
class Masks(ir.Node):
    """The masks of the subsets of `loc` (made by the rewriting only: no game spells it)."""

    loc: ir.Location

    def members(self, comp, env, x) -> list:
        """Literals binding x to each mask of a subset of the location's cards."""
        comp.subset_masks = True
        lits, l, o = comp.loc(self.loc, env)
        z = comp.fresh.var("z")
        return lits + [f("size", l, o, z), f("mask_fits", x, z)]


@ir.node
class InMask(ir.Node):
    """The condition that card 'card lies in `loc` at a position whose bit mask 'mask has."""

    mask: str
    card: str
    loc: ir.Location

    def literals(self, comp, env) -> list:
        """The condition's literals: the card's position in the location is a bit of the mask."""
        comp.subset_masks = True
        lits, l, o = comp.loc(self.loc, env)
        ml, m = comp.val(ir.Var(self.mask, pos=self.pos), env)
        cl, c = comp.val(ir.Var(self.card, pos=self.pos), env)
        i = comp.fresh.var("i")
        return lits + ml + cl + [true(f("at", l, o, i, c)), f("mask_bit", m, i)]


@ir.node
class MaskSize(ir.Node):
    """`(size 'S)` of the subset of mask 'mask: the number of its bits (every bit has a card)."""

    mask: str

    def value(self, comp, env):
        """(literals, the number of the mask's bits)."""
        comp.subset_masks = True
        lits, m = comp.val(ir.Var(self.mask, pos=self.pos), env)
        k = comp.fresh.var("k")
        return lits + [f("mask_count", m, k)], k


@ir.node
class MaskSum(ir.Node):
    """`(sum 'S using MAP)` of the subset of mask 'mask of `loc`'s cards: added up its bits, over
    the mask and the owner only (the option's other elements are no arguments)."""

    mask: str
    loc: ir.Location
    points: ir.PointsRef

    def value(self, comp, env):
        """(literals, the sum): the cards at the mask's bits, added up position by position."""
        from .exprs import unsupported
        comp.subset_masks = True
        lits, l, o = comp.loc(self.loc, env)
        pl, key, po = comp.points(self.points, env)
        if pl or not isinstance(key, Const) or not isinstance(po, Const) or not isinstance(l, Const):
            raise unsupported("the sum of a subset under a point map or of a location chosen at run time", self)
        comp.used.update({"plus", "sum"})
        comp.sum_maps.add(key)
        total = comp.fresh.pred("mask_sum")
        O, M, J, J2, S, S2, C, V = (comp.fresh.var(h) for h in "OMJJSSCV")
        R = comp.rules.append
        # total(O, M, J, S): the cards at the bits of M below J score S
        R(rule(f(total, O, M, const(0), const(0)), f("loc_owner", l, O), f("subset_mask", M)))
        R(rule(f(total, O, M, J2, S2), f(total, O, M, J, S), f("mask_bit", M, J), true(f("at", l, O, J, C)),
               f("card_points", key, po, C, V), f("plus", S, V, S2), f("mask_next", J, J2)))
        R(rule(f(total, O, M, J2, S), f(total, O, M, J, S), f("mask_clear", M, J), f("mask_next", J, J2)))
        ml, m = comp.val(ir.Var(self.mask, pos=self.pos), env)
        v = comp.fresh.var("s")
        return lits + ml + [f(total, o, m, const(MOST), v)], v


def tables() -> list:
    """The facts of the masks: subset_mask(M), mask_bit(M, I), mask_fits(M, Z) (every bit of M
    below Z, for Z up to MOST)."""
    out = []
    for m in range(1 << MOST):
        out.append(rule(f("subset_mask", mask_term(m))))
        out += [rule(f("mask_bit", mask_term(m), const(i))) for i in range(MOST) if m >> i & 1]
        out += [rule(f("mask_clear", mask_term(m), const(i))) for i in range(MOST) if not m >> i & 1]
        out += [rule(f("mask_fits", mask_term(m), const(z))) for z in range(m.bit_length(), MOST + 1)]
        out.append(rule(f("mask_count", mask_term(m), const(bin(m).count("1")))))
    out += [rule(f("mask_next", const(i), const(i + 1))) for i in range(MOST)]
    return out


def rewrite(form):
    """The option form with each `any` over the subsets of a location (or a filter of them)
    rewritten (module doc); the form itself when it has none."""
    if not any(isinstance(x, ir.AnyOf) and _source(x.coll) is not None for x in form.walk()):
        return form
    from .effects import rebuild, substitute

    def sub(n):
        n = rebuild(n, sub)
        if not isinstance(n, ir.AnyOf):
            return n
        src = _source(n.coll)
        if src is None:
            return n
        if not isinstance(src.source, ir.Location) or not isinstance(src.source.name, ir.Name):
            from .exprs import unsupported
            raise unsupported("an option's `any` over subsets of other than one location named in the game", n.coll)
        if src.source.vis == "mem":
            # a remembered card is a copy of one lying elsewhere: its mask would name positions
            # in two places (element_mask reads where the card lies)
            from .exprs import unsupported
            raise unsupported("an option's `any` over subsets of a memory location", n.coll)
        at = n.pos
        mvar = "mask@" + f"{at.line}:{at.col}"   # no RECYCLE variable can be spelt so
        picked = ir.Filter(src.source, "card@" + f"{at.line}:{at.col}",
                           InMask(mvar, "card@" + f"{at.line}:{at.col}", src.source, pos=at), pos=at)
        cond = ir.TrueCond(pos=at)
        if isinstance(n.coll, ir.Filter):
            cond = _by_mask(n.coll.cond, n.coll.var, mvar, src.source)
            cond = substitute(cond, n.coll.var, picked)
            if cond is None:
                from .exprs import unsupported
                raise unsupported("an option's `any` over subsets whose condition rebinds a name", n.coll)
        body = ir.Let(picked, n.var, n.body, pos=at)
        return ir.AnyOf(ir.Filter(Masks(src.source, pos=at), mvar, cond, pos=at), mvar, body, pos=at)
    return sub(form)


def _by_mask(n, var: str, mvar: str, loc):
    """n with `(size 'var)` and `(sum 'var using MAP)` read from the mask 'mvar."""
    from .effects import rebuild
    if isinstance(n, ir.Size) and n.coll == ir.Var(var):
        return MaskSize(mvar, pos=n.pos)
    if isinstance(n, ir.Sum) and n.cards == ir.Var(var) and isinstance(n.points.name, ir.Name):
        return MaskSum(mvar, loc, n.points, pos=n.pos)
    return rebuild(n, lambda x: _by_mask(x, var, mvar, loc))


def _source(coll):
    """The `subsets` node an `any` ranges over (bare or filtered), else None."""
    if isinstance(coll, ir.Filter):
        coll = coll.coll
    return coll if isinstance(coll, ir.Subsets) else None


def locations(form) -> list:
    """The locations whose subsets a rewritten option form lists."""
    return [x.loc for x in form.walk() if isinstance(x, Masks)]


def guard(flow, lab: str, forms: list, env) -> str:
    """The label the choice waits at: `lab` itself when no form lists subsets; else a new one,
    reached from `lab` by an automatic step unless a location listed holds more than MOST cards
    (then the play ends as `overflow`, marked MARK)."""
    locs = [loc for form in forms for loc in locations(form)]
    if not locs:
        return lab
    wait = flow.label()
    over = []
    from ggpbridge.errors import UnsupportedConstructError
    from .exprs import unsupported
    for loc in locs:
        try:
            lits, z = flow.v_Size(ir.Size(loc, pos=loc.pos), env)
        except UnsupportedConstructError:
            # the size is tested before the choice, where the head's `any`s have chosen nothing
            raise unsupported("an option's `any` over subsets of a location named by what the "
                              "option chooses", loc) from None
        over.append(lits + [f("less", const(MOST), z)])
    many = flow.helper("many_subsets_at", env, over)
    cur_lits, _ = flow.current(env)
    flow.act(lab, f("nx", const("overflow")), cur_lits + [many])
    flow.act(lab, f("nx", const(MARK)), cur_lits + [many])
    flow.rules.append(rule(f("base", const(MARK))))
    flow.used.add("overflow")
    flow.goto(lab, wait, *cur_lits, Not(many))
    return wait


def element_mask(c, group: list) -> int:
    """The mask naming the simulator's subset `group` (card ids) in runtime `c`: the bits of its
    cards' positions in the location they lie in (not a memory location remembering them)."""
    return sum(1 << c.loc(*c.where[x][:2]).index(x) for x in group)
