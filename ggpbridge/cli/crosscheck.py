"""`ggpbridge crosscheck GAME -n N`: the simulator and clingo (on the translation) in lockstep."""
from __future__ import annotations

import sys

import click

from ..crosscheck import MACHINES, crosscheck
from . import output
from .common import dialect_option, fit_option, keeps_partial_results, load, naming, parse_sets


# what each kind of Report.overflow_kinds means to the user, and what would help
_OVERFLOW_HINTS = {
    "tables": "beyond the tables fitted to {fit} plays: raise --fit",
    "stale draw": "drew from a deck not shuffled since cards were put back in",
    "score": "with a score, or a result on the way to one, outside the translation's integers, every goal "
             "0 as expected: the fit sizes storages, not the scores computed from them",
    "run variants": "met runs of cards of equal score (listed or looped over), whose variants the "
                    "translation does not branch on",
    "subsets": "counted the subsets of more cards than the translation counts",
    "subset options": "offered options over the subsets of a location of more than {most} cards, beyond the masks "
                      "the translation lists",
}


@click.command("crosscheck")
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.option("-n", "--games", "n", type=click.IntRange(min=1), default=20, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first playout; playout i uses seed+i.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE", help="Override a declared variable.")
@click.option("--max-events", type=click.IntRange(min=1), default=2_000, show_default=True,
              help="A game still running after this many events is a runaway: it agrees that far.")
@click.option("--time-limit", type=click.FloatRange(min=0), default=None,
              help="Start no playout after this many seconds of play, setup not counted (the report "
                   "says how many were played).")
@fit_option
@click.option("--machine", type=click.Choice(MACHINES), default="clingo", show_default=True,
              help="GDL engine of the translation: clingo solves each query; propnet (the same answers) "
                   "evaluates the ground rules that a transition changes.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@dialect_option
@keeps_partial_results
def command(game, n, seed, sets, max_events, time_limit, fit, machine, as_json, dialect):
    """Play N random playouts on both engines in lockstep; exit 1 on the first divergence."""
    from ..filekinds import is_deckbuild
    if is_deckbuild(game):
        return _deckbuild(game, n, seed, sets, max_events, as_json, machine)
    loaded = load(game, dialect, "`ggpbridge playout GAME --engine clingo` plays a GDL game")
    opts = dict(max_events=max_events, time_limit=time_limit, fit=fit, machine=machine)
    with naming(game):
        rep = _with_progress(n, as_json, lambda progress: crosscheck(loaded, n, seed, parse_sets(sets),
                                                                     progress=progress, **opts))
    data = {"game": game, "seed": seed, **rep.as_dict()}
    if as_json:
        output.as_json(data)
    else:
        click.echo(f"{game}: {rep.playouts} of {n} playouts agree ({rep.decisions} decisions, {rep.chance} chance "
                   f"events, {rep.gdl_steps} GDL steps, {rep.seconds:.1f} s after {rep.setup_seconds:.1f} s of setup)"
                   + (f"; {len(rep.capped)} runaway games agree up to {max_events} events" if rep.capped else ""))
        if rep.broken:
            click.echo(f"{len(rep.broken)} games reach a player with no option (a rule error of the game, "
                       f"where both engines agree): seeds {rep.broken[:10]}")
        if rep.rule_errors:
            first = rep.rule_errors[0]
            click.echo(f"{len(rep.rule_errors)} games stop on a rule error of the game in the simulator, "
                       f"agreeing up to there: seeds {[e['seed'] for e in rep.rule_errors[:10]]}; "
                       f"seed {first['seed']}: {first['error'].splitlines()[0]}")
        if rep.overflowed:
            from ..translators.recycle_gdl.subsetopts import MOST
            why = [f"{n} {_OVERFLOW_HINTS[kind].format(fit=fit, most=MOST)}"
                   for kind, n in sorted(rep.overflow_kinds.items())]
            click.echo(f"{len(rep.overflowed)} games ended as overflow, agreeing up to there ({'; '.join(why)}): "
                       f"seeds {rep.overflowed[:10]}")
        if rep.stopped:
            click.echo(f"stopped: {rep.stopped}")
        d = rep.divergence
        if d:
            _divergence(d, f"seed {d['seed']}; replay: {d.get('history')}",
                        {"only_simulator": "only simulator", "only_clingo": "only clingo"})
    raise SystemExit(1 if rep.divergence else 0)


def _deckbuild(game, n, seed, sets, max_events, as_json, kind):
    """A deck-building game: its Python machine and clingo on its generated GDL-II, in lockstep."""
    import time
    from ..deckbuild.machine import DeckMachine
    from ..lockstep import lockstep
    from ..crosscheck import gdl_machine, kif_sha256
    from ..translate import deckbuild_description
    from ..deckbuild.settings import read_dbk
    t0 = time.perf_counter()
    overrides = parse_sets(sets)
    machine = DeckMachine(read_dbk(game, overrides))
    with naming(game):
        desc = deckbuild_description(game, 2, overrides)
        clingo = gdl_machine(desc, kind)
    setup = time.perf_counter() - t0
    rep = _with_progress(n, as_json, lambda progress: lockstep(machine, clingo, n, seed, max_events, progress))
    seconds = time.perf_counter() - t0 - setup
    data = {"game": game, "seed": seed, "kif_sha256": kif_sha256(desc), "seconds": round(seconds, 1),
            "setup_seconds": round(setup, 1), **rep.as_dict()}
    if as_json:
        output.as_json(data)
    else:
        other = "clingo" if kind == "clingo" else "the propositional network"
        click.echo(f"{game}: {rep.plays} of {n} plays agree between the Python machine and {other} on the "
                   f"generated GDL-II ({rep.steps} joint moves, {seconds:.1f} s after {setup:.1f} s of setup)"
                   + ("  [interrupted]" if rep.interrupted else ""))
        d = rep.divergence
        if d:
            _divergence(d, f"seed {d['seed']}, step {d['step']}; moves: {d['moves'][-10:]}",
                        {"only_a": "only the Python machine", "only_b": f"only {other}"})
    raise SystemExit(1 if rep.divergence else 0)


def _with_progress(n: int, as_json: bool, run):
    """`run(progress)`: with a progress bar of n plays on a terminal's stderr, else progress None."""
    if as_json or not sys.stderr.isatty():
        return run(None)
    with click.progressbar(length=n, label="lockstep", file=sys.stderr) as bar:
        return run(bar.update)


def _divergence(d: dict, where: str, only: dict) -> None:
    """The first divergence on stderr: what differs, where, and the moves only one engine has
    (`only`: the report's key -> the engine's name)."""
    click.echo(click.style("divergence: ", fg="red") + d["what"], err=True)
    click.echo(f"  {where}", err=True)
    for k, who in only.items():
        if d.get(k):
            click.echo(f"  {who}: {' '.join(d[k][:20])}", err=True)
