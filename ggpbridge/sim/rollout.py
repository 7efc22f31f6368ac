"""Copies of a game in progress, and random playouts from them, for the searching players.

A `Sandbox` owns one private `Live` of a program and loads into it a copy of another
game's state (its card lists possibly replaced by a determinization): the lists are
copied, never shared, so a search cannot change the real game. Playouts run on the
generated engine started at the choice the game stands at (`codegen_resume`) when
the game compiles to it, and on the closure engine otherwise (`fast=False` forces it);
both play the same playout for the same RNG state.
"""
from __future__ import annotations

import random

from ..errors import GameDefinitionError
from .machine import FINISHED, Live, Program, RunawayError
from .playout import rank_players

ROLLOUT_STEPS = 20_000     # a playout that runs longer than this scores nothing for anyone
ROLLOUT_CHOICES = 1_000


class Sandbox:
    """A private copy of a game in progress, reloaded for every playout."""

    def __init__(self, prog: Program, rng: random.Random, fast: bool = True):
        self.prog = prog
        self.live = Live(prog)
        self.live.c.rng = rng   # chance inside playouts draws from the searching seat's RNG
        self.n = prog.lay.n
        self.resumer = resumer(prog) if fast else None

    def _fast(self, live: Live):
        """The resume site of the choice `live` stands at, when the generated engine can start there."""
        r = self.resumer
        return r.site_of(live) if r is not None and r.usable else None

    def _shares(self, status, scores) -> list[float]:
        if status != FINISHED:
            return [0.0] * self.n
        winners, _ = rank_players(list(scores), self.prog.maximize)
        out = [0.0] * self.n
        for p in winners:
            out[p] = 1.0 / len(winners)
        return out

    def load(self, src: Live, cards: list | None = None) -> Live:
        """Copy `src`'s state into the sandbox (with a copy of `cards` as its card lists when given)."""
        live, s = self.live, src.c
        live.c.thaw((s.L if cards is None else cards, s.I, s.S, s.P, s.cyc, s.tcyc))   # copies, never shares
        live.c.vars = dict(s.vars)
        live.frames = [list(f) for f in src.frames]
        live.steps, live.limit = 0, ROLLOUT_STEPS
        return live

    def rewards(self) -> list[float]:
        """Each seat's share of the win in the finished sandbox game (ties split it)."""
        return self._shares(FINISHED, self.live.scores())

    def play_option(self, src: Live, options: list, k: int, rng: random.Random,
                    cards: list | None = None) -> list[float]:
        """From `src` (with the card lists `cards`), take option k of the `options` (more than one)
        of the choice it stands at, play out randomly: the win shares."""
        site = self._fast(src)
        if site is not None:
            r = self.resumer
            return self._shares(*r.playout(rng, site, r.args(src.c, cards), k))
        opt = options[k]
        live = self.load(src, cards)   # a copy: the caller reuses its deal for other options
        f = live.frames[-1]
        try:
            live.choose(f[0].items[f[1]], opt)
        except (GameDefinitionError, RecursionError):
            return [0.0] * self.n
        return self.playout(rng)

    def playout(self, rng: random.Random) -> list[float]:
        """Play the loaded game to its end with uniformly random players: the win shares.

        A playout that runs away (or past ROLLOUT_CHOICES choices) counts as nobody's win;
        a rule error met on the way does too, since the real game will report it itself."""
        live = self.live
        live.c.rng = rng   # chance and choices from one stream, as in the generated engine
        try:
            ch = live.advance()
            if ch is None:
                return self.rewards()
            site = self._fast(live)
            if site is not None:
                r = self.resumer
                return self._shares(*r.playout(rng, site, r.args(live.c)))
            for _ in range(ROLLOUT_CHOICES):
                ch = live.advance()
                if ch is None:
                    return self.rewards()
                opts = live.options(ch)
                if not opts:
                    break
                live.choose(ch, opts[rng.randrange(len(opts))] if len(opts) > 1 else opts[0])
        except (RunawayError, GameDefinitionError, RecursionError):
            pass
        return [0.0] * self.n


def resumer(prog: Program):
    """The resumable generated engine of a program (built once, kept on the program)."""
    if not hasattr(prog, "_resumer"):
        from .codegen_resume import Resumer
        prog._resumer = Resumer(prog)
    return prog._resumer
