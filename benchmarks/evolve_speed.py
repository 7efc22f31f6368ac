"""Benchmark: fitness evaluations per second, in one process and on a local Dask cluster.

Evaluates one generation of `ggpbridge evolve` (the parent and its mutants, as generation 0
of `--from GAME`) with the default playout counts (ggpbridge/evolve/default.toml) or those of
--config: first in this process, then on a LocalCluster of W worker processes (its start not
counted), and checks that both give the same evaluations (issue #35: results identical to a
local run). Prints wall and CPU time and evaluations per wall and per CPU second; on a shared
machine the wall figures depend on the other users, so it also prints the speed-up the CPU
times imply (this process's CPU over the busiest worker's).

Run: python benchmarks/evolve_speed.py [-n 20] [--workers 2] [--game games/uno.gcg] [--config FILE]
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from _clock import Clock, on_local_cluster, parser
from ggpbridge.evolve import load
from ggpbridge.evolve.breed import Individual, first_generation
from ggpbridge.evolve.run import EvaluateChunk, _evaluate
from ggpbridge.frontends import is_gcardgame

GAMES = Path(__file__).resolve().parents[1] / "games"


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("-n", type=int, default=20, help="individuals to evaluate (default 20)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes, one thread each (default 2)")
    ap.add_argument("--game", default=str(GAMES / "uno.gcg"), help="parent game (default games/uno.gcg)")
    ap.add_argument("--config", default=None, help="evolve --config file (default: the defaults)")
    a = ap.parse_args()
    import distributed  # noqa: F401  (missing: fail now, not after the single-process run)
    conf = load(a.config)
    lang = "gcardgame" if is_gcardgame(a.game) else "recycle"
    parent = Individual(Path(a.game).name, Path(a.game).read_text(encoding="utf-8"), "parent")
    pop = first_generation(lang, [parent], a.n, 0, random.Random(0))
    task = EvaluateChunk(tuple(p.text for p in pop), tuple(p.name for p in pop), tuple(range(a.n)), 0, 0,
                         json.dumps(conf, sort_keys=True))
    p = conf["playouts"]
    print(f"{Path(a.game).name} and {a.n - 1} mutants: {p['games']} random games + {p['potential_games']} "
          f"PIPMC/random games per seat each")
    clock = Clock()
    local, _, _ = _evaluate(task, a.n, None, None)
    wall1, cpu1 = clock.wall, clock.cpu
    print(f"  1 process:     {clock}  ({a.n / wall1:.2f} evaluations/s wall, {a.n / cpu1:.2f}/s CPU)")
    (spread, _, error), wall2, cpu2, used = on_local_cluster(
        a.workers, "  cluster start: ", lambda _, client: _evaluate(task, a.n, client, None))
    print(f"  {a.workers} workers:     {wall2:.2f} s wall, {cpu2:.2f} s CPU here + "
          f"{' + '.join(f'{u:.2f}' for u in used)} s CPU in the workers  ({a.n / wall2:.2f} evaluations/s wall)")
    print(f"  speed-up (wall): {wall1 / wall2:.2f}x; implied by CPU times (1 process / busiest worker): "
          f"{cpu1 / max(used):.2f}x")
    same = error is None and local == spread
    print(f"  evaluations identical to the single process: {'yes' if same else 'NO'}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
