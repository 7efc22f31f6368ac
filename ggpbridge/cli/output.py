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


def deckbuild_figures(fig: dict) -> None:
    """A deck-building game's own figures, after the simulate table."""
    click.echo(f"turns per game: {fig['turns_per_game']['mean']} (sd {fig['turns_per_game']['sd']}); "
               f"options per buying decision: {fig['options_per_buying_decision']}; "
               f"buys offered when any: {fig['buys_offered_when_any']}; "
               f"hands that can buy nothing: {_pct(fig['hands_that_buy_nothing'])}")


SIMULATOR_STEP = ("  a step is one simulator step: a stage-level statement run, a choice made, or a stage's "
                  "end test; --max-steps counts these.")
MACHINE_STEP = "  a step is one joint move of the game machine (a chance pick or a decision)."


def _num(v) -> str:
    """A mean of the table: '-' where no game gave one (None)."""
    return "-" if v is None else str(v)


def sim_report(rep: dict, step_legend: str = SIMULATOR_STEP) -> None:
    """The simulate command's table; `step_legend` says what its steps count (a deck-building
    game's machine counts joint moves: MACHINE_STEP)."""
    heading(f"{rep['game']}: {rep['games']} games from seed {rep['seed']} ({rep['players']} players)"
            + ("  [interrupted]" if rep.get("interrupted") else ""))
    click.echo(f"finished {rep['finished']}, cycles {rep['cycles']}, unfinished {rep['unfinished']}, "
               f"errors {rep['errors']}   ({rep['seconds']} s, {rep['games_per_second']} games/s, {rep['engine']} engine)")
    table([[s["seat"], _pct(s["win_share"]), _interval(s.get("win_interval")), _num(s["mean_score"]),
            _num(s["mean_rank"]), _num(s["mean_options"])] for s in rep["seats"]],
          ["seat", "wins", "95% interval", "mean score", "mean rank", "mean options"])
    click.echo("  wins: share of the finished games won, a tie for the win split equally among the tied seats;\n"
               "  95% interval: Wilson score interval of that share (ties counted fractionally: conservative);\n"
               "  mean rank: rank 1 is the best, tied seats share the mean of their ranks;\n"
               "  mean options: options per choice the seat faced.")
    c, b, st = rep["choices_per_game"], rep["branching"], rep["steps_per_game"]
    if st["mean"] is None:   # no game finished: nothing to average
        click.echo("choices per game: -; steps per game: - (no game finished)")
    else:
        click.echo(f"choices per game: {c['mean']} (sd {c['sd']}); steps per game: {st['mean']} "
                   f"(min {st['min']}, median {st['median']}, max {st['max']})")
    click.echo(step_legend)
    if b["mean_options"] is not None:
        click.echo(f"mean options per choice: {b['mean_options']}; forced choices: {_pct(b['forced_share'])}")
    rows = b["by_stage_iteration"]
    if 1 < len(rows) <= 60:
        click.echo("options by stage iteration (outermost first):")
        table([[r["choice"], ".".join(map(str, r["iterations"])), r["decisions"], r["mean_options"]] for r in rows],
              ["choice", "iteration", "decisions", "mean options"])
    if rep.get("outcomes"):
        _outcomes(rep["outcomes"], len(rep["seats"]))
    _seed_errors(rep["error_examples"])
    for kind, seeds in rep["runaway_seeds"].items():
        click.echo(f"{kind} seeds (first few): {', '.join(map(str, seeds))}")


def _outcomes(o: dict, seats: int) -> None:
    """Table 5's columns of a G_cardgame simulation."""
    lim = o["limit"]
    click.echo("outcomes (Table 5: wins by one seat alone, draws, crashes; they add up to the games):")
    table([[*o["won"], o["draws"], o["crashed"], *("-" if v is None else v for v in o["mean"].values())]],
          [*(f"won by {p}" for p in range(seats)), "draws", "crashed", *(f"mean {k}" for k in o["mean"])])
    if lim["unit"]:
        click.echo(f"  a play crashes over {lim['bound']} {lim['unit']} or on a game error; means are over the "
                   "plays that did not crash")
    for cause, k in o["crashes"].items():
        click.echo(f"  crashed {k}: {cause}")


def _seed_errors(errors: list) -> None:
    """The rule errors met, each with the seed of its game, on stderr."""
    for e in errors:
        click.echo(click.style(f"seed {e['seed']}: ", fg="red") + e["error"], err=True)


def _interval(iv) -> str:
    return "-" if not iv else f"{100 * iv[0]:.1f}-{100 * iv[1]:.1f}%"


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def report_summary(rep: dict) -> None:
    """The report command's terminal summary (the page has the charts)."""
    s = rep["summary"]
    heading(f"{rep['game']}: {rep['games']} games from seed {rep['seed']} ({rep['players']} players)"
            + ("  [interrupted]" if rep.get("interrupted") else ""))
    pots = {p["seat"]: p for p in rep["strategy_potential"]}
    table([[x["seat"], _pct(x["win_share"]), _interval(x["interval"]), _fmt(pots.get(x["seat"], {}).get("potential"))]
           for x in s["seats"]], ["seat", "wins", "95% interval", "strategy potential"])
    ln, ld = s["length"]["decisions"], s["lead"]
    mc, cs = rep["pipmc"]["meaningful_choices"], rep["pipmc"]["cardstock"]
    click.echo(f"fairness spread {_fmt(s['fairness']['spread'])}; decisions per game {_fmt(ln['mean'])} "
               f"(min {ln['min']}, max {ln['max']}); options per decision {_fmt(s['branching']['mean_options'])}")
    click.echo(f"lead changes per game {_fmt(ld['lead_changes']['mean'])}; winner's deepest deficit "
               f"{_fmt(ld['drama']['mean_deepest_deficit'])}; decisiveness {_fmt(ld['decisiveness']['mean'])}; "
               f"meaningful choices {_pct(mc['share'])} of {mc['decisions']}")
    click.echo("CardStock: " + ", ".join(f"{k} {_fmt(h['value'])}" for k, h in cs["heuristics"].items())
               + f"; weighted total {_fmt(cs['total'])}")
    _seed_errors(rep["errors"])


def sweep_summary(data: dict) -> None:
    """The report command's terminal summary of a sweep: the headline metrics per value."""
    from ..report.data import headline
    heads = [headline(r) for r in data["reports"]]
    heading(f"{data['reports'][0]['game'] if heads else ''}: sweep of {data['variable']}"
            + ("  [interrupted]" if data.get("interrupted") else ""))
    if heads:
        table([[name] + [_fmt(h[name]) for h in heads] for name in heads[0]],
              ["metric"] + [f"{data['variable']}={v}" for v in data["values"]])
    for r in data["reports"]:
        _seed_errors(r["errors"])


def _fmt(x) -> str:
    return "-" if x is None else f"{x:.4g}" if isinstance(x, float) else str(x)


def solve_checkpoint(point: dict, header: bool = False) -> None:
    """One line of CFR+'s convergence: iteration, value per seat, exploitability, seconds."""
    if header:
        click.echo(f"  {'iteration':>9}  {'value per seat':<28} {'exploitability':>14} {'seconds':>8}")
    vals = " ".join(f"{v:+.5f}" for v in point["value"])
    click.echo(f"  {point['iteration']:>9}  {vals:<28} {point['exploitability']:>14.6f} {point['seconds']:>8.2f}")


def solve_report(rep: dict) -> None:
    """The summary of `ggpbridge solve`."""
    seats = [f"p{s}" for s in range(rep["seats"])]
    click.echo(f"  method: {rep['method']} ({rep['method_reason']})")
    cs = rep.get("constant_sum")
    total = ("zero-sum" if cs == "0" else f"constant-sum (the utilities add up to {cs})") if cs is not None \
        else "not constant-sum (the utilities' sum differs between outcomes)"
    click.echo(f"  utility: {rep['utility']} ({'final score' if rep['utility'] == 'score' else 'win share'}); "
               f"the game is {total} under it" if "value" in rep else f"  utility: {rep['utility']}")
    if rep.get("relaxation"):
        click.echo("  " + click.style(rep["relaxation"], fg="yellow"))
    tree = rep.get("tree") or {}
    if rep["method"] == "expectimax" and tree:
        click.echo(f"  game tree: {tree['histories']} histories; transposition table: {tree['transposition_table']} "
                   f"states")
    elif tree:
        sets = tree["information_sets"]
        click.echo(f"  game tree: {tree['histories']} histories ({tree['states']} distinct states), {tree['nodes']} "
                   f"nodes once equal subtrees under chance are merged; {sum(sets)} information sets "
                   f"({', '.join(f'{p} {n}' for p, n in zip(seats, sets))}); built in {rep['build_seconds']} s")
    if "value" not in rep:
        click.echo(f"  stopped: {rep['stopped_by']}")
        return
    exact = rep.get("exact_value")
    vals = ", ".join(f"{p} {v:+.6f}" + (f" (= {e})" if exact else "")
                     for p, v, e in zip(seats, rep["value"], exact or rep["value"]))
    heading(f"  value: {vals}")
    if "exploitability" in rep:
        click.echo(f"  exploitability {rep['exploitability']:.6f} (NashConv {rep['nash_conv']:.6f}) after "
                   f"{rep['iterations']} iterations of CFR+, {rep['seconds']} s in all; stopped: {rep['stopped_by']}")
    for fm in rep.get("first_moves", []):
        click.echo(f"  first decision (probability {fm['probability']}), p{fm['player']} sees: {fm['sees']}")
        for o in fm["options"]:
            mark = "best" if o["option"] == fm["best"] else "    "
            click.echo(f"    {mark} option {o['option']}: values {' '.join(o['values'])}   {o['move']}")


def game_view(view: dict, all_seats: bool = False) -> None:
    """The show command's trace: one line per step, the options of each real choice, and what the
    seat choosing sees (every seat's view with `all_seats`)."""
    from ..viewer_html import step_line
    title = f"{view['game']}: game {view['seed']} ({view['players']} players)" if "seed" in view else view["game"]
    heading(title)
    for s in view["steps"]:
        number = f"{s['first']}" if s["first"] == s["last"] else f"{s['first']}-{s['last']}"
        click.echo(f"{number:>9}  {step_line(s)}")
        if s["kind"] != "decision":
            continue
        if len(s["options"]) > 1:
            for k, text in enumerate(s["options"]):
                click.echo(f"{'':11}{'*' if k == s['chosen'] else ' '} {k + 1}. {text}")
        for p in range(len(s["sees"])) if all_seats else [s["player"]]:
            _seat_view(p, s["sees"][p])
    end = view["end"]["node"]
    status = view.get("status")
    if status and status != "finished":
        end = f"{status}: {view.get('message') or end}"
    steps = view["steps"][-1]["last"] if view["steps"] else 0
    click.echo(click.style(f"end ({view['decisions']} decisions, {steps} steps): ", bold=True) + end)


def machine_play(view: dict, all_seats: bool = False) -> None:
    """`show` of a game module's play: one line per step, each decision's options, what the chooser sees."""
    heading(f"{view['game']}: game {view['seed']} ({view['players']} players)")
    for s in view["steps"]:
        if s["kind"] == "chance":
            click.echo(f"{s['step']:>9}  {s['text']}")
        elif s["kind"] == "decision":
            click.echo(f"{s['step']:>9}  player {s['player']}: {s['options'][s['chosen']]}")
            if len(s["options"]) > 1:
                for k, text in enumerate(s["options"]):
                    click.echo(f"{'':11}{'*' if k == s['chosen'] else ' '} {k + 1}. {text}")
            for p in range(len(s["sees"])) if all_seats else [s["player"]]:
                click.echo(f"{'':11}player {p} sees: {s['sees'][p]}")
    end = view["end"]
    status = view["status"] if view["status"] == "finished" else f"{view['status']}: {view['message']}"
    scores = ", ".join(f"player {p} {v}" for p, v in enumerate(end.get("scores", [])))
    click.echo(click.style(f"end ({view['decisions']} decisions, {len(view['steps'])} steps, {end.get('turns')} "
                           f"turns): ", bold=True) + f"{status}; scores {scores}")


def _seat_view(p: int, v: dict) -> None:
    parts = [f"{x['where']}: " + (" ".join(x["cards"]) if "cards" in x else f"{x['hidden']} hidden")
             for x in v["locations"]]
    parts += [f"{t['name']} = {t['value']}" for t in v["storages"]]
    click.echo(f"{'':11}player {p} sees: " + ("; ".join(parts) or "nothing"))


def written(rows: list[dict], json_out: bool) -> None:
    """The files `generate` / `mutate` wrote, with the errors `check` found in any."""
    if json_out:
        as_json({"files": rows, "written": len(rows), "with_errors": sum(bool(r["errors"]) for r in rows)})
        return
    for r in rows:
        click.echo(r["file"])
        for e in r["errors"]:
            click.echo(e, err=True)
    checked = [r for r in rows if r["checked"]]
    bad = sum(bool(r["errors"]) for r in rows)
    note = f"; checked {len(checked)}, {bad} with errors" if checked else ""
    click.echo(f"{len(rows)} file(s) written{note}", err=True)


def table5(rows: list[dict], total: dict, interrupted: bool, json_out: bool) -> None:
    """`stats`: Table 5's columns per game and in total; unplayable games with their error."""
    if json_out:
        as_json({"games": rows, "total": total, "interrupted": interrupted})
        return
    seats = len(total["won"])
    head = ["game", "plays"] + [f"won by {k}" for k in range(seats)] + ["draws", "crashes", "turns", "unit"]
    body = []
    for r in rows:
        if "error" in r:
            body.append([r["file"], "-"] + ["-"] * seats + ["-", "-", "-", "-"])
            continue
        won = r["won"] + ["-"] * (seats - len(r["won"]))
        body.append([r["file"], r["plays"], *won, r["draws"], r["crashes"], _or_dash(r["turns"]), r["unit"]])
    body.append(["total", total["plays"], *total["won"], total["draws"], total["crashes"], _or_dash(total["turns"]),
                 _or_dash(total["unit"])])
    table(body, head)
    click.echo("  won by k: plays seat k won alone; draws: several seats tied for the best score; crashes: a game\n"
               "  error, a cycle, the step cap, or (G_cardgame) over 100 rules played; turns: the mean length of\n"
               "  the plays that did not crash, in `unit`: rules played for G_cardgame (the paper's unit),\n"
               "  choices (forced ones included) for RECYCLE and GDL.")
    for r in rows:
        if "error" in r:
            click.echo(f"{r['file']}: not played: {r['error']}", err=True)
        elif r["crash_causes"]:
            causes = ", ".join(f"{k} {v}" for k, v in r["crash_causes"].items())
            click.echo(f"{r['file']}: crashes: {causes}", err=True)
    if interrupted:
        click.echo("[interrupted: the rows above are the games played before]", err=True)


def _or_dash(x):
    return "-" if x is None else x


def evolution(result, json_out: bool) -> None:
    """`evolve`: the best and mean fitness per generation, and where the files are."""
    from dataclasses import asdict
    if json_out:
        as_json(asdict(result))
        return
    rows = [[h["generation"], h["best"], h["best_fitness"], h["mean_fitness"]] for h in result.history]
    if rows:
        table(rows, ["generation", "best", "best fitness", "mean fitness"])
    state = "done" if result.done else f"stopped in generation {result.generation}; run the same command to resume"
    click.echo(f"{result.out}: {state} ({result.evaluated} evaluations by this run)", err=True)
    if result.history:
        last = result.history[-1]
        click.echo(f"best of generation {last['generation']}: {result.out}/gen_{last['generation']:03d}/"
                   f"rank1_{last['best']}", err=True)
