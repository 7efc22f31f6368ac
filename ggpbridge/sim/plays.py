"""The value of a collection of cards through a ranking of poker plays (`ir.PlayValue`), shared
by the closure engine (`exprs.py`) and the generated one (`fast_runtime.py`)."""
from __future__ import annotations

from collections import Counter

from ..ir import ACE_HIGH


def _straight(ranks: set) -> bool:
    """Five consecutive ranks, the ace (ACE_HIGH) also counting as 1."""
    rs = ranks | {1} if ACE_HIGH in ranks else ranks
    return any(all(r + i in rs for i in range(1, 5)) for r in rs)


def plays_present(ranks: list, suits: list) -> set:
    """The names of `ir.PLAYS` found among the cards (any subset of them), given each card's rank
    and suit in the same order."""
    per_rank = sorted(Counter(ranks).values(), reverse=True)
    per_suit = Counter(suits)
    out = set()
    if per_rank and per_rank[0] >= 2:
        out.add("one pair")
    if len(per_rank) > 1 and per_rank[1] >= 2:
        out.add("two pairs")
    if per_rank and per_rank[0] >= 3:
        out.add("three of a kind")
        if len(per_rank) > 1 and per_rank[1] >= 2:
            out.add("full house")
    if per_rank and per_rank[0] >= 4:
        out.add("four of a kind")
    if any(k >= 5 for k in per_suit.values()):
        out.add("flush")
    if _straight(set(ranks)):
        out.add("straight")
    for s, k in per_suit.items():
        if k >= 5 and _straight({r for r, t in zip(ranks, suits) if t == s}):
            out.add("straight flush")
            break
    return out


def play_value(ranks: list, suits: list, ranking) -> int:
    """The highest score of `ranking` ((play name, score) pairs) among the plays present, else the
    highest rank (0 for no card): docs/gcardgame.md, decision 14."""
    present = plays_present(ranks, suits)
    scores = [score for play, score in ranking if play in present]
    if scores:
        return max(scores)
    return max(ranks, default=0)


def play_value_of(t, suits, cards, ranking) -> int:
    """`play_value` of a collection of cards as both engines evaluate it: `t` the point map of
    their ranks (None: never set, every rank 0), `suits[x]` card x's suit."""
    return play_value([t[x] if t is not None else 0 for x in cards], [suits[x] for x in cards], ranking)
