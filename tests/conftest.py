"""Shared fixtures: where the CardStock corpus and our games are."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
CORPUS = Path(os.environ.get("GGPBRIDGE_CORPUS", ROOT.parent / "shared" / "corpus" / "cardstock"))


def corpus_files(*subdirs: str, recursive: bool = True) -> list[Path]:
    """Game files under the corpus subdirectories (empty when the corpus is absent)."""
    out: list[Path] = []
    for sub in subdirs:
        base = CORPUS / sub
        pattern = "**/*" if recursive else "*"
        out += sorted(p for p in base.glob(pattern) if p.suffix in (".rcy", ".gdl", ".rkt"))
    return out


@pytest.fixture(scope="session")
def corpus() -> Path:
    """The corpus directory; CI must have it, a developer machine may not."""
    if not CORPUS.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"the CardStock corpus is missing at {CORPUS}")
        pytest.skip("CardStock corpus not found beside the checkout")
    return CORPUS
