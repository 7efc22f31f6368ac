"""Integers too many for tables (translators/recycle_gdl/wide.py): what a translation costs clingo
with today's tables of pairs and with two digits and carries, each in a process of its own.

Per game and representation: the numbers, the rules of the translation, the estimate of its
tables of pairs (`ggpbridge.gdl.tables`, refused above TABLE_LIMIT), and, where not refused,
the atoms of the ground program (the clingo machine's "state" encoding over the fluents the
relaxed game reaches) with the CPU seconds and peak memory of grounding. A description the
estimate refuses is not grounded unless `--ground-refused` (Hearts3 with tables would need
about 130 million facts, more memory than the machine has).

    python benchmarks/wide_ints.py [GAME ...] [--ground-refused]
        (default: tests/translate/data/wide_scores.rcy and the corpus' Hearts3.gdl, Hearts4.gdl)
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from _clock import Clock, parser

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("GGPBRIDGE_CORPUS", ROOT.parent / "shared" / "corpus" / "cardstock"))

_CHILD = """
import json, resource, sys, time
from ggpbridge.frontends import load_game
from ggpbridge.gdl.asp import add_to_control, game_domain, new_control, reporting
from ggpbridge.gdl.tables import TABLE_LIMIT, estimate
from ggpbridge.translators.recycle_gdl import wide, to_gdl
path, mode, force = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
if mode == "tables":
    wide.WIDE_FROM = 1 << 62   # today's tables whatever the range
cpu = time.process_time()
desc = to_gdl(load_game(path).game)
out = {"mode": mode, "rules": len(desc.rules), "translate_cpu": time.process_time() - cpu,
       "numbers": sum(1 for r in desc.rules if not r.body and getattr(r.head, "name", "") == "num"),
       "estimate": estimate(desc)[1]}
if out["estimate"] <= TABLE_LIMIT or force:
    cpu = time.process_time()
    ctl, messages = new_control()
    with reporting(messages):
        add_to_control(ctl, desc, "state", domain=game_domain(desc))
        ctl.ground([("base", [])])
    out.update(atoms=len(ctl.symbolic_atoms), ground_cpu=time.process_time() - cpu)
out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
print(json.dumps(out))
"""


def main() -> None:
    from ggpbridge.gdl.tables import TABLE_LIMIT
    ap = parser(__doc__)
    ap.add_argument("games", nargs="*", type=Path, metavar="GAME",
                    default=[ROOT / "tests/translate/data/wide_scores.rcy", CORPUS / "gdl/Hearts3.gdl",
                             CORPUS / "gdl/Hearts4.gdl"])
    ap.add_argument("--ground-refused", action="store_true",
                    help="ground the descriptions the estimate refuses as well (memory!)")
    args = ap.parse_args()
    total = Clock()
    print(f"tables refused above {TABLE_LIMIT:,} estimated facts")
    print(f"{'game':<18} {'ints':<7} {'numbers':>8} {'rules':>8} {'estimate':>12} {'atoms':>10} "
          f"{'ground cpu s':>12} {'peak MB':>8}")
    for game in args.games:
        if not game.exists():
            print(f"{game.name:<18} missing: {game}")
            continue
        for mode in ("tables", "digits"):
            out = subprocess.run([sys.executable, "-c", _CHILD, str(game), mode, "1" if args.ground_refused else "0"],
                                 capture_output=True, text=True)
            if out.returncode != 0:
                print(f"{game.name:<18} {mode:<7} failed: {(out.stderr.strip().splitlines() or ['?'])[-1]}")
                continue
            r = json.loads(out.stdout.strip().splitlines()[-1])
            atoms = f"{r['atoms']:>10,}" if "atoms" in r else f"{'refused':>10}"
            cpu = f"{r['ground_cpu']:>12.1f}" if "ground_cpu" in r else f"{'-':>12}"
            print(f"{game.name:<18} {mode:<7} {r['numbers']:>8,} {r['rules']:>8,} {r['estimate']:>12,} {atoms} "
                  f"{cpu} {r['peak_mb']:>8}")
    print(f"total: {total}")


if __name__ == "__main__":
    main()
