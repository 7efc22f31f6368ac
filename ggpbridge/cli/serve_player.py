"""`ggpbridge serve-player`: a GGP player (GDL and GDL-II) over HTTP."""
from __future__ import annotations

import click

from ..ggp.player import STRATEGIES, Player
from ..ggp.server import MAX_BODY, READ_TIMEOUT, serve


@click.command("serve-player")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), required=True,
              help="Port to listen on (0 picks a free one; the address is printed).")
@click.option("--strategy", type=click.Choice(STRATEGIES), default="random", show_default=True,
              help="random: a random legal move; legal: the first legal move; "
                   "mc: Monte Carlo playouts from sampled consistent states within the play clock.")
@click.option("--name", default="ggpbridge", show_default=True, help="Name given in the INFO reply.")
@click.option("--seed", type=int, default=None, help="Seed of the player's random choices.")
@click.option("--read-timeout", type=click.FloatRange(min=0, min_open=True), default=READ_TIMEOUT,
              show_default=True, help="Seconds for a whole request to arrive; a slower one is cut off.")
@click.option("--max-body", type=click.IntRange(min=1), default=MAX_BODY, show_default=True,
              help="Largest message accepted, in bytes; a larger one gets 413 unread.")
@click.option("--verbose", is_flag=True, help="Print every message and reply on stderr.")
def command(host, port, strategy, name, seed, read_timeout, max_body, verbose):
    """Serve the GGP protocol: INFO, START, PLAY, STOP, ABORT, PREVIEW (prints `listening on URL`)."""
    if not name or any(c in name for c in " ()\t\n;\""):
        raise click.BadParameter("a name is one word without parentheses", param_hint="--name")
    serve(Player(strategy, name=name, seed=seed), host, port, verbose, read_timeout, max_body)
