"""Storage names computed at run time: `('P sto 'PLACE)` with 'PLACE walking a list of names.

The simulator makes a storage for each name it meets (its slots are allocated on first use,
all 0 / empty), so such a key reads and writes the storage of that name. The translation
binds the key to the name's term and declares a storage for every name the key may take:
the names of the lists its variable is bound to, else every name of the game.
"""
from __future__ import annotations

from ggpbridge import ir

from .effects import _BINDERS


def computed_keys(game: ir.Game, values: dict, every_name: set) -> dict:
    """The names each kind of storage ("sto", "str") may be given at run time."""
    out = {"sto": set(), "str": set()}
    binders: dict = {}
    for x in game.walk():
        if isinstance(x, _BINDERS):
            binders.setdefault(x.var, []).append(x)
    for x in game.walk():
        kind = "sto" if isinstance(x, ir.IntStorage) else "str" if isinstance(x, ir.StrStorage) else None
        if kind and not isinstance(x.key, ir.Name):
            out[kind] |= _names_of(x.key, binders, values, every_name)
    return out


def _names_of(key, binders: dict, values: dict, every_name: set) -> set:
    """The names key may evaluate to: a variable's lists of names when every binder of its
    name walks one (a declared list or a literal one), else every name of the game."""
    if isinstance(key, ir.Var):
        found = set()
        for b in binders.get(key.name, ()):
            names = _list_names(getattr(b, "coll", None), values)
            if names is None:
                return set(every_name)
            found |= names
        if found:
            return found
    return set(every_name)


def _list_names(coll, values: dict):
    if isinstance(coll, ir.NameList):
        return set(coll.names)
    if isinstance(coll, ir.Var) and isinstance(values.get(coll.name), (list, tuple)):
        return {str(v) for v in values[coll.name]}
    return None
