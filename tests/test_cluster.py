"""Games on a Dask cluster: statistics merged from chunks are those of one run, whatever the chunks."""
from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from conftest import GAMES
from ggpbridge.cli import main
from ggpbridge.cluster import chunk_size, chunked, map_games, simulate_on_cluster
from ggpbridge.frontends import load_game
from ggpbridge.sim import compile_loaded, simulate
from ggpbridge.sim.playout import CYCLE, ERROR, FINISHED, UNFINISHED, Result, rank_players
from ggpbridge.sim.stats import Stats

TIMING = ("seconds", "games_per_second")


def _untimed(rep: dict) -> dict:
    return {k: v for k, v in rep.items() if k not in TIMING}


@st.composite
def _results(draw):
    """Games of 3 seats: finished ones with ties of any size, errors, cycles and unfinished games."""
    out = []
    for seed in range(draw(st.integers(0, 40))):
        status = draw(st.sampled_from([FINISHED] * 4 + [ERROR, CYCLE, UNFINISHED]))
        r = Result(seed, status, steps=draw(st.integers(0, 50)))
        if status == ERROR:
            r.error = f"error {seed}"
        elif status == FINISHED:
            r.scores = draw(st.lists(st.integers(-3, 3), min_size=3, max_size=3))
            r.winners, r.ranks = rank_players(r.scores, True)
            r.decisions = [(draw(st.integers(0, 2)), draw(st.integers(1, 4)), draw(st.sampled_from([None, 1, 2])),
                            (draw(st.integers(1, 2)),)) for _ in range(draw(st.integers(0, 5)))]
        out.append(r)
    return out


@settings(max_examples=60, deadline=None)
@given(_results(), st.lists(st.integers(1, 40), max_size=6))
def test_merging_chunks_in_seed_order_is_adding_the_games_one_by_one(results, cuts):
    whole = Stats(3)
    for r in results:
        whole.add(r)
    merged = Stats(3)
    bounds = sorted({0, len(results), *[c for c in cuts if c < len(results)]})
    for a, b in zip(bounds, bounds[1:]):
        part = Stats(3)
        for r in results[a:b]:
            part.add(r)
        merged.merge(part)
    assert merged.report() == whole.report()


def test_chunks_cover_the_seeds_once_in_order():
    seeds = range(5, 5 + 103)
    for size in (1, 7, 103, 500):
        parts = chunked(seeds, size)
        assert [s for p in parts for s in p] == list(seeds) and all(len(p) <= size for p in parts)
    assert chunk_size(100_000, 2) == 2_000 and chunk_size(10, 2) == 1 and chunk_size(160, 2) == 10


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster
    # threads in this process: starts in about a second, and runs the same tasks a process would
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as c:
        yield c
    gc.collect()


def test_simulate_json_on_a_cluster_is_the_single_process_output(cluster):
    args = ["simulate", str(GAMES / "uno.gcg"), "-n", "150", "--seed", "11", "--json"]   # uno: many ties
    alone = CliRunner().invoke(main, args)
    spread = CliRunner().invoke(main, args + ["--cluster", cluster.scheduler_address])
    assert alone.exit_code == spread.exit_code == 0, spread.output
    a, b = json.loads(alone.output), json.loads(spread.output)
    assert _untimed(a) == _untimed(b) and a["games"] == 150


@pytest.mark.parametrize("name,chunk", [("war_n6_seat.rcy", 7), ("blackjack.rcy", 64), ("kuhn_poker.rcy", 1)])
def test_any_chunking_gives_the_same_statistics(cluster, name, chunk):
    loaded = load_game(GAMES / name)
    n = 60 if chunk == 1 else 300
    one = simulate(compile_loaded(loaded), n, 3).report()
    done = []
    spread = simulate_on_cluster(loaded, {}, n, 3, cluster=cluster.scheduler_address, chunk=chunk,
                                 progress=done.append)
    assert _untimed(spread.report()) == _untimed(one)
    assert sum(done) == n and len(done) == -(-n // chunk)   # the progress counts every game once
    assert not spread.interrupted


def test_map_games_returns_chunk_results_in_seed_order(cluster):
    out = map_games(_seeds_of, range(10, 40), cluster=cluster.scheduler_address, chunk=4)
    assert [s for r in out.results for s in r] == list(range(10, 40)) and not out.interrupted


def _seeds_of(seeds):
    return list(seeds)


def test_a_failing_chunk_keeps_the_others(cluster):
    out = map_games(_fails_on_13, range(0, 20), cluster=cluster.scheduler_address, chunk=5)
    assert "seeds 10..14" in out.error and "ValueError: 13" in out.error
    assert all(13 not in c for c in out.chunks)


def _fails_on_13(seeds):
    if 13 in seeds:
        raise ValueError(13)
    return list(seeds)


def test_workers_and_cluster_together_are_refused():
    r = CliRunner().invoke(main, ["simulate", str(GAMES / "kuhn_poker.rcy"), "--workers", "2",
                                  "--cluster", "tcp://127.0.0.1:8786"])
    assert r.exit_code == 2 and "not both" in r.output


def test_a_bad_address_is_a_clear_error():
    r = CliRunner().invoke(main, ["simulate", str(GAMES / "kuhn_poker.rcy"), "--cluster", "nonsense"])
    assert r.exit_code == 2 and "not a Dask scheduler address" in r.output and "Traceback" not in r.output


@pytest.mark.slow
def test_workers_start_a_local_cluster_of_processes():
    args = ["simulate", str(GAMES / "kuhn_poker.rcy"), "-n", "400", "--json"]
    a = json.loads(CliRunner().invoke(main, args).output)
    b = json.loads(CliRunner().invoke(main, args + ["--workers", "2"]).output)
    assert _untimed(a) == _untimed(b)


@pytest.mark.slow
def test_ctrl_c_on_a_cluster_prints_the_chunks_done_and_stops_the_workers():
    import re
    import signal
    from test_cli_signals import _interrupt
    # the bar shows the first chunk done (a '#'): some games are in, most are not
    code, out, err = _interrupt(["simulate", str(GAMES / "agram.rcy"), "-n", "200000", "--workers", "2"],
                                rb"playing\s+\[#", signal.SIGINT)
    assert code == 130, (out, err)
    done = int(re.search(r"(\d+) games from seed 0", out).group(1))
    assert "[interrupted]" in out and 0 < done < 200_000 and done % 2000 == 0   # whole chunks of 2,000
    assert "interrupted by SIGINT" in err


def test_a_report_on_a_cluster_is_the_single_process_report(cluster):
    from distributed import Client
    from ggpbridge.report.data import report_data
    game = str(Path(__file__).parent / "report" / "data" / "comeback.rcy")
    kw = dict(pipmc_games=6, potential_games=8)
    alone = report_data(game, "random", 30, 5, {}, **kw)
    done = []
    with Client(cluster.scheduler_address) as client:
        spread = report_data(game, "random", 30, 5, {}, client=client, progress=done.append, **kw)
        assert client.status == "running"   # report_data's several runs leave the caller's client open
    alone.pop("seconds"), spread.pop("seconds")
    assert spread == alone and not spread["interrupted"]
    assert sum(done) == 30 + 6 + 2 * 8 * alone["seats"]


def test_report_cli_takes_a_cluster(cluster, tmp_path):
    game = str(Path(__file__).parent / "report" / "data" / "coin_flip.rcy")
    args = ["report", game, "-n", "20", "--pipmc-games", "2", "--potential-games", "3", "--json"]
    alone = CliRunner().invoke(main, args)
    spread = CliRunner().invoke(main, args + ["--cluster", cluster.scheduler_address])
    assert alone.exit_code == spread.exit_code == 0, spread.output
    a, b = json.loads(alone.output), json.loads(spread.output)
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    both = CliRunner().invoke(main, args + ["--workers", "2", "--cluster", cluster.scheduler_address])
    assert both.exit_code == 2 and "not both" in both.output
