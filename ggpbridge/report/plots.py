"""The report's charts: matplotlib figures (no pyplot, no display) rendered to inline SVG text.

Each function takes the dict `report_data` returns (or a sweep's list of them) and gives
one SVG document as a string. Text is drawn as paths, so the SVG needs no font, and each
figure has its own id salt, so that several SVGs in one page never share an element id.
"""
from __future__ import annotations

import io

import matplotlib
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .data import headline

_STYLE = {"svg.fonttype": "path", "font.size": 9, "axes.spines.top": False, "axes.spines.right": False}


def _svg(fig: Figure, salt: str) -> str:
    buf = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": salt}):
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]   # drop the XML prologue: the SVG is inlined in HTML


def _figure(w: float = 5.5, h: float = 3.2, cols: int = 1) -> tuple[Figure, list]:
    """A figure of `cols` panels side by side (the caller holds the style's rc_context)."""
    fig = Figure(figsize=(w, h), layout="constrained")
    return fig, list(fig.subplots(1, cols, squeeze=False)[0])


def _empty(ax, text: str = "no data") -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, color="grey")
    ax.set_xticks([])
    ax.set_yticks([])


def _bars_with_intervals(ax, xs, ys, intervals, colour: str) -> None:
    """Bars at xs with 95% intervals drawn as error bars (intervals may hold None)."""
    heights = [y if y is not None else 0.0 for y in ys]
    ax.bar(xs, heights, color=colour, width=0.6)
    for x, y, iv in zip(xs, heights, intervals):
        if iv is not None:
            ax.errorbar([x], [y], yerr=[[y - iv[0]], [iv[1] - y]], color="black", capsize=4, lw=1)


def win_share(rep: dict) -> str:
    """Win share by seat with its 95% Wilson interval, and the even share 1/seats."""
    with matplotlib.rc_context(_STYLE):
        fig, (ax,) = _figure()
        seats = rep["summary"]["seats"]
        if not rep["summary"]["finished"]:
            _empty(ax, "no finished game")
        else:
            xs = [s["seat"] for s in seats]
            _bars_with_intervals(ax, xs, [s["win_share"] for s in seats], [s["interval"] for s in seats], "#4c72b0")
            ax.axhline(1 / rep["seats"], color="grey", ls="--", lw=1, label="even share")
            ax.set_xticks(xs)
            ax.set_ylim(0, 1)
            ax.legend(loc="upper right", frameon=False)
        ax.set_xlabel("seat")
        ax.set_ylabel("win share (95% interval)")
        return _svg(fig, "win-share")


def length(rep: dict) -> str:
    """Histogram of decisions per finished game."""
    with matplotlib.rc_context(_STYLE):
        fig, (ax,) = _figure()
        hist = rep["summary"]["length"]["decisions"]["histogram"]
        if not hist:
            _empty(ax, "no finished game")
        else:
            xs, ys = [int(k) for k in hist], list(hist.values())
            if len(xs) <= 40:
                ax.bar(xs, ys, width=0.8, color="#55a868")
                # a game of one length would get fractional ticks without some room around it
                ax.set_xlim(min(xs) - 1.5, max(xs) + 1.5)
            else:   # many distinct lengths: 40 bins of equal width
                ax.hist(xs, bins=40, weights=ys, color="#55a868")
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_xlabel("decisions per game")
            ax.set_ylabel("games")
        return _svg(fig, "length")


def branching_stage(rep: dict) -> str:
    """Mean options per decision at each choice of the game."""
    with matplotlib.rc_context(_STYLE):
        fig, (ax,) = _figure()
        rows = rep["summary"]["branching"]["by_choice"]
        if not rows:
            _empty(ax, "no decision")
        else:
            ax.bar(range(len(rows)), [r["mean_options"] for r in rows], color="#c44e52", width=0.6)
            ax.set_xticks(range(len(rows)), [r["label"] for r in rows])
            ax.set_xlabel("choice (where it is in the game file)")
            ax.set_ylabel("mean options per decision")
        return _svg(fig, "branching-stage")


def branching_trick(rep: dict) -> str:
    """Mean options against the outermost stage's pass (the round or trick), a line per choice
    and turn within the pass."""
    with matplotlib.rc_context(_STYLE):
        fig, (ax,) = _figure()
        lines: dict = {}
        for r in rep["summary"]["branching"]["by_trick"]:
            key = r["label"] + (f", turn {r['turn']}" if r["turn"] else "")
            lines.setdefault(key, []).append((r["iteration"], r["mean_options"]))
        if not lines:
            _empty(ax, "no decision")
        else:
            for key, pts in list(lines.items())[:12]:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3, label=key)
            ax.legend(fontsize=7, frameon=False, loc="best")
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_xlabel("pass of the outermost stage (round, trick)")
            ax.set_ylabel("mean options per decision")
        return _svg(fig, "branching-trick")


def strategy_potential(rep: dict) -> str:
    """Win share PIPMC gains over random in each seat, with its 95% interval."""
    with matplotlib.rc_context(_STYLE):
        fig, (ax,) = _figure()
        rows = [r for r in rep["strategy_potential"] if r["potential"] is not None]
        if not rows:
            _empty(ax, "not computed")
        else:
            xs = [r["seat"] for r in rows]
            _bars_with_intervals(ax, xs, [r["potential"] for r in rows], [r["interval"] for r in rows], "#8172b2")
            ax.axhline(0, color="grey", lw=1)
            ax.set_xticks(xs)
            ax.set_xlabel("seat")
            ax.set_ylabel("strategy potential (95% interval)")
        return _svg(fig, "potential")


def lead(rep: dict) -> str:
    """The eventual winner's mean margin and how often it leads across the game, and the
    distribution of lead changes per game."""
    with matplotlib.rc_context(_STYLE):
        fig, axes = _figure(w=9, h=3, cols=3)
        ld = rep["summary"]["lead"]
        c = ld["curve"]
        if all(v is None for v in c["mean_margin"]):
            _empty(axes[0])
            _empty(axes[1])
        else:
            axes[0].plot(c["fraction"], c["mean_margin"], color="#4c72b0")
            axes[0].axhline(0, color="grey", lw=1)
            axes[0].set_ylabel("winner's mean margin (score points)")
            axes[1].plot(c["fraction"], c["leader_share"], color="#dd8452")
            axes[1].set_ylim(0, 1.02)
            axes[1].set_ylabel("share of games the winner leads")
            for ax in axes[:2]:
                ax.set_xlabel("fraction of the game's decisions")
        hist = ld["lead_changes"]["histogram"]
        if hist:
            axes[2].bar([int(k) for k in hist], list(hist.values()), color="#937860", width=0.8)
            axes[2].set_xlabel("lead changes per game")
            axes[2].set_ylabel("games")
        else:
            _empty(axes[2])
        return _svg(fig, "lead")


def sweep(variable: str, values: list, reports: list[dict]) -> str:
    """Every headline metric against the swept variable, one small panel each (seats share one)."""
    heads = [headline(r) for r in reports]
    panels: dict = {}
    for name in heads[0] if heads else []:
        group, _, seat = name.rpartition(", seat ")
        panels.setdefault(group if group else name, []).append(name)
    names = list(panels)
    cols = 3
    rows = max(1, -(-len(names) // cols))
    with matplotlib.rc_context(_STYLE):
        fig = Figure(figsize=(9, 2.4 * rows), layout="constrained")
        axes = fig.subplots(rows, cols, squeeze=False).ravel()
        for ax, panel in zip(axes, names):
            drawn = False
            for name in panels[panel]:
                ys = [h.get(name) for h in heads]
                pts = [(x, y) for x, y in zip(values, ys) if y is not None]
                label = "seat " + name.rpartition(", seat ")[2] if len(panels[panel]) > 1 else None
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3, label=label)
                    drawn = True
            ax.set_title(panel, fontsize=9)
            if not drawn:
                _empty(ax, "undefined for these games")
                continue
            ax.set_xlabel(variable)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            if len(panels[panel]) > 1:
                ax.legend(fontsize=7, frameon=False)
        for ax in axes[len(names):]:
            ax.set_visible(False)
        return _svg(fig, "sweep")


SINGLE = [("win-share", "Win share by seat", win_share), ("length", "Game length", length),
          ("branching-stage", "Branching by stage", branching_stage),
          ("branching-trick", "Branching by round or trick", branching_trick),
          ("potential", "Strategy potential by seat", strategy_potential), ("lead", "Lead", lead)]
