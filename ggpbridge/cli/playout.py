"""`ggpbridge playout GAME -n N --engine sim|clingo|propnet`: random playouts on one engine."""
from __future__ import annotations

import sys

import click

from ..playouts import run
from . import output
from .common import fit_option, keeps_partial_results, naming, parse_sets


@click.command("playout")
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.option("-n", "--games", "n", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--engine", type=click.Choice(["sim", "clingo", "propnet"]), default="sim", show_default=True,
              help="sim: the native simulator; clingo: the clingo machine on the GDL-II translation (or a KIF "
                   "file); propnet: the same answers from its ground rules evaluated by change propagation.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Override a declared variable.")
@click.option("--max-steps", type=click.IntRange(min=1), default=10_000, show_default=True,
              help="Events (sim) or GDL steps (clingo, propnet) before a playout counts as unfinished.")
@fit_option
@click.option("--json", "as_json", is_flag=True, help="Every playout's outcome as JSON.")
@keeps_partial_results
def command(game, n, engine, seed, sets, max_steps, fit, as_json):
    """Play N uniformly random games of GAME on one engine and print the outcomes (goals per role)."""
    if fit and engine == "sim":
        raise click.BadParameter("--fit sizes the clingo engine's translation", param_hint="--fit")
    if engine == "sim" and game.endswith(".kif"):
        raise click.BadParameter("the simulator plays RECYCLE games; use --engine clingo for KIF", param_hint="--engine")
    with naming(game):
        if as_json or not sys.stderr.isatty():
            rep = run(game, engine, n, seed, parse_sets(sets), max_steps=max_steps, fit=fit)
        else:
            with click.progressbar(length=n, label=f"playouts ({engine})", file=sys.stderr) as bar:
                rep = run(game, engine, n, seed, parse_sets(sets), progress=bar.update, max_steps=max_steps,
                          fit=fit)
    if as_json:
        output.as_json(rep)
        return
    output.heading(f"{game}: {rep['playouts']} playouts on {engine} from seed {seed} ({rep['seconds']} s)")
    click.echo(f"finished {rep['finished']} (unfinished games score nothing)")
    for g in rep["games"]:
        if g.get("error"):
            click.echo(f"seed {g['seed']}: {g['error']}")
    output.table([[r, v] for r, v in rep["mean_goal"].items()], ["role", "mean goal"])
