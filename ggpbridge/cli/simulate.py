"""`ggpbridge simulate GAME -n N`: Monte Carlo playtests with statistics."""
from __future__ import annotations

import sys

import click

from ..sim import compile_loaded, simulate
from ..sim.players import describe_players, player_names, usage
from . import output
from .common import dialect_option, keeps_partial_results, load, parse_sets


@click.command("simulate")
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.option("-n", "--games", "n", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game; game i uses seed+i.")
@click.option("--players", default="random", show_default=True,
              help=f"Comma list per seat (the last repeats): {usage()}. "
                   "Searching seats are seeded from --seed and the seat.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Override a declared variable.")
@click.option("--max-steps", type=click.IntRange(min=1), default=100_000, show_default=True, help="Steps before a game is 'unfinished'.")
@click.option("--detailed", is_flag=True,
              help="Branching per stage iteration too (runs on the slower reference engine).")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@dialect_option
@keeps_partial_results
def command(game, n, seed, players, sets, max_steps, detailed, as_json, dialect):
    """Play N seeded games of GAME and report win shares, lengths, branching, runaways."""
    try:
        player_names(players)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--players") from None
    # count=True: a front-end with statistics of its own (G_cardgame's Table 5) adds them
    loaded = load(game, dialect, "`ggpbridge playout GAME --engine clingo` plays a GDL game", count=True)
    prog = compile_loaded(loaded, parse_sets(sets))
    show = not as_json and n >= 200
    if show:
        with click.progressbar(length=n, label="playing", file=sys.stderr) as bar:
            stats = simulate(prog, n, seed, players, max_steps, progress=bar.update, detailed=detailed)
    else:
        stats = simulate(prog, n, seed, players, max_steps, detailed=detailed)
    rep = stats.report()
    rep["game"], rep["seed"], rep["players"] = game, seed, describe_players(players)
    if stats.interrupted:
        rep["interrupted"] = True
    if as_json:
        output.as_json(rep)
    else:
        output.sim_report(rep)
    raise SystemExit(1 if rep["errors"] else 0)
