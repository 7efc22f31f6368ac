"""Options and loading shared by the commands."""
from __future__ import annotations

import functools
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import click

from ..errors import NotRecycleError
from ..gdl.errors import GdlError, KifSyntaxError
from ..frontends import load_game
from ..recycle.dialects import DIALECTS

dialect_option = click.option(
    "--dialect", type=click.Choice(DIALECTS), default=None,
    help="Read the file in this RECYCLE dialect instead of detecting it from the content.")

fit_option = click.option(
    "--fit", type=click.IntRange(min=0), default=0, show_default=True, metavar="PLAYS",
    help="Size the translation's tables (positions per location, integer values) to what PLAYS random "
         "simulator plays reach, instead of the worst case: a much smaller ground program. A play beyond "
         "them ends as `overflow`. 0: worst-case tables.")


def load(path: str, dialect: str | None, kif_hint: str = "", count: bool = False):
    """Parse a game file (RECYCLE or G_cardgame); library errors propagate to the CLI boundary.
    `kif_hint` says what to do instead with a GDL (KIF) file; `count`: see `load_game`."""
    try:
        return load_game(path, dialect, count)
    except NotRecycleError as e:
        if not kif_hint:
            raise
        raise NotRecycleError(f"{e.message}; {kif_hint}", e.pos, e.source) from None


def check_writable(path: str | None, option: str) -> None:
    """Refuse, before any work, an output file that cannot be written (a missing folder, a
    folder, no permission): a long run would otherwise end by losing what it computed."""
    if path is None:
        return
    p = Path(path)
    existed = p.exists()
    try:
        with open(p, "a", encoding="utf-8"):   # append: an existing file is left as it is
            pass
    except OSError as e:
        raise click.BadParameter(f"{path} cannot be written: {e.strerror or e}", param_hint=option) from None
    if not existed:
        p.unlink(missing_ok=True)


def write_output(path: str, text: str) -> str | None:
    """Write a result file; the reason it could not be written, or None. The caller has printed
    the result already, and reports the reason after it."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as e:
        return f"{path} cannot be written: {e.strerror or e}"
    return None


def check_players(players: str) -> None:
    """Refuse a bad --players spec before any work."""
    from ..sim.players import player_names
    try:
        player_names(players)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--players") from None


def check_policies(players: str, prog) -> None:
    """Refuse, before any game, a `policy:FILE` seat solved under other --set values than `prog`'s."""
    from ..sim.players import parse_players
    from ..sim.policy_player import PolicyFileError, check_fits
    for name, path in parse_players(players):
        if name == "policy":
            try:
                check_fits(path, prog)
            except PolicyFileError as e:
                raise click.BadParameter(str(e), param_hint="--players") from None


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


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C raises KeyboardInterrupt: the loops that keep their partial
    results on Ctrl-C (simulate, playouts, the lockstep, the query engines) keep them on SIGTERM too."""

    signal_name = "SIGTERM"   # errors.interrupted_by names it


# 128 + the signal's number, as shells report a process stopped by it
_EXIT_STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143}


def keeps_partial_results(command):
    """Decorate a long-running command (under its click options): Ctrl-C (SIGINT) and SIGTERM stop
    its work, the library returns what it computed so far (it catches KeyboardInterrupt), the
    command prints it, and the exit status is 130 / 143 whatever the command would have returned."""
    @functools.wraps(command)
    def run(*args, **kwargs):
        if threading.current_thread() is not threading.main_thread():
            return command(*args, **kwargs)   # signal handlers belong to the main thread
        received: list[int] = []

        def stop(signum, frame):
            received.append(signum)
            raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()

        previous = {sig: signal.signal(sig, stop) for sig in _EXIT_STATUS}
        try:
            command(*args, **kwargs)
        except SystemExit:
            if not received:
                raise
        except KeyboardInterrupt:   # stopped where no partial result is kept (loading, translating)
            if not received:
                received.append(signal.SIGINT)
            click.echo("stopped before a result was printed", err=True)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        if received:
            click.echo(f"interrupted by {signal.Signals(received[0]).name}: what is printed is what was "
                       f"computed before", err=True)
            sys.exit(_EXIT_STATUS[received[0]])
    return run


def cluster_options(f):
    """--workers N (a local Dask cluster) and --cluster ADDRESS (a running one), for commands that
    play many games; check them with `check_cluster`."""
    f = click.option("--cluster", metavar="tcp://HOST:PORT", default=None,
                     help="Play on the Dask cluster of this scheduler (`dask scheduler`; same results as one "
                          "process).")(f)
    return click.option("--workers", type=click.IntRange(min=1), default=None,
                        help="Play on a local Dask cluster of this many processes (same results as one "
                             "process).")(f)


def check_cluster(workers, cluster) -> None:
    """Refuse --workers together with --cluster."""
    if workers and cluster:
        raise click.BadParameter("give --workers (a local cluster) or --cluster (a running one), not both",
                                 param_hint="--workers")
