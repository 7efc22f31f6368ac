"""What GDL's arithmetic tables cost clingo: the numbers 0..n-1 with a successor chain, order
(`less`) and addition (`plus`) defined by recursion as the RECYCLE translation defines them,
grounded for each n in a process of its own. Prints the atoms, wall and CPU seconds and peak
memory next to the estimate `ggpbridge.gdl.tables` refuses descriptions by (TABLE_LIMIT).

    python benchmarks/table_sizes.py [N ...]        (default: 500 1000 2000 3000)
"""
from __future__ import annotations

import json
import subprocess
import sys

from _clock import Clock, parser

_CHILD = """
import json, resource, sys, time
from ggpbridge.gdl.asp import add_to_control, new_control, reporting
from ggpbridge.gdl.kif import parse_kif
n = int(sys.argv[1])
text = "".join(f"(num {k})" for k in range(n)) + "".join(f"(succ {k} {k + 1})" for k in range(n - 1)) + '''
(<= (less ?a ?b) (succ ?a ?b))
(<= (less ?a ?c) (less ?a ?b) (succ ?b ?c))
(<= (plus ?a 0 ?a) (num ?a))
(<= (plus ?a ?b ?z) (plus ?a ?k ?y) (succ ?k ?b) (succ ?y ?z))
(<= (plus ?a ?b ?z) (plus ?a ?k ?y) (succ ?b ?k) (succ ?z ?y))
'''
desc = parse_kif(text)
from ggpbridge.gdl.tables import chain_tables
estimate = sum(t.facts for t in chain_tables(desc))
start, cpu = time.perf_counter(), time.process_time()
ctl, messages = new_control()
with reporting(messages):
    add_to_control(ctl, desc, "domain")
    ctl.ground([("base", [])])
print(json.dumps({"n": n, "atoms": len(ctl.symbolic_atoms), "estimate": estimate,
                  "seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}))
"""


def main() -> None:
    from ggpbridge.gdl.tables import TABLE_LIMIT
    ap = parser(__doc__)
    ap.add_argument("sizes", nargs="*", type=int, default=[500, 1000, 2000, 3000], metavar="N",
                    help="how many numbers (default: 500 1000 2000 3000)")
    sizes = ap.parse_args().sizes
    total = Clock()
    print(f"refused above {TABLE_LIMIT:,} estimated facts")
    print(f"{'numbers':>8} {'atoms':>12} {'estimate':>12} {'wall s':>8} {'cpu s':>8} {'peak MB':>8}")
    for n in sizes:
        out = subprocess.run([sys.executable, "-c", _CHILD, str(n)], capture_output=True, text=True)
        if out.returncode != 0:
            print(f"{n:>8} failed: {(out.stderr.strip().splitlines() or ['?'])[-1]}")
            continue
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{r['n']:>8} {r['atoms']:>12,} {r['estimate']:>12,} {r['seconds']:>8.1f} {r['cpu']:>8.1f} "
              f"{r['peak_mb']:>8}")
    print(f"total: {total}")


if __name__ == "__main__":
    main()
