"""All terminal formatting of the CLI: diagnostics, JSON, tables."""
from __future__ import annotations

import json

import click

from ..errors import Diagnostic

_COLOURS = {"error": "red", "warning": "yellow", "unsupported": "magenta"}


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
