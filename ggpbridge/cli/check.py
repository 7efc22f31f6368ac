"""`ggpbridge check FILE...`: syntax and semantic errors and warnings."""
from __future__ import annotations

import click

from ..errors import NotRecycleError, NotTextError, PositionedError
from ..filekinds import is_deckbuild
from ..frontends import is_gcardgame, language
from ..recycle import why_unreadable
from ..recycle.check import check
from . import output
from .common import dialect_option, load

_DECKBUILD = "deck-building game module"   # how the report names a .dbk file


@click.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@dialect_option
@click.option("--json", "as_json", is_flag=True, help="Print the diagnostics as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="Print errors only, no warnings or summary.")
def command(files, dialect, as_json, quiet):
    """Check games; exit status 0 when no file has an error."""
    report = []
    for f in files:
        try:
            if is_deckbuild(f):   # a game module's file is its settings: checked as the machine reads them
                diags, dia, shown = _deckbuild(f), None, _DECKBUILD
            else:
                loaded = load(f, dialect, "`ggpbridge validate` checks GDL files")
                diags = loaded.warnings + check(loaded.game, loaded.source)
                dia, shown = loaded.dialect, language(loaded.dialect)
        except PositionedError as e:
            diags, dia = [e.diagnostic()], None
            # never 'v?': the dialect it was read as, and why none fits
            shown = ("G_cardgame" if is_gcardgame(f) else _DECKBUILD if is_deckbuild(f) else "not text" if isinstance(e, NotTextError)
                     else "not RECYCLE" if isinstance(e, NotRecycleError) or e.source is None
                     else why_unreadable(e.source, dialect))
        errors = sum(d.severity == "error" for d in diags)
        report.append({"file": f, "dialect": dia, "dialect_note": None if dia else shown, "errors": errors,
                       "warnings": len(diags) - errors, "diagnostics": [d.as_dict() for d in diags]})
        if not as_json:
            for d in diags:
                if d.severity == "error" or not quiet:
                    output.diagnostic(d)
            if not quiet:
                status = click.style("ok", fg="green") if not errors else click.style("FAILED", fg="red")
                click.echo(f"{f}: {status} ({shown}; {errors} error(s), {len(diags) - errors} warning(s))")
    if as_json:
        output.as_json(report)
    raise SystemExit(1 if any(r["errors"] for r in report) else 0)


def _deckbuild(path: str) -> list:
    """A `.dbk` file's settings read as `simulate` reads them; an error is raised with its position."""
    from ..deckbuild.settings import read_dbk
    read_dbk(path)
    return []
