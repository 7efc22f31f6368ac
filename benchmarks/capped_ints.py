"""Fitted storages past any table (translators/recycle_gdl/capped.py): what a fitted translation
costs with the tables widened to every fitted value (before) and capped at the game's bounds.

Per game and mode, each in a process of its own under an address-space limit: the numbers, the
rules and KIF characters of the `--fit PLAYS` GDL-II translation and its CPU time; with
`--domain`, the relaxed ground domain both GDL machines start from (`game_domain`: fluents and
moves) with its CPU time and peak memory. CardStock's Poker compounds a hand's score by
products (up to 259,554 in 20 plays), which is what capping is for.
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
limit = int(sys.argv[5]) << 20
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from ggpbridge.frontends import load_game
from ggpbridge.gdl.kif import print_kif
from ggpbridge.translate import translate_loaded
from ggpbridge.translators.recycle_gdl import capped
path, mode, plays, domain = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
if mode == "widened":
    capped.CAP_FROM = 1 << 62   # every fitted value in the tables, as before capped.py
cpu = time.process_time()
desc = translate_loaded(load_game(path), 2, fit=plays)
out = {"rules": len(desc.rules), "translate_cpu": time.process_time() - cpu, "kif": len(print_kif(desc)),
       "numbers": sum(1 for r in desc.rules if not r.body and getattr(r.head, "name", "") == "num")}
print(json.dumps(out), flush=True)
if domain:
    from ggpbridge.gdl.asp import game_domain
    cpu = time.process_time()
    d = game_domain(desc)
    out.update(fluents=len(d.fluents), moves=len(d.moves), domain_cpu=time.process_time() - cpu)
out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
print(json.dumps(out))
"""


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("games", nargs="*", type=Path, metavar="GAME",
                    default=[ROOT / "tests/translate/data/compounding.rcy", CORPUS / "rcy/Poker5.rcy"])
    ap.add_argument("--fit", type=int, default=20, metavar="PLAYS", help="plays the tables are fitted to (20)")
    ap.add_argument("--modes", default="widened,capped", help="widened, capped or both (the default)")
    ap.add_argument("--domain", action="store_true", help="ground the relaxed domain as well (minutes for Poker)")
    ap.add_argument("--memory-mb", type=int, default=6000, help="address-space limit of each child (6000)")
    args = ap.parse_args()
    total = Clock()
    print(f"fitted to {args.fit} plays; children limited to {args.memory_mb:,} MB")
    print(f"{'game':<18} {'mode':<8} {'numbers':>8} {'rules':>9} {'KIF chars':>11} {'cpu s':>7} "
          f"{'fluents':>8} {'moves':>9} {'dom cpu s':>9} {'peak MB':>8}")
    for game in args.games:
        if not game.exists():
            print(f"{game.name:<18} missing: {game}")
            continue
        for mode in args.modes.split(","):
            out = subprocess.run([sys.executable, "-c", _CHILD, str(game), mode, str(args.fit),
                                  "1" if args.domain else "0", str(args.memory_mb)], capture_output=True, text=True)
            rows = [json.loads(x) for x in out.stdout.splitlines() if x.startswith("{")]
            if not rows:
                print(f"{game.name:<18} {mode:<8} failed: {(out.stderr.strip().splitlines() or ['?'])[-1][:90]}")
                continue
            r = rows[-1]
            dom = (f"{r['fluents']:>8,} {r['moves']:>9,} {r['domain_cpu']:>9.1f}" if "moves" in r
                   else f"{'-':>8} {'-':>9} {'-':>9}" if not args.domain or out.returncode == 0
                   else f"{'failed':>8} {'(memory)' if 'MemoryError' in out.stderr else '':>9} {'-':>9}")
            print(f"{game.name:<18} {mode:<8} {r['numbers']:>8,} {r['rules']:>9,} {r['kif']:>11,} "
                  f"{r['translate_cpu']:>7.1f} {dom} {r.get('peak_mb', '-'):>8}")
    print(f"total: {total}")


if __name__ == "__main__":
    main()
