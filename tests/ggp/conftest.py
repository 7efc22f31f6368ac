"""Fixtures: player processes for the GGP tests."""
from __future__ import annotations

import pytest
from ggp_helpers import PlayerProcess


@pytest.fixture(scope="module")
def legal_player():
    """One `legal` player process shared by a test module."""
    player = PlayerProcess("legal")
    yield player
    player.stop()


@pytest.fixture
def fresh_player():
    """A `random` player process of its own."""
    player = PlayerProcess("random")
    yield player
    player.stop()
