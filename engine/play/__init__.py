"""The rules language: a game's rules written in its play.yaml, played by printkit's interpreter (engine: play)."""

from __future__ import annotations

from engine.api import GameDef
from printkit.data.game import Game


def build(game: Game) -> GameDef:
    """The game's play.yaml read, checked and made ready to play; DataError naming each problem's place."""
    from engine.play.book import read
    from engine.play.state import PlayGame

    return PlayGame(game.slug, game.title, read(game))
