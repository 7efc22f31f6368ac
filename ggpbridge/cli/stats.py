"""`ggpbridge stats PATHS -n N`: Table 5's columns over a folder of games."""
from __future__ import annotations

import sys

import click

from ..folder_stats import game_files, summarise
from ..sim.players import player_names, usage
from . import output
from .common import keeps_partial_results


@click.command("stats")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("-n", "--games", "n", type=click.IntRange(min=1), default=1, show_default=True,
              help="Plays of each game.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of each game's first play.")
@click.option("--players", default="random", show_default=True, help=f"Comma list per seat: {usage()}.")
@click.option("--max-steps", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Steps before a play counts as a crash (step cap).")
@click.option("--spread-seeds", "spread", is_flag=True,
              help="Game k plays seeds SEED+k*N on (not every game SEED on): for populations of "
                   "near-identical games, such as mutants of one parent.")
@click.option("--json", "as_json", is_flag=True, help="Print the rows and total as JSON.")
@keeps_partial_results
def command(paths, n, seed, players, max_steps, spread, as_json):
    """Play every game under PATHS N times and print Table 5's columns per game and in total."""
    try:
        player_names(players)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--players") from None
    files = game_files(paths)
    if not files:
        raise click.BadParameter("no game files (.gcg, .rcy, .gdl) there", param_hint="PATHS")
    if not as_json and len(files) >= 20:
        with click.progressbar(length=len(files), label="playing", file=sys.stderr) as bar:
            summary = summarise(files, n, seed, players, max_steps, progress=bar.update, spread=spread)
    else:
        summary = summarise(files, n, seed, players, max_steps, spread=spread)
    output.table5(summary.rows, summary.total(), summary.interrupted, as_json)
