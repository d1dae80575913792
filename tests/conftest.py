"""Shared fixtures: the bundled games, loaded once."""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit.data.game import Game
from printkit.data.loader import bundled_games, load_game

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def games() -> dict[str, Game]:
    return {folder.name: load_game(folder) for folder in bundled_games()}
