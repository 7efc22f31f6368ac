"""Options and loading shared by the commands."""
from __future__ import annotations

import click

from ..recycle import parse_file
from ..recycle.dialects import DIALECTS

dialect_option = click.option(
    "--dialect", type=click.Choice(DIALECTS), default=None,
    help="Read the file in this RECYCLE dialect instead of detecting it from the content.")


def load(path: str, dialect: str | None):
    """Parse a game file; library errors propagate to the CLI boundary."""
    return parse_file(path, dialect)
