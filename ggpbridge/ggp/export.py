"""Export a game in the GGP game repository layout: DIR/<key>/METADATA and DIR/<key>/<key>.kif.

METADATA is JSON with the fields ggp-base's repositories use (gameName,
rulesheet, roleNames, numRoles, version) plus `gdlVersion` (1 or 2) and
`source`, the file the description came from.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from ..gdl.ast import Func
from ..gdl.kif import parse_kif, print_kif
from ..translate import is_kif
from .manager import load_game
from .protocol import GgpError


def game_key(path: str | Path, gdl: int) -> str:
    """The repository key of a game file: its lower-cased stem, `_gdl1` added for a RECYCLE relaxation."""
    key = re.sub(r"[^a-z0-9_-]+", "_", Path(path).stem.lower()).strip("_") or "game"
    return key + "_gdl1" if gdl == 1 and not is_kif(path) else key


def export_game(path: str | Path, repo: str | Path, gdl: int | None = None, key: str | None = None,
                name: str | None = None) -> Path:
    """Write the game into the repository `repo`; returns the game's directory."""
    desc, version = load_game(path, gdl)
    key = key or game_key(path, version)
    if not re.fullmatch(r"[A-Za-z0-9_-]+", key):
        raise GgpError(f"a game key is letters, digits, '_' and '-', not {key!r}")
    text = print_kif(desc)
    if parse_kif(text, f"{key}.kif") != desc:  # never publish rules that read back differently
        raise GgpError(f"{path}: the printed rules do not read back as the same description")
    roles = [rule.head.args[0].name for rule in desc.rules
             if isinstance(rule.head, Func) and rule.head.name == "role" and not rule.body]
    metadata = {
        "gameName": name or Path(path).stem,
        "rulesheet": f"{key}.kif",
        "gdlVersion": version,
        "roleNames": roles,
        "numRoles": len(roles),
        "version": 0,
        "source": Path(path).name,
    }
    folder = Path(repo) / key
    folder.mkdir(parents=True, exist_ok=True)
    header = f"; {metadata['gameName']} ({'GDL-II' if version == 2 else 'GDL'}), exported by ggpbridge from {Path(path).name}\n"
    (folder / f"{key}.kif").write_text(header + text, encoding="utf-8")
    (folder / "METADATA").write_text(json.dumps(metadata, indent=2) + "\n", encoding="utf-8")
    return folder
