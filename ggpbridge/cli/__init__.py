"""The `ggpbridge` command line: a thin layer over the library, one module per command."""
from __future__ import annotations

import sys

import click

from ..errors import GgpBridgeError
from ..gdl.errors import GdlError, KifSyntaxError


class _Boundary(click.Group):
    """Turns library errors into clean messages and exit status 2, never a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except GgpBridgeError as e:
            click.echo(str(e), err=True)
            sys.exit(2)
        except GdlError as e:   # the GDL layer's own base (an invalid or ungroundable description)
            click.echo(str(e) if isinstance(e, KifSyntaxError) else f"error: {e}", err=True)
            sys.exit(2)
        except BrokenPipeError:  # output piped into `head` and the like: stop quietly
            sys.stderr.close()
            sys.exit(0)
        except OSError as e:
            click.echo(f"error: {e.filename or ''}: {e.strerror or e}", err=True)
            sys.exit(2)
        except MemoryError:
            # most often clingo grounding a large game (its bad_alloc arrives as MemoryError)
            click.echo("error: out of memory. A translated game's ground program grows with its tables: "
                       "`--fit PLAYS` sizes them to what PLAYS random plays reach.", err=True)
            sys.exit(2)


@click.group(cls=_Boundary)
@click.version_option(package_name="ggpbridge")
def main():
    """Card games in RECYCLE, for General Game Playing and Answer Set Programming."""


# One line per command: (module under ggpbridge.cli, attribute holding the click command).
_COMMANDS = [
    ("parse", "command"),
    ("check", "command"),
    ("upgrade", "command"),
    ("info", "command"),
    ("simulate", "command"),
    ("conformance", "command"),
    ("validate", "validate"),
    ("translate", "command"),
    ("crosscheck", "command"),
    ("playout", "command"),
    ("serve_player", "command"),
    ("match", "command"),
    ("export", "command"),
    ("query", "command"),
    ("replay", "command"),
]


def _register():
    import importlib
    for mod, attr in _COMMANDS:
        main.add_command(getattr(importlib.import_module(f".{mod}", __name__), attr))


_register()

if __name__ == "__main__":
    main()
