"""`ggpbridge upgrade FILE`: the game in canonical RECYCLE v0.5.10."""
from __future__ import annotations

import click

from ..errors import PositionedError
from ..translators.recycle_text import to_text
from . import output
from .common import dialect_option, load


@click.command("upgrade")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@dialect_option
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, writable=True), help="Write here instead of stdout.")
def command(file, dialect, out):
    """Print FILE in canonical v0.5.10 syntax, comments kept where possible."""
    loaded = load(file, dialect)
    for w in loaded.warnings:
        output.diagnostic(w)
    try:
        text, renamed = to_text(loaded.game, loaded.comments)
    except PositionedError as e:   # a construct without a v0.5.10 form: name the file
        raise e.with_source(loaded.source)
    if renamed:
        lines = [f";; upgraded from RECYCLE v{loaded.dialect}; names renamed for v0.5.10:"]
        lines += [f";;   {old} -> {new}" for old, new in renamed.items()]
        text = "\n".join(lines) + "\n" + text
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        click.echo(text, nl=False)
