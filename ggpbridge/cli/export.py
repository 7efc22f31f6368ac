"""`ggpbridge export GAME --repo DIR`: write a game in the GGP game repository layout."""
from __future__ import annotations

import click

from ..ggp.export import export_game


@click.command("export")
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.option("--repo", type=click.Path(file_okay=False), required=True, help="The repository directory.")
@click.option("--gdl", type=click.Choice(["1", "2"]), default=None,
              help="2: GDL-II (default for RECYCLE); 1: the GDL relaxation.")
@click.option("--key", default=None, help="The game's key (directory name); default from the file name.")
@click.option("--name", default=None, help="gameName in METADATA; default the file's stem.")
def command(game, repo, gdl, key, name):
    """Write DIR/<key>/METADATA (JSON) and DIR/<key>/<key>.kif; print the directory."""
    folder = export_game(game, repo, int(gdl) if gdl else None, key, name)
    click.echo(str(folder))
