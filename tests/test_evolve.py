"""`ggpbridge evolve`: fitness terms on games with known answers, determinism, resume, the cluster."""
from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ggpbridge.cli import main
from ggpbridge.evolve import ConfigError, Settings, TERMS, evaluate, evolve, load
from ggpbridge.evolve.fitness import score_terms, weighted

DATA = Path(__file__).parent / "report" / "data"
UNO = Path(__file__).parent.parent / "games" / "uno.gcg"


def _conf(games=10, potential_games=0, **band):
    conf = load()
    conf["playouts"].update(games=games, potential_games=potential_games)
    conf["band"].update(band)
    return conf


def _eval(name, conf, seed=0):
    path = DATA / name
    return evaluate(path.read_text(), str(path), seed, conf)


# ------------------------------------------------------------------ configuration

def test_defaults_weigh_every_term_and_a_file_overrides_one_key(tmp_path):
    conf = load()
    assert set(conf["weights"]) == set(TERMS)
    f = tmp_path / "c.toml"
    f.write_text("[weights]\nbalance = 2\n")
    mine = load(f)
    assert mine["weights"]["balance"] == 2.0 and mine["weights"]["completion"] == conf["weights"]["completion"]


@pytest.mark.parametrize("text, words", [("[weights]\nbalanse = 1\n", "no key 'balanse'"),
                                         ("[weigths]\n", "unknown section"),
                                         ("[playouts]\ngames = 'ten'\n", "must be int"),
                                         ("[weights]\nbalance = -1\n", "negative"),
                                         ("[weights\n", "c.toml")])
def test_a_bad_config_names_the_file_and_the_key(tmp_path, text, words):
    f = tmp_path / "c.toml"
    f.write_text(text)
    with pytest.raises(ConfigError, match=words):
        load(f)


# ------------------------------------------------------------------ fitness terms

def test_seat0_wins_is_unbalanced_drawless_short_and_settled_early():
    r = _eval("seat0_wins.rcy", _conf(potential_games=3))
    t = r["terms"]
    # seat 0 wins every game: spread 1; never a tie; 4 decisions, under the band's 10
    assert t["completion"] == 1.0 and t["balance"] == 0.0 and t["few_draws"] == 1.0
    assert t["length"] == pytest.approx(4 / 10)
    # the curve is tied at decision 0 and seat 0 leads from decision 1 of 4: decisiveness 3/4
    assert t["decisiveness"] == pytest.approx(0.25) and t["lead_changes"] == 0.0
    # no seat can change the outcome, so PIPMC gains nothing over random
    assert r["figures"]["potential"] == 0.0 and t["potential"] == 0.0
    w = load()["weights"]
    assert r["fitness"] == pytest.approx((w["completion"] + w["few_draws"] + 0.4 * w["length"]
                                          + 0.25 * w["decisiveness"]) / sum(w.values()), abs=1e-6)


def test_fixed_length_is_all_draws_and_perfectly_balanced():
    r = _eval("fixed_length.rcy", _conf(min_decisions=1, max_decisions=5))
    t = r["terms"]
    assert t["few_draws"] == 0.0 and t["balance"] == 1.0
    assert r["figures"]["decisions"] == 9            # 3 rounds of 3 turns
    assert t["length"] == pytest.approx(5 / 9)        # above the band: its top over the mean


def test_choose_winner_has_strategy_potential_for_the_first_seat_only():
    r = _eval("choose_winner.rcy", _conf(potential_games=20))
    # seat 0 with PIPMC always names itself (gain 1 - its random share, about 1/2); seat 1 gains 0
    assert 0.1 < r["figures"]["potential"] <= 0.5
    assert r["terms"]["potential"] == pytest.approx(min(1.0, r["figures"]["potential"] / 0.3), abs=1e-6)


def test_a_game_longer_than_the_band_gets_no_pipmc_games():
    # seat0_wins has 4 decisions a game: above a band ending at 3, PIPMC is not run
    r = _eval("seat0_wins.rcy", _conf(potential_games=3, min_decisions=1, max_decisions=3))
    assert r["figures"]["potential"] is None and r["terms"]["potential"] == 0.0
    assert r["terms"]["length"] == pytest.approx(3 / 4)


def test_a_game_that_does_not_load_scores_zero_with_its_error():
    r = evaluate("(game (setup", "broken.rcy", 0, _conf())
    assert r["fitness"] == 0.0 and "broken.rcy" in r["error"]


def test_term_formulas_on_given_figures():
    conf = _conf(min_decisions=10, max_decisions=100)
    f = {"games": 10, "finished": 8, "draws": 2, "spread": 0.25, "decisions": 50, "lead_changes": 1.0,
         "decisiveness": 0.4, "potential": 0.6}
    t = score_terms(f, conf)
    assert t == {"completion": 0.8, "balance": 0.75, "few_draws": 0.75, "length": 1.0, "decisiveness": 0.6,
                 "lead_changes": 0.5, "potential": 1.0}
    assert score_terms({**f, "decisions": 400}, conf)["length"] == 0.25
    assert score_terms({**f, "finished": 0}, conf) == dict.fromkeys(TERMS, 0.0)
    assert weighted(dict.fromkeys(TERMS, 0.5), conf["weights"]) == 0.5


# ------------------------------------------------------------------ the loop

def _settings(seed=3, lang="gcardgame", parent=UNO):
    return Settings(lang, [{"name": parent.name, "text": parent.read_text(), "how": "parent"}], 5, seed,
                    _conf(games=3))


def _final(folder: Path) -> dict:
    state = json.loads((folder / "checkpoint.json").read_text())
    return {k: state[k] for k in ("generation", "population", "fitness", "history", "rng")}


def test_the_same_seed_gives_the_same_run_and_another_seed_another(tmp_path):
    a = evolve(_settings(), 3, tmp_path / "a")
    evolve(_settings(), 3, tmp_path / "b")
    evolve(_settings(seed=4), 3, tmp_path / "c")
    assert a.done and [h["generation"] for h in a.history] == [0, 1, 2]
    assert _final(tmp_path / "a") == _final(tmp_path / "b")
    assert _final(tmp_path / "a")["population"] != _final(tmp_path / "c")["population"]
    # the best games of each generation and every game of the last are files that `check` accepts
    from ggpbridge.generate import errors_in
    best = tmp_path / "a" / "gen_002"
    stats = json.loads((best / "stats.json").read_text())["individuals"]
    assert [r["rank"] for r in stats] == [1, 2, 3, 4, 5]
    assert stats[0]["fitness"] == max(r["fitness"] for r in stats) == a.history[-1]["best_fitness"]
    files = sorted((tmp_path / "a" / "last").iterdir())
    assert len(files) == 5 and all(not errors_in(str(f), f.read_text()) for f in files)


def test_a_run_stopped_and_resumed_ends_as_an_uninterrupted_one(tmp_path):
    evolve(_settings(), 3, tmp_path / "whole")
    seen = []

    def stop_at_7(k):
        seen.append(k)
        if len(seen) == 7:   # Ctrl-C during generation 1's evaluation
            raise KeyboardInterrupt

    from ggpbridge.evolve.run import remaining
    assert remaining(5, 3, tmp_path / "parts") == 15
    part = evolve(_settings(), 3, tmp_path / "parts", progress=stop_at_7)
    assert remaining(5, 3, tmp_path / "parts") == 15 - 7
    assert part.interrupted and not part.done and part.generation == 1
    assert len(json.loads((tmp_path / "parts" / "checkpoint.json").read_text())["fitness"]) == 2
    rest = evolve(_settings(), 3, tmp_path / "parts")
    assert rest.done and rest.evaluated == 15 - 7
    assert _final(tmp_path / "parts") == _final(tmp_path / "whole")


def test_a_finished_run_can_be_extended_but_not_rerun_with_other_settings(tmp_path):
    from ggpbridge.evolve import ResumeError
    evolve(_settings(), 2, tmp_path / "r")
    longer = evolve(_settings(), 3, tmp_path / "r")
    assert longer.done and longer.evaluated == 5
    evolve(_settings(), 3, tmp_path / "s")
    assert _final(tmp_path / "r") == _final(tmp_path / "s")
    with pytest.raises(ResumeError, match="seed"):
        evolve(_settings(seed=9), 3, tmp_path / "r")


def test_recycle_games_evolve_too(tmp_path):
    out = evolve(_settings(lang="recycle", parent=DATA / "choose_winner.rcy"), 2, tmp_path / "r")
    assert out.done and len(list((tmp_path / "r" / "last").glob("*.rcy"))) == 5


@pytest.fixture(scope="module")
def cluster():
    from distributed import LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as c:
        yield c
    gc.collect()


def test_a_cluster_run_is_identical_to_a_local_one(tmp_path, cluster):
    from distributed import Client
    evolve(_settings(), 2, tmp_path / "local")
    with Client(cluster) as client:
        out = evolve(_settings(), 2, tmp_path / "dask", client=client)
    assert out.done and out.cluster_error is None
    assert _final(tmp_path / "dask") == _final(tmp_path / "local")


# ------------------------------------------------------------------ the command

def test_the_command_writes_json_and_refuses_a_bad_parent(tmp_path):
    conf = tmp_path / "c.toml"
    conf.write_text("[playouts]\ngames = 2\npotential_games = 0\n")
    args = ["evolve", "--lang", "gcardgame", "--from", str(UNO), "--population", "3", "--generations", "2",
            "--config", str(conf), "-o", str(tmp_path / "run"), "--json"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["done"] and len(data["history"]) == 2
    r = CliRunner().invoke(main, args[:-1] + ["--seed", "5"])   # the same folder, another seed
    assert r.exit_code == 2 and "other settings (seed)" in r.output and "Traceback" not in r.output
    bad = tmp_path / "bad.gcg"
    bad.write_text("nonsense\n")
    r = CliRunner().invoke(main, ["evolve", "--lang", "gcardgame", "--from", str(bad), "-o", str(tmp_path / "x")])
    assert r.exit_code == 2 and "bad.gcg" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["evolve", "--lang", "recycle", "--from", str(UNO), "-o", str(tmp_path / "x")])
    assert r.exit_code == 2 and "not a recycle file" in r.output


@pytest.mark.parametrize("text, where", [("[weights]\nbalance = 1\n[playouts]\ngames = 'ten'\n", "c.toml:4:1: error:"),
                                         ("[playouts]\n  gamez = 3\n", "c.toml:2:3: error:"),
                                         ("[weigths]\n", "c.toml:1:1: error: unknown section"),
                                         ("[weights\n", "c.toml:1:9: error:"),
                                         (b"[weights]\n\xff", "c.toml:2:1: error: not UTF-8 text")])
def test_a_bad_config_is_an_error_at_its_line_and_column(tmp_path, text, where):
    # as a .dbk file's errors are (both read through ggpbridge/tomlfile.py); a file that is not
    # UTF-8 was a UnicodeDecodeError traceback
    f = tmp_path / "c.toml"
    f.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(ConfigError) as e:
        load(f)
    assert str(e.value).startswith(str(tmp_path / where))
