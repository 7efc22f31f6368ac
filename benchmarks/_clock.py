"""Wall and CPU time for the benchmarks, and their argument parser.

The machines they run on are shared: wall time alone says as much about the other users as
about the code. CPU time (of this process, and of the child processes it waited for) says
what the work itself cost; every benchmark prints both.
"""
from __future__ import annotations

import argparse
import resource
import time


def children_cpu() -> float:
    """CPU seconds (user + system) of the child processes waited for so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


class Clock:
    """Wall and CPU time since it was made (or `restart`ed)."""

    def __init__(self):
        self.restart()

    def restart(self) -> None:
        """Count from now."""
        self._wall, self._cpu, self._children = time.perf_counter(), time.process_time(), children_cpu()

    @property
    def wall(self) -> float:
        """Seconds of wall time."""
        return time.perf_counter() - self._wall

    @property
    def cpu(self) -> float:
        """CPU seconds of this process."""
        return time.process_time() - self._cpu

    @property
    def children(self) -> float:
        """CPU seconds of the child processes that ended since."""
        return children_cpu() - self._children

    def __str__(self) -> str:
        kids = self.children
        return (f"{self.wall:.2f} s wall, {self.cpu:.2f} s CPU"
                + (f" (+ {kids:.2f} s CPU in child processes)" if kids > 0.005 else ""))


def timed(fn):
    """`fn()`, and the CPU and wall seconds it took (this process): (result, cpu, wall)."""
    clock = Clock()
    out = fn()
    return out, clock.cpu, clock.wall


def parser(doc: str) -> argparse.ArgumentParser:
    """An argument parser whose --help prints the benchmark's docstring as written."""
    return argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)


def on_local_cluster(workers: int, started: str, work):
    """Start a Dask LocalCluster of `workers` processes (one thread each), print `started`
    followed by the time its start took, then run `work(cluster, client)` (its start not counted).

    Returns (what `work` returned, its wall seconds, its CPU seconds in this process, the CPU
    seconds each worker spent during it, as the workers measure it)."""
    from distributed import Client, LocalCluster
    clock = Clock()
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0")
    print(f"{started}{clock}")
    try:
        client = Client(cluster)
        before = client.run(time.process_time)
        clock = Clock()
        got = work(cluster, client)
        wall, cpu = clock.wall, clock.cpu
        used = [client.run(time.process_time)[w] - t for w, t in before.items()]
        client.close()
    finally:
        cluster.close()
    return got, wall, cpu, used
