"""`ggpbridge generate --lang gcardgame|recycle -n N --seed S -o DIR`: random games from the grammar."""
from __future__ import annotations

import sys
from contextlib import nullcontext
from pathlib import Path

import click

from ..generate import LANGS, generate
from . import output
from .common import write_output


@click.command("generate")
@click.option("--lang", type=click.Choice(sorted(LANGS)), required=True, help="The language of the games.")
@click.option("-n", "--games", "n", type=click.IntRange(min=1), default=10, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Game i depends on the seed and i only.")
@click.option("-o", "--output", "out", type=click.Path(file_okay=False), required=True,
              help="Folder to write the games into (created if missing).")
@click.option("--all-constructs", is_flag=True,
              help="G_cardgame: also `play`, ranking plays in `have`, two-valued cards, `puin` of several cards "
                   "(every rule of the grammar; `check` refuses them until the IR extensions exist).")
@click.option("--players", type=click.IntRange(min=1), default=None,
              help="G_cardgame: every game has this many players (default: 2 to 4 at random).")
@click.option("--no-check", is_flag=True, help="Do not run `check` on each game written.")
@click.option("--json", "as_json", is_flag=True, help="List the files written as JSON.")
def command(lang, n, seed, out, all_constructs, players, no_check, as_json):
    """Write N random games of LANG derived from its grammar, each one that `check` accepts."""
    if all_constructs and lang != "gcardgame":
        raise click.BadParameter("only G_cardgame has constructs left out by default", param_hint="--all-constructs")
    if players is not None and lang != "gcardgame":
        raise click.BadParameter("only G_cardgame games are generated with a chosen number of players",
                                 param_hint="--players")
    made = generate(lang, n, seed, lowerable=not all_constructs, players=players)
    rows = write_many(made, n, out, not no_check, as_json, "generating")
    output.written(rows, as_json)
    raise SystemExit(1 if any(r["errors"] for r in rows) else 0)


def write_many(made, n: int, out: str, check: bool, quiet: bool, label: str) -> list[dict]:
    """Write generated games (`generate.Made`) into folder `out`, checking each when asked; the
    rows written so far are kept and returned when a write fails or the run is stopped."""
    from ..generate import errors_in
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise click.BadParameter(f"{out} cannot be created: {e.strerror or e}", param_hint="-o") from None
    rows: list[dict] = []
    with click.progressbar(length=n, label=label, file=sys.stderr) if n >= 200 and not quiet else nullcontext() as bar:
        try:
            for m in made:
                path = folder / m.name
                reason = write_output(str(path), m.text)
                if reason:
                    click.echo(f"error: {reason}", err=True)
                    break
                errs = [d.format() for d in errors_in(str(path), m.text)] if check else None
                rows.append({"file": str(path), "how": m.how, "checked": check,
                             "errors": errs or [], "lines": m.text.count("\n")})
                if bar is not None:
                    bar.update(1)
        except KeyboardInterrupt:
            click.echo(f"interrupted: {len(rows)} of {n} written", err=True)
    return rows
