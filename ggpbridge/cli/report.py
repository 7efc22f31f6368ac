"""`ggpbridge report GAME -o report.html`: playtest metrics and charts as one HTML page."""
from __future__ import annotations

import re
import sys
from contextlib import nullcontext

import click

from ..filekinds import is_deckbuild

from ..cluster import compiled, session
from ..report.data import planned_games, report_data
from ..report.page import report_page, sweep_page
from ..sim.players import describe_players, usage
from . import output
from .common import check_cluster, check_players, check_policies, cluster_options, check_writable, dialect_option, keeps_partial_results, load, parse_sets, write_output

MAX_VARIANTS = 100


def parse_sweep(text: str | None) -> tuple[str, list[int]] | None:
    """`NAME=a..b` as (NAME, [a, .., b]); BadParameter when it is not that."""
    if text is None:
        return None
    m = re.fullmatch(r"\s*'?([A-Za-z_][\w-]*)\s*=\s*(-?\d{1,9})\s*\.\.\s*(-?\d{1,9})\s*", text)
    if not m:
        raise click.BadParameter(f"expected NAME=a..b with integers a <= b, got {text!r}", param_hint="--sweep")
    name, a, b = m.group(1), int(m.group(2)), int(m.group(3))
    if a > b:
        raise click.BadParameter(f"{text!r}: the range {a}..{b} is empty (a must be at most b)", param_hint="--sweep")
    if b - a + 1 > MAX_VARIANTS:
        raise click.BadParameter(f"{text!r}: {b - a + 1} variants; at most {MAX_VARIANTS} are played",
                                 param_hint="--sweep")
    return name, list(range(a, b + 1))


@click.command("report")
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--output", "out", metavar="FILE.html", help="Write the HTML report here.")
@click.option("-n", "--games", "n", type=click.IntRange(min=1), default=500, show_default=True,
              help="Games with --players (game i uses seed+i).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--players", default="random", show_default=True,
              help=f"Comma list per seat for the main games (the last repeats): {usage()}.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Override a declared variable.")
@click.option("--sweep", metavar="NAME=a..b", help="Report every variant NAME=a, .., b and plot each metric against it.")
@click.option("--pipmc-games", type=click.IntRange(min=0), default=None,
              help="Games with PIPMC in every seat (meaningful choices, CardStock's heuristics). [default: min(N, 50)]")
@click.option("--potential-games", type=click.IntRange(min=0), default=None,
              help="Games per seat and player for strategy potential. [default: min(N, 100)]")
@click.option("--max-steps", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Steps before a game is 'unfinished'.")
@cluster_options
@click.option("--json", "as_json", is_flag=True, help="Print the metrics as JSON.")
@dialect_option
@keeps_partial_results
def command(game, out, n, seed, players, sets, sweep, pipmc_games, potential_games, max_steps, workers, cluster,
            as_json, dialect):
    """Playtest GAME and write win shares, lengths, branching, lead, strategy potential and charts as HTML."""
    check_players(players)
    if out is None and not as_json:
        raise click.UsageError("give -o FILE.html for the page, or --json for the metrics")
    check_cluster(workers, cluster)
    check_writable(out, "-o")
    base = parse_sets(sets)
    swept = parse_sweep(sweep)
    variants = [dict(base, **{swept[0]: v}) for v in swept[1]] if swept else [base]
    # every variant is compiled before any game is played: a bad value fails at once, with its position
    # (`compiled` keeps each Program for report_data, which reads the same game)
    if is_deckbuild(game):
        if workers or cluster:
            raise click.BadParameter("a .dbk game plays on this machine only", param_hint="--workers/--cluster")
        machines = _deckbuild_machines(game, variants)   # every variant read first: a bad value fails at once
        total = sum(planned_games(len(mc.players), n, pipmc_games, potential_games) for mc in machines)
    else:
        loaded = load(game, dialect, "the report plays RECYCLE and G_cardgame games")
        progs = [compiled(loaded, tuple(sorted(v.items()))) for v in variants]
        for prog in progs:
            check_policies(players, prog)
        total = sum(planned_games(prog.lay.n, n, pipmc_games, potential_games) for prog in progs)
    show = not as_json and sys.stderr.isatty()
    reports = []
    with click.progressbar(length=total, label="playing", file=sys.stderr) if show else nullcontext() as bar, \
            session(cluster, workers) as client:
        for i, v in enumerate(variants):
            if is_deckbuild(game):
                rep = _deckbuild_report(machines[i], game, players, n, seed, v, pipmc_games, potential_games,
                                        max_steps, bar.update if bar else None)
            else:
                rep = report_data(game, players, n, seed, v, pipmc_games=pipmc_games,
                                  potential_games=potential_games, max_steps=max_steps, dialect=dialect,
                                  progress=bar.update if bar else None, client=client)
            reports.append(rep)
            if rep["interrupted"]:
                break
    if swept:
        data = {"variable": swept[0], "values": swept[1][:len(reports)], "players": describe_players(players),
                "reports": reports, "interrupted": reports[-1]["interrupted"] or len(reports) < len(variants)}
    else:
        data = reports[0]
    # printed before the page is drawn: a signal while drawing still leaves the figures shown
    if as_json:
        output.as_json(data)
    elif swept:
        output.sweep_summary(data)
    else:
        output.report_summary(data)
    if out is not None:
        page = sweep_page(swept[0], swept[1], reports) if swept else report_page(data)
        problem = write_output(out, page)
        if problem:
            click.echo(f"error: {problem}", err=True)
            raise SystemExit(1)
        click.echo(f"wrote {out}", err=as_json)
    problem = next((r["cluster_error"] for r in reports if r.get("cluster_error")), None)
    if problem:   # the games of the chunks that completed are reported above
        click.echo(f"error: the cluster stopped: {problem}", err=True)
        raise SystemExit(2)
    raise SystemExit(1 if any(r["errors"] for r in reports) else 0)


def _deckbuild_machines(game, variants: list) -> list:
    """A deck-building game module's machine per variant (`--set`, `--sweep`)."""
    from ..deckbuild.machine import DeckMachine
    from ..deckbuild.settings import read_dbk
    return [DeckMachine(read_dbk(game, v)) for v in variants]


def _deckbuild_report(machine, game, players, n, seed, sets, pipmc_games, potential_games, max_steps, progress):
    """The report's games of a `.dbk` on its machine (`report/machine_data.py`)."""
    from ..deckbuild.play import policies
    from ..report.machine_data import machine_report_data
    try:
        policies(players, machine, seed)   # a player the game module cannot seat is refused before any game
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--players") from None
    return machine_report_data(machine, game, players, n, seed, sets, policies, pipmc_games=pipmc_games,
                               potential_games=potential_games, max_steps=max_steps, progress=progress)
