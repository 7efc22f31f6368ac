"""How full each location and how large each integer storage gets in seeded random plays.

A translation sized to these figures (`translators.recycle_gdl.Fit`) grounds far fewer
fluents than one sized for the worst case (every card at every position of every
location). Plays that go beyond them end as `overflow` in the translation, which the
lockstep check reports as bounds too small, never as agreement.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..errors import GameDefinitionError
from .machine import Live, Program, RunawayError


@dataclass
class Extent:
    """Largest location sizes (by slot) and integer ranges (by storage slot) seen so far."""

    sizes: dict = field(default_factory=dict)
    ints: dict = field(default_factory=dict)
    plays: int = 0
    failed: list = field(default_factory=list)   # (seed, error) of plays cut short by a rule error

    def size(self, slot: int, n: int) -> None:
        """A location of `slot` now holds n cards."""
        if n > self.sizes.get(slot, -1):
            self.sizes[slot] = n

    def integer(self, slot: int, v: int) -> None:
        """An integer storage of `slot` now holds v."""
        lo, hi = self.ints.get(slot, (v, v))
        self.ints[slot] = (min(lo, v), max(hi, v))

    def whole(self, c) -> None:
        """Every location and storage as they are now (after setup and at each decision)."""
        for slot, row in enumerate(c.L):
            self.size(slot, max((len(x) for x in row if x is not None), default=0))
        for slot, row in enumerate(c.I):
            for v in row:
                self.integer(slot, v)

    def named(self, prog: Program) -> tuple[dict, dict]:
        """The figures keyed by name: {(vis, name): size}, {storage name: (lo, hi)}."""
        lay = prog.lay
        locs = {key: self.sizes.get(slot, 0) for key, slot in lay.loc_slots.items()}
        ints = {key: self.ints.get(slot, (0, 0)) for key, slot in lay.sto_slots.items()}
        return locs, ints


def measure(prog: Program, plays: int = 200, seed: int = 0, max_steps: int = 20_000) -> Extent:
    """Play `plays` uniformly random games (seeds seed, seed+1, ...) and record their extent."""
    ext = Extent()
    for s in range(seed, seed + plays):
        live = Live(prog, s)
        live.limit = max_steps   # a stretch without choices that runs away stops there too
        live.c.watch = ext
        rng = random.Random(s)
        try:
            live.setup()
            ext.whole(live.c)
            while live.steps <= max_steps:
                ch = live.advance()
                ext.whole(live.c)
                if ch is None:
                    break
                opts = live.options(ch)
                if not opts:
                    raise GameDefinitionError(f"player {live.current_player()} has no enabled option", ch.node.pos)
                live.choose(ch, opts[rng.randrange(len(opts))])
        except RunawayError:
            pass   # measured as far as it went, like a play cut at max_steps
        except (GameDefinitionError, RecursionError) as e:
            ext.failed.append((s, str(e)))
        ext.plays += 1
    return ext
