"""Benchmark: CFR+ on Kuhn and Leduc poker, ours against a plain hand-written Python CFR+.

Run: python benchmarks/cfr_speed.py [--games kuhn,leduc] [--kuhn-target 0.001] [--leduc-target 0.002]
Issue #37: Kuhn to exploitability 0.001 and Leduc to 0.002, time and iterations, with the
ratio to the same algorithm on a plain hand-written Python version of the game, in one run.

Ours: `ggpbridge.solve` on games/kuhn_poker.rcy and games/leduc_poker.rcy, the tree built
from the simulator (its own time is printed apart) and CFR+ vectorised with numpy.
The reference: the game's rules written out below, its tree enumerated directly, and CFR+
as recursive plain Python over dicts: the same variant (regret matching+, alternating
updates, regrets applied after each seat's pass, averages weighted by the iteration), and
the same best response. Both evaluate the exploitability every 10 iterations and stop at
the target, so their iteration counts should agree. Times are CPU seconds of this process
(wall seconds beside them); the ratio is ours / reference, below 1 when ours is faster.
"""
from __future__ import annotations

import sys
from itertools import permutations
from pathlib import Path

from _clock import Clock, parser

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
EVERY = 10

# ---------------------------------------------------------------- the hand-written games
# A node: ("T", (u0, u1)) | ("C", [(p, node)]) | ("D", player, infoset key, [node per action])


def kuhn_tree():
    """Kuhn poker: ante 1, one card each of J < Q < K, bet 1; player 0 opens."""
    def showdown(c, pot_each):
        w = 0 if c[0] > c[1] else 1
        return tuple(pot_each if s == w else -pot_each for s in (0, 1))

    def node(c, hist):
        if hist in ("cc",):
            return ("T", showdown(c, 1))
        if hist in ("bc", "cbc"):
            return ("T", showdown(c, 2))
        if hist == "bf":
            return ("T", (1, -1))
        if hist == "cbf":
            return ("T", (-1, 1))
        p = len(hist) % 2
        facing = hist.endswith("b")
        acts = "fc" if facing else "cb"
        return ("D", p, (p, c[p], hist), [node(c, hist + a) for a in acts])
    return ("C", [(1 / 6, node(c, "")) for c in permutations(range(3), 2)])


def leduc_tree():
    """Leduc hold'em: six cards (3 ranks x 2 suits), ante 1, raises 2 then 4, at most 2 a round,
    a public card between the rounds; a pair with it wins, else the higher card; player 0 opens both."""
    def result(cards, contrib, folder):
        if folder is not None:
            w = 1 - folder
            return tuple(contrib[1 - s] if s == w else -contrib[s] for s in (0, 1))
        rank = [cards[s] // 2 for s in (0, 1)]
        board = cards[2] // 2
        strength = [r + (10 if r == board else 0) for r in rank]
        if strength[0] == strength[1]:
            return (0, 0)
        w = 0 if strength[0] > strength[1] else 1
        return tuple(contrib[1 - s] if s == w else -contrib[s] for s in (0, 1))

    def betting(cards, rnd, contrib, hist, seq, raises, acted):
        p = len(seq) % 2
        top = max(contrib)
        key = (p, cards[p], cards[2] if rnd == 2 else None, hist + seq)
        acts = []
        if contrib[p] == top:
            acts.append(("k", None))
        else:
            acts.append(("f", None))
            acts.append(("c", None))
        if raises < 2:
            acts.append(("r", None))
        kids = []
        for a, _ in acts:
            c = list(contrib)
            if a == "f":
                kids.append(("T", result(cards, c, p)))
                continue
            if a == "c":
                c[p] = top
            if a == "r":
                c[p] = top + (2 if rnd == 1 else 4)
            done = acted + 1 >= 2 and c[0] == c[1] and a != "r"
            if done and rnd == 2:
                kids.append(("T", result(cards, c, None)))
            elif done:
                kids.append(betting(cards, 2, c, hist + seq + a + "/", "", 0, 0))
            else:
                kids.append(betting(cards, rnd, c, hist, seq + a, raises + (a == "r"), acted + 1))
        return ("D", p, key, kids)
    deals = list(permutations(range(6), 3))
    return ("C", [(1 / len(deals), betting(d, 1, [1, 1], "", "", 0, 0)) for d in deals])


# ---------------------------------------------------------------- plain CFR+
class PlainCFRPlus:
    """CFR+ by recursion over the nodes, regrets and strategy sums in dicts."""

    def __init__(self, root):
        self.root = root
        self.regret: dict = {}
        self.ssum: dict = {}
        self.t = 0
        self._collect(root)

    def _collect(self, node):
        if node[0] == "C":
            for _, k in node[1]:
                self._collect(k)
        elif node[0] == "D":
            self.regret.setdefault(node[2], [0.0] * len(node[3]))
            self.ssum.setdefault(node[2], [0.0] * len(node[3]))
            for k in node[3]:
                self._collect(k)

    def sigma(self, key):
        r = self.regret[key]
        tot = sum(r)
        return [x / tot for x in r] if tot > 0 else [1 / len(r)] * len(r)

    def average(self, key):
        s = self.ssum[key]
        tot = sum(s)
        return [x / tot for x in s] if tot > 0 else [1 / len(s)] * len(s)

    def _walk(self, node, seat, mine, others, delta):
        kind = node[0]
        if kind == "T":
            return node[1][seat]
        if kind == "C":
            return sum(p * self._walk(k, seat, mine, others * p, delta) for p, k in node[1])
        _, player, key, kids = node
        sig = self.sigma(key)
        if player != seat:
            return sum(s * self._walk(k, seat, mine, others * s, delta) for s, k in zip(sig, kids))
        vals = [self._walk(k, seat, mine * s, others, delta) for s, k in zip(sig, kids)]
        u = sum(s * v for s, v in zip(sig, vals))
        d = delta.setdefault(key, [0.0] * len(kids))
        ss = self.ssum[key]
        for a, v in enumerate(vals):
            d[a] += others * (v - u)
            ss[a] += self.t * mine * sig[a]
        return u

    def iterate(self, n=1):
        for _ in range(n):
            self.t += 1
            for seat in (0, 1):
                delta: dict = {}
                self._walk(self.root, seat, 1.0, 1.0, delta)
                for key, d in delta.items():
                    self.regret[key] = [max(r + x, 0.0) for r, x in zip(self.regret[key], d)]

    def value(self, node, policy):
        if node[0] == "T":
            return node[1]
        if node[0] == "C":
            parts = [(p, self.value(k, policy)) for p, k in node[1]]
        else:
            parts = list(zip(policy(node), (self.value(k, policy) for k in node[3])))
        return tuple(sum(p * v[s] for p, v in parts) for s in (0, 1))

    def exploitability(self):
        avg = {k: self.average(k) for k in self.ssum}
        value = self.value(self.root, lambda nd: avg[nd[2]])
        gain = 0.0
        for seat in (0, 1):
            gain += self._best_response(seat, avg) - value[seat]
        return gain / 2, value

    def _best_response(self, seat, avg):
        members: dict = {}   # the seat's information set -> [(node, others' reach, depth)]

        def gather(node, reach, depth):
            if node[0] == "C":
                for p, k in node[1]:
                    gather(k, reach * p, depth + 1)
            elif node[0] == "D":
                if node[1] == seat:
                    members.setdefault(node[2], []).append((node, reach, depth))
                    for k in node[3]:
                        gather(k, reach, depth + 1)
                else:
                    for s, k in zip(avg[node[2]], node[3]):
                        gather(k, reach * s, depth + 1)
        gather(self.root, 1.0, 0)
        br: dict = {}

        def val(node):
            if node[0] == "T":
                return node[1][seat]
            if node[0] == "C":
                return sum(p * val(k) for p, k in node[1])
            if node[1] == seat:
                return val(node[3][br[node[2]]])
            return sum(s * val(k) for s, k in zip(avg[node[2]], node[3]))
        for key in sorted(members, key=lambda k: -max(d for _, _, d in members[k])):
            nodes = members[key]
            q = [sum(r * val(nd[3][a]) for nd, r, _ in nodes) for a in range(len(nodes[0][0][3]))]
            br[key] = max(range(len(q)), key=q.__getitem__)
        return val(self.root)


# ---------------------------------------------------------------- the runs
def ours(game: str, target: float):
    from ggpbridge.frontends import load_game
    from ggpbridge.sim import compile_loaded
    from ggpbridge.sim.stepwise import StepMachine
    from ggpbridge.solve.cfr import CFRPlus
    from ggpbridge.solve.tree import build_tree
    clock = Clock()
    tree = build_tree(StepMachine(compile_loaded(load_game(str(ROOT / "games" / f"{game}_poker.rcy"), None), {})))
    build = (clock.wall, clock.cpu)
    clock.restart()
    s = CFRPlus(tree)
    while True:
        s.iterate(EVERY)
        ev = s.evaluate()
        if ev["exploitability"] <= target:
            break
    return build, (clock.wall, clock.cpu), s.iterations, ev["value"][0], ev["exploitability"], tree.stats


def reference(game: str, target: float):
    clock = Clock()
    root = kuhn_tree() if game == "kuhn" else leduc_tree()
    build = (clock.wall, clock.cpu)
    clock.restart()
    s = PlainCFRPlus(root)
    while True:
        s.iterate(EVERY)
        expl, value = s.exploitability()
        if expl <= target:
            break
    return build, (clock.wall, clock.cpu), s.t, value[0], expl, len(s.regret)


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--games", default="kuhn,leduc", help="comma list of kuhn, leduc")
    ap.add_argument("--kuhn-target", type=float, default=0.001)
    ap.add_argument("--leduc-target", type=float, default=0.002)
    args = ap.parse_args()
    print(f"{'game':6} {'solver':10} {'target':>7} {'iters':>6} {'value p0':>10} {'expl':>9} "
          f"{'tree CPU s':>10} {'CFR CPU s':>10} {'CFR wall s':>10}  notes")
    for game in [g.strip() for g in args.games.split(",") if g.strip()]:
        target = args.kuhn_target if game == "kuhn" else args.leduc_target
        b, c, it, v, e, stats = ours(game, target)
        print(f"{game:6} {'ggpbridge':10} {target:7g} {it:6} {v:10.6f} {e:9.6f} {b[1]:10.2f} {c[1]:10.2f} "
              f"{c[0]:10.2f}  {stats['histories']} histories -> {stats['nodes']} nodes, "
              f"{sum(stats['information_sets'])} information sets", flush=True)
        rb, rc, rit, rv, re_, nsets = reference(game, target)
        print(f"{game:6} {'plain':10} {target:7g} {rit:6} {rv:10.6f} {re_:9.6f} {rb[1]:10.2f} {rc[1]:10.2f} "
              f"{rc[0]:10.2f}  {nsets} information sets", flush=True)
        per_it = (c[1] / it) / (rc[1] / rit) if rc[1] > 0 and rit else float("nan")
        total = (b[1] + c[1]) / (rb[1] + rc[1]) if rb[1] + rc[1] > 0 else float("nan")
        print(f"{game:6} ratio ours/plain: CFR CPU {c[1] / rc[1] if rc[1] else float('nan'):.2f}, per iteration "
              f"{per_it:.2f}, with the tree {total:.2f}", flush=True)


if __name__ == "__main__":
    main()
