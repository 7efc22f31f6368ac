"""Moves described for people: cards by their attributes, an option by the action it takes.

The simulator numbers an option by its form and `any` branches, and the translation names a
card by its id (`c12`): exact, but unreadable. Witnesses, `replay` and match records show a
card as its attribute values in declaration order, `(THREE HEARTS)`, and a simulator option
as its action with the elements its `any`s took, `(move (THREE HEARTS) (game vloc TRICK) top)`.
"""
from __future__ import annotations

import re

from .gdl.ast import Func
from .gdl.kif import to_kif

_MAX = 120   # longer action texts are cut: a step line stays one line


def card_text(attrs: dict) -> str:
    """A card as its attribute values, in the order the deck declares them: `(ACE SPADES)`."""
    return "(" + " ".join(str(v) for v in attrs.values()) + ")"


def element_text(lay, e, t) -> str:
    """One element an `any` took (t its type, as the simulator's checker names it)."""
    if t == "card":
        return card_text(lay.cards[e])
    if t in ("player", "team") and isinstance(e, int):
        return f"{t} {e}"
    return str(e)


def option_elements(live, choice, opt) -> list:
    """The (element, type) each `any` of the option takes, in the order they run: a tentative run
    of the option on a copy of `live`'s data (as the simulator's enumeration runs it)."""
    c = live.c
    snap, saved = c.freeze(), dict(c.vars)
    c.bpath, c.bpos, c.btrace, c.belems = list(opt.path), 0, [], []
    try:
        choice.forms[opt.form](c)
        return c.belems
    finally:
        c.thaw(snap)
        c.vars, c.bpath, c.btrace, c.belems = saved, [], None, None


def option_text(machine, state, opt) -> str:
    """What a simulator option does, for people: the action of its form after its conditions and
    `any`s, each `any` variable replaced by the element taken (StepMachine `machine` at `state`)."""
    from .translators.recycle_gdl.options import option_head
    from .translators.recycle_text import expr_text
    live = machine._live(state)
    frame = live.frames[-1]
    choice = frame[0].items[frame[1]]
    heads, body = option_head(choice.node.options[opt.form])
    text = expr_text(body)
    variables = [h.var for h in heads if hasattr(h, "var") and hasattr(h, "coll")]
    for var, (e, t) in zip(variables, option_elements(live, choice, opt)):
        # a variable prints as 'NAME: replace it where it is not the prefix of a longer name
        text = re.sub(rf"'{re.escape(var)}(?![A-Za-z0-9_])", lambda _m, s=element_text(machine.prog.lay, e, t): s,
                      text)
    return text if len(text) <= _MAX else text[:_MAX - 3] + "..."


class GdlCards:
    """Card names of a GDL description (its `card_att` facts, as the translation writes them),
    to show the description's moves with cards by their attributes."""

    def __init__(self, desc):
        attrs: dict = {}
        for r in getattr(desc, "rules", ()):
            h = r.head
            if not r.body and isinstance(h, Func) and h.name == "card_att" and len(h.args) == 3:
                attrs.setdefault(to_kif(h.args[0]), {})[to_kif(h.args[1])] = to_kif(h.args[2])
        self.names = {card: card_text(a) for card, a in attrs.items()}

    def move_text(self, kif: str) -> str:
        """A move in KIF with each card constant replaced by its attribute values."""
        if not self.names:
            return kif
        return re.sub(r"(?<![\w?])c\d+(?!\w)", lambda m: self.names.get(m.group(0), m.group(0)), kif)


__all__ = ["card_text", "element_text", "option_elements", "option_text", "GdlCards"]
