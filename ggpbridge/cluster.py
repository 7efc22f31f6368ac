"""Games played on a Dask cluster, in seeded chunks, with results identical to one process.

`map_games(task, seeds, ...)` splits a range of seeds into contiguous chunks and runs
`task(chunk)` for each on a Dask distributed cluster: one at `cluster` (a scheduler's address,
`tcp://HOST:PORT`, started with `dask scheduler`, its workers with `dask worker ADDRESS`), or a
local cluster of `workers` processes started for the call. Game i is played with seed i whatever
the chunk it falls in, so a task that plays its chunk as one process would (`SimulateChunk`), and
results merged in seed order (`Stats.merge`, exact), give exactly the single-process figures.

The task travels to the workers pickled: it carries the game itself (its IR, which workers need
not read from a file they may not have) and compiles it once per worker thread.
"""
from __future__ import annotations

import hashlib
import pickle
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable

from .errors import GgpBridgeError

MAX_CHUNK = 2_000        # games per chunk at most: the progress bar moves, an interrupt loses little
CHUNKS_PER_THREAD = 8    # chunks per worker thread at least: a slow chunk does not hold the others up


class ClusterError(GgpBridgeError):
    """The cluster could not be reached or started."""


@dataclass
class Mapped:
    """The results of the chunks that completed, in seed order, and why the others did not."""

    results: list = field(default_factory=list)
    chunks: list = field(default_factory=list)    # the range of seeds of each result
    interrupted: bool = False
    error: str | None = None                        # a chunk that failed (a worker lost, say)
    seconds: float = 0.0


def chunked(seeds: range, size: int) -> list[range]:
    """Contiguous chunks of `size` seeds (the last may be shorter)."""
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


def chunk_size(n: int, threads: int) -> int:
    """Games per chunk for n games on `threads` worker threads."""
    return max(1, min(MAX_CHUNK, -(-n // (max(threads, 1) * CHUNKS_PER_THREAD))))


def map_games(task: Callable, seeds: range, *, cluster=None, workers: int | None = None,
              chunk: int | None = None, progress: Callable | None = None) -> Mapped:
    """Run `task(chunk)` for contiguous chunks of `seeds` on a Dask cluster: the one at address
    `cluster` (or a `distributed.Client` / cluster object), else a local cluster of `workers`
    processes (one thread each) started and shut down here.

    `progress(k)` is called as each chunk of k games completes, wherever it ran. Ctrl-C cancels the
    chunks not done and returns the done ones with `interrupted` set; a chunk that raises stops
    the run the same way, with its error."""
    Client, LocalCluster, as_completed = _distributed()
    t0 = time.perf_counter()
    own_cluster = client = None
    out = Mapped()
    try:
        client, own_cluster = _connect(cluster, workers, Client, LocalCluster)
        threads = sum(client.nthreads().values()) or workers or 1
        parts = chunked(seeds, chunk or chunk_size(len(seeds), threads))
        futures = {client.submit(task, part, pure=False): i for i, part in enumerate(parts)}
        done: dict = {}
        try:
            for future in as_completed(futures):
                i = futures[future]
                try:
                    done[i] = future.result()
                except Exception as e:   # noqa: BLE001 - keep what the other chunks computed
                    out.error = f"seeds {parts[i].start}..{parts[i].stop - 1}: {type(e).__name__}: {e}"
                    break
                if progress is not None:
                    progress(len(parts[i]))
        except KeyboardInterrupt:
            out.interrupted = True
        if out.interrupted or out.error:
            client.cancel(list(futures))
        for i in sorted(done):
            out.results.append(done[i])
            out.chunks.append(parts[i])
    except KeyboardInterrupt:   # while connecting or starting the cluster: nothing computed yet
        out.interrupted = True
    finally:
        if client is not None and client is not cluster:   # a client handed in is the caller's to close
            client.close()
        if own_cluster is not None:
            own_cluster.close()
    out.seconds = time.perf_counter() - t0
    return out


def _distributed():
    """Dask's Client, LocalCluster and as_completed, or a ClusterError saying how to install it."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise ClusterError("--cluster and --workers need Dask: pip install 'dask[distributed]'") from None
    return Client, LocalCluster, as_completed


def _connect(cluster, workers, Client, LocalCluster):
    """A client of the cluster asked for, and the cluster when it was started here."""
    if cluster is None:
        # ":0": the dashboard on a free port (None means the default 8787, taken on shared machines)
        local = LocalCluster(n_workers=max(workers or 1, 1), threads_per_worker=1, processes=True,
                             dashboard_address=":0")
        try:
            return Client(local), local
        except BaseException:
            local.close()
            raise
    if not isinstance(cluster, str):
        return (cluster, None) if isinstance(cluster, Client) else (Client(cluster), None)
    try:
        return Client(cluster, timeout=10), None
    except (OSError, TimeoutError) as e:
        raise ClusterError(f"cannot reach the Dask scheduler at {cluster}: {e}") from None
    except ValueError as e:   # not an address Dask reads
        raise ClusterError(f"{cluster} is not a Dask scheduler address (tcp://HOST:PORT): {e}") from None


# ------------------------------------------------------------------ simulate's chunks

_PROGRAMS: dict = {}   # (token, thread) -> compiled Program: one compile per worker thread


@dataclass(frozen=True)
class SimulateChunk:
    """Plays a chunk of seeds as `simulate` does in one process; returns its `Stats`."""

    loaded: object           # recycle.Loaded: the game, read on the client
    overrides: tuple = ()
    players: str = "random"
    max_steps: int = 100_000
    detailed: bool = False

    def __call__(self, seeds: range):
        from .sim import simulate
        prog = compiled(self.loaded, self.overrides)
        return simulate(prog, len(seeds), seeds.start, self.players, self.max_steps, detailed=self.detailed)


def compiled(loaded, overrides: tuple):
    """The game compiled once per worker thread (a task's `loaded` IR and sorted `overrides`)."""
    from .sim import compile_loaded
    # a Program is compiled code with scratch state: not shared between a worker's threads
    token = hashlib.sha256(pickle.dumps((loaded, overrides))).hexdigest()
    key = (token, threading.get_ident())
    prog = _PROGRAMS.get(key)
    if prog is None:
        if len(_PROGRAMS) >= 64:   # a long-lived worker serving many games keeps the recent ones
            _PROGRAMS.clear()
        prog = _PROGRAMS[key] = compile_loaded(loaded, dict(overrides))
    return prog


@contextmanager
def session(cluster=None, workers: int | None = None):
    """One client for several `map_games` calls (a local cluster is started once, not per call);
    yields None when neither is asked for, meaning: play in this process."""
    if cluster is None and not workers:
        yield None
        return
    Client, LocalCluster, _ = _distributed()
    client, own = _connect(cluster, workers, Client, LocalCluster)
    try:
        yield client
    finally:
        client.close()
        if own is not None:
            own.close()


def prefix(mapped: Mapped, seeds: range) -> list:
    """The results of the chunks that completed without a gap from the first seed on (an
    interrupted run may have finished a later chunk before an earlier one)."""
    out, nxt = [], seeds.start
    for part, result in zip(mapped.chunks, mapped.results):
        if part.start != nxt:
            break
        out.append(result)
        nxt = part.stop
    return out


def simulate_on_cluster(loaded, overrides: dict, n: int, seed: int = 0, players: str = "random",
                        max_steps: int = 100_000, detailed: bool = False, *, cluster=None,
                        workers: int | None = None, chunk: int | None = None, progress=None):
    """`sim.simulate` of games seed..seed+n-1 on a Dask cluster (see `map_games`): the same `Stats`,
    with `seconds` the wall time here and `interrupted` set when it stopped early."""
    from .sim import compile_loaded, stats_for
    prog = compile_loaded(loaded, overrides)   # errors in the game are reported before any cluster starts
    task = SimulateChunk(loaded, tuple(sorted(overrides.items())), players, max_steps, detailed)
    mapped = map_games(task, range(seed, seed + n), cluster=cluster, workers=workers, chunk=chunk,
                       progress=progress)
    stats = stats_for(prog)   # with the columns of a front-end's tallies (G_cardgame's Table 5)
    for part in mapped.results:
        stats.merge(part)
    stats.engine = mapped.results[0].engine if mapped.results else stats.engine
    stats.seconds = mapped.seconds
    stats.interrupted = mapped.interrupted or mapped.error is not None
    stats.cluster_error = mapped.error
    return stats


__all__ = ["ClusterError", "Mapped", "map_games", "chunked", "chunk_size", "SimulateChunk", "simulate_on_cluster", "compiled",
           "session", "prefix"]
