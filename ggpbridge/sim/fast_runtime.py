"""Run-time helpers of the generated playout function (`codegen.py`) and the namespace it runs in
(`_HELPERS`: every callable here whose name starts with `_`, and the names added below)."""
from __future__ import annotations

from .actions import _matching
from .exprs import _INT_OPS, fib, tri
from .ops import (OpError, best_sum_of, counted, enumerate_paths, listed_extreme, member, partition, run_sequence,
                  runs, sequence, subsets, tuples)
from .playout import CYCLE, ERROR, FINISHED, SAMPLE, UNFINISHED
from .plays import play_value_of


_RuleError = OpError  # a rule error met during a fast playout (reported as status ERROR)


def _shuffle(cards, rng, nc):
    """Fisher-Yates from the top down, as Runtime.shuffle draws it."""
    rb = rng._randbelow
    for n in range(len(cards) - 1, 0, -1):
        k = rb(n + 1)
        cards[n], cards[k] = cards[k], cards[n]
    if len(cards) > 1:
        nc[0] += len(cards) - 1


def _extreme(s, t, want_max, rng, nc):
    """max/min by score, bottom to top, equal scores kept on a coin flip (exprs.x_Extreme)."""
    if not s:
        raise _RuleError("extreme of an empty collection")
    best, card = (-1 if want_max else 2 ** 31 - 1), s[-1]
    for x in s:
        v = t[x] if t is not None else 0
        if v > best if want_max else v < best:
            best, card = v, x
        elif v == best:
            nc[0] += 1
            if rng._randbelow(2) == 0:
                best, card = v, x
    return card


def _random(a, b, rng, nc):
    """An integer in a..b drawn as exprs.x_Random does."""
    if b < a:
        raise _RuleError("empty random range")
    if b == a:
        return a
    nc[0] += 1
    return a + rng._randbelow(b - a + 1)


def _take(F, where, card):
    """Remove a card from the location it lies in (actions._take_physical)."""
    if card is None:
        raise _RuleError("no card to move")
    w = where[card]
    if w is None:
        raise _RuleError("card lies nowhere")
    F[w].remove(card)
    where[card] = None
    return card


def _score(t, k):
    """A card's score in a point map (0 when never set)."""
    if k is None:
        raise _RuleError("score of a card of an empty collection")
    return t[k] if t is not None else 0


def _sum(t, cards):
    return sum(t[x] for x in cards) if t is not None else 0


_best_sum = best_sum_of   # ir.BestSum over two point maps, as exprs.x_BestSum


_play_value = play_value_of   # ir.PlayValue, as exprs.x_PlayValue


def _at(s, k):
    """Card k of a collection (None when empty), as exprs.x_CardAt."""
    if not s:
        return None
    if not 0 <= k < len(s):
        raise _RuleError("card index out of range")
    return s[k]


def _who(k, count):
    if not 0 <= k < count:
        raise _RuleError("no such player or team")
    return k


def _owner_of(w, owners, n):
    """The player holding a card, from its flat location index (exprs.x_OwnerOf)."""
    if w is None or not 1 <= w % owners <= n:
        raise _RuleError("this card is not held by a player")
    return w % owners - 1


class _Branch:
    """Which element each `any` takes: from a path, then the first (Runtime.branch)."""

    __slots__ = ("path", "pos", "trace")

    def __init__(self, path, trace):
        self.path, self.pos, self.trace = path, 0, trace

    def __call__(self, n):
        p = self.pos
        k = self.path[p] if p < len(self.path) else 0
        self.pos = p + 1
        if self.trace is not None:
            self.trace.append((k, n))
        return k


class _FirstOutcome:
    """While options are enumerated by tentative runs, chance takes its first outcome."""

    @staticmethod
    def _randbelow(n):
        return 0


_FIRST = _FirstOutcome()


def _enumerate(form, F, where, tables, cyc, tcyc):
    """Paths of a general option form, by tentative runs on copies (Live._enumerate)."""
    def run(prefix):
        trace: list = []
        acted = form(_Branch(list(prefix), trace), _FIRST, [0], [x[:] for x in F], where[:],
                     [t[:] for t in tables], [x[:] for x in cyc], [x[:] for x in tcyc])
        return trace, acted
    return enumerate_paths(run)


def _copy(v):
    return list(v) if isinstance(v, list) else v


_NONE = [None]
_HELPERS = {k: v for k, v in globals().items() if k.startswith("_") and callable(v)}
_HELPERS.update(_sequence=sequence, _member=member, _tuples=tuples, _partition=partition, _subsets=subsets,
                _listed_extreme=listed_extreme, _runs=runs, _run_sequence=run_sequence, _counted=counted,
                _NONE=_NONE, _INT_OPS=_INT_OPS, _tri=tri,
                _fib=fib, _matching=_matching,
                FINISHED=FINISHED, CYCLE=CYCLE, UNFINISHED=UNFINISHED, ERROR=ERROR, SAMPLE=SAMPLE)
