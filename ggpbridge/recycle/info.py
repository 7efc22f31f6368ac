"""A designer's summary of a game: players, teams, deck, locations, storages, stages, choices."""
from __future__ import annotations

from collections import Counter

from .. import ir
from .check import analyse, player_count
from .deck import expand

VISIBILITY = {
    "vloc": "everyone",
    "iloc": "the owner only",
    "hloc": "nobody",
    "oloc": "everyone but the owner",
    "mem": "everyone (a memory of cards, not a place)",
}


def summarize(game: ir.Game, expr_text) -> dict:
    """A JSON-ready summary; `expr_text` renders an IR expression as RECYCLE text."""
    chk = analyse(game)
    values = {d.var: d.value.value for d in game.declares if isinstance(d.value, ir.IntLit)}
    n = player_count(game)
    teams = [list(t) for t in game.setup.teams.teams] if game.setup.teams else (
        [[i] for i in range(n)] if n is not None else None)
    decks = []
    for d in _deck_creates(game.setup.decks):
        cards = expand(d.deck, values)
        comp: dict[str, dict] = {}
        for c in cards:
            for k, v in c.items():
                comp.setdefault(k, Counter())[v] += 1
        decks.append({"location": expr_text(d.location), "cards": len(cards),
                      "composition": {k: dict(v) for k, v in comp.items()}})
    locations = [{"owner": o or "?", "vis": vis, "name": name, "seen_by": _seen(o, vis)}
                 for (o, vis, name) in sorted(chk.locations, key=lambda k: (str(k[0]), k[1], k[2]))]
    storages = [{"owner": o or "?", "kind": kind, "name": name}
                for (o, kind, name) in sorted(chk.storages, key=lambda k: (str(k[0]), k[1], k[2]))]
    stages, choices = [], []
    _walk(game.body, [], stages, choices, expr_text)
    return {
        "players": n if n is not None else expr_text(game.setup.players),
        "declares": {d.var: expr_text(d.value) for d in game.declares},
        "teams": teams,
        "decks": decks,
        "deck_size": sum(x["cards"] for x in decks),
        "locations": locations,
        "storages": storages,
        "stages": stages,
        "choices": choices,
        "scoring": f"{game.scoring.mode} {expr_text(game.scoring.value)}",
    }


def _seen(owner, vis) -> str:
    if owner == "game" and vis == "iloc":
        return "nobody"
    return VISIBILITY.get(vis, "?")


def _deck_creates(items):
    for s in items:
        if isinstance(s, ir.CreateDeck):
            yield s
        elif isinstance(s, ir.Repeat) and isinstance(s.count, ir.IntLit):
            for _ in range(s.count.value):
                yield from _deck_creates((s.body,))


def _walk(items, path, stages, choices, expr_text):
    for s in items:
        if isinstance(s, ir.Stage):
            here = path + [len(stages)]
            stages.append({"id": len(stages), "depth": len(path), "kind": s.kind, "line": s.pos.line,
                           "end": expr_text(s.end), "parent": path[-1] if path else None})
            _walk(s.body, here, stages, choices, expr_text)
        for c in s.walk() if not isinstance(s, ir.Stage) else ():
            if isinstance(c, ir.Choice):
                anys = sum(isinstance(x, ir.AnyOf) for x in c.walk())
                choices.append({"line": c.pos.line, "col": c.pos.col, "stage": path[-1] if path else None,
                                "options": len(c.options), "any_branches": anys})
