"""Moves described for people: cards by their attributes, an option by the action it takes.

The simulator numbers an option by its form and `any` branches, and the translation names a
card by its id (`c12`): exact, but unreadable. Witnesses, `replay` and match records show a
card as its attribute values in declaration order, `(THREE HEARTS)`, and a simulator option
as its action with the elements its `any`s took, `(move (THREE HEARTS) (game vloc TRICK) top)`;
a move of a RECYCLE game's translation, `(option1 0 c4)`, is shown the same way
(`TranslationMoves`), and a move of any GDL description with `card_att` facts with its cards
named (`GdlCards`).
"""
from __future__ import annotations

import re

from .errors import GameDefinitionError
from .gdl.ast import Func
from .gdl.kif import to_kif
from .sim.views import card_text

_MAX = 120   # longer action texts are cut: a step line stays one line


def element_text(lay, e, t) -> str:
    """One element an `any` took (t its type, as the simulator's checker names it)."""
    if t == "card":
        return card_text(lay.cards[e])
    if t in ("player", "team") and isinstance(e, int):
        return f"{t} {e}"
    if t == "cards" and isinstance(e, list):   # a group: a run, a partition's group, a subset
        return "[" + " ".join(card_text(lay.cards[x]) for x in e) + "]"
    return str(e)


def option_elements(live, choice, opt, partial: bool = False) -> list:
    """The (element, type) each `any` of the option takes, in the order they run: a tentative run
    of the option on a copy of `live`'s data (as the simulator's enumeration runs it).

    With `partial`, an option whose action breaks a rule (a card taken from an empty location)
    gives the elements taken before the error instead of raising it."""
    c = live.c
    snap, saved = c.freeze(), dict(c.vars)
    c.bpath, c.bpos, c.btrace, c.belems = list(opt.path), 0, [], []
    try:
        choice.forms[opt.form](c)
        return c.belems
    except GameDefinitionError:
        if not partial:
            raise
        return c.belems
    finally:
        c.thaw(snap)
        c.vars, c.bpath, c.btrace, c.belems = saved, [], None, None


def option_text(machine, state, opt) -> str:
    """What a simulator option does, for people: the action of its form after its conditions and
    `any`s, each `any` variable replaced by the element taken (StepMachine `machine` at `state`).

    An option whose action breaks a rule is still an option the game offers (the enumeration does
    not run actions): it is shown with the elements taken before the error, which is met, with its
    place, when the option is played."""
    from .translators.recycle_gdl.options import option_head
    live = machine._live(state)
    frame = live.frames[-1]
    choice = frame[0].items[frame[1]]
    heads, body = option_head(choice.node.options[opt.form])
    variables = [h.var for h in heads if hasattr(h, "var") and hasattr(h, "coll")]
    return action_text(body, [(var, element_text(machine.prog.lay, e, t))
                              for var, (e, t) in zip(variables, option_elements(live, choice, opt, partial=True))])


def action_text(body, shown: list) -> str:
    """An option's action `body` as text, each `any` variable replaced by its element's text
    (`shown`: (variable, text) pairs), cut to _MAX characters."""
    from .translators.recycle_text import expr_text
    text = expr_text(body)
    for var, s in shown:
        # a variable prints as 'NAME: replace it where it is not the prefix of a longer name
        text = re.sub(rf"'{re.escape(var)}(?![A-Za-z0-9_])", lambda _m, s=s: s, text)
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

    def move_text(self, kif: str, state=None) -> str:
        """A move in KIF with each card constant replaced by its attribute values (`state`, the
        clingo state the move is made in, is not needed here)."""
        if not self.names:
            return kif
        return re.sub(r"(?<![\w?])c\d+(?!\w)", lambda m: self.names.get(m.group(0), m.group(0)), kif)


class TranslationMoves(GdlCards):
    """The moves of a RECYCLE game's translation (a `translators.recycle_gdl.Translation`) shown
    as `option_text` shows simulator options: the action of the option form a move names, at
    the choice where the state's program counter stands, with the elements the move takes."""

    def __init__(self, tr):
        super().__init__(tr.description)
        self.lay = tr.prog.lay
        self.choices = {label: tr.prog.by_id[cid] for cid, label in tr.flow.choice_label.items()}

    def move_text(self, kif: str, state=None) -> str:
        """The option's action when `state` (a frozenset of clingo fluents) is at a choice and the
        move is `(optionK FORM E1 .. Ek)`; otherwise the move with its cards named."""
        from .gdl.asp_terms import kif_symbol, symbol_kif
        from .translators.recycle_gdl.options import option_head
        from . import ir
        plain = super().move_text(kif)
        pc = next((str(x.arguments[0]) for x in state or () if x.name == "pc" and len(x.arguments) == 1), None)
        choice = self.choices.get(pc)
        try:
            move = kif_symbol(kif)
        except Exception:   # not a term clingo reads: show it as it is
            return plain
        if choice is None or not move.name.startswith("option") or not move.arguments \
                or move.arguments[0].type != clingo_number():
            return plain
        forms = choice.node.options
        form = move.arguments[0].number
        if not 0 <= form < len(forms):
            return plain
        _, body = option_head(forms[form])
        variables = [n.var for n in forms[form].walk() if isinstance(n, ir.AnyOf)]
        return action_text(body, [(var, self._element(e, symbol_kif(e)))
                                  for var, e in zip(variables, move.arguments[1:])])

    def _element(self, e, kif: str) -> str:
        if re.fullmatch(r"c\d+", kif) and int(kif[1:]) < len(self.lay.cards):
            return card_text(self.lay.cards[int(kif[1:])])
        return kif


def clingo_number():
    """clingo's Number symbol type (clingo is imported only when a translation's moves are shown)."""
    import clingo
    return clingo.SymbolType.Number


__all__ = ["card_text", "element_text", "option_elements", "option_text", "GdlCards", "TranslationMoves"]
