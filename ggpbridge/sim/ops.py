"""Pure collection operations shared by the closure engine and the generated fast path.

Each follows CardStock's GameIterator (docs/cardstock-semantics.md §5.1). They raise
`OpError` without a position; the closure engine adds the position of the IR node.
"""
from __future__ import annotations

from itertools import combinations


class OpError(Exception):
    """A rule error inside an operation (the caller knows where it stands)."""


def sequence(s: list, k: int, top: bool) -> list:
    """The top (bottom) k cards, built top card first: the source's top ends at index 0."""
    if k > len(s):
        raise OpError(f"{'top' if top else 'bottom'} {k} cards of a collection of {len(s)}")
    if k <= 0:
        return []
    return s[:-k - 1:-1] if top else list(s[:k])


def member(s: list, w):
    """An element of a collection of collections: `top` is the first, `bottom` the last."""
    if not s:
        raise OpError("an element of an empty collection")
    return s[0] if w == "top" else s[-1] if w == "bottom" else s[w]


def tuples(t, size: int, src) -> list:
    """Every size-combination of cards per score bin 0..12, bins ascending (CardGrouping)."""
    bins: list = [[] for _ in range(13)]
    for x in src:
        v = t[x] if t is not None else 0
        if not 0 <= v <= 12:
            raise OpError(f"tuples groups scores 0..12, a card scores {v}")
        bins[v].append(x)
    return [list(g) for b in bins for g in combinations(b, size)]


def partition(col, srcs) -> list:
    """Cards grouped by an attribute (missing: ""), groups in order of first appearance."""
    groups: dict = {}
    for s in srcs:
        for x in s:
            groups.setdefault((col[x] or "") if col else "", []).append(x)
    return list(groups.values())


def subsets(src) -> list:
    """All subsets, the empty one included, in binary counting order (bottom card = bit 0)."""
    s = list(src)
    return [[s[i] for i in range(len(s)) if mask >> i & 1] for mask in range(1 << len(s))]


def runs(t, least: int, src, largest: bool) -> list:
    """Runs of consecutive scores of at least `least` cards; equal scores branch variants."""
    score = (lambda x: 0) if t is None else t.__getitem__
    cards = sorted(src, key=score)
    done, cur = [], []
    for i, x in enumerate(cards):
        if not cur:
            cur = [[x]]
        elif score(x) == score(cards[i - 1]):
            cur += [r[:-1] + [x] for r in cur if r[-1] == cards[i - 1]]
        elif score(x) == score(cards[i - 1]) + 1:
            for r in cur:
                r.append(x)
            if not largest:
                cur.append([x])
        else:
            done += [r for r in cur if len(r) >= least]
            cur = [[x]]
    done += [r for r in cur if len(r) >= least]
    return done


def run_sequence(t, least: int, src, from_top: bool) -> list:
    """The largest i >= least whose top (bottom) i cards, sorted, climb by exactly one."""
    s = list(src)
    if least <= 0:
        raise OpError("a run needs at least one card")
    score = (lambda x: 0) if t is None else t.__getitem__
    best: list = []
    for i in range(least, len(s) + 1):
        part = sorted(s[-i:] if from_top else s[:i], key=score)
        if all(score(b) == score(a) + 1 for a, b in zip(part, part[1:])):
            best = part
    return best


def counted(args, want: int) -> list:
    """Cards occurring exactly `want` times over all arguments, in order of first appearance."""
    counts: dict = {}
    for a in args:
        for x in a:
            counts[x] = counts.get(x, 0) + 1
    return [x for x, k in counts.items() if k == want]


def enumerate_paths(run) -> list:
    """Every branch path of an option form: `run(prefix)` follows the prefix, takes the first
    element beyond it, and returns (trace of (index, count) per `any`, whether it acted)."""
    found, stack = [], [()]
    while stack:
        prefix = stack.pop()
        trace, acted = run(prefix)
        taken = tuple(k for k, _ in trace)
        for j in range(len(trace) - 1, len(prefix) - 1, -1):
            k, n = trace[j]
            for alt in range(n - 1, k, -1):
                stack.append(taken[:j] + (alt,))
        if acted:
            found.append(taken)
    return sorted(found)


def best_sum(low: list, high: list, bound: int) -> int:
    """ir.BestSum over the cards' low and high scores: the low total, with the cards whose
    high score is larger raised to it, smallest raise first, while the total stays <= bound
    (a raise that does not fit means no larger one does)."""
    total = sum(low)
    for r in sorted(h - x for x, h in zip(low, high) if h > x):
        if total + r > bound:
            break
        total += r
    return total


def best_sum_of(lo, hi, cards, bound: int) -> int:
    """ir.BestSum of the cards over two point maps (None: a map never set, every score 0), as
    both engines evaluate it."""
    return best_sum([lo[x] if lo is not None else 0 for x in cards],
                    [hi[x] if hi is not None else 0 for x in cards], bound)


def listed_extreme(s: list, t, want_max: bool):
    """max/min by score as listing options takes it: bottom to top, an equal score keeps the
    newcomer, no coin drawn (the last of the best cards; docs/cardstock-semantics.md §5.3)."""
    if not s:
        raise OpError("extreme of an empty collection")
    best, card = (-1 if want_max else 2 ** 31 - 1), s[-1]
    for x in s:
        v = t[x] if t is not None else 0
        if v >= best if want_max else v <= best:
            best, card = v, x
    return card
