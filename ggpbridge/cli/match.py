"""`ggpbridge match GAME --player ROLE=URL ...`: run one match as the GGP game manager."""
from __future__ import annotations

import json
from pathlib import Path

import click

from ..ggp.manager import Match, describer_for, load_game
from .common import check_writable, parse_sets, write_output


def _players(specs) -> dict:
    out = {}
    for spec in specs:
        role, eq, address = spec.partition("=")
        if not eq or not role.strip() or not address.strip():
            raise click.BadParameter(f"expected ROLE=URL or ROLE=builtin:STRATEGY, got {spec!r}",
                                     param_hint="--player")
        out[role.strip().lower()] = address.strip()
    return out


@click.command("match")
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.option("--player", "players", multiple=True, metavar="ROLE=URL",
              help="Who plays ROLE: http://host:port/ or builtin:random|legal|mc (repeat per role). "
                   "Roles without a player (random, say) are played by the manager.")
@click.option("--gdl", type=click.Choice(["1", "2"]), default=None,
              help="2: GDL-II rules and messages (default for RECYCLE); 1: the GDL relaxation. "
                   "KIF files are sent as written, in the version they use.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
              help="Override a declared variable of a RECYCLE game (as translate --set).")
@click.option("--startclock", type=click.FloatRange(min=0, min_open=True), default=10, show_default=True)
@click.option("--playclock", type=click.FloatRange(min=0, min_open=True), default=5, show_default=True)
@click.option("--seed", type=int, default=None, help="Seed of the manager's random moves and replacements.")
@click.option("--match-id", default=None, help="Match id (default: a random one).")
@click.option("--upper", is_flag=True, help="Send the messages in upper case (as some managers do).")
@click.option("--max-steps", type=click.IntRange(min=1), default=10_000, show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write the match record (JSON) here.")
@click.option("--transcript", type=click.Path(dir_okay=False), default=None,
              help="Write every message sent and reply received (JSON) here.")
def command(game, players, gdl, sets, startclock, playclock, seed, match_id, upper, max_steps, output, transcript):
    """Play GAME between GGP players; print the goals and errors, write the record with -o."""
    check_writable(output, "-o")
    check_writable(transcript, "--transcript")
    overrides = parse_sets(sets)
    desc, version = load_game(game, int(gdl) if gdl else None, overrides)
    match = Match(desc, _players(players), gdl=version, startclock=startclock, playclock=playclock,
                  seed=seed, match_id=match_id, upper=upper, max_steps=max_steps, game=Path(game).name,
                  describer=describer_for(game, version, overrides))
    record = match.run()
    click.echo(f"{record['game']}: {record['steps']} steps, {len(record['errors'])} error(s), "
               f"{record['timings']['total']:.2f} s")
    if record["aborted"]:
        click.echo(f"aborted: no terminal state after {max_steps} steps")
    click.echo("goals: " + ", ".join(f"{role} {value}" for role, value in record["goals"].items()))
    for error in record["errors"]:
        click.echo(f"  {error['phase']} turn {error['turn']} {error['role']}: {error['kind']}: {error['detail']}")
    # written after the result is printed: a file that cannot be written after all loses nothing
    failed = False
    for path, data in ((output, record), (transcript, match.transcript)):
        why = write_output(path, json.dumps(data, indent=1) + "\n") if path else None
        if why:
            click.echo(f"error: {why}", err=True)
            failed = True
    if failed:
        raise SystemExit(2)
