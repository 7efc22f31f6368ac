"""What folding the static setup (ggpbridge/sim/fold.py) saves the translation of the small
G_cardgame variants: cards, GDL rules and integer table bounds, with the setup as written
(every card created, the surplus put aside by GDL steps) and folded (only the declared deck).

    python benchmarks/fold_sizes.py [--ground]

--ground also grounds each translation's state program in clingo (as the lockstep's
ClingoMachine does) in a process of its own and prints its CPU seconds and peak memory.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from _clock import Clock, parser
from ggpbridge.frontends import load_game
from ggpbridge.sim.fold import fold_loaded
from ggpbridge.translators.recycle_gdl import Translation

GAMES = Path(__file__).resolve().parent.parent / "games"
VARIANTS = [
    ("texas_holdem.gcg", {"NUMBERS": 8, "SUITS": 4, "GIVEA": 2}),
    ("blackjack.gcg", {"NUMBERS": 13, "SUITS": 1, "GIVEA": 2}),
    ("uno.gcg", {"NUMBERS": 3, "SUITS": 2, "DEALA": 1}),
]

_CHILD = """
import json, resource, sys, time
from ggpbridge.frontends import load_game
from ggpbridge.sim.fold import fold_loaded
from ggpbridge.translators.recycle_gdl import Translation
from ggpbridge.gdl.machine import ClingoMachine
path, sets, fold = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3] == "1"
loaded = load_game(path)
if fold:
    loaded = fold_loaded(loaded, sets)
desc = Translation(loaded.game, 2, sets).description
cpu = time.process_time()
ClingoMachine(desc, percepts=True).initial_state()
print(json.dumps({"cpu": time.process_time() - cpu,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}))
"""


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--ground", action="store_true", help="also ground each translation (minutes, gigabytes)")
    args = ap.parse_args()
    total = Clock()
    print(f"{'game':18} {'sets':34} {'setup':8} {'cards':>5} {'rules':>6} {'bounds':>10} {'ground cpu s':>12}"
          f" {'peak MB':>8}")
    for name, sets in VARIANTS:
        loaded = load_game(GAMES / name)
        for label, game in (("as is", loaded.game), ("folded", fold_loaded(loaded, sets).game)):
            tr = Translation(game, 2, sets)
            row = (f"{name:18} {' '.join(f'{k}={v}' for k, v in sets.items()):34} {label:8} "
                   f"{len(tr.prog.lay.cards):5d} {len(tr.description.rules):6d} {str(tr.bounds):>10}")
            if args.ground:
                out = subprocess.run([sys.executable, "-c", _CHILD, str(GAMES / name), json.dumps(sets),
                                      "1" if label == "folded" else "0"], capture_output=True, text=True)
                if out.returncode:
                    row += f"  failed: {out.stderr.strip().splitlines()[-1:]}"
                else:
                    got = json.loads(out.stdout)
                    row += f" {got['cpu']:12.1f} {got['peak_mb']:8d}"
            print(row, flush=True)
    print(f"total: {total}")


if __name__ == "__main__":
    main()
