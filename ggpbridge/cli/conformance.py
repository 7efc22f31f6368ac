"""`ggpbridge conformance DIR...`: every file through dialect, parse, check and seeded games."""
from __future__ import annotations

from collections import Counter

import sys

import click

from ..conformance import files_under, run_file
from ..frontends import load_game
from ..sweep_logs import TwinFinder, names_file, read_logs
from . import output
from .common import fit_option, keeps_partial_results


@click.command("conformance")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--games", "k", type=click.IntRange(min=0), default=100, show_default=True, help="Seeded games per file.")
@click.option("--max-steps", type=click.IntRange(min=1), default=20_000, show_default=True,
              help="Steps before a game is 'unfinished'.")
@click.option("--expected", type=click.File("r"), help="File listing expected failures, one 'PATH-SUFFIX' per line.")
@click.option("--translate", is_flag=True, help="Add a column: translated to GDL-II and valid, or what stops it.")
@click.option("--crosscheck", "lockstep", type=click.IntRange(min=0), default=0,
              help="Also play this many lockstep playouts (simulator against clingo) per translated file.")
@click.option("--crosscheck-time", "lockstep_time", type=click.FloatRange(min=0), default=None,
              help="Start no lockstep playout of a file after this many seconds of play on it "
                   "(its translation and grounding not counted).")
@click.option("--max-events", type=click.IntRange(min=1), default=2_000, show_default=True,
              help="Lockstep: a game still running after this many events agrees that far (runaway).")
@fit_option
@click.option("--lockstep-log", "logs", multiple=True, type=click.Path(exists=True, dir_okay=False),
              help="Add a column: the seeds these sweep logs (benchmarks/crosscheck_all.py --log) agree on "
                   "for the translation each file has now. Repeatable.")
@click.option("--json", "as_json", is_flag=True)
@keeps_partial_results
def command(paths, k, max_steps, expected, translate, lockstep, lockstep_time, max_events, fit, logs, as_json):
    """Run every game file under PATHS through dialect detection, parsing, the checker and K seeded games.

    PATHS are game files or folders (searched recursively for .rcy and .gdl files). Each file
    gets one row: its dialect, the stage it reached (ok, or where it failed), the outcomes of
    its games, and the seed that reproduces a failure. Exit status 1 on any failure not listed
    in --expected (internal errors always count), 2 when PATHS hold no game file.
    """
    try:
        expect = [ln.split("#")[0].strip() for ln in expected] if expected else []
    except UnicodeDecodeError as e:   # click.File reads lazily: the list's bytes are decoded here
        raise click.BadParameter(f"{expected.name}: not UTF-8 text: byte 0x{e.object[e.start]:02x} cannot be "
                                 f"decoded", param_hint="--expected") from None
    expect = [e for e in expect if e]
    files = files_under(paths)
    if not files:
        raise click.UsageError(f"no game file (.rcy, .gdl) under {', '.join(paths)}")
    logged = read_logs(*logs)[0] if logs else None
    bases = Counter(f.name for f in files)
    twins = TwinFinder(logged, _reader(files, bases)) if logs else None
    rows = []
    try:
        with click.progressbar(files, label="conformance", file=sys.stderr,
                               item_show_func=lambda f: f.name if f else "") as bar:
            for f in bar:
                rows.append(run_file(f, k, max_steps, translate, lockstep, lockstep_time, max_events, fit,
                                     logged, bases[f.name] == 1, twins))
    except KeyboardInterrupt:   # Ctrl-C or SIGTERM: the files done are reported (keeps_partial_results)
        click.echo(f"interrupted after {len(rows)} of {len(files)} files", err=True)
    unexpected = [r for r in rows if r.stage != "ok" and (r.stage == "internal" or not any(r.file.endswith(e) for e in expect))]
    if as_json:
        output.as_json({"files": [r.as_dict() for r in rows], "unexpected_failures": [r.file for r in unexpected]})
    else:
        shown = translate or lockstep or logs
        extra = (["translation"] if shown else []) + (["lockstep"] if lockstep else []) \
            + (["lockstep (logged)"] if logs else [])
        output.table([[r.file, r.dialect or "-", r.stage, " ".join(f"{s}:{n}" for s, n in sorted(r.statuses.items())),
                       "" if r.seed is None else r.seed]
                      + ([_short(r.translation)] if shown else [])
                      + ([r.lockstep or "-"] if lockstep else [])
                      + ([r.logged or "-"] if logs else []) for r in rows],
                      ["file", "dialect", "stage", "games", "seed"] + extra)
        for r in rows:
            if r.stage != "ok":
                tag = "expected" if r not in unexpected else "FAILED"
                click.echo(f"\n[{tag}] {r.stage}" + (f" (seed {r.seed})" if r.seed is not None else "") + f": {r.message}")
        c = Counter(r.stage for r in rows)
        click.echo("\n" + ", ".join(f"{s}: {n}" for s, n in sorted(c.items())) + f"; unexpected failures: {len(unexpected)}")
        if shown:
            t = Counter((r.translation or "-").split(" ")[0] for r in rows)
            click.echo("translation: " + ", ".join(f"{s}: {n}" for s, n in sorted(t.items())))
    raise SystemExit(1 if unexpected else 0)


def _reader(files: list, bases: Counter):
    """How the twins' finder reads a file a log names: the one of these files it names (a bare
    base name only where one file has it); a file outside them is nobody's twin here."""
    def read(name: str):
        found = [f for f in files if names_file(name, f, bases[f.name] == 1)]
        return load_game(found[0]) if len(found) == 1 else None
    return read


def _short(text: str | None) -> str:
    """A table cell: the status word, and where it stops for an unsupported construct."""
    if not text:
        return "-"
    if text.startswith("unsupported at "):
        return "unsupported " + text.split(" ")[2].rstrip(":").rsplit("/", 1)[-1]
    return text if len(text) <= 40 else text[:37] + "..."
