"""Lockstep check (simulator against clingo on the translation) over many game files, one process each.

    python benchmarks/crosscheck_all.py [-n 200] [--seed 0] [--time-limit 180] [--max-events 500]
                                        [--memory-gb 8] [--fit PLAYS] [--machine clingo|propnet]
                                        [--log FILE]
                                        [--jobs 1] [--chunk SEEDS] [--dask ADDRESS|local]
                                        [FILE_OR_DIR ...]
    python benchmarks/crosscheck_all.py --summary FILE [FILE ...] [--current [FOLDER ...]] [-n 200]

FILE_OR_DIR defaults to games/.

Each file runs in its own process under a memory limit, so a translation too big to ground
is reported and the run goes on. The child reports after every playout, so a child stopped
at 3 x the time limit + 120 s, or failing (out of memory), keeps the playouts that agreed
before. Prints one row per file: playouts that agree, runaway games, GDL steps per second,
and why it stopped (time limit, memory, divergence with its seed).
With `--fit PLAYS` the translations' tables are fitted to that many random plays
(`translate --fit`); plays that end as `overflow` (beyond the fit, or a score off the tables) are
counted in the `overflow` column.
Playout i uses seed S+i (`--seed S`), so a long sweep can be continued where one stopped.
`--resume LOG` (again for each log) does that from the logs: of seeds S..S+N-1 it plays only
those no logged run agreed on for the translation each file has now (same --fit and
--max-events), the files whose logged playouts were cheapest first; files complete, diverged
or no longer translating are named.
Twins, files that read into the same game and translate to the same text (the corpus has most
games both as .rcy and in the older .gdl dialect; `ggpbridge.sweep_logs.TwinFinder`), run the same
lockstep for each seed: `--resume` and `--summary` count their seeds together, and a resumed
sweep plays them on one of them.
`--dry-run` prints the runs a sweep would start instead of starting them.
Files that do not translate are listed as such.

`--chunk SEEDS` splits each file's seeds into runs of that many, a child each (every child
translates, grounds and specializes the game's programs again, most of a first playout's
time: worth it for long games, Hearts or Lost Cities);
`--jobs J` runs J children at once (each under its own memory limit: J x --memory-gb must fit).
`--dask ADDRESS` hands the runs to a Dask cluster instead (`dask scheduler` and `dask worker
ADDRESS --nthreads T` on each machine, T x --memory-gb fitting it, ggpbridge installed;
the files travel with the runs), one run per worker thread; `--dask local` starts one in
this process with --jobs threads. The logic is `ggpbridge.sweep`.
Rows and log lines come in the order the children finish, each with its seeds.
An interrupt (Ctrl-C, or SIGTERM: `kill` the sweep's process) starts no more children, stops
the running ones (on the cluster too) and logs what they had agreed ("stopped by signal 15"),
names the first run it did not start and exits with 130 (while connecting to a cluster: it
starts nothing, and leaves no local cluster behind). A --dask address where no scheduler
answers, or a server that is not one, is a clean error.

`--log FILE` appends each file's report to FILE as a JSON line, with the SHA-256 of the
translation it checked; `--summary FILE...` adds the runs of one or more logs up per file and
translation: the seeds that agree (each counted once), runaways, overflows and every
divergence. Runs of another translation of the same file (after a change to the translator)
are counted apart; `--current [FOLDER...]` translates the files again (found by name in the
folders, games/ by default) to mark which translation each has now, and counts the files of
the folders that translate now with -n seeds agreeing on it (their twins' seeds with their own).
"""
from __future__ import annotations

import argparse
import datetime
import json
import signal
from pathlib import Path

from _clock import Clock
from ggpbridge.sweep import DaskPool, LocalPool, RunOptions, SweepInterrupted, chunked, sweep, tasks
from ggpbridge.conformance import files_under
from ggpbridge.crosscheck import MACHINES
from ggpbridge.sweep_logs import (SweepLogError, TwinFinder, checks_clean, current_sha, merged, read_logs, remaining,
                                  short_sha)

ROOT = Path(__file__).resolve().parents[1]


def files(args) -> list[Path]:
    """The game files of these files and folders (games/ by default)."""
    return files_under(args or [ROOT / "games"])


def summary(*logs: Path, current: list[Path] | None = None, n: int = 200) -> None:
    """Per file and translation: the seeds that agree, counted once over every run of the logs.
    With `current` (folders), each translation is marked as the one the file translates to now
    (`yes`) or an older one (`old`), and the files of the folders with `n` seeds agreeing now are
    counted, a file's twins' seeds with its own (`ggpbridge.sweep_logs.TwinFinder`)."""
    known = _finder(current) if current is not None else {}
    # older logs named files outside the checkout by their base name: one name per file
    groups, unplayed = read_logs(*logs, rename=lambda name: log_name(known[name]) if name in known else name)
    fits = sorted({fit for _, _, fit, _ in groups})
    wanted = {(name, fit) for name, _, fit, _ in groups} | {(log_name(p), fit) for p in set(known.values())
                                                            for fit in fits}
    now, loaded = _current_shas(wanted, known) if current is not None else ({}, {})
    width = max([34] + [len(name) for name, *_ in groups] + [len(name) for name in unplayed])
    print(f"{'file':{width}} {'kif sha256':12} {'now':>3} {'fit':>4} {'events':>6} {'agree':>6} {'seeds':>11} "
          f"{'runaway':>7} {'overflow':>8} {'runs':>4}  diverged at seeds")
    for (name, sha, fit, events), g in sorted(groups.items()):
        seeds = f"{min(g.agree)}..{max(g.agree)}" if g.agree else "-"
        mark = "-" if current is None else "?" if now.get((name, fit)) is None else \
            "yes" if now[name, fit] == sha else "old"
        diverged = ", ".join(map(str, g.diverged)) or "-"
        print(f"{name:{width}} {sha:12} {mark:>3} {fit:>4} {events:>6} {len(g.agree):>6} {seeds:>11} "
              f"{len(g.runaway):>7} {len(g.overflow):>8} {g.runs:>4}  {diverged}")
    played = {name for name, *_ in groups}
    for name, why in sorted(unplayed.items()):
        if name in played:
            continue
        print(f"{name:{width}} {'-':12} {'-':>3} {'-':>4} {'-':>6} {'-':>6} {'-':>11} {'-':>7} {'-':>8} {'-':>4}  "
              f"not played: {why[:80]}")
    if current is not None:
        _count_done(groups, now, loaded, known, n, current)


def _count_done(groups: dict, now: dict, loaded: dict, known: dict[str, Path], n: int, folders: list[Path]) -> None:
    """Print the twins and the count of the folders' files (`known`) with `n` seeds agreeing on
    the translation they have now, none diverging, twins' seeds (logged under any name the logs
    have, in these folders or not) counted together."""
    finder = TwinFinder(groups, lambda name: loaded[name] if name in loaded else _read_named(name, known))
    names = sorted({log_name(p) for p in set(known.values())})
    done, through, translating = [], 0, 0
    for name in names:
        shas = {fit: sha for (other, fit), sha in now.items() if other == name and sha is not None}
        translating += bool(shas)
        best, own, diverged = 0, 0, False
        for fit, sha in shas.items():
            twins = finder.twins(name, sha, loaded[name])
            if len(twins) > 1:
                print(f"twins: {name} counts the seeds of {', '.join(twins[1:])} (the same game and translation)")
            # a divergence on the current translation, at any fit or event cap, undoes the file
            diverged |= any(g.diverged for (who, s, _, _), g in groups.items() if who in twins and s == sha)
            for events in {e for (who, s, f, e) in groups if who in twins and (s, f) == (sha, fit)}:
                best = max(best, len(merged(groups, twins, sha, fit, events).agree))
                own = max(own, len(merged(groups, twins[:1], sha, fit, events).agree))
        if best >= n and not diverged:
            done.append(name)
            through += own < n
    print(f"files with {n} or more seeds agreeing on the translation they have now, none diverging: "
          f"{len(done)} of the {translating} files in {', '.join(map(str, folders))} that translate now"
          + (f" ({through} of them by their twins' seeds)" if through else ""))


def resumed(paths: list[Path], logs: list[Path], a) -> list[tuple[Path, int, int]]:
    """The spans (file, first seed, playouts) of seeds a.seed..a.seed+a.n-1 that the logs do not yet
    have agreeing on the translation each file has now (fitted to a.fit plays, at a.max_events), the
    files logged as cheapest a playout first (never played last, in their order). A file whose logs
    have a divergence on that translation, that does not translate now, or whose translation is too
    large to ground (`ggpbridge.gdl.tables`), is named and left out. Twins (the same game and
    translation, `ggpbridge.sweep_logs.TwinFinder`) count each other's seeds, and only the first of
    them to need seeds plays them."""
    paths = list({log_name(path): path for path in paths}.values())   # a file named twice is one file
    known = _known(paths)
    groups, _ = read_logs(*logs, rename=lambda name: log_name(known[name]) if name in known else name)
    from ggpbridge.crosscheck import checked_translation
    from ggpbridge.gdl.tables import GroundingTooLargeError, check_groundable
    from ggpbridge.recycle import parse_file
    finder = TwinFinder(groups, lambda name: _read_named(name, known))
    plan, complete, left_out, twinned, playing = [], 0, [], [], set()
    for order, path in enumerate(paths):
        name = log_name(path)
        try:
            loaded = parse_file(path)
            desc = checked_translation(loaded, None, a.fit).description
        except Exception as e:   # noqa: BLE001 - named below; the other files go on
            left_out.append(f"{name}: does not translate now ({type(e).__name__}: {str(e).splitlines()[0][:80]})")
            continue
        try:
            check_groundable(desc)
        except GroundingTooLargeError as e:   # the clingo machine would refuse it in every run
            left_out.append(f"{name}: {e.reason}")
            continue
        sha = short_sha(desc)
        twins = finder.twins(name, sha, loaded)
        finder.register(name, sha, loaded)
        rest = remaining(groups, twins, sha, a.fit, a.max_events, range(a.seed, a.seed + a.n))
        if len(twins) > 1:
            twinned.append(f"{name} counts the seeds of {', '.join(twins[1:])}")
        if rest.diverged:
            left_out.append(f"{name}: diverged at seed {rest.diverged[0]} on the translation it has now (logged)")
        elif not rest.spans:
            complete += 1
        elif not playing.intersection(twins):
            playing.add(name)
            plan.append((rest.cost is None, rest.cost or 0.0, order, path, rest.spans))
    plan.sort(key=lambda x: x[:3])
    spans = [(path, first, n) for *_, path, ss in plan for first, n in ss]
    by_twin = len(paths) - complete - len(plan) - len(left_out)
    print(f"resumed from the logs: {complete} files complete, {len(plan)} with {sum(n for *_, n in spans)} "
          f"seeds to play, {len(left_out)} left out" + (f", {by_twin} played by a twin" if by_twin else ""),
          flush=True)
    for why in left_out:
        print(f"  left out: {why}", flush=True)
    for line in twinned:
        print(f"  twins: {line} (the same game and translation)", flush=True)
    return spans


def _current_shas(wanted: set, known: dict[str, Path]) -> tuple[dict, dict]:
    """(file, fit) -> the first 12 hex digits of the SHA-256 of the translation that file (found
    in `known` by its log name) has now, fitted as logged; None when it is not found, fails, or
    has a checker error (the lockstep refuses it). And file -> the game read from it, for the
    files found."""
    from ggpbridge.recycle import parse_file
    out, loaded = {}, {}
    for name, fit in sorted(wanted):
        path = known.get(name)
        try:
            if path and name not in loaded:
                loaded[name] = parse_file(path)
            out[name, fit] = current_sha(loaded[name], fit) if path and checks_clean(loaded[name]) else None
        except Exception:   # noqa: BLE001 - a file that no longer translates has no current translation
            out[name, fit] = None
    return out, loaded


def _read_named(name: str, known: dict[str, Path]):
    """The game of the file a log names (`_path_of`), or None when it names none."""
    from ggpbridge.recycle import parse_file
    path = _path_of(name, known)
    return parse_file(path) if path else None


def _path_of(name: str, known: dict[str, Path]) -> Path | None:
    """The file a log names: a file of this sweep, else one found from the checkout or the folder
    it is in, or by its absolute path (log_name's ways); None for any other name (an older log's
    base name names no file outside the sweep)."""
    if name in known:
        return known[name]
    for path in (ROOT / name, ROOT.parent / name, Path(name)):
        if path.is_absolute() and path.is_file():
            return path
    return None


def log_name(path: Path) -> str:
    """How logs name a file: from the checkout (games/war.rcy), else from the folder the checkout
    is in (shared/corpus/cardstock/rcy/Whist4.rcy), else by its absolute path."""
    path = path.resolve()
    for base in (ROOT, ROOT.parent):
        if path.is_relative_to(base):
            return str(path.relative_to(base))
    return str(path)


def _finder(folders: list[Path]) -> dict[str, Path]:
    """Log name -> file, for the files in `folders`; a base name too where only one file has it."""
    return _known(files(folders))


def _known(paths: list[Path]) -> dict[str, Path]:
    """Log name -> file, for these files; a base name too (older logs' names) where only one has it."""
    out = {log_name(p): p for p in paths}
    bases: dict[str, list] = {}
    for p in paths:
        bases.setdefault(p.name, []).append(p)
    out.update({base: ps[0] for base, ps in bases.items() if len(ps) == 1 and base not in out})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*")
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=180.0)
    ap.add_argument("--max-events", type=int, default=500)
    ap.add_argument("--memory-gb", type=int, default=8)
    ap.add_argument("--fit", type=int, default=0)
    ap.add_argument("--machine", choices=MACHINES, default="clingo",
                    help="the GDL engine the translations are played on (propnet: the same answers, faster; "
                         "about 1.5 KB of memory per ground rule)")
    ap.add_argument("--log", type=Path, help="append each file's report to this file, a JSON line each")
    ap.add_argument("--summary", type=Path, nargs="+", help="add up the runs of these logs instead of running")
    # one log a flag: a list would swallow the files that follow it
    ap.add_argument("--resume", type=Path, action="append", metavar="LOG",
                    help="play only the seeds the logs (this option again for each) do not have agreeing on "
                         "each file's current translation (same --fit and --max-events), cheapest files first")
    ap.add_argument("--dry-run", action="store_true", help="print the runs the sweep would start, and stop")
    ap.add_argument("--current", type=Path, nargs="*",
                    help="with --summary: mark the translations files (found in these folders, games/ by "
                         "default) have now, and count the files with -n seeds agreeing on them")
    ap.add_argument("--jobs", type=int, default=1, help="runs at once (with --dask local: the cluster's threads)")
    ap.add_argument("--chunk", type=int, default=0, help="seeds per run (0: a file's seeds in one)")
    ap.add_argument("--dask", metavar="ADDRESS",
                    help="hand the runs to the Dask cluster at this scheduler address (or 'local')")
    a = ap.parse_args()
    try:
        if a.summary:
            summary(*a.summary, current=None if a.current is None else a.current or [ROOT / "games"], n=a.n)
            return
        runs = chunked(resumed(files(a.paths), a.resume, a), a.chunk) if a.resume \
            else tasks(files(a.paths), a.n, a.seed, a.chunk)
    except (OSError, SweepLogError) as e:   # a log that is missing or is not one
        raise SystemExit(f"crosscheck_all.py: {e}") from None
    opts = RunOptions(memory_gb=a.memory_gb, time_limit=a.time_limit, max_events=a.max_events, fit=a.fit,
                      machine=a.machine)
    a.width = max([34] + [len(log_name(path)) for path, _, _ in runs])
    if a.dry_run:
        for path, seed, n in runs:
            print(f"{log_name(path):{a.width}} {f'{seed}..{seed + n - 1}':>9}")
        return
    # A sweep started in the background ignores SIGINT and is stopped with SIGTERM: both are an
    # interrupt here, so that the runs under way are logged either way.
    handlers = {sig: signal.signal(sig, _interrupt) for sig in (signal.SIGINT, signal.SIGTERM)}
    pool, clock = None, Clock()
    try:
        pool = _dask_pool(a.dask, a.jobs) if a.dask else LocalPool(a.jobs)
        print(f"{'file':{a.width}} {'seeds':>9} {'agree':>9} {'runaway':>7} {'overflow':>8} {'steps/s':>8} "
              f"{'wall s':>7}  note", flush=True)
        sweep(runs, opts, pool, lambda path, seed, n, r: report(a, path, seed, n, r))
    except SweepInterrupted as stopped:
        if stopped.not_started:
            path, seed, _ = stopped.not_started[0]
            print(f"interrupted; runs not started: {len(stopped.not_started)}, the first at seed {seed} "
                  f"of {log_name(path)}", flush=True)
        raise SystemExit(130) from None   # the shell's code for an interrupt, without a traceback
    except KeyboardInterrupt:   # outside the sweep: connecting to the cluster, or closing the pool
        if pool is None:
            print(f"interrupted before any run started; runs not started: {len(runs)}", flush=True)
        raise SystemExit(130) from None
    finally:
        if pool is not None:
            pool.close()
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        # the runs' processes are waited for by now; a Dask cluster's workers are not counted
        print(f"total: {clock}", flush=True)


def _dask_pool(address: str, jobs: int) -> DaskPool:
    """The cluster's pool, or a clean exit saying why there is none."""
    try:
        return DaskPool(address, jobs)
    except ImportError:
        raise SystemExit("--dask needs the distributed package: pip install -e '.[dask]'") from None
    except (OSError, TimeoutError, ValueError) as e:
        raise SystemExit(f"cannot reach the Dask scheduler at {address}: {e}") from None
    except (MemoryError, OverflowError):   # a server that is no scheduler: its first bytes read as a huge length
        raise SystemExit(f"cannot reach the Dask scheduler at {address}: the server there does not speak "
                         f"Dask's protocol") from None


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def report(a, path: Path, seed: int, n: int, r: dict) -> None:
    """Log (with --log) and print one run's report."""
    name = log_name(path)
    seeds = f"{seed}..{seed + n - 1}"
    if a.log:
        with a.log.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"file": name, "fit": a.fit, "max_events": a.max_events, "machine": a.machine,
                                  "seed": seed,
                                  "asked": n, "date": datetime.datetime.now().isoformat(timespec="seconds"),
                                  **r}) + "\n")
    blank = f"{'-':>9} {'-':>7} {'-':>8} {'-':>8}"
    if "error" in r:
        print(f"{name:{a.width}} {seeds:>9} {blank} {r['wall']:7.0f}  error: {r['error']}", flush=True)
        return
    if "playouts" not in r:
        print(f"{name:{a.width}} {seeds:>9} {blank} {r['wall']:7.0f}  {r['translation'][:90]}", flush=True)
        return
    d = r["divergence"]
    note = f"DIVERGED at seed {d['seed']}: {d['what'][:80]}" if d else (r["stopped"] or "")
    rate = r["gdl_steps"] / r["seconds"] if r["seconds"] else 0.0
    print(f"{name:{a.width}} {seeds:>9} {r['playouts']:>4}/{n:<4} {len(r['capped']):>7} {len(r['overflowed']):>8} "
          f"{rate:8.0f} {r['wall']:7.0f}  {note}", flush=True)


if __name__ == "__main__":
    main()
