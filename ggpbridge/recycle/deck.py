"""Expanding `(deck ...)` attribute trees into cards, as CardStock's Tree.Combinations does."""
from __future__ import annotations

from itertools import product

from .. import ir


def _options(attr: ir.AttrNode, values: dict) -> list[dict]:
    """The cards-in-part one top-level attribute allows: one dict per leaf path."""
    out: list[dict] = []
    for key in attr.names:
        k = _resolve(key, values)
        for child in attr.subs or ():
            for name in child.names:
                base = {k: _resolve(name, values)}
                if not child.subs:
                    out.append(base)
                    continue
                for combo in product(*(_options(s, values) for s in child.subs)):
                    merged = dict(base)
                    for part in combo:
                        merged.update(part)
                    out.append(merged)
    return out


def _resolve(x, values: dict) -> str:
    if isinstance(x, ir.Var):
        v = values.get(x.name)
        return str(v) if v is not None else "'" + x.name
    return x


def expand(deck: ir.Deck, values: dict | None = None) -> list[dict]:
    """Every card of a deck as an attribute -> value dict, in creation order."""
    values = values or {}
    per_attr = [_options(a, values) for a in deck.attrs]
    cards = []
    for combo in product(*per_attr):
        card: dict = {}
        for part in combo:
            card.update(part)
        cards.append(card)
    return cards * max(deck.copies, 1)
