"""The setuptools configuration ships every module and data file of the checkout.

An editable install finds modules in the checkout whatever pyproject lists, so a
package missing from the list only breaks a regular install: this test catches it.
"""
from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAPPED = {"ggpbridge": "ggpbridge", "translators": "ggpbridge.translators",
          "asp": "ggpbridge.asp", "games": "ggpbridge.games"}


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def _shipped_files(top: str) -> dict[str, list[Path]]:
    """Installed package name -> the files it holds in the checkout (no caches)."""
    out: dict[str, list[Path]] = {}
    for path in sorted((ROOT / top).rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            rel = path.parent.relative_to(ROOT / top)
            name = ".".join([MAPPED[top], *rel.parts])
            out.setdefault(name, []).append(path)
    return out


def test_every_directory_with_code_or_data_is_a_listed_package():
    listed = set(_config()["packages"])
    present = set()
    for top in MAPPED:
        present |= set(_shipped_files(top))
    assert present - listed == set(), "directories that a regular install would leave out"
    assert listed - present == set(), "packages listed in pyproject that do not exist"


def test_package_dirs_map_the_top_level_folders():
    dirs = _config()["package-dir"]
    assert dirs == {MAPPED[top]: top for top in ("translators", "games", "asp")}


def test_every_data_file_matches_a_package_data_pattern():
    data = _config()["package-data"]
    for top in MAPPED:
        for package, paths in _shipped_files(top).items():
            for path in paths:
                if path.suffix == ".py":
                    continue
                patterns = data.get(package, [])
                assert any(fnmatch.fnmatch(path.name, p) for p in patterns), \
                    f"{path.relative_to(ROOT)} is not shipped: no package-data pattern of {package} matches"
