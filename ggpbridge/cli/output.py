"""All terminal formatting of the CLI: diagnostics, JSON, tables."""
from __future__ import annotations

import json

import click

from ..errors import Diagnostic

_COLOURS = {"error": "red", "warning": "yellow"}


def diagnostic(d: Diagnostic) -> None:
    """Print one diagnostic to stderr, severity coloured on a terminal."""
    text = d.format()
    sev = f"{d.severity}:"
    click.echo(text.replace(sev, click.style(sev, fg=_COLOURS.get(d.severity), bold=True), 1), err=True)


def as_json(data) -> None:
    """Print data as indented JSON on stdout."""
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def table(rows: list[list], header: list[str]) -> None:
    """Print rows as an aligned plain-text table."""
    cells = [[str(c) for c in r] for r in [header] + rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    for k, r in enumerate(cells):
        click.echo("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if k == 0:
            click.echo("  ".join("-" * w for w in widths))


def heading(text: str) -> None:
    """A section title."""
    click.echo(click.style(text, bold=True))


def sim_report(rep: dict) -> None:
    """The simulate command's table."""
    heading(f"{rep['game']}: {rep['games']} games from seed {rep['seed']} ({rep['players']} players)"
            + ("  [interrupted]" if rep.get("interrupted") else ""))
    click.echo(f"finished {rep['finished']}, cycles {rep['cycles']}, unfinished {rep['unfinished']}, "
               f"errors {rep['errors']}   ({rep['seconds']} s, {rep['games_per_second']} games/s, {rep['engine']} engine)")
    table([[s["seat"], _pct(s["win_share"]), _interval(s.get("win_interval")), s["mean_score"], s["mean_rank"],
            s["mean_options"]] for s in rep["seats"]],
          ["seat", "wins", "95% interval", "mean score", "mean rank", "mean options"])
    click.echo("  wins: share of the finished games won, a tie for the win split equally among the tied seats;\n"
               "  95% interval: Wilson score interval of that share (ties counted fractionally: conservative);\n"
               "  mean rank: rank 1 is the best, tied seats share the mean of their ranks;\n"
               "  mean options: options per choice the seat faced.")
    c, b, st = rep["choices_per_game"], rep["branching"], rep["steps_per_game"]
    click.echo(f"choices per game: {c['mean']} (sd {c['sd']}); steps per game: {st['mean']} "
               f"(min {st['min']}, median {st['median']}, max {st['max']})")
    click.echo("  a step is one simulator step: a stage-level statement run, a choice made, or a stage's "
               "end test; --max-steps counts these.")
    if b["mean_options"] is not None:
        click.echo(f"mean options per choice: {b['mean_options']}; forced choices: {_pct(b['forced_share'])}")
    rows = b["by_stage_iteration"]
    if 1 < len(rows) <= 60:
        click.echo("options by stage iteration (outermost first):")
        table([[r["choice"], ".".join(map(str, r["iterations"])), r["decisions"], r["mean_options"]] for r in rows],
              ["choice", "iteration", "decisions", "mean options"])
    if rep.get("outcomes"):
        _outcomes(rep["outcomes"], len(rep["seats"]))
    for e in rep["error_examples"]:
        click.echo(click.style(f"seed {e['seed']}: ", fg="red") + e["error"], err=True)
    for kind, seeds in rep["runaway_seeds"].items():
        click.echo(f"{kind} seeds (first few): {', '.join(map(str, seeds))}")


def _outcomes(o: dict, seats: int) -> None:
    """Table 5's columns of a G_cardgame simulation."""
    lim = o["limit"]
    click.echo("outcomes (Table 5: wins by one seat alone, draws, crashes; they add up to the games):")
    table([[*o["won"], o["draws"], o["crashed"], *(o["mean"][k] for k in o["mean"])]],
          [*(f"won by {p}" for p in range(seats)), "draws", "crashed", *(f"mean {k}" for k in o["mean"])])
    if lim["unit"]:
        click.echo(f"  a play crashes over {lim['bound']} {lim['unit']} or on a game error; means are over the "
                   "plays that did not crash")
    for cause, k in o["crashes"].items():
        click.echo(f"  crashed {k}: {cause}")


def _interval(iv) -> str:
    return "-" if not iv else f"{100 * iv[0]:.1f}-{100 * iv[1]:.1f}%"


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"
