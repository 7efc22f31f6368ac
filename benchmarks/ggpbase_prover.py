"""Benchmark: ggp-base's ProverStateMachine on a translated game; prints transitions/s and CPU time.

Run: python benchmarks/ggpbase_prover.py GGPBASE [--game games/kuhn_poker.rcy] [--gdl 1|2]
     [--games N] [--seconds S] [--kif FILE]

GGPBASE is a ggp-base checkout (github ggp-org/ggp-base) built with plain javac, never part of
this project. Build it once, outside the project:

    git --git-dir=MIRROR archive HEAD src lib/Guava lib/reflections lib/javassist \
        lib/gdl-validation | tar -x -C GGPBASE
    cd GGPBASE && javac --release 8 -nowarn -d out -cp "$(ls lib/*/*.jar | tr '\\n' :)" \
        -sourcepath src/main/java \
        src/main/java/org/ggp/base/util/statemachine/implementation/prover/ProverStateMachine.java

(`--classes` if the classes are elsewhere than GGPBASE/out). The benchmark compiles its small
Java driver into a temporary directory, translates the game, and plays N uniformly random
games from a *fresh* machine, as a player does in a match: the prover's caches start empty, so
the figure includes what the first queries of each integer pattern cost. It prints the
transitions, their rate, the slowest single transition (what a play clock must cover), the
mean transitions per game, and the JVM's CPU time.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from _clock import Clock, parser

ROOT = Path(__file__).resolve().parents[1]

DRIVER = r"""
import java.nio.file.*; import java.util.*; import java.lang.management.*;
import org.ggp.base.util.game.Game;
import org.ggp.base.util.gdl.grammar.Gdl;
import org.ggp.base.util.statemachine.*;
import org.ggp.base.util.statemachine.implementation.prover.ProverStateMachine;
public class ProverBench {
  public static void main(String[] a) throws Exception {
    String kif = new String(Files.readAllBytes(Paths.get(a[0])));
    int games = Integer.parseInt(a[1]); double limit = Double.parseDouble(a[2]);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long c0 = mx.getCurrentThreadCpuTime(), t0 = System.nanoTime();
    List<Gdl> rules = Game.createEphemeralGame(Game.preprocessRulesheet(kif)).getRules();
    StateMachine sm = new ProverStateMachine(); sm.initialize(rules);
    double init = (System.nanoTime() - t0) / 1e9;
    long steps = 0, done = 0; double worst = 0;
    outer:
    for (int g = 0; g < games; g++) {
      MachineState s = sm.getInitialState();
      while (!sm.isTerminal(s)) {
        if ((System.nanoTime() - t0) / 1e9 > limit) break outer;
        long t = System.nanoTime();
        s = sm.getNextState(s, sm.getRandomJointMove(s));
        worst = Math.max(worst, (System.nanoTime() - t) / 1e9);
        steps++;
      }
      for (Role r : sm.getRoles()) sm.getGoal(s, r);
      done++;
    }
    double wall = (System.nanoTime() - t0) / 1e9;
    System.out.println("{\"init\": " + init + ", \"transitions\": " + steps + ", \"games\": " + done
        + ", \"seconds\": " + wall + ", \"worst\": " + worst
        + ", \"cpu\": " + (mx.getCurrentThreadCpuTime() - c0) / 1e9 + "}");
  }
}
"""


def classpath(base: Path, classes: Path | None) -> str:
    """The ggp-base classes and the jars it needs."""
    jars = sorted(str(p) for p in base.glob("lib/*/*.jar") if not p.name.endswith("-sources.jar"))
    return ":".join([str(classes or base / "out")] + jars)


def translated(game: Path, gdl: int) -> str:
    """The game's GDL (1) or GDL-II (2) translation as KIF."""
    from ggpbridge.gdl.kif import print_kif
    from ggpbridge.translate import load_description
    return print_kif(load_description(game, gdl))


def main() -> int:
    ap = parser(__doc__)
    ap.add_argument("ggpbase", type=Path, help="a ggp-base checkout built with javac (see above)")
    ap.add_argument("--classes", type=Path, help="its compiled classes (default GGPBASE/out)")
    ap.add_argument("--game", type=Path, default=ROOT / "games" / "kuhn_poker.rcy")
    ap.add_argument("--kif", type=Path, help="a KIF file to run instead of translating --game")
    ap.add_argument("--gdl", type=int, choices=(1, 2), default=1)
    ap.add_argument("--games", type=int, default=20, help="random games from a fresh machine")
    ap.add_argument("--seconds", type=float, default=120, help="stop after this long")
    args = ap.parse_args()
    if shutil.which("javac") is None:
        sys.exit("javac not found")
    cp = classpath(args.ggpbase, args.classes)
    with tempfile.TemporaryDirectory() as tmp:
        tmpd = Path(tmp)
        (tmpd / "ProverBench.java").write_text(DRIVER)
        subprocess.run(["javac", "-nowarn", "-d", tmp, "-cp", cp, str(tmpd / "ProverBench.java")], check=True)
        kif = tmpd / "game.kif"
        kif.write_text(args.kif.read_text() if args.kif else translated(args.game, args.gdl))
        clock = Clock()
        out = subprocess.run(["java", "-Xss64m", "-cp", f"{tmp}:{cp}", "ProverBench", str(kif), str(args.games),
                              str(args.seconds)], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"the driver failed:\n{out.stderr[-2000:]}")
    r = json.loads(out.stdout.strip().splitlines()[-1])
    name = args.kif or args.game
    rate = r["transitions"] / r["seconds"] if r["seconds"] else 0.0
    print(f"{name} (GDL{'-II' if args.gdl == 2 and not args.kif else ''}), ggp-base ProverStateMachine, "
          f"fresh machine:")
    print(f"  setup {r['init']:.2f} s; {r['games']} games finished, {r['transitions']} transitions in "
          f"{r['seconds']:.1f} s: {rate:.1f} transitions/s")
    if r["games"]:
        print(f"  {r['transitions'] / max(r['games'], 1):.1f} transitions per game; slowest transition "
              f"{r['worst'] * 1000:.0f} ms")
    print(f"  JVM main thread CPU {r['cpu']:.2f} s: {r['transitions'] / max(r['cpu'], 1e-9):.1f} transitions "
          f"per CPU second; {clock}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
