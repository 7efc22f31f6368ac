"""`ggpbridge simulate GAME -n N`: Monte Carlo playtests with statistics."""
from __future__ import annotations

import sys

import click

from ..filekinds import is_deckbuild
from ..sim import compile_loaded, simulate
from ..sim.players import describe_players, usage
from . import output
from .common import check_cluster, check_players, check_policies, cluster_options, dialect_option, keeps_partial_results, load, parse_sets


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
@cluster_options
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@dialect_option
@keeps_partial_results
def command(game, n, seed, players, sets, max_steps, detailed, workers, cluster, as_json, dialect):
    """Play N seeded games of GAME and report win shares, lengths, branching, runaways."""
    check_players(players)
    check_cluster(workers, cluster)
    if is_deckbuild(game):
        return _deckbuild(game, n, seed, players, sets, max_steps, workers or cluster, as_json)
    # count=True: a front-end with statistics of its own (G_cardgame's Table 5) adds them
    loaded = load(game, dialect, "`ggpbridge playout GAME --engine clingo` plays a GDL game", count=True)
    overrides = parse_sets(sets)
    prog = compile_loaded(loaded, overrides)
    check_policies(players, prog)

    def run(progress):
        if workers or cluster:
            from ..cluster import simulate_on_cluster
            return simulate_on_cluster(loaded, overrides, n, seed, players, max_steps, detailed,
                                       cluster=cluster, workers=workers, progress=progress)
        return simulate(prog, n, seed, players, max_steps, progress=progress, detailed=detailed)

    stats = _with_progress(n, not as_json and n >= 200, run)
    rep = _report(stats, game, seed, players, as_json)
    problem = getattr(stats, "cluster_error", None)
    if problem:   # the games of the chunks that completed are reported above
        click.echo(f"error: the cluster stopped: {problem}", err=True)
        raise SystemExit(2)
    raise SystemExit(1 if rep["errors"] else 0)


def _deckbuild(game, n, seed, players, sets, max_steps, distributed, as_json):
    """A deck-building game module (`.dbk`): its machine's plays, the same table, and its figures."""
    from ..deckbuild.machine import DeckMachine
    from ..deckbuild.play import policies, simulate as simulate_machine
    from ..deckbuild.settings import read_dbk
    if distributed:
        raise click.BadParameter("a .dbk game plays on this machine only", param_hint="--workers/--cluster")
    machine = DeckMachine(read_dbk(game, parse_sets(sets)))
    try:
        policies(players, machine, seed)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--players") from None
    stats, figures = _with_progress(n, not as_json and n >= 20,
                                    lambda progress: simulate_machine(machine, n, seed, players, max_steps, progress))
    rep = _report(stats, game, seed, players, as_json, deckbuilding=figures.report())
    raise SystemExit(1 if rep["errors"] else 0)


def _with_progress(n: int, bar_shown: bool, run):
    """`run(progress)`: with a progress bar of n games on stderr when `bar_shown`, else progress None."""
    if not bar_shown:
        return run(None)
    with click.progressbar(length=n, label="playing", file=sys.stderr) as bar:
        return run(bar.update)


def _report(stats, game, seed, players, as_json: bool, **extra) -> dict:
    """The report of the games played, printed as the table (and a deck-building game's figures,
    `extra["deckbuilding"]`) or as JSON; returned for the exit status."""
    rep = stats.report()
    rep["game"], rep["seed"], rep["players"] = game, seed, describe_players(players)
    rep.update(extra)
    if stats.interrupted:
        rep["interrupted"] = True
    if as_json:
        output.as_json(rep)
    else:
        if "deckbuilding" in rep:
            output.sim_report(rep, output.MACHINE_STEP)
            output.deckbuild_figures(rep["deckbuilding"])
        else:
            output.sim_report(rep)
    return rep
