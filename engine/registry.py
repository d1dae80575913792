"""The engine's games by slug, each built from a loaded printkit Game."""

from __future__ import annotations

from collections.abc import Callable

from printkit.game import Game

from .api import GameDef

Builder = Callable[[Game], GameDef]


def _builders() -> dict[str, Builder]:
    from .games.battle_line import BattleLineGame
    from .games.soldier_battler import SoldierBattlerGame
    from .games.time_line import TimeLineGame
    from .games.time_line_battle import TimeLineBattleGame
    from .games.torah_timeline import TorahTimelineGame

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
