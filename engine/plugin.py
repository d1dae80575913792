"""An engine as printkit finds it: its name, how it builds a game from the data, what it needs and says of its cards.

printkit's own five engines, an installed package's (the printkit.engines entry points) and a game's own
(a module in its folder, run only where the project trusts it) are all one of these. A game's module
defines ENGINE = Engine(...); a package points an entry point at one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.api import GameDef
from engine.needs import Needs
from printkit.data import enginecards
from printkit.data.enginecards import EngineCards
from printkit.data.game import Game


@dataclass(frozen=True)
class Engine:
    """An engine that plays games of some kind."""

    name: str  # what a game.yaml's engine: names
    build: Callable[[Game], GameDef]  # the game from its loaded data; KeyError, ValueError or TypeError when it cannot
    needs: Needs | None = None  # what validate holds the game's data to before building it
    cards: EngineCards | None = None  # the form of the fields only it reads, their words, icons and figures

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        """A worker process finds the engine again by its name and module (its checks are closures, which do not
        pickle): an installed one by its entry point, a game's own by the module already run for it."""
        return enginecards.found_again, (self.name, self.build.__module__)
