"""`ggpbridge query GAME QUESTION`: cycle, termination, playability, winnability, by exhaustive search."""
from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from ..query.answer import NEEDS_ROLE, QUESTIONS, UNKNOWN
from ..query.run import ENGINES, EngineDisagreement, run_query
from ..query.witness import save
from . import output
from .common import check_writable, dialect_option, keeps_partial_results, parse_sets


@click.command("query")
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.argument("question", type=click.Choice(QUESTIONS))
@click.argument("role", required=False)
@click.option("--horizon", type=click.IntRange(min=0), default=None,
              help="Bound plays to N steps (a step: one decision or one chance outcome).")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Override a declared variable.")
@click.option("--engine", type=click.Choice(ENGINES), default="explicit", show_default=True,
              help="explicit: search over the simulator; asp: clingo on the GDL-II translation; both: cross-check.")
@click.option("--limit-states", type=click.IntRange(min=1), default=None, help="Give up ('unknown') beyond M states.")
@click.option("--timeout", type=click.FloatRange(min=0), default=None, help="Give up ('unknown') after S seconds.")
@click.option("--witness", "witness_path", type=click.Path(dir_okay=False), default=None,
              help="Where to write the witness (default: GAME-QUESTION.witness.json in the current directory).")
@click.option("--json", "as_json", is_flag=True, help="Print the answers as JSON.")
@dialect_option
@keeps_partial_results
def command(game, question, role, horizon, sets, engine, limit_states, timeout, witness_path, as_json, dialect):
    """Ask QUESTION about GAME: cycle | terminates | always-ends | playable | winnable ROLE | forced-win ROLE.

    Exit status 0 when every engine answered yes or no, 1 when some answer is unknown,
    2 on an error (a disagreement between engines included).
    """
    if question in NEEDS_ROLE and role is None:
        raise click.UsageError(f"{question} needs a ROLE: a seat number such as 0, or player0")
    if question not in NEEDS_ROLE and role is not None:
        raise click.UsageError(f"{question} takes no ROLE")
    check_writable(witness_path, "--witness")
    disagreement = None
    try:
        answers = run_query(game, question, role, engine, horizon, parse_sets(sets), timeout, limit_states,
                            progress=_progress() if sys.stderr.isatty() else None, dialect=dialect)
    except EngineDisagreement as e:   # both answers, and the witness that replays one, are kept
        disagreement, answers = e, e.answers
    if sys.stderr.isatty():
        click.echo("\r\033[K", nl=False, err=True)
    written = unwritten = None
    witness = next((a.witness for a in answers if a.witness), None)
    if witness is not None:
        stem = Path(game).stem + "-" + question + (f"-{role}" if role is not None else "")
        written = witness_path or f"{stem}.witness.json"
        try:
            save(witness, written)
        except OSError as e:   # the answers are printed all the same, and the status says so
            written, unwritten = None, f"{written} cannot be written: {e.strerror or e}"
    if as_json:
        output.as_json({"game": game, "question": question, "role": role, "horizon": horizon,
                        "answers": [a.as_dict() for a in answers], "witness_file": written}
                       | ({"witness_error": unwritten} if unwritten else {})
                       | ({"disagreement": str(disagreement)} if disagreement else {}))
    else:
        for a in answers:
            _show(game, a, role)
        if written:
            steps = len(witness.get("steps") or witness.get("moves") or [])   # asp witnesses list joint moves
            what = (f"a strategy for {len(witness['strategy'])} decisions" if witness.get("kind") == "strategy"
                    else f"{steps} steps")
            click.echo(f"witness: {written} ({what}); check it with: "
                       f"ggpbridge replay {game} {written}")
    if unwritten:
        click.echo(f"error: witness not written: {unwritten}", err=True)
    if disagreement is not None:
        raise disagreement   # the boundary prints it and exits with 2
    if unwritten:
        raise SystemExit(2)
    raise SystemExit(1 if any(a.verdict == UNKNOWN for a in answers) else 0)


def _show(game: str, a, role) -> None:
    colour = {"yes": "green", "no": "red"}.get(a.verdict, "yellow")
    q = a.question + (f" {role}" if role is not None else "")
    output.heading(f"{game}: {q}? " + click.style(a.verdict, fg=colour, bold=True) + f"   [{a.engine}, {a.seconds} s]")
    click.echo(f"  how: {a.method}")
    if a.limit:
        click.echo(f"  stopped by: {a.limit}")
    if a.stats:
        click.echo("  " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in a.stats.items()))


def _progress():
    last = [0.0]

    def show(states: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.5:   # a redraw per half second is plenty and costs nothing
            last[0] = now
            click.echo(f"\rexplored {states} states", nl=False, err=True)
    return show
