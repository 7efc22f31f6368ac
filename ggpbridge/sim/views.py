"""A seat's observation as one canonical, readable line: what solvers key information sets on.

`observe` (sim/stepwise.py) gives cards as ids and storages as rows of numbers. The solver
(`ggpbridge.solve`) and the policy player both need a key that is equal exactly when a
seat sees the same thing, and that a person can read in a policy file. This text is both:
cards are named by their attributes, storages by their names, and an entry left at its
default (0, empty) is left out, so the text is as injective as the observation itself.
"""
from __future__ import annotations


def card_text(attrs: dict) -> str:
    """A card as its attribute values, in the order the deck declares them: `(ACE SPADES)`."""
    return "(" + " ".join(str(v) for v in attrs.values()) + ")"


def _owner(who: tuple) -> str:
    kind, k = who
    return "game" if kind == "game" else f"p{k}" if kind == "player" else f"team{k}"


def _row(lay, name: str, row: tuple) -> str | None:
    # entry 0 is the table's, 1..n the players', then the teams' (Layout's owner numbering)
    parts = []
    for o, v in enumerate(row):
        if v in (0, "", None):
            continue
        who = "game" if o == 0 else f"p{o - 1}" if o <= lay.n else f"team{o - 1 - lay.n}"
        parts.append(str(v) if who == "game" else f"{who}={v}")
    return f"{name} " + " ".join(parts) if parts else None


def view_text(lay, obs: dict) -> str:
    """The observation `obs` (from `observe`) as one line: locations, storages, who is to move."""
    out = []
    for (who, vis, name), cards in sorted(obs["locations"].items(), key=lambda kv: repr(kv[0])):
        owner = _owner(who)
        where = name if owner == "game" else f"{owner} {name}"
        if isinstance(cards, int):
            out.append(f"{where}: {cards} hidden")
        else:
            out.append(f"{where}: " + " ".join(card_text(lay.cards[c]) for c in cards))
    # storages are named by slot; observe gives the rows in slot order
    for table, rows in (("sto", obs["ints"]), ("str", obs["strs"])):
        names = sorted((slot, n) for n, slot in (lay.sto_slots if table == "sto" else lay.str_slots).items())
        for slot, name in names:
            if slot < len(rows) and (text := _row(lay, name, rows[slot])):
                out.append(text)
    out.append(f"to move: p{obs['current']}")
    return " | ".join(out)
