"""Lockstep check (simulator against clingo on the translation) over many game files, one process each.

    python benchmarks/crosscheck_all.py [-n 200] [--seed 0] [--time-limit 180] [--max-events 500]
                                        [--memory-gb 8] [--fit PLAYS] [FILE_OR_DIR ...]   (default: games/)

Each file runs in its own process under a memory limit, so a translation too big to ground
is reported and the run goes on. Prints one row per file: playouts that agree, runaway games,
GDL steps per second, and why it stopped (time limit, memory, divergence with its seed).
With `--fit PLAYS` the translations' tables are fitted to that many random plays
(`translate --fit`); plays beyond the fit are counted in the `overflow` column.
Playout i uses seed S+i (`--seed S`), so a long sweep can be continued where one stopped.
Files that do not translate are listed as such.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_CHILD = """
import resource, sys, json
limit = int(sys.argv[2]) << 30
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from ggpbridge.recycle import parse_file
from ggpbridge.sim.conformance import translation_status
from ggpbridge.crosscheck import crosscheck
loaded = parse_file(sys.argv[1])
status = translation_status(loaded)
if not status.startswith("valid"):
    print(json.dumps({"translation": status})); sys.exit(0)
rep = crosscheck(loaded, int(sys.argv[3]), time_limit=float(sys.argv[4]), max_events=int(sys.argv[5]),
                 fit=int(sys.argv[6]), seed=int(sys.argv[7]))
print(json.dumps({"translation": status, **rep.as_dict()}))
"""


def files(args) -> list[Path]:
    out = []
    for p in map(Path, args or [ROOT / "games"]):
        out += sorted(x for x in p.rglob("*") if x.suffix in (".rcy", ".gdl")) if p.is_dir() else [p]
    return out


def run(path: Path, a) -> dict:
    t0 = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, "-c", _CHILD, str(path), str(a.memory_gb), str(a.n),
                               str(a.time_limit), str(a.max_events), str(a.fit), str(a.seed)],
                              capture_output=True, text=True, timeout=a.time_limit * 3 + 120)
    except subprocess.TimeoutExpired:
        return {"error": "a single playout outlasted the time limit", "wall": time.perf_counter() - t0}
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return {"error": "out of memory" if "MemoryError" in proc.stderr or "std::bad_alloc" in proc.stderr
                else last[:120], "wall": wall}
    return {**json.loads(proc.stdout.strip().splitlines()[-1]), "wall": wall}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="*")
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=180.0)
    ap.add_argument("--max-events", type=int, default=500)
    ap.add_argument("--memory-gb", type=int, default=8)
    ap.add_argument("--fit", type=int, default=0)
    a = ap.parse_args()
    print(f"{'file':34} {'agree':>9} {'runaway':>7} {'overflow':>8} {'steps/s':>8} {'wall s':>7}  note", flush=True)
    for path in files(a.paths):
        r = run(path, a)
        name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name
        if "error" in r:
            print(f"{name:34} {'-':>9} {'-':>7} {'-':>8} {'-':>8} {r['wall']:7.0f}  error: {r['error']}", flush=True)
            continue
        if "playouts" not in r:
            print(f"{name:34} {'-':>9} {'-':>7} {'-':>8} {'-':>8} {r['wall']:7.0f}  {r['translation'][:90]}",
                  flush=True)
            continue
        d = r["divergence"]
        note = f"DIVERGED at seed {d['seed']}: {d['what'][:80]}" if d else (r["stopped"] or "")
        rate = r["gdl_steps"] / r["seconds"] if r["seconds"] else 0.0
        print(f"{name:34} {r['playouts']:>4}/{a.n:<4} {len(r['capped']):>7} {len(r['overflowed']):>8} {rate:8.0f} "
              f"{r['wall']:7.0f}  {note}", flush=True)


if __name__ == "__main__":
    main()
