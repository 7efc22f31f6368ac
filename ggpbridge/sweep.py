"""Lockstep sweeps: the cross-check of many files and seeds, on this machine or on a Dask cluster.

A run is one file and a range of seeds, checked in a child process under a memory limit (so
a translation too big to ground fails alone). The child reports after every playout, so a
run stopped at its timeout, by an interrupt or by the system keeps the playouts that agreed
before. Runs are handed out as threads free up (here, or the worker threads of a Dask
cluster), so every run handed out is one under way: an interrupt stops those, reports what
they had agreed and names the runs never handed out.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, as_completed, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

GRACE_SECONDS = 120   # a child is stopped after 3 x the time limit + this (the setup is not in the limit)
POLL_SECONDS = 1.0    # how often a run looks whether it is asked to stop
_RUNNING: set[subprocess.Popen] = set()   # this process's children running now
_LOCK = threading.Lock()
_CHILD = """
import resource, sys, json
limit = int(sys.argv[2]) << 30
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from ggpbridge.frontends import load_game
from ggpbridge.conformance import translation_status
from ggpbridge.crosscheck import crosscheck
loaded = load_game(sys.argv[1])
status = translation_status(loaded)
if not status.startswith("valid"):
    print(json.dumps({"translation": status})); sys.exit(0)
from ggpbridge.gdl.tables import GroundingTooLargeError
# a line after every playout: if this process is stopped, the parent keeps what agreed so far
try:
    rep = crosscheck(loaded, int(sys.argv[3]), time_limit=float(sys.argv[4]), max_events=int(sys.argv[5]),
                     fit=int(sys.argv[6]), seed=int(sys.argv[7]), machine=sys.argv[8],
                     on_playout=lambda r: print(json.dumps({"translation": status, **r.as_dict()}), flush=True))
except GroundingTooLargeError as e:   # refused in a second, where grounding would run out of memory
    print(json.dumps({"error": e.reason})); sys.exit(0)
print(json.dumps({"translation": status, **rep.as_dict()}))
"""


@dataclass(frozen=True)
class RunOptions:
    """How each run checks its file."""

    memory_gb: int = 8           # the child's address-space limit
    time_limit: float = 180.0    # seconds of play (the child is stopped at 3 x this + GRACE_SECONDS)
    max_events: int = 500        # a playout longer than this is a runaway game
    fit: int = 0                 # fit the translation's tables to this many random plays (0: worst case)
    machine: str = "clingo"      # the GDL engine the translation is played on (crosscheck.MACHINES)


class SweepInterrupted(Exception):
    """A sweep stopped by an interrupt, after reporting the runs that were under way."""

    def __init__(self, not_started: list):
        super().__init__(f"{len(not_started)} runs not started")
        self.not_started = not_started


def tasks(paths: list[Path], n: int, seed: int, chunk: int = 0) -> list[tuple[Path, int, int]]:
    """(file, first seed, playouts) of each run: a file's seeds seed..seed+n-1 in runs of
    `chunk` (0: all in one)."""
    return chunked([(path, seed, n) for path in paths], chunk)


def chunked(spans: list[tuple[Path, int, int]], chunk: int = 0) -> list[tuple[Path, int, int]]:
    """The runs of (file, first seed, playouts) spans: each span in runs of `chunk` seeds (0: in one)."""
    out = []
    for path, seed, n in spans:
        size = chunk if chunk > 0 else max(n, 1)
        out += [(path, first, min(size, seed + n - first)) for first in range(seed, seed + n, size)]
    return out


def run(path: Path, opts, seed: int, n: int, stop: Callable[[], bool] | None = None) -> dict:
    """The child's report on one file (`n` playouts from `seed`); if it failed or was stopped
    (`stop()` became true, or its timeout passed), what it had agreed by then. A run asked to
    stop before its child starts reports `{"not_started": True}`."""
    if stop is not None and stop():
        return {"not_started": True}
    t0 = time.perf_counter()
    limit = opts.time_limit * 3 + GRACE_SECONDS
    with subprocess.Popen([sys.executable, "-c", _CHILD, str(path), str(opts.memory_gb), str(n),
                           str(opts.time_limit), str(opts.max_events), str(opts.fit), str(seed), opts.machine],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        with _LOCK:
            _RUNNING.add(proc)
        try:
            stdout, stderr, timed_out = _communicate(proc, t0 + limit, stop)
        except BaseException:
            # (a stop flag that cannot be read, the scheduler gone): leaving the `with` would
            # wait for the child with no deadline
            proc.kill()
            raise
        finally:
            with _LOCK:
                _RUNNING.discard(proc)
    wall = time.perf_counter() - t0
    if timed_out:
        error = (f"stopped after {limit:g} s (3 x the time limit + {GRACE_SECONDS} s): "
                 "the setup or one playout took that long")
        return _salvaged(stdout, error, wall)
    if proc.returncode < 0:   # killed (asked to stop, by hand, by the system): the signal is all there is to say
        return _salvaged(stdout, f"stopped by signal {-proc.returncode}", wall)
    if proc.returncode != 0:
        last = (stderr.strip().splitlines() or ["?"])[-1]
        error = ("out of memory" if "MemoryError" in stderr or "std::bad_alloc" in stderr
                 else last[:120])
        return _salvaged(stdout, error, wall)
    return {**json.loads(stdout.strip().splitlines()[-1]), "wall": wall}


def _communicate(proc: subprocess.Popen, deadline: float, stop) -> tuple[str, str, bool]:
    """The child's output once it ends, killing it at `deadline` and terminating it when
    `stop()` becomes true; and whether the deadline passed."""
    stopping = False
    while True:
        try:
            # a retry after the timeout loses no output (subprocess's documented contract)
            stdout, stderr = proc.communicate(timeout=POLL_SECONDS)
            return stdout, stderr, False
        except subprocess.TimeoutExpired:
            if time.perf_counter() > deadline:
                proc.kill()
                stdout, stderr = proc.communicate()
                return stdout, stderr, True
            if not stopping and stop is not None and stop():
                proc.terminate()
                stopping = True


def _salvaged(stdout: str, error: str, wall: float) -> dict:
    """The last complete report the child printed, stopped for `error`; or the error alone."""
    for line in reversed(stdout.splitlines()):
        try:
            report = json.loads(line)
        except ValueError:
            continue   # a line cut by the kill
        if report.get("playouts"):
            return {**report, "stopped": f"{error}; kept the {report['playouts']} playouts before it",
                    "wall": wall}
        break
    return {"error": error, "wall": wall}


def run_shipped(name: str, source: bytes, opts, seed: int, n: int, stop_event: str | None = None) -> dict:
    """`run` on a Dask worker, which need not see the client's files: the file comes as its
    bytes; `stop_event` names the distributed Event that asks the run to stop."""
    stop = None
    if stop_event is not None:
        from distributed import Event
        stop = Event(stop_event).is_set
    with tempfile.TemporaryDirectory(prefix="ggpbridge-sweep-") as folder:
        path = Path(folder) / name
        path.write_bytes(source)
        return run(path, opts, seed, n, stop)


class LocalPool:
    """Runs on this machine, `jobs` at once (each child under its own memory limit)."""

    def __init__(self, jobs: int = 1):
        self.jobs = max(jobs, 1)
        self._stop = threading.Event()
        self._executor = ThreadPoolExecutor(max_workers=self.jobs)

    def slots(self) -> int:
        """How many runs can be under way at once."""
        return self.jobs

    def submit(self, path: Path, opts, seed: int, n: int):
        """Start a run; its future's result is the run's report."""
        return self._executor.submit(run, path, opts, seed, n, self._stop.is_set)

    def stop(self) -> None:
        """Ask every run under way to stop, and those handed out to start no child."""
        self._stop.set()

    def close(self) -> None:
        """Stop the runs still under way (none after a whole sweep) and free the threads."""
        self._stop.set()
        self._executor.shutdown(wait=True)


class DaskPool:
    """Runs on a Dask cluster (`address` of its scheduler, or "local": a cluster in this
    process with `jobs` threads), one run per worker thread. Give each worker as many threads
    as children fit in its memory (threads x the runs' memory limit)."""

    def __init__(self, address: str, jobs: int = 1):
        from distributed import Client, Event, LocalCluster
        self._cluster = self._client = None
        try:
            if address == "local":
                # the threads only wait on children: worker processes would add nothing
                # ":0": a free port for the dashboard (None means 8787, taken on shared machines)
                self._cluster = LocalCluster(n_workers=1, threads_per_worker=max(jobs, 1), processes=False,
                                             dashboard_address=":0")
                self._client = Client(self._cluster)
            else:
                self._client = Client(address)
            self._event = Event(f"ggpbridge-sweep-{uuid.uuid4().hex}", client=self._client)
            self._executor = self._client.get_executor(pure=False)
        except BaseException:   # an interrupt while connecting too: leave no cluster running
            self.close()
            raise

    def slots(self) -> int:
        """How many runs can be under way at once: the cluster's worker threads now."""
        return max(sum(self._client.nthreads().values()), 1)

    def submit(self, path: Path, opts, seed: int, n: int):
        """Start a run on a worker; its future's result is the run's report."""
        return self._executor.submit(run_shipped, path.name, path.read_bytes(), opts, seed, n, self._event.name)

    def stop(self) -> None:
        """Ask every run under way to stop, and those handed out to start no child."""
        self._event.set()

    def close(self) -> None:
        """Disconnect (and shut a local cluster down)."""
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def sweep(runs: list[tuple[Path, int, int]], opts, pool, on_report: Callable) -> None:
    """Check `runs` ((file, first seed, playouts) each) on `pool`, calling
    `on_report(file, seed, n, report)` as each ends. On KeyboardInterrupt no run is handed out
    any more, those under way are stopped and reported, and SweepInterrupted names the runs
    not started, in the order given."""
    todo = deque(enumerate(runs))
    under_way: dict = {}
    try:
        while todo or under_way:
            while todo and len(under_way) < pool.slots():
                i, (path, seed, n) = todo[0]
                # taken off the list once recorded as under way: an interrupt in between names it
                # as not started (if it started, the pool's stop ends it) rather than losing it
                under_way[pool.submit(path, opts, seed, n)] = (i, (path, seed, n))
                todo.popleft()
            done, _ = wait(under_way, return_when=FIRST_COMPLETED)
            for future in done:
                # forgotten only once reported: an interrupt in between reports it again (a
                # duplicate log line, which the summary counts once) rather than losing it
                on_report(*under_way[future][1], _result(future))
                del under_way[future]
    except KeyboardInterrupt:
        pool.stop()
        not_started = list(todo)
        while under_way:
            try:
                for future in as_completed(under_way):
                    report = _result(future)
                    if report.get("not_started"):
                        not_started.append(under_way[future])
                    else:
                        on_report(*under_way[future][1], report)
                    del under_way[future]
            except KeyboardInterrupt:   # asked again: the runs are stopping already, keep collecting
                continue
        raise SweepInterrupted([run for _, run in sorted(not_started, key=lambda x: x[0])]) from None
    except BaseException:   # a report that cannot be logged (a full disk), a cluster lost: stop the children
        pool.stop()
        raise


def _result(future) -> dict:
    """A run's report, or the error that kept it from reporting (a worker lost, say)."""
    try:
        return future.result()
    except Exception as e:   # noqa: BLE001 - one run's failure must not end the sweep
        return {"error": f"{type(e).__name__}: {e}"[:200], "wall": 0.0}
