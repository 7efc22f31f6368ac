"""Benchmark: `ggpbridge query` time per question and engine; the share of War deals that cycle.

Run: python benchmarks/query_speed.py [--max-n 10] [--samples 5000] [--engines explicit,asp] [--no-fractions]
Targets (issue #6): `cycle` on War n = 8 within 30 s (both engines), n = 10 within 5 minutes
(explicit). Facts: winner's card first never cycles for n <= 8 and about 10.9% of the deals cycle
at n = 10; loser's card first cycles from n = 6; seat order from n = 4.

Part 1 times each question through `run_query`, as the CLI does. Part 2 plays every deal
(n <= 8) or a uniform sample of deals (n = 10) on the stepwise machine: after the shuffle War
is deterministic, so a deal cycles exactly when its play revisits a state; outcomes are
memoised per state, shared by all deals (plays merge quickly).
"""
from __future__ import annotations

import argparse
import gc
import math
import random
import sys
import time
from itertools import product
from pathlib import Path

from ggpbridge.query.run import run_query
from ggpbridge.recycle import parse_file
from ggpbridge.sim import compile_loaded
from ggpbridge.sim.stepwise import Chance, Decision, StepMachine, Terminal

GAMES = Path(__file__).resolve().parents[1] / "games"
ORDERS = ("winner", "loser", "seat")
AGRAM = [("agram2_c2.rcy", q, r) for q, r in [("terminates", None), ("playable", None), ("winnable", 0),
                                              ("winnable", 1), ("cycle", None), ("always-ends", None)]]


def time_questions(cases, engines, timeout):
    """Print one row per (game, question, engine): verdict and seconds."""
    # CPU seconds next to wall seconds: the machine may be shared, and only CPU time is ours
    print(f"{'game':22} {'question':12} {'engine':8} {'verdict':8} {'seconds':>8} {'cpu s':>8}  states")
    for name, q, role in cases:
        for eng in engines:
            t, cpu = time.perf_counter(), time.process_time()
            try:
                (a,) = run_query(str(GAMES / name), q, role, eng, timeout=timeout)
                verdict, states = a.verdict + (f" ({a.limit})" if a.limit else ""), a.stats.get("states", "")
            except Exception as e:   # a benchmark row, not a crash: show what went wrong
                verdict, states = f"error: {e}", ""
            qq = q + (f" {role}" if role is not None else "")
            print(f"{name:22} {qq:12} {eng:8} {verdict:8} {time.perf_counter() - t:8.2f} "
                  f"{time.process_time() - cpu:8.2f}  {states}", flush=True)


def deal_outcomes(m: StepMachine, deals, memo: dict) -> tuple[int, int]:
    """(cycling deals, deals) over `deals`, iterables of chance outcomes up to the first decision."""
    cyc = total = 0
    gc.disable()   # as in the explicit engine: no full collections over the memo's millions of tuples
    for outcomes in deals:
        if total % 2000 == 0:
            gc.collect(0)
        s = m.initial_state()
        for k in outcomes:
            s = m.next_state(s, k)
        total += 1
        cyc += play_cycles(m, s, memo)
    gc.enable()
    return cyc, total


def play_cycles(m: StepMachine, s, memo: dict) -> bool:
    """Whether the (forced) play from s revisits a state; memoised for every state on the way."""
    path, on_path = [], set()
    while True:
        key = m.key(s)
        if key in memo:
            result = memo[key]
            break
        if key in on_path:
            result = True
            break
        nd = m.node(s)
        if isinstance(nd, Terminal):
            result = False
            break
        if not isinstance(nd, Decision) or len(nd.options) != 1:
            raise SystemExit("this measure needs a game that is deterministic after the deal")
        path.append(key)
        on_path.add(key)
        s = m.next_state(s, 0)
    for key in path:
        memo[key] = result
    return result


def shuffle_positions(m: StepMachine) -> list[int]:
    """The sizes of the chance events before the first decision (n, n-1, ..., 2 for a shuffle)."""
    s, sizes = m.initial_state(), []
    while isinstance(nd := m.node(s), Chance):
        sizes.append(nd.n)
        s = m.next_state(s, 0)
    return sizes


def fractions(max_n: int, samples: int, seed: int) -> None:
    """Print the share of cycling deals per return order and deck size."""
    print(f"\n{'game':22} {'deals':>9} {'cycling':>8} {'share':>7}  how")
    for n, order in product(range(4, max_n + 1, 2), ORDERS):
        name = f"war_n{n}_{order}.rcy"
        m = StepMachine(compile_loaded(parse_file(GAMES / name)))
        sizes = shuffle_positions(m)
        t, cpu = time.perf_counter(), time.process_time()
        if math.prod(sizes) <= 50_000:
            deals, how = product(*(range(k) for k in sizes)), "every deal"
        else:
            rng = random.Random(seed)
            deals = ([rng.randrange(k) for k in sizes] for _ in range(samples))
            how = f"{samples} uniform deals, seed {seed}"
        cyc, total = deal_outcomes(m, deals, {})
        p = cyc / total
        err = "" if how == "every deal" else f" +- {196 * math.sqrt(p * (1 - p) / total):.1f}% (95%)"
        print(f"{name:22} {total:9} {cyc:8} {100 * p:6.2f}%  {how}{err}, {time.perf_counter() - t:.1f} s "
              f"({time.process_time() - cpu:.1f} s cpu)",
              flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-n", type=int, default=10, help="largest War deck (4, 6, 8 or 10)")
    ap.add_argument("--samples", type=int, default=5000, help="sampled deals when there are more than 50,000")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engines", default="explicit", help="comma list: explicit, asp")
    ap.add_argument("--timeout", type=float, default=300.0, help="per question and engine")
    ap.add_argument("--no-fractions", action="store_true")
    args = ap.parse_args(argv)
    engines = args.engines.split(",")
    war = [(f"war_n{n}_{o}.rcy", "cycle", None) for n in range(4, args.max_n + 1, 2) for o in ORDERS]
    agram = AGRAM + [("agram2_c3.rcy", q, r) for _, q, r in AGRAM]
    print(f"python {sys.version.split()[0]}; engines: {', '.join(engines)}; timeout {args.timeout:g} s\n")
    time_questions(war + agram, engines, args.timeout)
    if not args.no_fractions:
        fractions(args.max_n, args.samples, args.seed)


if __name__ == "__main__":
    main()
