"""The report as one self-contained HTML page: tables, inline SVG charts, the data as JSON.

Nothing is loaded from elsewhere (no script, style sheet, font or image by address), so
the file works offline and can be mailed. A few lines of inline script count the charts
into `data-plots` on the root element: a headless browser that loaded the page can be
asked whether every chart is there.
"""
from __future__ import annotations

import html
import json

from . import plots
from .data import headline

_CSS = """
body { font-family: sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
td, th { border-bottom: 1px solid #ddd; padding: 0.2em 0.8em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
figure.plot { margin: 1em 0 2em; }
figure.plot svg { max-width: 100%; height: auto; }
.note { color: #555; font-size: 0.9em; }
.warn { color: #a00; font-weight: bold; }
"""

_SCRIPT = """
(function () {
  var figs = document.querySelectorAll('figure.plot');
  var drawn = 0;
  figs.forEach(function (f) { if (f.querySelector('svg')) drawn += 1; });
  document.documentElement.dataset.plots = drawn + '/' + figs.length;
})();
"""


def _e(x) -> str:
    return html.escape(str(x))


def _num(x, pct: bool = False) -> str:
    if x is None:
        return "–"
    return f"{100 * x:.1f}%" if pct else (f"{x:.4g}" if isinstance(x, float) else str(x))


def _table(header: list, rows: list) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _figure(key: str, title: str, svg: str) -> str:
    return f'<figure class="plot" id="plot-{key}"><figcaption><h3>{_e(title)}</h3></figcaption>{svg}</figure>'


def _page(title: str, body: str, data) -> str:
    # "</" inside the JSON would end the script element early
    blob = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>{body}"
            f"<script type=\"application/json\" id=\"report-data\">{blob}</script>"
            f"<script>{_SCRIPT}</script></body></html>\n")


def _about(rep: dict) -> str:
    sets = ", ".join(f"{k}={v}" for k, v in rep["sets"].items()) or "none"
    warn = '<p class="warn">Interrupted: the figures are those of the games played before.</p>' \
        if rep.get("interrupted") else ""
    errs = "".join(f"<li>seed {e['seed']}: {_e(e['error'])}</li>" for e in rep["errors"])
    return (f"{warn}<p>{_e(rep['game'])}: {rep['games']} games from seed {rep['seed']}, players "
            f"{_e(rep['players'])}, {rep['seats']} seats, scoring {rep['scoring']}, --set {_e(sets)}; "
            f"{rep['summary']['finished']} finished ({rep['seconds']} s).</p>"
            + (f"<p class=\"warn\">Games that stopped on an error:</p><ul>{errs}</ul>" if errs else ""))


def _metrics(rep: dict) -> str:
    s = rep["summary"]
    seats = _table(["seat", "win share", "95% interval", "strategy potential", "95% interval"],
                   [[x["seat"], _num(x["win_share"], True),
                     "–" if not x["interval"] else f"{100 * x['interval'][0]:.1f}–{100 * x['interval'][1]:.1f}%",
                     _num(p["potential"]) if p else "–",
                     "–" if not p or not p["interval"] else f"{p['interval'][0]:.3f} to {p['interval'][1]:.3f}"]
                    for x, p in zip(s["seats"], rep["strategy_potential"] + [None] * len(s["seats"]))])
    ln, ld, mc = s["length"]["decisions"], s["lead"], rep["pipmc"]["meaningful_choices"]
    rows = [["fairness: spread of win shares", _num(s["fairness"]["spread"])],
            ["decisions per game: mean (min, median, max)",
             f"{_num(ln['mean'])} ({ln['min']}, {ln['median']}, {ln['max']})"],
            ["options per decision", _num(s["branching"]["mean_options"])],
            ["forced decisions", _num(s["branching"]["forced_share"], True)],
            ["lead changes per game", _num(ld["lead_changes"]["mean"])],
            ["drama: winner's deepest deficit (score points)", _num(ld["drama"]["mean_deepest_deficit"])],
            ["drama: games the winner trailed in", _num(ld["drama"]["trailed_share"], True)],
            ["decisiveness (1: the winner led from the start)", _num(ld["decisiveness"]["mean"])],
            [f"meaningful choices ({mc['decisions']} PIPMC decisions)", _num(mc["share"], True)]]
    cs = rep["pipmc"]["cardstock"]
    heur = _table(["CardStock heuristic", "value", "weight", "weighted"],
                  [[k, _num(h["value"]), h["weight"], _num(h["weighted"])] for k, h in cs["heuristics"].items()]
                  + [["total", "", "", _num(cs["total"])]])
    return (f"<h2>Metrics</h2>{seats}{_table(['metric', 'value'], rows)}"
            f"<p class=\"note\">Meaningful choices and CardStock's heuristics come from {rep['pipmc']['games']} "
            f"games with PIPMC ({rep['pipmc']['playouts']} playouts per option) in every seat; formulas in "
            f"docs/metrics.md.</p>{heur}")


def report_page(rep: dict) -> str:
    """The HTML page of one report (a dict from `report_data`)."""
    figs = "".join(_figure(key, title, draw(rep)) for key, title, draw in plots.SINGLE)
    title = f"ggpbridge report: {rep['game']}"
    return _page(title, f"<h1>{_e(title)}</h1>{_about(rep)}{_metrics(rep)}<h2>Charts</h2>{figs}", rep)


def sweep_page(variable: str, values: list, reports: list[dict]) -> str:
    """The HTML page of a sweep: every metric against the variable, and a table per value."""
    done = values[:len(reports)]
    heads = [headline(r) for r in reports]
    names = list(heads[0]) if heads else []
    table = _table(["metric"] + [f"{variable}={v}" for v in done], [[n] + [_num(h[n]) for h in heads] for n in names])
    first = reports[0] if reports else None
    if first:
        sets = ", ".join(f"{k}={v}" for k, v in first["sets"].items() if k != variable) or "none"
        about = (f"<p>{_e(first['game'])}: {variable} = {done[0]} … {done[-1]}, each with {first['games']} games "
                 f"from seed {first['seed']}, players {_e(first['players'])}, --set {_e(sets)}; "
                 f"{sum(r['summary']['finished'] for r in reports)} games finished in all "
                 f"({sum(r['seconds'] for r in reports):.1f} s).</p>")
    else:
        about = "<p>No variant was played.</p>"
    if any(r.get("interrupted") for r in reports) or len(reports) < len(values):
        about = '<p class="warn">Interrupted: only the variants shown were played.</p>' + about
    title = f"ggpbridge report: {first['game'] if first else ''} against {variable}"
    body = (f"<h1>{_e(title)}</h1>{about}<h2>Metrics against {_e(variable)}</h2>"
            + _figure("sweep", f"Each metric against {variable}", plots.sweep(variable, done, reports))
            + table)
    return _page(title, body, {"variable": variable, "values": done, "reports": reports})
