"""Determinizations: a full state consistent with what one seat may observe.

The seat's observation (`stepwise.observe`) shows the cards of the locations it may see
and only the size of the others. A determinization keeps every visible card where it
is and deals the cards the seat cannot see uniformly at random among the hidden
positions, keeping the size of every hidden location. Cards are pooled by their
attribute names (a chip is never dealt where a playing card lies: CardStock refills
per deck name); `mem` locations are public and hold references to cards that lie
elsewhere, so they are copied as they are and their cards are not taken from the pool.

The pool is sorted before it is shuffled, so with one RNG state the result depends
only on what the seat observes, never on where the hidden cards truly are. Like
CardStock's `CloneSecret`, the seat's memory of cards it saw earlier is not used.
"""
from __future__ import annotations

import random


def visible(vis: str, owner: int, player: int, lay) -> bool:
    """Whether `player` sees the cards of a location of kind `vis` held by `owner` (observe's rule)."""
    if vis in ("vloc", "mem"):
        return True
    n = lay.n
    if owner == 0:
        mine = False
    elif owner <= n:
        mine = owner - 1 == player
    else:
        mine = player in lay.teams[owner - 1 - n]
    if vis == "iloc":
        return mine and owner != 0
    if vis == "oloc":
        return not mine
    return False   # hloc: nobody


def hidden_positions(c, player: int) -> list[tuple[int, int]]:
    """The (slot, owner) of every non-empty location `player` cannot see, in slot order."""
    lay = c.lay
    out = []
    for slot, row in enumerate(c.L):
        vis = lay.loc_vis[slot]
        if vis == "mem":
            continue
        for owner, cards in enumerate(row):
            if cards and not visible(vis, owner, player, lay):
                out.append((slot, owner))
    return out


def deal_hidden(c, player: int, rng: random.Random) -> list:
    """A copy of the card lists `c.L` with the cards `player` cannot see dealt anew, uniformly."""
    lay = c.lay
    L = [[list(x) if x is not None else None for x in row] for row in c.L]
    spots = hidden_positions(c, player)
    if not spots:
        return L
    groups: dict = {}
    for slot, owner in spots:
        for card in L[slot][owner]:
            groups.setdefault(_kind(lay, card), []).append(card)
    dealt = {}
    for key in sorted(groups, key=repr):
        pool = sorted(groups[key])   # independent of where the hidden cards truly are
        rng.shuffle(pool)
        dealt[key] = pool
    for slot, owner in spots:
        lst = L[slot][owner]
        for i, card in enumerate(lst):
            lst[i] = dealt[_kind(lay, card)].pop()
    return L


def _kind(lay, card: int) -> tuple:
    return tuple(lay.cards[card])   # the attribute names, in the deck's declared order
