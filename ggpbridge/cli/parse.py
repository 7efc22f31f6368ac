"""`ggpbridge parse FILE`: the IR of a game."""
from __future__ import annotations

import click

from ..frontends import language
from ..ir_json import to_data
from . import output
from .common import dialect_option, load


@click.command("parse")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@dialect_option
@click.option("--json", "as_json", is_flag=True, help="Print the IR as JSON.")
@click.option("--no-positions", is_flag=True, help="Leave source positions out of the JSON.")
def command(file, dialect, as_json, no_positions):
    """Parse FILE (any RECYCLE dialect) and print its IR."""
    loaded = load(file, dialect)
    for w in loaded.warnings:
        output.diagnostic(w)
    if as_json:
        output.as_json({"file": file, "dialect": loaded.dialect, "dialect_reason": loaded.dialect_reason,
                        "warnings": [w.as_dict() for w in loaded.warnings],
                        "game": to_data(loaded.game, positions=not no_positions)})
    else:
        import pprint
        click.echo(f";; {file}: {language(loaded.dialect)} ({loaded.dialect_reason})")
        click.echo(pprint.pformat(loaded.game, width=110))
