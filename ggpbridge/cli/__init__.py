"""The `ggpbridge` command line: a thin layer over the library, one module per command."""
from __future__ import annotations

import sys

import click

from ..errors import GgpBridgeError


class _Boundary(click.Group):
    """Turns library errors into clean messages and exit status 2, never a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except GgpBridgeError as e:
            click.echo(str(e), err=True)
            sys.exit(2)
        except BrokenPipeError:  # output piped into `head` and the like: stop quietly
            sys.stderr.close()
            sys.exit(0)
        except OSError as e:
            click.echo(f"error: {e.filename or ''}: {e.strerror or e}", err=True)
            sys.exit(2)


@click.group(cls=_Boundary)
@click.version_option(package_name="ggpbridge")
def main():
    """Card games in RECYCLE, for General Game Playing and Answer Set Programming."""


def _register():
    from . import check, conformance, info, parse, simulate, upgrade
    for mod in (parse, check, upgrade, info, simulate, conformance):
        main.add_command(mod.command)
    try:
        from .validate import validate
        main.add_command(validate)
    except ImportError:  # the GDL layer is optional while it is being built
        pass


_register()

if __name__ == "__main__":
    main()
