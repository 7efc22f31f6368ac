"""Benchmark: reading (parse + check) large RECYCLE files is linear in their size.

Run: python benchmarks/read_large.py [MB ...]   (default sizes 1 2 4 8)
For each kind of padding around games/war.rcy it writes a file of each size, reads it
with `parse_file` + `check` and prints wall and CPU seconds per MB; linear reading
shows as a flat s/MB column. The kinds: long comment lines before the game, one-line
`;;` comments, white space, random bytes (refused at the first byte that is not UTF-8),
NUL bytes after a valid start (refused at the first NUL), and unclosed '(' tokens (every
byte a token: the lexer's and the parser's own per-token cost).
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ggpbridge.errors import PositionedError
from ggpbridge.recycle import parse_file
from ggpbridge.recycle.check import check
from _clock import Clock, parser, timed

GAME = (Path(__file__).resolve().parents[1] / "games" / "war.rcy").read_bytes()
MB = 1 << 20


def _kinds(size: int) -> dict:
    line = b";; " + b"x" * 70 + b"\n"
    return {
        "comment lines": line * (size // len(line)) + GAME,
        "short comments": b";;\n" * (size // 3) + GAME,
        "white space": b" \n" * (size // 2) + GAME,
        "random bytes": os.urandom(size),
        "NUL bytes": GAME[:200] + b"\x00" * size,
        "unclosed '('": b"(" * size,
    }


def _read(path: Path) -> str:
    try:
        loaded = parse_file(path)
        check(loaded.game, loaded.source)
        return "ok"
    except PositionedError as e:
        return f"error at {e.pos.line}:{e.pos.col}"


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("sizes", nargs="*", type=float, default=[1, 2, 4, 8], help="file sizes in MB")
    sizes = ap.parse_args().sizes
    total = Clock()
    print(f"{'kind':16s} {'MB':>5s} {'wall s':>8s} {'cpu s':>8s} {'wall s/MB':>10s} {'cpu s/MB':>9s}  outcome")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.rcy"
        parse_file(Path(__file__).resolve().parents[1] / "games" / "war.rcy")  # grammar built once, not timed
        for kind in _kinds(1):
            for mb in sizes:
                path.write_bytes(_kinds(int(mb * MB))[kind])
                outcome, cpu, wall = timed(lambda: _read(path))
                print(f"{kind:16s} {mb:5g} {wall:8.2f} {cpu:8.2f} {wall / mb:10.3f} {cpu / mb:9.3f}  {outcome}",
                      flush=True)
    print(f"total: {total}")


if __name__ == "__main__":
    main()
