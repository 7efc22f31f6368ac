"""How fast a sweep (ggpbridge.sweep) stops children it no longer wants: a child past its
timeout, the children under way when a report cannot be logged, and the children under way
when the sweep is interrupted (SIGINT, as Ctrl-C). Each child reports one playout, then sleeps
a minute: a sweep that waited for it instead of stopping it would take that minute.

    python benchmarks/sweep_stop.py [--repeat N] [--sleep SECONDS] [--goal SECONDS]

Prints, per case and repetition, the wall time from the start (or the interrupt) to the
sweep's return, this process's CPU time and its children's, and whether it met the goal
(30 s by default, the figure tests/test_crosscheck_sweep.py once asserted). The tests keep the
behaviour (the children are stopped, not waited for); the time is measured here, on a
machine whose load is printed beside it. Exits 1 when a case misses the goal.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import sys
import threading
import time
from pathlib import Path

from ggpbridge import sweep as core

REPORT = {"translation": "valid", "file": "games/x.rcy", "fit": 0, "max_events": 500, "asked": 10,
          "kif_sha256": "a" * 64, "playouts": 1, "capped": [], "overflowed": [], "divergence": None}


def child(sleep: float, only_after_seed0: bool = False) -> str:
    """A child program that reports a playout, then sleeps (all seeds, or all but seed 0)."""
    lines = ["import sys, time", f"print({json.dumps(json.dumps(REPORT))}, flush=True)"]
    lines.append(f"if sys.argv[7] != '0': time.sleep({sleep})" if only_after_seed0 else f"time.sleep({sleep})")
    return "\n".join(lines)


def cpu() -> tuple[float, float]:
    """CPU seconds (user + system) of this process and of its children that were waited for."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


def timeout_case(sleep: float) -> float:
    """A child past its timeout (0.1 s of play x 3 + 1 s grace): seconds until run() returns."""
    core.GRACE_SECONDS = 1.0
    core._CHILD = child(sleep)
    t0 = time.perf_counter()
    row = core.run(Path("games/x.rcy"), core.RunOptions(memory_gb=1, time_limit=0.1), 40, 10)
    assert "stopped after" in row.get("stopped", ""), row
    return time.perf_counter() - t0 - 1.3   # beyond the timeout itself


def unloggable_case(sleep: float) -> float:
    """Seed 0's report cannot be logged while seed 10's child sleeps: seconds until sweep() raises."""
    core._CHILD = child(sleep, only_after_seed0=True)

    def log(path, seed, n, report):
        raise OSError(28, "No space left on device")
    pool = core.LocalPool(2)
    t0 = time.perf_counter()
    try:
        core.sweep(core.tasks([Path("x.rcy")], 20, 0, 10), core.RunOptions(), pool, log)
    except OSError:
        pass
    finally:
        pool.close()
    return time.perf_counter() - t0


def interrupt_case(sleep: float) -> float:
    """SIGINT once two children run: seconds from the signal until the sweep has stopped them."""
    core._CHILD = child(sleep)
    sent = {}

    def interrupt():
        while len(core._RUNNING) < 2:
            time.sleep(0.05)
        time.sleep(1.0)
        sent["at"] = time.perf_counter()
        os.kill(os.getpid(), signal.SIGINT)
    threading.Thread(target=interrupt, daemon=True).start()
    pool = core.LocalPool(2)
    try:
        core.sweep(core.tasks([Path("x.rcy")], 9, 3, 3), core.RunOptions(time_limit=100), pool,
                   lambda *a: None)
    except (core.SweepInterrupted, KeyboardInterrupt):
        pass
    finally:
        pool.close()
    return time.perf_counter() - sent["at"]


CASES = {"child past its timeout": timeout_case, "report that cannot be logged": unloggable_case,
         "interrupt (SIGINT)": interrupt_case}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=1, help="repetitions of each case (default 1)")
    ap.add_argument("--sleep", type=float, default=60.0, help="how long each child would sleep (default 60 s)")
    ap.add_argument("--goal", type=float, default=30.0, help="seconds a case may take to stop (default 30)")
    a = ap.parse_args()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores")
    print(f"{'case':<30} {'stop wall s':>11} {'cpu self s':>10} {'cpu children s':>14}  goal")
    missed = 0
    for name, case in CASES.items():
        for _ in range(a.repeat):
            me0, kids0 = cpu()
            wall = case(a.sleep)
            me1, kids1 = cpu()
            ok = wall < a.goal
            missed += not ok
            print(f"{name:<30} {wall:11.2f} {me1 - me0:10.2f} {kids1 - kids0:14.2f}  "
                  f"{'met' if ok else 'MISSED'} (< {a.goal:g} s)", flush=True)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
