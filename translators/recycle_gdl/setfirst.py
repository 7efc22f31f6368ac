"""Whether a game's points map is surely set before a max/min under it can meet two cards.

A map never set scores every card 0 (`ggpbridge.sim.exprs.points_table` gives None), so a
scan of two cards or more ties and the simulator flips its coin: a max/min read in place
(untied.py) is sound only where the map has been set. Two ways of knowing it, either enough:

- the read comes after a `set` of the map on every path through the game (`set_before`);
- every statement that can put a card into the scanned locations comes after such a `set`,
  and the setup creates no deck there: until the map is set the collection is empty, and
  a max/min of one card or none flips no coin (`filled_after_set`).

"Every path" is a must-analysis over the game's structure in the simulator's order: a stage,
an `all`, a `repeat`, a guarded action and the options of a choice may run their bodies never
(a stage whose end holds on entry), so what they set counts only inside them. A map once set
stays set (a `set` always stores a table), so the first pass of a stage's body is the one to
check. Only a map of the table (`game points NAME`) is followed: another owner's map could be
set for one player and read for another."""
from __future__ import annotations

from ggpbridge import ir


def _is_map(target: ir.PointsRef, name: str) -> bool:
    return isinstance(target.owner, ir.GameOwner) and target.name == ir.Name(name)


def known_before(game: ir.Game, name: str) -> dict:
    """id(statement) -> whether the table's map NAME is surely set when the statement starts."""
    known: dict = {}

    def run(n, k: bool) -> bool:   # the walk returns whether the map is surely set after n
        known[id(n)] = known.get(id(n), True) and k   # a node met twice: surely set at both
        if isinstance(n, ir.SetPoints):
            return k or _is_map(n.target, name)
        if isinstance(n, (ir.Do, ir.Stage)):
            after = k
            for it in (n.items if isinstance(n, ir.Do) else n.body):
                after = run(it, after)
            return k if isinstance(n, ir.Stage) else after
        if isinstance(n, ir.Choice):
            for o in n.options:
                run(o, k)
            return k
        if isinstance(n, (ir.CondAct, ir.ForAll, ir.AnyOf, ir.Repeat, ir.RepeatAll, ir.Let)):
            after = run(n.body, k)
            unguarded = isinstance(n, ir.Let) or (isinstance(n, ir.CondAct) and n.cond is None)
            return after if unguarded else k
        return k   # a simple action: sets nothing

    k = False
    for it in game.body:
        k = run(it, k)
    return known


def set_before(x: ir.Extreme, game: ir.Game) -> bool:
    """Whether x's map is surely set wherever x is evaluated (its nearest statement's start)."""
    if not isinstance(x.points.owner, ir.GameOwner) or not isinstance(x.points.name, ir.Name):
        return False
    known = known_before(game, x.points.name.value)
    parent = {id(c): n for n in game.walk() for c in n.children()}
    n = x
    while id(n) in parent:
        n = parent[id(n)]
        if id(n) in known:
            return known[id(n)]
    return False   # not found in the game (a node the translation built): unknown


def filled_after_set(x: ir.Extreme, coll, game: ir.Game) -> bool:
    """Whether no card can reach the locations `coll` scans (one location, or one per player;
    see untied.each_card_once) before x's map is surely set."""
    if not isinstance(x.points.owner, ir.GameOwner) or not isinstance(x.points.name, ir.Name):
        return False
    while isinstance(coll, ir.Filter):
        coll = coll.coll
    if isinstance(coll, ir.SetOp) and len(coll.args) == 1:
        coll = coll.args[0]
    loc = coll.body if isinstance(coll, ir.AggCards) else coll
    if not isinstance(loc, ir.Location) or not isinstance(loc.name, ir.Name):
        return False

    def may_reach(target) -> bool:   # a card or location that may be one of the scanned ones
        while isinstance(target, ir.CardAt):
            target = target.source
        if not isinstance(target, ir.Location):
            return True
        return target.vis == loc.vis and (not isinstance(target.name, ir.Name) or target.name == loc.name)

    known = known_before(game, x.points.name.value)
    # a deck created anywhere, in the setup too (a `repeat` around it), fills its location:
    # the setup's statements are before any set (not in `known`)
    for n in game.walk():
        if isinstance(n, ir.CreateDeck):
            targets = [n.location]
        elif isinstance(n, (ir.Move, ir.Remember)):
            targets = [n.dst]
        elif isinstance(n, ir.Faro):
            targets = [n.first, n.second]
        else:
            continue
        if any(map(may_reach, targets)) and not known.get(id(n), False):
            return False
    return True
