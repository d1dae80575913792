"""Shared fixtures: the bundled games, loaded once; printkit's cache in a folder of the test run's own."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from printkit.data.game import Game
from printkit.data.loader import bundled_games, load_game

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def games() -> dict[str, Game]:
    return {folder.name: load_game(folder) for folder in bundled_games()}


@pytest.fixture(scope="session", autouse=True)
def own_cache() -> Iterator[Path]:
    """Kept pictures and stored games go to a fresh folder, not the user's ~/.cache (commands run in subprocesses
    inherit it too)."""
    folder = Path(tempfile.mkdtemp(prefix="printkit-test-cache-"))
    before = os.environ.get("PRINTKIT_CACHE")
    os.environ["PRINTKIT_CACHE"] = str(folder)
    yield folder
    if before is None:
        os.environ.pop("PRINTKIT_CACHE", None)
    else:
        os.environ["PRINTKIT_CACHE"] = before
    shutil.rmtree(folder, ignore_errors=True)
