"""`ggpbridge playout`: random games on either engine, outcomes in one shape."""
from __future__ import annotations

import json

from click.testing import CliRunner

from conftest import GAMES, ROOT
from ggpbridge.cli import main
from ggpbridge.playouts import run


def test_both_engines_play_war_to_the_end_with_one_winner():
    for engine, n in (("sim", 40), ("clingo", 6)):
        rep = run(GAMES / "war_n4_winner.rcy", engine, n)
        assert rep["finished"] == n
        for g in rep["games"]:
            assert sorted(g["goals"].values()) == [0, 100]   # no ties in War without equal ranks
        assert set(rep["mean_goal"]) == {"player0", "player1"}


def test_the_simulators_win_shares_over_many_games_are_balanced():
    rep = run(GAMES / "war_n4_winner.rcy", "sim", 400)
    assert 35 <= rep["mean_goal"]["player0"] <= 65


def test_cli_json_on_a_kif_game():
    res = CliRunner().invoke(main, ["playout", str(ROOT / "examples/gdl/tictactoe.kif"), "-n", "4",
                                    "--engine", "clingo", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["finished"] == 4 and set(data["mean_goal"]) == {"xplayer", "oplayer"}


def test_unfinished_games_are_counted_not_scored():
    rep = run(GAMES / "war_n4_seat.rcy", "sim", 10, max_steps=200)
    assert rep["finished"] < 10
    assert all(g["goals"] is None for g in rep["games"] if not g["finished"])


def test_a_stop_while_the_game_loads_reports_no_playouts(monkeypatch):
    # SIGTERM/Ctrl-C can land before the first playout (reading or grounding the game): the
    # run still returns its (empty) report, so the command prints it instead of nothing
    import ggpbridge.playouts as playouts

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(playouts, "load_machine", stopped)
    rep = playouts.run(str(GAMES / "war.rcy"), "sim", 10)
    assert rep["playouts"] == 0 and rep["finished"] == 0 and rep["mean_goal"] == {} and rep["games"] == []


def test_a_stop_while_the_fast_path_is_generated_returns_empty_statistics(monkeypatch):
    import ggpbridge.sim as sim
    from ggpbridge.recycle import parse_file

    def stopped(prog):
        raise KeyboardInterrupt

    prog = sim.compile_loaded(parse_file(GAMES / "war.rcy"))
    monkeypatch.setattr(sim, "fast_path", stopped)
    stats = sim.simulate(prog, 10)
    assert stats.interrupted and stats.report()["games"] == 0
