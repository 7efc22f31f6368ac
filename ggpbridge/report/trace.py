"""What the report needs of each game, recorded through the playout's observer hook.

`Recorder` is handed to `sim.playout.play` as its observer: at every decision it keeps
the scores the game's own scoring expression gives each seat in the state the decision
is taken in (the "score curve", see docs/metrics.md), and, when the deciding seat is an
`EvaluatingPIPMC`, that player's estimate of every option. `trace` turns the game's
`Result` and the recording into a plain dict (JSON- and pickle-ready, so that games can
be played on other processes).
"""
from __future__ import annotations

import random

from ..sim.determinize import deal_hidden
from ..sim.pipmc import PIPMCPlayer
from ..sim.playout import FINISHED, Result
from ..sim.rollout import Sandbox


class Recorder:
    """The playout observer of one game: score curve and option estimates per decision."""

    def __init__(self, players: list):
        self.players = players
        self.curve: list | None = []
        self.values: list = []
        self._who = 0

    def decision(self, live, player: int, options: list) -> None:
        """Called before `player` chooses among `options`: record the scores of this state."""
        self._who = player
        if self.curve is None:
            return
        got = live.scores_if_defined()
        # a scoring expression that means nothing mid-game: this game has no curve
        if got is None:
            self.curve = None
        else:
            self.curve.append(got)

    def chosen(self, k: int) -> None:
        """Called after the choice: keep the deciding seat's option estimates, if it made any."""
        take = getattr(self.players[self._who], "take_estimates", None)
        self.values.append(take() if take is not None else None)


def trace(res: Result, rec: Recorder | None) -> dict:
    """One game as the report's metrics read it (see docs/metrics.md)."""
    out = {"seed": res.seed, "status": res.status, "winners": list(res.winners), "scores": list(res.scores),
           "steps": res.steps, "decisions": [[d[0], d[1], d[2], list(d[3])] for d in res.decisions]}
    if rec is not None:
        curve = rec.curve
        out["curve"] = curve + [list(res.scores)] if curve is not None and res.status == FINISHED else None
        out["values"] = rec.values
    return out


class EvaluatingPIPMC(PIPMCPlayer):
    """PIPMC that compares its options on common random numbers and keeps its estimates.

    For the j-th of its N playouts, every option is played on the same determinization
    and from a fresh RNG with the same seed, so two options with the same consequences
    get exactly the same estimate: an estimate that differs means the choice changed an
    outcome (the "meaningful choices" metric). It chooses as PIPMC does: the option with
    the best mean win share, ties to the first.
    """

    def __init__(self, rng: random.Random, playouts: int = 10):
        super().__init__(rng, playouts)
        self._estimates: list | None = None

    def take_estimates(self) -> list | None:
        """The estimates of the last decision (one mean win share per option), once."""
        out, self._estimates = self._estimates, None
        return out

    def choose(self, view, options: list) -> int:
        """The option with the best mean win share on common random numbers."""
        if len(options) == 1:
            return 0
        live, me = view.live, view.player
        if self.sandbox is None or self.sandbox.prog is not live.prog:
            self.sandbox = Sandbox(live.prog, self.rng)
        box = self.sandbox
        seeds = [self.rng.getrandbits(64) for _ in range(self.playouts)]
        totals = [0.0] * len(options)
        for s in seeds:
            cards = deal_hidden(live.c, me, random.Random(s))
            for k in range(len(options)):
                r = random.Random(s + 1)
                box.live.c.rng = r   # chance inside the option itself draws from the shared stream too
                totals[k] += box.play_option(live, options, k, r, cards)[me]
        self.spent += len(seeds) * len(options)
        self._estimates = [t / len(seeds) for t in totals]
        best = max(range(len(options)), key=lambda k: (totals[k], -k))
        return best
