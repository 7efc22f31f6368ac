"""Options and loading shared by the commands."""
from __future__ import annotations

from contextlib import contextmanager

import click

from ..errors import NotRecycleError
from ..gdl.errors import GdlError, KifSyntaxError
from ..recycle import parse_file
from ..recycle.dialects import DIALECTS

dialect_option = click.option(
    "--dialect", type=click.Choice(DIALECTS), default=None,
    help="Read the file in this RECYCLE dialect instead of detecting it from the content.")

fit_option = click.option(
    "--fit", type=click.IntRange(min=0), default=0, show_default=True, metavar="PLAYS",
    help="Size the translation's tables (positions per location, integer values) to what PLAYS random "
         "simulator plays reach, instead of the worst case: a much smaller ground program. A play beyond "
         "them ends as `overflow`. 0: worst-case tables.")


def load(path: str, dialect: str | None, kif_hint: str = ""):
    """Parse a RECYCLE game file; library errors propagate to the CLI boundary. `kif_hint`
    says what to do instead with a GDL (KIF) file."""
    try:
        return parse_file(path, dialect)
    except NotRecycleError as e:
        if not kif_hint:
            raise
        raise NotRecycleError(f"{e.message}; {kif_hint}", e.pos, e.source) from None


def parse_sets(sets) -> dict:
    """`NAME=VALUE` overrides: integers when they look like one, names otherwise."""
    out = {}
    for s in sets:
        name, eq, value = s.partition("=")
        if not eq or not name.strip():
            raise click.BadParameter(f"expected NAME=VALUE, got {s!r}", param_hint="--set")
        value = value.strip()
        try:
            out[name.strip().lstrip("'")] = int(value) if value.lstrip("-").isdigit() else value
        except ValueError:   # Python refuses to read an integer of thousands of digits
            raise click.BadParameter(f"{name.strip()}: an integer of {len(value)} digits is far beyond any "
                                     f"game's needs", param_hint="--set") from None
    return out


@contextmanager
def naming(path: str):
    """Name the game file in a GDL-layer error that does not (a description too large to ground,
    or not valid GDL): the layer sees a description, not where it came from."""
    try:
        yield
    except KifSyntaxError:
        raise
    except GdlError as e:
        if str(e).startswith(f"{path}:"):
            raise
        # a plain GdlError: subclasses take other constructor arguments, and the boundary
        # reports any GdlError the same way
        raise GdlError(f"{path}: {e}") from e
