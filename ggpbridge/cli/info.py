"""`ggpbridge info FILE`: a designer's summary of a game."""
from __future__ import annotations

import click

from ..frontends import language
from ..recycle.info import summarize
from ..translators.recycle_text import expr_text
from . import output
from .common import dialect_option, load


@click.command("info")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@dialect_option
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def command(file, dialect, as_json):
    """Players, teams, deck, locations, storages, stages and choice points of FILE."""
    loaded = load(file, dialect)
    s = summarize(loaded.game, expr_text)
    if as_json:
        output.as_json({"file": file, "dialect": loaded.dialect, **s})
        return
    output.heading(f"{file}  ({language(loaded.dialect)})")
    click.echo(f"players: {s['players']}    teams: {s['teams']}    scoring: {s['scoring']}")
    if s["declares"]:
        click.echo("declared: " + ", ".join(f"'{k} = {v}" for k, v in s["declares"].items()))
    output.heading(f"\ndeck: {s['deck_size']} cards")
    for d in s["decks"]:
        comp = "; ".join(f"{k}: " + ", ".join(f"{v} ({n})" if n > 1 else v for v, n in vals.items())
                         for k, vals in d["composition"].items())
        click.echo(f"  {d['cards']} into {d['location']}: {comp}")
    output.heading("\nlocations")
    output.table([[l["owner"], l["vis"], l["name"], l["seen_by"]] for l in s["locations"]],
                 ["owner", "kind", "name", "seen by"])
    output.heading("\nstorages")
    output.table([[x["owner"], x["kind"], x["name"]] for x in s["storages"]], ["owner", "kind", "name"])
    output.heading("\nstages")
    for st in s["stages"]:
        click.echo(f"  {'  ' * st['depth']}#{st['id']} stage {st['kind']} (line {st['line']}) until {st['end']}")
    output.heading("\nchoice points")
    for c in s["choices"]:
        where = f"stage #{c['stage']}" if c["stage"] is not None else "top level"
        click.echo(f"  line {c['line']}: {c['options']} option form(s), {c['any_branches']} 'any' branching, in {where}")
