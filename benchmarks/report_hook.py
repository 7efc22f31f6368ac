"""Benchmark: what the report's playout hook costs, unused and used, and a whole report.

Run: python benchmarks/report_hook.py [--game games/war.rcy] [--games 300] [--report-games 200]
Plays the same seeded random games of GAME on the reference engine three times: as before
the hook existed would (no observer: the hook is one `is not None` test per decision),
with an observer that does nothing, and with the report's Recorder (scores of every seat
at every decision). Prints CPU seconds per game of each and the ratios. Then times
`report_data` on the same game with --report-games main games and its default PIPMC and
strategy-potential sets.
"""
from __future__ import annotations

from pathlib import Path

from _clock import Clock, parser

from ggpbridge.report.data import compile_game, planned_games, report_data
from ggpbridge.report.trace import Recorder
from ggpbridge.sim.players import make_players
from ggpbridge.sim.playout import play

ROOT = Path(__file__).resolve().parents[1]


class _Nothing:
    def decision(self, live, player, options):
        pass

    def chosen(self, k):
        pass


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--game", default=str(ROOT / "games" / "war.rcy"))
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--report-games", type=int, default=200)
    a = ap.parse_args()
    prog = compile_game(a.game)
    cpu = {}
    decisions = 0
    for name in ("no observer", "empty observer", "Recorder"):
        clock = Clock()
        for s in range(a.games):
            players = make_players("random", prog.lay.n, s)
            obs = None if name == "no observer" else _Nothing() if name == "empty observer" else Recorder(players)
            r = play(prog, s, players, observer=obs)
            decisions += len(r.decisions) if name == "no observer" else 0
        cpu[name] = clock.cpu
        print(f"{name:15} {1000 * clock.cpu / a.games:8.3f} ms CPU per game  ({clock})")
    print(f"{decisions / a.games:.1f} decisions per game; empty observer / none: "
          f"{cpu['empty observer'] / cpu['no observer']:.3f}; Recorder / none: {cpu['Recorder'] / cpu['no observer']:.3f}")
    clock = Clock()
    rep = report_data(a.game, "random", a.report_games, 0, {})
    total = planned_games(rep["seats"], a.report_games)
    print(f"report_data: {a.report_games} main games, {total} games in all: {clock}")


if __name__ == "__main__":
    main()
