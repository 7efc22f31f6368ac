"""The evolution loop with its checkpoint: evaluate, write the best, breed; resume where it stopped.

DIR/checkpoint.json holds the run's settings, the generation under way, its population, the
fitness of the individuals evaluated so far, the RNG state before breeding, and each finished
generation's best and mean. It is rewritten (atomically) after each evaluation pass and each
breeding, so a run stopped at any point (Ctrl-C, SIGTERM, a crash) resumes by running the same
command, and ends with exactly the result of a run that was never stopped: individual i of
generation g is evaluated from seed `eval_seed(seed, g, i)` wherever and whenever it runs.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..errors import GgpBridgeError
from . import breed, fitness
from .breed import Individual

CHECKPOINT = "checkpoint.json"


class ResumeError(GgpBridgeError):
    """DIR holds a checkpoint of a run with other settings."""


@dataclass
class Settings:
    """What a run's results depend on (the number of generations aside: a run can be extended)."""

    lang: str
    parents: list = field(default_factory=list)   # [{"name", "text", "how"}] of the --from files
    population: int = 20
    seed: int = 0
    config: dict = field(default_factory=dict)


def eval_seed(seed: int, gen: int, i: int) -> int:
    """The first playout seed of individual i of generation gen (a function of the three only)."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{gen}:{i}".encode()).digest()[:4], "big")


@dataclass(frozen=True)
class EvaluateChunk:
    """Evaluates individuals `order[k]` for k in a chunk of positions; picklable for Dask workers."""

    texts: tuple
    names: tuple
    order: tuple
    seed: int
    gen: int
    config_json: str

    def __call__(self, positions) -> list:
        conf = json.loads(self.config_json)
        return [self.one(self.order[k], conf) for k in positions]

    def one(self, i: int, conf: dict) -> dict:
        """The fitness of individual i."""
        return fitness.evaluate(self.texts[i], self.names[i], eval_seed(self.seed, self.gen, i), conf)


@dataclass
class Outcome:
    """What a call to `evolve` got to: the history per generation, where the files are, and why it stopped."""

    out: str
    history: list = field(default_factory=list)
    generation: int = 0          # the generation under way, or the last one when done
    evaluated: int = 0           # evaluations made by this call
    interrupted: bool = False
    cluster_error: str | None = None
    done: bool = False


def evolve(settings: Settings, generations: int, out: str | Path, client=None, progress=None) -> Outcome:
    """Run (or resume) the evolution into folder `out` until `generations` generations have been
    evaluated. `client` (see `cluster.session`) evaluates on a Dask cluster; `progress(k)` is
    called as k individuals are evaluated. Ctrl-C keeps what was evaluated in the checkpoint."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    state = _load(folder, settings)
    lang, conf = settings.lang, settings.config
    result = Outcome(str(folder), state["history"], state["generation"])
    if state["population"] is None:
        rng = random.Random(settings.seed)
        parents = [Individual(**p) for p in settings.parents]
        state["population"] = [asdict(x) for x in breed.first_generation(lang, parents, settings.population,
                                                                         settings.seed, rng)]
        state["rng"] = _rng_state(rng)
        _save(folder, state)
    while True:
        gen = state["generation"]
        pop = [Individual(**p) for p in state["population"]]
        done = {int(k): v for k, v in state["fitness"].items()}
        pending = [i for i in range(len(pop)) if i not in done]
        if pending:
            task = EvaluateChunk(tuple(p.text for p in pop), tuple(p.name for p in pop), tuple(pending),
                                 settings.seed, gen, json.dumps(conf, sort_keys=True))
            got, stopped, error = _evaluate(task, len(pending), client, progress)
            done.update(got)
            result.evaluated += len(got)
            state["fitness"] = {str(k): done[k] for k in sorted(done)}
            _save(folder, state)
            if stopped or error:
                result.interrupted, result.cluster_error = True, error
                break
        fit = [done[i]["fitness"] for i in range(len(pop))]
        _write_generation(folder, gen, pop, done, conf["evolution"]["best_written"])
        order = breed.ranking(fit)
        if not any(h["generation"] == gen for h in state["history"]):
            state["history"].append({"generation": gen, "best": pop[order[0]].name, "best_fitness": fit[order[0]],
                                     "mean_fitness": round(sum(fit) / len(fit), 6)})
        if gen + 1 >= generations:   # the checkpoint keeps this generation: a longer run breeds from it
            _write_all(folder / "last", pop, done)
            result.done = True
            break
        rng = random.Random()
        rng.setstate(_rng_tuple(state["rng"]))
        try:
            nxt = breed.next_generation(lang, pop, fit, gen, rng, conf["evolution"])
        except KeyboardInterrupt:   # the checkpoint still holds this generation, evaluated
            result.interrupted = True
            break
        state.update(generation=gen + 1, population=[asdict(x) for x in nxt], fitness={}, rng=_rng_state(rng))
        _save(folder, state)
    result.generation = state["generation"]
    return result


def remaining(population: int, generations: int, out: str | Path) -> int:
    """Evaluations left for a run into `out` to reach `generations` (for a progress bar)."""
    try:
        state = json.loads((Path(out) / CHECKPOINT).read_text(encoding="utf-8"))
        return max(0, (generations - state["generation"]) * population - len(state["fitness"]))
    except (OSError, ValueError, KeyError, TypeError):
        return population * generations


def _evaluate(task: EvaluateChunk, n: int, client, progress) -> tuple[dict, bool, str | None]:
    """{individual: evaluation} for the positions evaluated, whether Ctrl-C stopped it, a cluster error."""
    got: dict = {}
    if client is None:
        conf = json.loads(task.config_json)
        try:
            for k in range(n):
                i = task.order[k]
                got[i] = task.one(i, conf)
                if progress:
                    progress(1)
        except KeyboardInterrupt:
            return got, True, None
        return got, False, None
    from ..cluster import map_games
    mapped = map_games(task, range(n), cluster=client, chunk=1, progress=progress)
    for part, res in zip(mapped.chunks, mapped.results):
        for k, r in zip(part, res):
            got[task.order[k]] = r
    return got, mapped.interrupted, mapped.error


def _write_generation(folder: Path, gen: int, pop: list, done: dict, best: int) -> None:
    """DIR/gen_NNN/: the `best` fittest games as files (rank_K_NAME) and stats.json of everyone."""
    d = folder / f"gen_{gen:03d}"
    d.mkdir(exist_ok=True)
    order = breed.ranking([done[i]["fitness"] for i in range(len(pop))])
    for rank, i in enumerate(order[:best], 1):
        (d / f"rank{rank}_{pop[i].name}").write_text(pop[i].text, encoding="utf-8")
    rows = [{"rank": rank, "name": pop[i].name, "how": pop[i].how, **done[i]} for rank, i in enumerate(order, 1)]
    _atomic(d / "stats.json", json.dumps({"generation": gen, "individuals": rows}, indent=1))


def _write_all(d: Path, pop: list, done: dict) -> None:
    """DIR/last/: every game of the last generation, for `ggpbridge stats DIR/last`."""
    d.mkdir(exist_ok=True)
    for old in d.iterdir():
        old.unlink()
    for p in pop:
        (d / p.name).write_text(p.text, encoding="utf-8")


def _load(folder: Path, settings: Settings) -> dict:
    path = folder / CHECKPOINT
    mine = asdict(settings)
    if not path.exists():
        return {"version": 1, "settings": mine, "generation": 0, "population": None, "fitness": {},
                "rng": None, "history": []}
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ResumeError(f"{path}: not a checkpoint this command can read ({e})") from None
    if state.get("settings") != json.loads(json.dumps(mine)):
        theirs = state.get("settings") or {}
        diff = [k for k in mine if theirs.get(k) != json.loads(json.dumps(mine[k]))]
        raise ResumeError(f"{path}: a run with other settings ({', '.join(diff) or 'unknown'}) is there; "
                          f"give another -o folder, or the same options to resume it")
    return state


def _save(folder: Path, state: dict) -> None:
    _atomic(folder / CHECKPOINT, json.dumps(state))


def _atomic(path: Path, text: str) -> None:
    # a checkpoint half-written by a kill would lose the run: write aside, then rename over
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _rng_state(rng: random.Random) -> list:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_tuple(state: list) -> tuple:
    return state[0], tuple(state[1]), state[2]
