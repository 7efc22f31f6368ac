"""The next generation: elitism, tournament selection, mutation and crossover (`ggpbridge.generate`).

Every random draw comes from the run's one `random.Random`, whose state the checkpoint keeps,
so a resumed run breeds exactly the children an uninterrupted one does.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from ..generate import LANGS, errors_in, gcg_mutate, gcg_print, ir_mutate
from ..generate import _rcy_text as rcy_text

TRIES = 5   # children drawn before a slot takes a copy of its parent (one that `check` accepts)


@dataclass
class Individual:
    """One game of a generation: its file name, text, and how it was made."""

    name: str
    text: str
    how: str


def name_of(lang: str, gen: int, i: int) -> str:
    """The file name of individual i of generation gen."""
    return f"g{gen:03d}_{i:03d}{LANGS[lang]}"


class _Parsed:
    """Each parent's syntax tree (or IR) and mutation points, computed once per generation."""

    def __init__(self, lang: str):
        self.lang, self.ops = lang, gcg_mutate if lang == "gcardgame" else ir_mutate
        self._seen: dict = {}

    def __call__(self, ind: Individual):
        # keyed by text: two --from files may share a name, and an elite repeats a text
        if ind.text not in self._seen:
            if self.lang == "gcardgame":
                from ..gcardgame import parse_text
                game = parse_text(ind.text, ind.name, strict=False).game
            else:
                from ..recycle import parse_text
                game = parse_text(ind.text, ind.name).game
            self._seen[ind.text] = (game, list(self.ops.points(game)))
        return self._seen[ind.text]


def _print(lang: str, game, how: str) -> str:
    return gcg_print.to_text(game, how) if lang == "gcardgame" else rcy_text(game, how)


def tournament(rng: random.Random, fitness: list[float], size: int) -> int:
    """The fittest of `size` individuals drawn with replacement (ties to the lower index)."""
    drawn = [rng.randrange(len(fitness)) for _ in range(max(size, 1))]
    return max(drawn, key=lambda i: (fitness[i], -i))


def ranking(fitness: list[float]) -> list[int]:
    """Indices from the fittest down (ties to the lower index)."""
    return sorted(range(len(fitness)), key=lambda i: (-fitness[i], i))


def child(lang: str, parents: list[Individual], parsed: _Parsed, rng: random.Random, name: str,
          pick, crossover_rate: float) -> Individual:
    """One child: with chance `crossover_rate` a crossover of two parents chosen by `pick()`,
    else a mutant of one; redrawn until `check` accepts it (TRIES times), else a copy of the parent."""
    first = None
    for _ in range(TRIES):
        a = parents[pick()]
        first = first or a
        game_a, pts_a = parsed(a)
        made = None
        if len(parents) > 1 and rng.random() < crossover_rate:
            b = parents[pick()]
            game_b, pts_b = parsed(b)
            pair = parsed.ops.crossover(game_a, game_b, rng, pts_a=pts_a, pts_b=pts_b) if b.name != a.name else None
            if pair is not None:
                made = (pair[0], f"crossover of {a.name} x {b.name}: a {pair[2]} taken from {b.name}")
        if made is None and pts_a:
            game, where, cat = parsed.ops.mutate(game_a, rng, pts=pts_a)
            made = (game, f"mutant of {a.name}: a fresh {cat} at {'.'.join(map(str, where)) or 'the root'}")
        if made is None:
            break
        text = _print(lang, made[0], made[1])
        if not errors_in(name, text):
            return Individual(name, text, made[1])
    return Individual(name, _retitle(first.text, lang, f"copy of {first.name}"), f"copy of {first.name}")


def _retitle(text: str, lang: str, how: str) -> str:
    """The text with its leading comment (how it was made) replaced by `how`."""
    mark = "#" if lang == "gcardgame" else ";;"
    lines = text.splitlines(keepends=True)
    k = 0
    while k < len(lines) and lines[k].startswith(mark):
        k += 1
    return f"{mark} {how}\n" + "".join(lines[k:])


def next_generation(lang: str, pop: list[Individual], fitness: list[float], gen: int, rng: random.Random,
                    evo: dict) -> list[Individual]:
    """Generation gen + 1 from generation gen: the `elite` fittest copied, the rest bred from
    tournament winners."""
    order = ranking(fitness)
    parsed = _Parsed(lang)
    out = []
    for k, i in enumerate(order[:min(evo["elite"], len(pop))]):
        how = f"elite: {pop[i].name} (rank {k + 1})"
        out.append(Individual(name_of(lang, gen + 1, k), _retitle(pop[i].text, lang, how), how))
    while len(out) < len(pop):
        name = name_of(lang, gen + 1, len(out))
        out.append(child(lang, pop, parsed, rng, name, lambda: tournament(rng, fitness, evo["tournament"]),
                         evo["crossover"]))
    return out


def first_generation(lang: str, parents: list[Individual], size: int, seed: int, rng: random.Random) -> list[Individual]:
    """Generation 0: the parents and their mutants, or (no parents) games derived from the grammar."""
    if not parents:
        from ..generate import generate
        return [Individual(name_of(lang, 0, i), m.text, m.how) for i, m in enumerate(generate(lang, size, seed))]
    out = [Individual(name_of(lang, 0, i), p.text, p.how) for i, p in enumerate(parents[:size])]
    parsed = _Parsed(lang)
    while len(out) < size:
        k = len(out) % len(parents)
        out.append(child(lang, parents, parsed, rng, name_of(lang, 0, len(out)), lambda k=k: k, 0.0))
    return out
