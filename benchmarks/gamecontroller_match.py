"""Benchmark: a GDL-II match run by the Dresden GameController with `ggpbridge serve-player` players.

Run: python benchmarks/gamecontroller_match.py GAMECONTROLLER [--game games/kuhn_poker.rcy]
     [--playclock 10] [--startclock 60] [--strategy random|legal|mc] [--timeout S]

GAMECONTROLLER is a checkout of the GameController (github lwthatcher/ggpserver-gamecontroller),
never part of this project, whose `javaprover` reasoner is built with plain javac:

    git --git-dir=MIRROR archive HEAD src | tar -x -C GAMECONTROLLER
    cd GAMECONTROLLER && javac --release 8 -nowarn -encoding ISO-8859-1 -d out -sourcepath src \
        src/tud/gamecontroller/game/javaprover/GameControllerCLIRunner.java

(`--classes` if the classes are elsewhere than GAMECONTROLLER/out). The game is translated to
GDL-II; one `serve-player` process per player role is started; the GameController plays the
translation's `random` role itself. Afterwards every PLAY and STOP message it sent is checked:
the percepts it gave each player must be the translation's `sees` (computed by clingo) for the
joint moves it logged. Prints the steps, the goals, the errors the GameController logged, the
percept messages that differ, and the wall and CPU time.
"""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

from _clock import Clock, parser

ROOT = Path(__file__).resolve().parents[1]
_SENT = re.compile(r'message to (p\d+) sent: "\((PLAY|STOP) \S+ (\d+) (.*)\)"$')
_MOVES = re.compile(r"moves: (\(.*\))$")


def _list(text: str) -> list:
    """The elements of a KIF list `(A B ...)`, each as KIF text in lower case with single spaces."""
    tokens = re.findall(r"\(|\)|[^\s()]+", text.lower())
    out, depth, cur = [], 0, []
    for tok in tokens[1:-1] if tokens and tokens[0] == "(" else tokens:
        cur.append(tok)
        depth += tok == "("
        depth -= tok == ")"
        if depth == 0:
            out.append(" ".join(cur).replace("( ", "(").replace(" )", ")"))
            cur = []
    return out


def _start_player(strategy: str, log: Path) -> tuple:
    """A serve-player process on a free port: (process, port)."""
    proc = subprocess.Popen([sys.executable, "-c", "from ggpbridge.cli import main; main()", "serve-player", "--port", "0",
                             "--strategy", strategy, "--seed", "1", "--verbose"],
                            stdout=subprocess.PIPE, stderr=log.open("w"), text=True)
    line = proc.stdout.readline()
    m = re.search(r":(\d+)/?\s*$", line.strip())
    if m is None:
        proc.kill()
        sys.exit(f"serve-player did not say where it listens: {line!r}")
    return proc, int(m.group(1))


def check_percepts(desc, log_lines: list) -> tuple[int, int, list]:
    """(transitions, percept messages checked, differences) of a GameController log."""
    from ggpbridge.gdl.machine import ClingoMachine
    machine = ClingoMachine(desc, percepts=True)
    roles = [str(r) for r in machine.roles()]
    moves = [_list(m.group(1)) for m in (_MOVES.search(x) for x in log_lines) if m]
    sent = {}
    for x in log_lines:
        m = _SENT.search(x.rstrip())
        if m:
            player, _, turn, rest = m.groups()
            parts = _list(f"({rest})")
            sent[(int(player[1:]), int(turn))] = parts[1] if len(parts) > 1 else None
    state, seen, bad = machine.initial_state(), 0, []
    percepts_of = []
    for joint in moves:
        js = dict(zip(roles, joint))
        percepts_of.append({str(r): {machine.kif(p) for p in ps} for r, ps in machine.sees(state, js).items()})
        state = machine.next_state(state, js)
    for (p, turn), text in sorted(sent.items()):
        if turn == 0 or text is None:
            continue
        got = set(_list(text)) if text.startswith("(") else set()
        want = percepts_of[turn - 1].get(f"player{p}", set()) if turn - 1 < len(percepts_of) else None
        seen += 1
        if got != want:
            bad.append((p, turn, sorted(got ^ (want or set()))[:6]))
    return len(moves), seen, bad


def main() -> int:
    ap = parser(__doc__)
    ap.add_argument("gamecontroller", type=Path)
    ap.add_argument("--classes", type=Path, help="its compiled classes (default GAMECONTROLLER/out)")
    ap.add_argument("--game", type=Path, default=ROOT / "games" / "kuhn_poker.rcy")
    ap.add_argument("--playclock", type=int, default=10)
    ap.add_argument("--startclock", type=int, default=60)
    ap.add_argument("--strategy", default="random", choices=("random", "legal", "mc"))
    ap.add_argument("--timeout", type=float, default=1800, help="stop the GameController after S seconds")
    args = ap.parse_args()
    from ggpbridge.gdl.kif import print_kif
    from ggpbridge.translate import load_description
    desc = load_description(args.game, 2)
    n = sum(1 for r in desc.rules if r.head.name == "role" and getattr(r.head.args[0], "name", "").startswith("player"))
    clock = Clock()
    with tempfile.TemporaryDirectory() as tmp:
        tmpd = Path(tmp)
        kif = tmpd / "game.kif"
        kif.write_text(print_kif(desc))
        players = [_start_player(args.strategy, tmpd / f"p{k}.log") for k in range(n)]
        try:
            cmd = ["java", "-Xss64m", "-cp", str(args.classes or args.gamecontroller / "out"),
                   "tud.gamecontroller.game.javaprover.GameControllerCLIRunner", "m1", str(kif),
                   str(args.startclock), str(args.playclock), "2"]
            for k, (_, port) in enumerate(players):
                cmd += ["-remote", str(k + 1), f"p{k}", "localhost", str(port), "2"]
            try:
                out = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
                log, rc = (out.stdout + out.stderr).splitlines(), out.returncode
            except subprocess.TimeoutExpired as e:
                log, rc = ((e.stdout or b"").decode() + (e.stderr or b"").decode()).splitlines(), "timeout"
        finally:
            for proc, _ in players:
                proc.terminate()
                proc.wait(timeout=10)
    steps, checked, bad = check_percepts(desc, log)
    results = next((x.split("results:")[1].strip() for x in log if "results:" in x), None)
    errors = [x for x in log if re.search(r"SEVERE|Exception|error|timeout", x, re.IGNORECASE)]
    print(f"{args.game}: GameController (javaprover), GDL-II, {n} serve-player players ({args.strategy}), "
          f"exit {rc}")
    print(f"  {steps} steps; results {results or 'none (the match did not end)'}; {len(errors)} error line(s)")
    for x in errors[:5]:
        print("   ", x[:200])
    print(f"  percept messages checked against the translation's sees: {checked}, differing: {len(bad)}")
    for p, turn, diff in bad[:5]:
        print(f"    player{p} turn {turn}: {diff}")
    print(f"  {clock}")
    return 0 if results and not bad else 1


if __name__ == "__main__":
    sys.exit(main())
