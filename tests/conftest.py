"""Shared fixtures: the project folder and the bundled games, loaded once."""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit.game import Game
from printkit.loader import load_games

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def games() -> dict[str, Game]:
    return {g.slug: g for g in load_games([], ROOT)}
