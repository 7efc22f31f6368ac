"""`ggpbridge show GAME --seed S`: one game played out, step by step."""
from __future__ import annotations

import click

from ..filekinds import is_deckbuild
from ..sim import compile_loaded
from ..sim.players import describe_players, usage
from ..viewer import show_game
from ..viewer_html import page
from . import output
from .common import check_players, check_writable, dialect_option, keeps_partial_results, load, parse_sets, write_output


@click.command("show")
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.option("--seed", type=int, default=0, show_default=True,
              help="The game to show: `simulate --seed 0` plays it as its game number SEED.")
@click.option("--players", default="random", show_default=True,
              help=f"Comma list per seat (the last repeats): {usage()}.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Override a declared variable.")
@click.option("--max-steps", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Decisions and chance events before the game is shown as 'unfinished'.")
@click.option("--all-seats", is_flag=True, help="At each decision, what every seat sees (not only the one choosing).")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None, metavar="OUT.html",
              help="Also write a page to step through the game (self-contained, arrow keys).")
@click.option("--json", "as_json", is_flag=True, help="Print the view as JSON.")
@dialect_option
@keeps_partial_results
def command(game, seed, players, sets, max_steps, all_seats, html_path, as_json, dialect):
    """Play game SEED of GAME and show every step: options, choice, chance, what each seat sees.

    Exit status 0 when the game is shown (whatever its end), 1 when it stopped at a rule error."""
    check_players(players)
    if is_deckbuild(game):
        return _deckbuild(game, seed, players, sets, max_steps, all_seats, html_path, as_json)
    check_writable(html_path, "--html")
    prog = compile_loaded(load(game, dialect, "`show` plays RECYCLE and G_cardgame games"), parse_sets(sets))
    view = show_game(prog, seed, players, max_steps,
                     {"game": game, "seed": seed, "players": describe_players(players)})
    if as_json:
        output.as_json(view)
    else:
        output.game_view(view, all_seats)
    if html_path:
        problem = write_output(html_path, page(view, f"{game}, game {seed} ({view['players']})"))
        if problem:
            click.echo(f"error: {problem}", err=True)
            raise SystemExit(2)
    raise SystemExit(1 if view["status"] == "error" else 0)


def _deckbuild(game, seed, players, sets, max_steps, all_seats, html_path, as_json):
    """A deck-building game module (`.dbk`): its play on the game machine, step by step."""
    from ..deckbuild.machine import DeckMachine
    from ..deckbuild.settings import read_dbk
    from ..deckbuild.show import show_play
    if html_path:
        raise click.BadParameter(f"{game} is a deck-building game module: the page shows a RECYCLE game's "
                                 f"locations; its play is printed here (or --json)", param_hint="--html")
    machine = DeckMachine(read_dbk(game, parse_sets(sets)))
    try:
        view = show_play(machine, seed, players, max_steps)
    except ValueError as e:   # a player the game module cannot seat (a policy file)
        raise click.BadParameter(str(e), param_hint="--players") from None
    view = {"game": game, "seed": seed, "players": describe_players(players), **view}
    if as_json:
        output.as_json(view)
    else:
        output.machine_play(view, all_seats)
    raise SystemExit(1 if view["status"] == "error" else 0)
