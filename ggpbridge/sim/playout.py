"""Playing one game to its end with a set of players, detecting runaway games."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..errors import GameDefinitionError
from .machine import CYCLE, ERROR, FINISHED, SAMPLE, UNFINISHED, Live, Program, RunawayError
from .players import View


class Decision(NamedTuple):
    """One decision taken: who, how many options, where in the stages (None when unknown)."""

    player: int
    options: int
    choice: int | None   # the choice node's id
    iterations: tuple    # iteration numbers of the enclosing stages


@dataclass
class Result:
    """The outcome of one game."""

    seed: int
    status: str
    scores: list = field(default_factory=list)
    winners: list = field(default_factory=list)
    ranks: list = field(default_factory=list)
    decisions: list = field(default_factory=list)
    steps: int = 0
    error: str | None = None
    internal: bool = False
    tallies: dict = field(default_factory=dict)   # Program.count's expressions at the end


def rank_players(scores: list[int], maximize: bool) -> tuple[list[int], list[float]]:
    """Winners (all players sharing the best score) and each player's rank (ties share the mean rank)."""
    best = max(scores) if maximize else min(scores)
    winners = [p for p, s in enumerate(scores) if s == best]
    ranks = []
    for s in scores:
        better = sum(1 for x in scores if (x > s if maximize else x < s))
        same = scores.count(s)
        ranks.append(better + (same + 1) / 2)
    return winners, ranks


def play(prog: Program, seed: int, players: list, max_steps: int = 100_000, record: bool = True,
         observer=None) -> Result:
    """Play one game; a proven cycle or the step cap ends it unscored (never a win).

    Both are caught at choices (here) and, for stretches without a choice, at stage loops
    (Live.advance). `observer`, when given, is told of every decision before it is taken
    (`observer.decision(live, player, options)`) and after the player chose
    (`observer.chosen(k)`); a game played without one pays a single test per choice."""
    live = Live(prog, seed)
    live.limit = max_steps
    res = Result(seed, FINISHED)
    c = live.c
    try:
        live.setup()
        # Brent's cycle detection over states reached with no real decision and no chance since
        saved, power, lam, quiet_since, tick = None, 1, 0, c.nchance, 0
        while True:
            ch = live.advance()
            if ch is None:
                break
            if live.steps > max_steps:
                res.status = UNFINISHED
                break
            opts = live.options(ch)
            if not opts:
                raise GameDefinitionError(f"player {live.current_player()} has no enabled option at this choice",
                                          ch.node.pos)
            p = live.current_player()
            if record:
                res.decisions.append(Decision(p, len(opts), ch.id, live.iterations()))
            if len(opts) > 1 or c.nchance != quiet_since:
                saved, power, lam, quiet_since, tick = None, 1, 0, c.nchance, 0
            elif (tick := tick + 1) % SAMPLE == 0:
                # Brent on every SAMPLE-th quiet state: that subsequence is eventually periodic
                # exactly when the game is, so a repeat there is still a proof, for less hashing.
                key = live.key()
                if saved is not None and key == saved:
                    res.status = CYCLE
                    break
                lam += 1
                if saved is None or lam == power:
                    saved, power, lam = key, power * 2, 0
            if observer is None:
                k = players[p].choose(View(live, p), opts) if len(opts) > 1 else 0
            else:
                observer.decision(live, p, opts)
                k = players[p].choose(View(live, p), opts) if len(opts) > 1 else 0
                observer.chosen(k)
            if not 0 <= k < len(opts):
                raise GameDefinitionError(f"player {p} chose option {k} of {len(opts)}")
            live.choose(ch, opts[k])
    except RunawayError as e:
        res.status = e.status
    except GameDefinitionError as e:
        res.status, res.error = ERROR, str(e.with_source(prog.source))
    except RecursionError:
        res.status, res.error = ERROR, "the game nests too deeply"
    except Exception as e:  # a bug of ours, not of the game: keep the seed that shows it
        res.status, res.error, res.internal = ERROR, f"internal error: {type(e).__name__}: {e}", True
    res.steps = live.steps
    if prog.tallies and not res.internal:
        res.tallies = {k: f(c) for k, f in prog.tallies}
    if res.status == FINISHED:
        try:
            res.scores = live.scores()
        except GameDefinitionError as e:   # the scoring itself breaks a rule: this play's error, not the run's
            res.status, res.error = ERROR, str(e.with_source(prog.source))
        else:
            res.winners, res.ranks = rank_players(res.scores, prog.maximize)
    return res
