"""A `let` of cards that its body cannot change, bound as an alias instead of a snapshot.

The simulator binds a copy of the collection (Pitch: the trumps every player has won, read by
a max and a min in a later scoring filter). A copy the translation cannot key by position (a
filtered union over players) still needs no register when no action of the body writes what
the value reads: judged wherever the body reads it, the value is the copy."""
from __future__ import annotations

from ggpbridge import ir

from . import effects
from .nodes import PRE

_STRUCTURE = (ir.Do, ir.CondAct, ir.AnyOf, ir.ForAll, ir.Let, ir.Repeat, ir.RepeatAll)


def unchanged_by(n: ir.Let) -> bool:
    """Whether no action in n's body may change what n's value reads (and the value takes no chance)."""
    if any(isinstance(x, PRE) for x in n.value.walk()):
        return False   # a max/min or random value drawn once: read in place it would be drawn again
    rs = effects.reads(n.value, {})
    for s, _, held in effects.statements(n.body, {}):
        # a structure's own expressions only read; its actions are listed on their own
        if not isinstance(s, _STRUCTURE) and effects.meets(rs, effects.writes(s, held)):
            return False
    return True
