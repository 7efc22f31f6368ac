"""Which game files check clean but are refused by `ggpbridge translate`, grouped by the refusal.

    python benchmarks/translate_coverage.py [--files] [FILE_OR_DIR ...]

FILE_OR_DIR defaults to the CardStock corpus (../shared/corpus/cardstock/{rcy,gdl}).
Each file is read and checked as `ggpbridge check` does; a file with a check error is
counted apart (it is not the translator's to take). Each clean file is translated to
GDL-II as `ggpbridge conformance --translate` does (`ggpbridge.conformance.translation_status`),
and the refusals are grouped by their message without its position, most files first. With
`--files`, each group lists its files with the refusal's line:col. Valid translations too large
for the clingo machine to ground (`ggpbridge.gdl.tables`) are counted as translating and listed.
"""
from __future__ import annotations

import argparse
import re
from collections import defaultdict
from pathlib import Path

from _clock import Clock
from ggpbridge.conformance import files_under, translation_status
from ggpbridge.errors import PositionedError, only_errors
from ggpbridge.frontends import load_game
from ggpbridge.recycle.check import check

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "cardstock"
_AT = re.compile(r"^unsupported at (?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?P<what>.*)$", re.S)


def outcome(path: Path) -> tuple[str, str]:
    """(kind, detail) of one file: ('unclean', first error), ('translates', status),
    ('refused', 'line:col what') or ('other', status: invalid, too large, internal error)."""
    try:
        loaded = load_game(path)
    except PositionedError as e:
        return "unclean", str(e).splitlines()[0]
    errors = only_errors(check(loaded.game, loaded.source))
    if errors:
        return "unclean", errors[0].format().splitlines()[0]
    status = translation_status(loaded)
    m = _AT.match(status)
    if m:
        return "refused", f"{m['line']}:{m['col']} {m['what']}"
    if "too large to ground" in status:   # valid GDL-II that the clingo machine refuses
        return "too large", status
    return ("translates" if status.startswith("valid") else "other"), status


def _short(path: Path) -> str:
    """The path from the corpus (or the current folder) when it is under it."""
    path = path.resolve()
    for base in (CORPUS, Path.cwd()):
        if path.is_relative_to(base.resolve()):
            return str(path.relative_to(base.resolve()))
    return str(path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", type=Path)
    ap.add_argument("--files", action="store_true", help="list each refusal's files with its line:col")
    a = ap.parse_args()
    clock = Clock()
    paths = files_under(a.paths or [CORPUS / "rcy", CORPUS / "gdl"])
    counts: dict = defaultdict(int)
    groups: dict = defaultdict(list)
    others = []
    try:
        for path in paths:
            kind, detail = outcome(path)
            counts[kind] += 1
            if kind == "refused":
                where, what = detail.split(" ", 1)
                groups[what].append(f"{_short(path)}:{where}")
            elif kind in ("other", "too large"):
                others.append(f"{_short(path)}: {detail[:100]}")
    except KeyboardInterrupt:   # keep and print what was measured
        print(f"interrupted after {sum(counts.values())} of {len(paths)} files")
    clean = counts["translates"] + counts["too large"] + counts["refused"] + counts["other"]
    print(f"{len(paths)} files: {clean} check clean, {counts['unclean']} do not; of the clean, "
          f"{counts['translates'] + counts['too large']} translate to valid GDL-II ({counts['too large']} of them "
          f"too large to ground), {counts['refused']} {'is' if counts['refused'] == 1 else 'are'} refused, "
          f"{counts['other']} {'fails' if counts['other'] == 1 else 'fail'} otherwise")
    print(f"{'files':>5}  refusal")
    for what, where in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"{len(where):>5}  {what}")
        if a.files:
            for w in where:
                print(f"{'':>7}{w}")
    for line in others:
        print(f"not translated to a groundable program: {line}")
    print(f"total: {clock}")


if __name__ == "__main__":
    main()
