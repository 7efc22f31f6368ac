"""Folding a game's static setup: cards that can never come back into play are not created.

A game may start by putting cards aside where nothing ever looks again (G_cardgame's deck
size, `NUMBERS`/`SUITS`, does so; any RECYCLE game can). Once the declared values are
known (after `--set`), which cards those are is static: they are the cards lying in a
*sink* — a location the game only ever moves cards into — when the play reaches its first
chance event or choice. The engines that pay per card (the translation's card facts and
integer tables, the ASP grounding) then pay for 52 cards where a few are in play.

`fold_setup` removes those cards from the decks of the setup, and keeps the result only
when it is provably the same game: the simulator runs both games to their first chance
event (or choice), and the folded state must be the original one without the dead cards,
card for card (so, among others, every later shuffle sees the same cards in the same
order and draws the same). After that point the dead cards lie in a sink, which no
expression reads, so they cannot change anything. Otherwise the game is returned as is.
"""
from __future__ import annotations

from dataclasses import replace

from .. import ir
from ..errors import GgpBridgeError
from ..recycle.deck import expand


def sinks(game: ir.Game) -> set:
    """The (visibility, name) of the locations the game only moves cards into.

    A location is read when it is named anywhere but as the place a `move` puts a card;
    a location named at run time may be any location of its visibility, so none of those is a sink."""
    written, read, computed = set(), set(), set()

    def visit(n: ir.Node) -> None:
        if isinstance(n, ir.Move) and isinstance(n.dst, ir.CardAt) and isinstance(n.dst.source, ir.Location):
            visit(n.src)
            dst = n.dst
            if isinstance(dst.where, ir.Node):
                visit(dst.where)
            loc = dst.source
            visit(loc.owner)
            key = _key(loc)
            if key is None:
                computed.add(loc.vis)
            else:
                written.add(key)
            return
        if isinstance(n, ir.Location):
            key = _key(n)
            if key is None:
                computed.add(n.vis)
            else:
                read.add(key)
        for c in n.children():
            visit(c)

    visit(game)
    return {k for k in written - read if k[0] not in computed and k[0] != "mem"}


def _key(loc: ir.Location):
    nm = loc.name
    if isinstance(nm, ir.Name):
        return loc.vis, nm.value
    if isinstance(nm, str):
        return loc.vis, nm
    return None


def fold_setup(game: ir.Game, overrides: dict | None = None) -> ir.Game:
    """The game without the setup's cards that are put in a sink before any chance event or
    choice (module docstring), or the game itself when there are none or the fold cannot be
    proved to play the same. Valid for these `overrides` only."""
    from .machine import Program
    places = sinks(game)
    if not places or not game.setup.decks:
        return game
    try:
        prog = Program(game, overrides)
        before = _first_event(prog)
        sink_slots = {prog.lay.loc_slots[vn] for vn in places if vn in prog.lay.loc_slots}
        cards = before[0][0]   # per slot, per owner: the card ids there (None: no such location)

        def lying_in(slots) -> set:
            return {k for slot in slots if cards[slot] is not None for lst in cards[slot] if lst is not None
                    for k in lst}
        dead = lying_in(sink_slots)
        if not dead:
            return game
        if dead & lying_in(set(range(len(cards))) - sink_slots):
            return game   # a remembered (mem) copy of a dead card: read later through the copy
        if not _vars_keep_meaning(game, before[1], dead):
            return game
        decks = _fold_decks(game, prog, dead)
        if decks is None:
            return game
        folded = replace(game, setup=replace(game.setup, decks=decks))
        small = Program(folded, overrides)
        keep = [k for k in range(len(prog.lay.cards)) if k not in dead]
        if small.lay.cards != [prog.lay.cards[k] for k in keep]:
            return game
        renumber = {k: i for i, k in enumerate(keep)}
        if _first_event(small) != _without(before, dead, renumber, len(prog.lay.cards)):
            return game
    except GgpBridgeError:   # the game stops on its own error early: let the engines report it
        return game
    return folded


def _first_event(prog) -> tuple:
    """The data and control where the game meets its first chance event or choice (or ends)."""
    from .machine import Live
    from .runtime import Suspend
    live = Live(prog)
    live.limit = 100_000   # a setup that runs on without any event is not folded (RunawayError)
    live.setup()
    c = live.c
    c.forced, c.stepwise = [], True   # no outcome supplied: the first chance event suspends
    try:
        ch = live.advance()
        stop = ("choice", ch.id if ch is not None else None)
    except Suspend as e:
        stop = ("chance", e.kind, e.n, e.detail, e.where)
    control = tuple((fr[1], fr[2], fr[3]) for fr in live.frames)
    return c.freeze(), sorted(c.vars.items()), control, stop


def _vars_keep_meaning(game: ir.Game, variables: list, dead: set) -> bool:
    """Whether the variables bound when the first event comes mean the same in the folded game.

    A variable may hold a card (or cards) by id, which the state comparison cannot tell from an
    integer, and does not renumber: a card variable bound to a dead card (its pile read later
    through the variable) can hold, in the folded game, another card of the same id. So every
    integer a variable holds must lie below the first dead id, where ids are unchanged: the same
    number or the same card in both games. The declared values made of literals alone hold none."""
    declared = {d.var for d in game.declares if not any(isinstance(x, (ir.Location, ir.Var)) for x in d.value.walk())}
    low = min(dead)

    def same(v) -> bool:
        if isinstance(v, bool) or not isinstance(v, (int, list, tuple)):
            return True
        if isinstance(v, int):
            return v < low
        return all(same(x) for x in v)
    return all(same(v) for name, v in variables if name not in declared)


def _without(state: tuple, dead: set, renumber: dict, ncards: int) -> tuple:
    """A `_first_event` result with the dead cards gone and the others renumbered: in the
    locations (lists of card ids) and the point maps (a score per card id)."""
    (L, I, S, P, *rest), variables, control, stop = state
    L = tuple(tuple(tuple(renumber[k] for k in lst if k not in dead) if lst is not None else None for lst in row)
              for row in L)
    P = tuple(tuple(tuple(v for k, v in enumerate(t) if k not in dead) if t is not None and len(t) == ncards else t
                    for t in row) for row in P)
    return (L, I, S, P, *rest), variables, control, stop


def _fold_decks(game: ir.Game, prog, dead: set) -> tuple | None:
    """The setup's `create deck`s without the dead cards, each as an attribute tree that
    expands to the surviving cards in their order; None when no deck changes or one is irregular."""
    out, changed = [], False
    for d in game.setup.decks:
        blocks = prog.deck_cards.get(id(d)) if isinstance(d, ir.CreateDeck) else None
        if not blocks or len(blocks) != 1 or not dead & set(blocks[0]):
            out.append(d)
            continue
        cards = [prog.lay.cards[k] for k in blocks[0] if k not in dead]
        keys = list(cards[0]) if cards else []
        if not cards or any(list(c) != keys for c in cards) or any(v is None for c in cards for v in c.values()):
            return None   # an irregular deck: left whole rather than guessed at
        tree = _tree(cards, keys)
        new = ir.Deck((tree,), 1, pos=d.deck.pos)
        if expand(new, prog.values) != cards:
            return None
        out.append(replace(d, deck=new))
        changed = True
    return tuple(out) if changed else None


def _tree(cards: list, keys: list) -> ir.AttrNode:
    """An attribute tree whose expansion is these cards in order: the first attribute's
    values in runs, each run's cards below it."""
    runs: list = []
    for c in cards:
        if runs and runs[-1][0] == c[keys[0]]:
            runs[-1][1].append(c)
        else:
            runs.append((c[keys[0]], [c]))
    subs = tuple(ir.AttrNode((v,), (_tree(group, keys[1:]),) if len(keys) > 1 else ()) for v, group in runs)
    return ir.AttrNode((keys[0],), subs)


def fold_loaded(loaded, overrides: dict | None = None):
    """A `recycle.Loaded` whose game is `fold_setup`'s (the same object when nothing folds)."""
    game = fold_setup(loaded.game, overrides)
    return loaded if game is loaded.game else replace(loaded, game=game)
