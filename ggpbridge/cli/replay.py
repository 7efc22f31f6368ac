"""`ggpbridge replay GAME WITNESS.json`: play a query's witness step by step in the simulator."""
from __future__ import annotations

import click

from ..filekinds import is_deckbuild
from ..query.witness import ASP_FORMAT, judge, load, replay
from ..sim import compile_loaded
from ..sim.stepwise import StepMachine
from ..viewer import describe
from ..viewer_html import page
from . import output
from .common import check_writable, dialect_option, load as load_game, write_output


@click.command("replay")
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.argument("witness", type=click.Path(exists=True, dir_okay=False))
@click.option("--quiet", is_flag=True, help="Only the conclusion, not every step.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--html", "html_path", type=click.Path(dir_okay=False), default=None, metavar="OUT.html",
              help="Also write the witness's play as a page to step through (as `show --html` does).")
@dialect_option
def command(game, witness, quiet, as_json, html_path, dialect):
    """Replay WITNESS (written by `ggpbridge query`) on GAME and confirm what it claims.

    The game is compiled (translated, for a witness of the asp engine) with the witness's own
    --set overrides. Exit status 0 when the claim is confirmed, 1 when it is not, 2 when the
    witness does not fit the game or the game breaks a rule on it (the steps before are printed).
    """
    w = load(witness)
    overrides = w.get("overrides") or {}
    if html_path and w["format"] == ASP_FORMAT:
        raise click.BadParameter(f"{witness} holds joint GDL moves (the asp engine's); the page shows the "
                                 f"simulator's steps: ask `query --engine explicit` for such a witness",
                                 param_hint="--html")
    if html_path and is_deckbuild(game):
        raise click.BadParameter(f"{game} is a deck-building game module: the page shows a RECYCLE game's "
                                 f"locations; the replay's steps are printed here", param_hint="--html")
    check_writable(html_path, "--html")
    if w["format"] == ASP_FORMAT:   # joint GDL moves from the asp engine: replayed on the translation
        from ..query.asp_engine import replay_gdl
        from ..translate import is_kif, load_description
        desc = load_description(game, 2, overrides, dialect, decks=False, fold=False)   # as query translated it
        # a condition names the game's locations and cards: read through the simulator's layout
        plain = is_kif(game) or is_deckbuild(game)   # no RECYCLE options to name the moves by
        lay = None if plain or w["kind"] != "satisfies" else \
            compile_loaded(load_game(game, dialect), overrides).lay
        r = judge(w, replay_gdl(desc, w, describer=None if plain else _moves(game, overrides, dialect),
                                lay=lay))
    elif is_deckbuild(game):   # the explicit engine's steps on the game module's machine
        from ..query.run import _machine
        r = replay(_machine(game, None, overrides), w)
    else:
        prog = compile_loaded(load_game(game, dialect), overrides)
        r = replay(StepMachine(prog), w)
    n = len(w.get("steps") or w.get("moves") or [])
    if as_json:
        output.as_json({"game": game, "witness": witness, "question": w["question"], "kind": w["kind"],
                        "steps": n, "confirmed": r.confirmed, "message": r.message,
                        **({"error": r.error, "log": r.log} if r.error else {})})
    else:
        output.heading(f"{game}: replaying {witness} ({w['question']} {w['verdict']}, {w['kind']}, "
                       f"{n} steps)")
        if not quiet or r.error:   # the steps before a rule error are what shows where it happened
            for line in r.log:
                click.echo(line)
        if not r.error:
            verdict = click.style("confirmed" if r.confirmed else "NOT confirmed",
                                  fg="green" if r.confirmed else "red", bold=True)
            click.echo(f"{verdict}: {r.message}")
    if r.error:
        click.echo(r.error, err=True)
    if html_path:
        # the replay checked every step against the game: the view replays the same steps (up to
        # a rule error, which the view then names)
        view = describe(prog, w["steps"], {"game": game, "witness": witness, "question": w["question"],
                                             "kind": w["kind"], "confirmed": r.confirmed, "message": r.message,
                                             **({"status": "error"} if r.error else {})})
        problem = write_output(html_path, page(view, f"{game}: {witness} ({w['question']} {w['verdict']}, "
                                                     f"{w['kind']}; {'confirmed' if r.confirmed else 'NOT confirmed'})"))
        if problem:
            click.echo(f"error: {problem}", err=True)
            raise SystemExit(2)
    if r.error:
        raise SystemExit(2)
    raise SystemExit(0 if r.confirmed else 1)


def _moves(game, overrides, dialect):
    """The translation's moves shown as the options they choose (the translation made again, with
    its labels: `load_description` keeps only the rules)."""
    from ..moves import TranslationMoves
    from ..translators.recycle_gdl import Translation
    return TranslationMoves(Translation(load_game(game, dialect).game, 2, overrides, None, decks=False))
