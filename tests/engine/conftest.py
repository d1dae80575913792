"""Engine fixtures: each registered game built from its bundled data."""

from __future__ import annotations

import pytest

from engine import registry
from engine.api import GameDef
from printkit.data.game import Game


@pytest.fixture(scope="session")
def engines(games: dict[str, Game]) -> dict[str, GameDef]:
    return {slug: registry.build(game) for slug, game in games.items()}  # each bundled game names its engine
