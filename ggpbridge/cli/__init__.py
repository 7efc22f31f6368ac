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
        except MemoryError:
            # most often clingo grounding a large game (its bad_alloc arrives as MemoryError)
            click.echo("error: out of memory. A translated game's ground program grows with its tables: "
                       "`--fit PLAYS` sizes them to what PLAYS random plays reach.", err=True)
            sys.exit(2)
        except Exception as e:
            # the GDL layer's own base (an invalid or ungroundable description); looked up here,
            # not imported at start: a command that never loaded the GDL layer cannot raise it
            gdl = sys.modules.get("ggpbridge.gdl.errors")
            if gdl is None or not isinstance(e, gdl.GdlError):
                raise
            click.echo(str(e) if isinstance(e, gdl.KifSyntaxError) else f"error: {e}", err=True)
            sys.exit(2)


class _LazyGroup(_Boundary):
    """Imports a command's module only when that command runs (click's "Lazily loading
    subcommands" pattern): `ggpbridge --help` and `simulate` do not pay for clingo, networkx
    or the translator. The listing in --help uses the short help kept in `_COMMANDS`, so it
    needs no import either (a test checks it matches each command's own docstring)."""

    def list_commands(self, ctx):
        return sorted(_COMMANDS)

    def get_command(self, ctx, name):
        if name not in _COMMANDS:
            return None
        import importlib
        mod, attr, _ = _COMMANDS[name]
        return getattr(importlib.import_module(f".{mod}", __name__), attr)

    def format_commands(self, ctx, formatter):
        rows = [(name, _COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


# Each command: (module under ggpbridge.cli, attribute holding the click command, short help).
_COMMANDS = {
    "parse": ("parse", "command", "Parse FILE (any RECYCLE dialect) and print its IR."),
    "check": ("check", "command", "Check games; exit status 0 when no file has an error."),
    "upgrade": ("upgrade", "command", "Print FILE in canonical v0.5.10 syntax, comments kept where possible."),
    "info": ("info", "command", "Players, teams, deck, locations, storages, stages and choice points of FILE."),
    "simulate": ("simulate", "command",
                 "Play N seeded games of GAME and report win shares, lengths, branching, runaways."),
    "conformance": ("conformance", "command",
                    "Run every game file under PATHS through dialect detection, parsing, the checker and K "
                    "seeded games."),
    "validate": ("validate", "validate", "Parse and statically check GDL / GDL-II (KIF) files; exit 1 on any error."),
    "translate": ("translate", "command",
                  "Translate GAME (RECYCLE, or GDL in KIF) into GDL-II, GDL or ASP; the same input gives the "
                  "same bytes."),
    "crosscheck": ("crosscheck", "command",
                   "Play N random playouts on both engines in lockstep; exit 1 on the first divergence."),
    "playout": ("playout", "command",
                "Play N uniformly random games of GAME on one engine and print the outcomes (goals per role)."),
    "serve-player": ("serve_player", "command",
                     "Serve the GGP protocol: INFO, START, PLAY, STOP, ABORT, PREVIEW (prints `listening on "
                     "URL`)."),
    "match": ("match", "command", "Play GAME between GGP players; print the goals and errors, write the record with -o."),
    "export": ("export", "command", "Write DIR/<key>/METADATA (JSON) and DIR/<key>/<key>.kif; print the directory."),
    "query": ("query", "command",
              "Ask QUESTION about GAME: cycle | terminates | always-ends | playable | winnable ROLE | forced-win "
              "ROLE | exists --where CONDITION."),
    "solve": ("solve", "command", "Solve GAME exactly: values per seat, CFR+ exploitability, the best first moves."),
    "report": ("report", "command",
               "Playtest GAME and write win shares, lengths, branching, lead, strategy potential and charts as "
               "HTML."),
    "show": ("show", "command",
             "Play game SEED of GAME and show every step: options, choice, chance, what each seat sees."),
    "generate": ("generate", "command",
                 "Write N random games of LANG derived from its grammar, each one that `check` accepts."),
    "mutate": ("mutate", "command",
               "Write N mutants of GAME (one subtree re-derived, or with --operator ability an ability card added), "
               "or crossovers with --crossover OTHER."),
    "stats": ("stats", "command",
              "Play every game under PATHS N times and print Table 5's columns per game and in total."),
    "evolve": ("evolve", "command",
               "Evolve games of LANG by playouts; the same command resumes an interrupted run in DIR."),
    "replay": ("replay", "command",
               "Replay WITNESS (written by `ggpbridge query`) on GAME and confirm what it claims."),
}


@click.group(cls=_LazyGroup)
@click.version_option(package_name="ggpbridge")
def main():
    """Card games in RECYCLE, for General Game Playing and Answer Set Programming."""


if __name__ == "__main__":
    main()
