"""Designer metrics built on the players. So far: strategy potential.

Strategy potential of a seat: the win share a searching player (PIPMC by default) gains
over a random player in the same seat, every other seat random. Both sets play the same
seeds (game i of each uses seed + i, so the deal is the same), and the difference is
taken per game: d_i = s_i - r_i, where s_i and r_i are the seat's share of the win
(1/k when k players tie for first; 0 for a game that ends unscored) with the searching
player and with the random one. The potential is mean(d) and its 95% interval
mean(d) ± 1.96·sd(d)/√n (normal approximation over independent games; sd with n - 1).
"""
from __future__ import annotations

import math

from .machine import FINISHED, Program
from .players import describe_players, make_players, parse_players
from .playout import play


def seat_shares(prog: Program, seat: int, n: int, seed: int, players: str, max_steps: int = 100_000) -> list[float]:
    """The share of the win of `seat` in each of n games (seeds seed..seed+n-1); a game past
    `max_steps` steps ends unscored (0)."""
    from . import fast_path, play_fast
    fast = fast_path(prog)
    out = []
    for i in range(n):
        seats = make_players(players, prog.lay.n, seed + i)
        r = play_fast(prog, fast, seed + i, seats, max_steps) if fast is not None else None
        if r is None:
            r = play(prog, seed + i, seats, max_steps, record=False)
        out.append(1.0 / len(r.winners) if r.status == FINISHED and seat in r.winners else 0.0)
    return out


def in_seat(seats: int, seat: int, player: str = "random") -> str:
    """The players spec with `player` in `seat` and random in every other seat; it lists every
    seat, so that the last one does not repeat into the others."""
    specs = ["random"] * seats
    specs[seat] = player
    return ",".join(specs)


def strategy_potential(prog: Program, seat: int = 0, n: int = 200, seed: int = 0, player: str = "pipmc") -> dict:
    """The win share `player` gains over random in `seat` (see the module): potential, interval, both shares."""
    parse_players(player)   # a bad spec is refused before any game is played
    base = seat_shares(prog, seat, n, seed, in_seat(prog.lay.n, seat))
    smart = seat_shares(prog, seat, n, seed, in_seat(prog.lay.n, seat, player))
    mean, interval = potential(smart, base)
    return {"seat": seat, "player": describe_players(player), "games": n, "potential": mean,
            "interval": interval, "share": sum(smart) / n, "random_share": sum(base) / n}


def potential(smart: list[float], base: list[float]) -> tuple[float, tuple[float, float]]:
    """The mean per-game gain of `smart` over `base` (same seeds) and its 95% interval (see the module)."""
    n = len(smart)
    d = [a - b for a, b in zip(smart, base)]
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else float("inf")
    half = 1.96 * sd / math.sqrt(n)
    return mean, (mean - half, mean + half)
