"""The engine's games by slug, each built from a loaded printkit Game."""

from __future__ import annotations

from collections.abc import Callable

from engine.api import GameDef
from printkit.data.game import Game

Builder = Callable[[Game], GameDef]


def _builders() -> dict[str, Builder]:
    from engine.games.battle_line import BattleLineGame
    from engine.games.soldier_battler import SoldierBattlerGame
    from engine.games.time_line import TimeLineGame
    from engine.games.time_line_battle import TimeLineBattleGame
    from engine.games.torah_timeline import TorahTimelineGame

    return {
        "battle-line": BattleLineGame,
        "soldier-battler": SoldierBattlerGame,
        "time-line": TimeLineGame,
        "time-line-battle": TimeLineBattleGame,
        "torah-timeline": TorahTimelineGame,
    }


def registered() -> list[str]:
    return sorted(_builders())


def build(game: Game, slug: str | None = None) -> GameDef:
    """The engine game for a loaded game; its slug (folder name) picks the rules, or slug when given."""
    builders = _builders()
    key = slug or game.slug
    if key not in builders:
        raise KeyError(f"no engine for {key!r} (engines: {', '.join(sorted(builders))})")
    return builders[key](game)
