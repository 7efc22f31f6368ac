"""`ggpbridge translate GAME --to gdl2|gdl|asp [-o FILE]`: a game as GDL-II, GDL or an ASP program."""
from __future__ import annotations

from pathlib import Path

import click

from ..gdl.kif import print_kif
from ..translate import load_description
from .common import check_writable, dialect_option, fit_option, parse_sets


@click.command("translate")
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.option("--to", "target", type=click.Choice(["gdl2", "gdl", "asp"]), default="gdl2", show_default=True,
              help="gdl2: GDL-II with `random` and `sees`; gdl: its perfect-information GDL relaxation; "
                   "asp: a self-contained clingo program of the GDL-II game.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write to this file instead of stdout.")
@click.option("--horizon", type=click.IntRange(min=0),
              help="ASP only: the joint moves of the time-indexed program. Default: 1.5 x the longest of 3 "
                   "seeded random plays of the game (clingo's grounding, on the propositional network), rounded up to "
                   "a multiple of 10.")
@click.option("--form", type=click.Choice(["temporal", "state"]), default="temporal", show_default=True,
              help="ASP only: time-indexed plays, or one state with externals.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Override a declared variable.")
@fit_option
@dialect_option
def command(game, target, output, horizon, form, sets, fit, dialect):
    """Translate GAME (RECYCLE, or GDL in KIF) into GDL-II, GDL or ASP; the same input gives the same bytes."""
    check_writable(output, "-o")   # before a translation that may take minutes (--fit)
    desc = load_description(game, 1 if target == "gdl" else 2, parse_sets(sets), dialect, fit)
    if target == "asp":
        from ..gdl.asp_export import asp_program_text
        note = ""
        if horizon is None and form == "temporal":
            # plays longer than the horizon make plain clingo answer UNSATISFIABLE (after minutes,
            # for a large game): measure how long the plays are instead of guessing
            from ..filekinds import is_kif
            from ..playouts import HORIZON_PLAYS, measured_horizon, simulator_runaway
            note = None if is_kif(game) else simulator_runaway(game, parse_sets(sets), dialect)
            if note is None:
                click.echo(f"measuring the horizon: {HORIZON_PLAYS} random plays on the propositional network "
                           f"(--horizon N skips this) ...", err=True)
                horizon, note = measured_horizon(desc)
            if horizon is None:
                note = f"the default; not known to fit the game's plays: {note}"
        text = asp_program_text(desc, horizon, form=form, title=Path(game).name, horizon_note=note)
    else:
        text = print_kif(desc)
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=not text.endswith("\n"))
