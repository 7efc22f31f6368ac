"""`ggpbridge mutate GAME -n N --seed S -o DIR [--crossover OTHER | --operator ability [--kind K]]`:
mutants of a game."""
from __future__ import annotations

import click

from ..generate import ability_mutants, errors_in, mutants
from ..generate.ir_ability import KINDS
from . import output
from .generate import write_many


@click.command("mutate")
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.option("-n", "--games", "n", type=click.IntRange(min=1), default=10, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Mutant i depends on the seed and i only.")
@click.option("--crossover", "other", type=click.Path(exists=True, dir_okay=False),
              help="Instead of mutating, exchange same-category subtrees with this game.")
@click.option("--operator", type=click.Choice(["subtree", "ability"]), default="subtree", show_default=True,
              help="subtree: one subtree re-derived; ability (RECYCLE): an ability card whose drawing "
                   "changes one rule at run time (docs/war_abilities.md).")
@click.option("--kind", type=click.Choice(KINDS), help="With --operator ability: this kind of ability "
              "(default: any the game offers, drawn per mutant).")
@click.option("-o", "--output", "out", type=click.Path(file_okay=False), required=True,
              help="Folder to write the mutants into (created if missing).")
@click.option("--keep-players", is_flag=True,
              help="G_cardgame: never mutate the `players` axiom (every mutant has the parent's seats).")
@click.option("--no-check", is_flag=True, help="Do not run `check` on each game written.")
@click.option("--json", "as_json", is_flag=True, help="List the files written as JSON.")
def command(game, n, seed, other, operator, kind, out, keep_players, no_check, as_json):
    """Write N mutants of GAME (one subtree re-derived, or with --operator ability an ability card
    added), or crossovers with --crossover OTHER."""
    if operator == "ability" and other:
        raise click.UsageError("--operator ability adds an ability to one game; it takes no --crossover")
    if kind and operator != "ability":
        raise click.UsageError("--kind needs --operator ability")
    for path in (game, other) if other else (game,):
        with open(path, encoding="utf-8", errors="replace") as fh:
            errs = errors_in(path, fh.read())
        if errs:   # the mutants keep whatever the parent gets wrong
            output.diagnostic(errs[0])
            click.echo(f"warning: {path} has {len(errs)} error(s); its mutants may keep them", err=True)
    made = ability_mutants(game, n, seed, kind) if operator == "ability" else mutants(game, n, seed, other, keep_players)
    rows = write_many(made, n, out, not no_check, as_json, "mutating")
    output.written(rows, as_json)
    raise SystemExit(1 if any(r["errors"] for r in rows) else 0)
