"""Benchmark: `simulate -n N` on a local Dask cluster of W worker processes against one process.

Run: python benchmarks/dask_speedup.py [N] [--workers W] [--game FILE] [--players SPEC]
(default N = 100000 Agram games, W = 2). Goal (issue #34): a speed-up near W on W idle cores,
with statistics identical to the single-process run (checked here, timing fields aside).

Prints, for each run, wall and CPU time and games per wall second: the single process; the
cluster's start (not counted in its run); the cluster's run (CPU of this process, and of each
worker process during the run, as the workers measure it: their start-up is not in it); and the
speed-up in wall time. On a shared machine the wall times depend on the other users, so it also
prints the speed-up the CPU times imply: the single process's CPU over the busiest worker's (what
the wall speed-up would be with a core per worker and no other load).
"""
from __future__ import annotations

import sys
from pathlib import Path

from _clock import Clock, on_local_cluster, parser
from ggpbridge.cluster import simulate_on_cluster
from ggpbridge.frontends import load_game
from ggpbridge.sim import compile_loaded, simulate

GAMES = Path(__file__).resolve().parents[1] / "games"


def _untimed(rep: dict) -> dict:
    return {k: v for k, v in rep.items() if k not in ("seconds", "games_per_second")}


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("n", nargs="?", type=int, default=100_000, help="games (default 100000)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes, one thread each (default 2)")
    ap.add_argument("--game", default=str(GAMES / "agram.rcy"), help="game file (default games/agram.rcy)")
    ap.add_argument("--players", default="random", help="players, as simulate --players (default random)")
    a = ap.parse_args()
    import distributed  # noqa: F401  (missing: fail now, not after the single-process run)
    loaded = load_game(a.game)
    prog = compile_loaded(loaded)
    print(f"{Path(a.game).name}: {a.n} games, players {a.players}")
    clock = Clock()
    one = simulate(prog, a.n, 0, a.players)
    wall1, cpu1 = clock.wall, clock.cpu
    print(f"  1 process:            {clock}  ({a.n / wall1:,.0f} games/s)")

    spread, wall2, cpu2, used = on_local_cluster(
        a.workers, "  cluster start:        ",
        lambda cluster, _: simulate_on_cluster(loaded, {}, a.n, 0, a.players, cluster=cluster.scheduler_address))
    print(f"  {a.workers} workers:            {wall2:.2f} s wall, {cpu2:.2f} s CPU here + "
          f"{' + '.join(f'{u:.2f}' for u in used)} s CPU in the workers  ({a.n / wall2:,.0f} games/s)")
    print(f"  speed-up (wall): {wall1 / wall2:.2f}x on {a.workers} workers; "
          f"implied by CPU times (1 process / busiest worker): {cpu1 / max(used):.2f}x")
    same = _untimed(one.report()) == _untimed(spread.report())
    print(f"  statistics identical to the single process: {'yes' if same else 'NO'}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
