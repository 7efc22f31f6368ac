"""`ggpbridge evolve --lang L [--from GAME ...] --population P --generations G --seed S -o DIR`."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from ..generate import LANGS
from . import output
from .common import check_cluster, cluster_options, keeps_partial_results


@click.command("evolve")
@click.option("--lang", type=click.Choice(sorted(LANGS)), required=True, help="The language of the games.")
@click.option("--from", "parents", multiple=True, type=click.Path(exists=True, dir_okay=False),
              help="A game to start from (repeatable); without it, generation 0 is derived from the grammar.")
@click.option("--population", type=click.IntRange(min=2), default=20, show_default=True)
@click.option("--generations", type=click.IntRange(min=1), default=20, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="The run depends on the seed only.")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False),
              help="TOML file overriding the fitness weights and playout counts (defaults: ggpbridge/evolve/default.toml).")
@click.option("-o", "--output", "out", type=click.Path(file_okay=False), required=True,
              help="Folder of the run: checkpoint.json, gen_NNN/ (best games and stats.json), last/.")
@cluster_options
@click.option("--json", "as_json", is_flag=True, help="Print the history and where the best game is as JSON.")
@keeps_partial_results
def command(lang, parents, population, generations, seed, config_path, out, workers, cluster, as_json):
    """Evolve games of LANG by playouts; the same command resumes an interrupted run in DIR."""
    from ..cluster import session
    from ..evolve import Settings, evolve, load
    from ..evolve.run import remaining
    check_cluster(workers, cluster)
    for p in parents:
        if Path(p).suffix != LANGS[lang]:
            raise click.BadParameter(f"{p} is not a {lang} file ({LANGS[lang]})", param_hint="--from")
    _check_parents(parents)
    settings = Settings(lang, [{"name": Path(p).name, "text": Path(p).read_text(encoding="utf-8"),
                                "how": f"parent: {p}"} for p in parents], population, seed, load(config_path))
    total = remaining(population, generations, out)
    with session(cluster, workers) as client:
        if as_json:
            result = evolve(settings, generations, out, client)
        else:
            with click.progressbar(length=total, label="evaluating", file=sys.stderr) as bar:
                result = evolve(settings, generations, out, client, progress=bar.update)
    output.evolution(result, as_json)
    if result.cluster_error:
        click.echo(f"error: the cluster stopped: {result.cluster_error}", err=True)
        raise SystemExit(1)


def _check_parents(parents) -> None:
    """A parent that `check` refuses would seed the population with its errors: refuse it here."""
    from ..generate import errors_in
    for p in parents:
        errs = errors_in(p, Path(p).read_text(encoding="utf-8", errors="replace"))
        if errs:
            output.diagnostic(errs[0])
            raise click.BadParameter(f"{p} has {len(errs)} error(s) that `ggpbridge check` reports",
                                     param_hint="--from")
