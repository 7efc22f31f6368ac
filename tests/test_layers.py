"""The layering of the brief, checked on the source: cli on top; query, ggp and verification above
the translators and the simulator; front-ends and gdl below them; ir and machine at the ground.
Nothing imports upward, function-local imports included (they are how cycles hide)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# top-level module or package of ggpbridge -> its layer (higher may import lower or equal)
LAYER = {
    "ir": 0, "machine": 0, "errors": 0, "filekinds": 0, "nesting": 0, "textfiles": 0, "ir_json": 0, "ir_norm": 0, "tomlfile": 0,
    "recycle": 1, "gcardgame": 1, "gdl": 1, "frontends": 1, "search": 1,
    "sim": 2, "deckbuild": 2, "translators": 2, "translate": 2,
    "crosscheck": 3, "lockstep": 3, "conformance": 3, "query": 3, "ggp": 3, "sweep": 3, "sweep_logs": 3,
    "playouts": 3, "moves": 3, "solve": 3, "report": 3, "viewer": 3, "viewer_html": 3, "cluster": 3,
    "generate": 3, "folder_stats": 3, "evolve": 3,
    "cli": 4,
}


def _modules():
    for path in sorted((ROOT / "ggpbridge").rglob("*.py")):
        yield path, ("ggpbridge",) + path.relative_to(ROOT / "ggpbridge").with_suffix("").parts
    for path in sorted((ROOT / "translators").rglob("*.py")):
        yield path, ("ggpbridge", "translators") + path.relative_to(ROOT / "translators").with_suffix("").parts


def _imported(path: Path, dotted: tuple) -> set[str]:
    """The top-level ggpbridge parts a module imports, relative and absolute imports alike."""
    package = dotted[:-1]   # a package's __init__ and its modules resolve relative imports alike
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
                full = base + tuple((node.module or "").split(".")) if node.module else base
                names = [full + (alias.name,) for alias in node.names] if not node.module else [full]
            else:
                names = [tuple((node.module or "").split("."))]
        elif isinstance(node, ast.Import):
            names = [tuple(alias.name.split(".")) for alias in node.names]
        else:
            continue
        for name in names:
            if len(name) > 1 and name[0] == "ggpbridge":
                out.add(name[1])
    return out


def _layer_of(dotted: tuple) -> int | None:
    # None only for the package's own __init__; a part missing from LAYER fails the test below
    return None if dotted[1:] == ("__init__",) else LAYER.get(dotted[1], -1)


@pytest.mark.parametrize("path,dotted", list(_modules()), ids=lambda x: ".".join(x) if isinstance(x, tuple) else "")
def test_no_module_imports_upward(path, dotted):
    own = _layer_of(dotted)
    if own is None:
        return   # the package's own __init__
    assert dotted[1] in LAYER, f"{dotted[1]}: a new top-level part of ggpbridge needs its layer in LAYER"
    upward = sorted(t for t in _imported(path, dotted) if t in LAYER and LAYER[t] > own)
    assert not upward, f"{path.relative_to(ROOT)} (layer {own}) imports upward: {upward}"


def test_the_scan_sees_relative_and_function_local_imports(tmp_path):
    mod = tmp_path / "m.py"
    mod.write_text("def f():\n    from ..crosscheck import x\n    from .. import cli\n")
    assert _imported(mod, ("ggpbridge", "sim", "m")) == {"crosscheck", "cli"}
