"""The simulator's data as the fluents of the translation (for `init` and for the lockstep check)."""
from __future__ import annotations

from .terms import NO_VALUE, NONE, TABLE, const, f, name


def owner_term(lay, col: int):
    """The GDL owner of a runtime owner column: table, a player number, or (team T)."""
    if col == 0:
        return const(TABLE)
    if col <= lay.n:
        return const(col - 1)
    return f("team", const(col - 1 - lay.n))


def card(k: int):
    """The constant of card id k."""
    return const(f"c{k}")


def state_fluents(lay, c, bags=frozenset()) -> list:
    """The fluents of a runtime's data: cards at positions (in `bags`: cards and sizes), storages, cycles."""
    from .exprs import loc_name
    out = []
    names = {slot: key for key, slot in lay.loc_slots.items()}
    for slot, row in enumerate(c.L):
        vis, nm = names[slot]
        ln = loc_name(vis, nm)
        for col, cards in enumerate(row):
            if ln in bags:
                out += [f("in", ln, owner_term(lay, col), card(x)) for x in cards or ()]
                if cards:
                    out.append(f("tally", ln, owner_term(lay, col), const(len(cards))))
                continue
            for i, x in enumerate(cards or ()):
                out.append(f("at", ln, owner_term(lay, col), const(i), card(x)))
    for table, rows, fl, default in ((lay.sto_slots, c.I, "int", 0), (lay.str_slots, c.S, "str", "")):
        keys = {slot: key for key, slot in table.items()}
        for slot, row in enumerate(rows):
            for col, v in enumerate(row):
                if v != default:
                    out.append(f(fl, name(keys[slot]), owner_term(lay, col), const(v) if fl == "int" else name(v)))
    for kind, stack in (("player", c.cyc), ("team", c.tcyc)):
        for d, (cur, nxt) in enumerate(stack):
            out.append(f("cyc", const(kind + "_cycle"), const(d), const(cur), const(nxt) if nxt != -1 else const(NONE)))
        out.append(f("cycdepth", const(kind + "_cycle"), const(len(stack) - 1)))
    return out


__all__ = ["state_fluents", "owner_term", "card", "NO_VALUE"]
