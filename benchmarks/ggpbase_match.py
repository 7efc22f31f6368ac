"""Benchmark: `ggpbridge match` of a translated game against ggp-base's SampleMonteCarloGamer.

Run: python benchmarks/ggpbase_match.py GGPBASE [--game games/kuhn_poker.rcy] [--gdl 1]
     [--matches N] [--playclock 5] [--startclock 30] [--seat 0|1] [--opponent builtin:random]

GGPBASE is a ggp-base checkout built with plain javac, never part of this project (see
benchmarks/ggpbase_prover.py for the archive step). Besides the prover, compile the player:

    cd GGPBASE && javac --release 8 -nowarn -d out -cp "$(ls lib/*/*.jar | tr '\\n' :)" \
        -sourcepath src/main/java src/main/java/org/ggp/base/player/GamePlayer.java \
        src/main/java/org/ggp/base/player/gamer/statemachine/sample/SampleMonteCarloGamer.java

The benchmark compiles a three-line driver (ggp-base's PlayerRunner finds gamers only in a
jar) into a temporary directory, starts the gamer on a free port for each match, lets
`ggpbridge match` play it in seat --seat against --opponent, and prints each match's steps,
errors (timeouts among them) and the gamer's slowest answer against the play clock. The
issue's target is no timeout at a 5 s play clock on Kuhn poker.
"""
from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _clock import Clock, parser
from ggpbase_prover import classpath

ROOT = Path(__file__).resolve().parents[1]

DRIVER = r"""
import org.ggp.base.player.GamePlayer;
import org.ggp.base.player.gamer.statemachine.sample.SampleMonteCarloGamer;
public class McPlayer { public static void main(String[] a) throws Exception {
  new GamePlayer(Integer.parseInt(a[0]), new SampleMonteCarloGamer()).start(); } }
"""


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port: int, proc: subprocess.Popen, seconds: float = 60) -> None:
    """Return once the gamer accepts connections; fail if it died or never listened."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            sys.exit(f"the gamer exited with {proc.returncode} before listening")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"the gamer did not listen on port {port} within {seconds:.0f} s")


def play_one(args, cp: str, tmp: str, seed: int) -> dict:
    """One match against a fresh gamer; its record."""
    port = free_port()
    gamer = subprocess.Popen(["java", "-Xss64m", "-cp", f"{tmp}:{cp}", "McPlayer", str(port)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_listening(port, gamer)
        record = Path(tmp) / f"match{seed}.json"
        seats = {f"player{args.seat}": f"http://127.0.0.1:{port}/", f"player{1 - args.seat}": args.opponent}
        cmd = [sys.executable, "-m", "ggpbridge.cli", "match", str(args.game), "--gdl", str(args.gdl),
               "--playclock", str(args.playclock), "--startclock", str(args.startclock), "--seed", str(seed),
               "-o", str(record)]
        for role, url in seats.items():
            cmd += ["--player", f"{role}={url}"]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if not record.exists():
            sys.exit(f"match {seed} wrote no record:\n{out.stderr[-2000:]}")
        return json.loads(record.read_text())
    finally:
        gamer.terminate()
        gamer.wait(timeout=10)


def main() -> int:
    ap = parser(__doc__)
    ap.add_argument("ggpbase", type=Path, help="a ggp-base checkout built with javac (see above)")
    ap.add_argument("--classes", type=Path, help="its compiled classes (default GGPBASE/out)")
    ap.add_argument("--game", type=Path, default=ROOT / "games" / "kuhn_poker.rcy")
    ap.add_argument("--gdl", type=int, choices=(1, 2), default=1)
    ap.add_argument("--matches", type=int, default=3)
    ap.add_argument("--playclock", type=float, default=5)
    ap.add_argument("--startclock", type=float, default=30)
    ap.add_argument("--seat", type=int, choices=(0, 1), default=0, help="the gamer's seat")
    ap.add_argument("--opponent", default="builtin:random", help="who plays the other seat")
    args = ap.parse_args()
    if shutil.which("javac") is None:
        sys.exit("javac not found")
    cp = classpath(args.ggpbase, args.classes)
    clock = Clock()
    timeouts = 0
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "McPlayer.java").write_text(DRIVER)
        subprocess.run(["javac", "-nowarn", "-d", tmp, "-cp", cp, str(Path(tmp) / "McPlayer.java")], check=True)
        for seed in range(args.matches):
            rec = play_one(args, cp, tmp, seed)
            role = f"player{args.seat}"
            mine = [e for e in rec["errors"] if e.get("role") == role]
            slow = max((t.get(role, 0.0) for t in rec["timings"]["turns"]), default=0.0)
            late = sum(1 for e in mine if e.get("kind") == "timeout")
            timeouts += late
            print(f"match {seed}: {rec['steps']} steps, goals {rec['goals']}, gamer errors {len(mine)} "
                  f"({late} timeouts), slowest answer {slow:.2f} s of {args.playclock:g} s, start "
                  f"{rec['timings']['start'].get(role, 0.0):.1f} s of {args.startclock:g} s")
    print(f"{args.matches} matches of {args.game.name} (GDL{'-II' if args.gdl == 2 else ''}) against ggp-base's "
          f"SampleMonteCarloGamer: {timeouts} timeouts; {clock} (the JVM's CPU counted as a child)")
    return 0 if timeouts == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
