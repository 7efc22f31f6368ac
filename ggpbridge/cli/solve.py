"""`ggpbridge solve GAME`: exact values, CFR+ with its exploitability, and a policy file to play."""
from __future__ import annotations

import json
import sys

import click

from ..filekinds import is_deckbuild

from ..solve.run import METHODS, solve_game
from ..solve.tree import DEFAULT_LIMIT, UTILITIES
from . import output
from .common import check_writable, dialect_option, keeps_partial_results, parse_sets, write_output


@click.command("solve")
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Override a declared variable.")
@click.option("--utility", type=click.Choice(UTILITIES), default="score", show_default=True,
              help="score: a seat's final score (negated when the game minimizes); win: 1 for a win, shared on ties.")
@click.option("--method", type=click.Choice(METHODS), default="auto", show_default=True,
              help="auto: expectimax when every location is public, else CFR+ (CFR+ whenever -o is given).")
@click.option("--target", type=click.FloatRange(min=0), default=0.001, show_default=True,
              help="Stop CFR+ once the exploitability is at most this.")
@click.option("--iterations", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Stop CFR+ after this many iterations.")
@click.option("--timeout", type=click.FloatRange(min=0), default=None, help="Stop CFR+ after S seconds of iterations.")
@click.option("--limit-nodes", type=click.IntRange(min=1), default=DEFAULT_LIMIT, show_default=True,
              help="Refuse games with more histories (CFR+) or states (expectimax) than this.")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False), default=None,
              help="Write the CFR+ average policy here (readable JSON; play it with --players policy:FILE).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@dialect_option
@keeps_partial_results
def command(game, sets, utility, method, target, iterations, timeout, limit_nodes, out, as_json, dialect):
    """Solve GAME exactly: values per seat, CFR+ exploitability, the best first moves."""
    if is_deckbuild(game):
        # measured: golomb_small.dbk's state graph with turns=2 alone has 232,753 states (query terminates);
        # its tree of histories, with information sets over every seat's earlier views, is larger still
        raise click.BadParameter(f"{game} is a deck-building game module: solve builds the whole tree of "
                                 f"histories and the seats' information sets from the simulator's views of "
                                 f"compiled RECYCLE, which a game module has not; and its tree (at most "
                                 f"{DEFAULT_LIMIT:,} nodes) would unfold by history even golomb_small.dbk's 232,753 "
                                 f"distinct states with --set turns=2; ask `query` (explicit engine) terminates, cycle or winnable instead",
                                 param_hint="GAME")
    check_writable(out, "-o")
    if out and method == "expectimax":
        raise click.UsageError("-o writes a CFR+ policy; expectimax gives none (use --method cfr+ or auto)")
    tty = sys.stderr.isatty()
    shown = []
    headed = []

    def head() -> None:
        # once the game has loaded: a file that does not read gets its error alone
        if not as_json and not headed:
            output.heading(f"{game}: solve --method {method}")
            headed.append(True)

    def progress(what: str, n: int) -> None:
        if tty:
            click.echo(f"\r{what}: {n}", nl=False, err=True)

    def checkpoint(point: dict) -> None:
        # a doubling schedule: the convergence stays a short table however long it runs
        if not as_json and (not shown or point["iteration"] >= 2 * shown[-1]):
            head()
            if tty:
                click.echo("\r\033[K", nl=False, err=True)
            output.solve_checkpoint(point, header=not shown)
            shown.append(point["iteration"])

    solved = solve_game(game, parse_sets(sets), utility, method, target, iterations, timeout, limit_nodes,
                        progress, checkpoint, dialect, want_policy=out is not None)
    rep = solved.report
    if tty:
        click.echo("\r\033[K", nl=False, err=True)
    head()
    if not as_json and rep.get("convergence") and rep["convergence"][-1]["iteration"] != (shown or [0])[-1]:
        output.solve_checkpoint(rep["convergence"][-1], header=not shown)
    doc = solved.policy_document() if out else None
    if as_json:
        output.as_json(rep | ({"policy_file": out} if doc else {}))
    else:
        output.solve_report(rep)
    if doc is not None:
        why = write_output(out, json.dumps(doc, indent=1) + "\n")
        if why:
            click.echo(f"error: policy not written: {why}", err=True)
            raise SystemExit(2)
        if not as_json:
            click.echo(f"  policy: {out} ({len(doc['information_sets'])} information sets); play it with: "
                       f"ggpbridge simulate {game} --players policy:{out},random")
    reached = rep.get("exploitability") is None or rep["exploitability"] <= target
    raise SystemExit(0 if reached and "value" in rep else 1)
