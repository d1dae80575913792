"""The engine's games by name, each built from a loaded printkit Game that names it in its game.yaml."""

from __future__ import annotations

import difflib
from collections.abc import Callable

from engine import needs
from engine.api import GameDef
from printkit.core.errors import DataError, PrintkitError, safe
from printkit.data.game import Game, reading_rules

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


class EngineMismatch(PrintkitError):
    """A game names an engine whose rules its data does not fit."""


def registered() -> list[str]:
    return sorted(_builders())


def build(game: Game) -> GameDef:
    """The engine game for a loaded game: the engine its game.yaml names, built from its data.

    KeyError when the game names no engine, or one printkit does not have.
    """
    builders = _builders()
    name = game.info.engine
    if name is None:
        raise KeyError(f"{game.slug}: no engine plays this game (game.yaml names none)")
    if name not in builders:
        raise KeyError(f"{game.slug}: no engine {name!r} (engines: {', '.join(sorted(builders))})")
    found = needs.problems(game, needs.DECLARED[name]) if name in needs.DECLARED else []
    if found:  # said in validate's words: where in the data, what the engine needs
        more = f" (and {len(found) - 1} more: printkit validate lists them)" if len(found) > 1 else ""
        raise EngineMismatch(f"{game.slug}: the {name} engine cannot play this game's data: {found[0]}{more}")
    try:
        return builders[name](game)
    except (KeyError, ValueError, TypeError) as exc:  # the data lacks or misshapes what these rules need
        reason = exc.args[0] if exc.args else type(exc).__name__
        raise EngineMismatch(f"{game.slug}: the {name} engine cannot play this game's data: {reason}") from None


def data_problems(game: Game) -> list[str]:
    """What the engine a game names needs from its data and does not find, each one file:line:column line.

    Empty when the game names no engine, or its engine builds from the data: validate reports what
    `simulate` and `check` would otherwise meet only when they start.
    """
    name = game.info.engine
    if name is None:
        return []
    at = game.place("engine", "engine")
    builders = _builders()
    if name not in builders:
        hint = difflib.get_close_matches(name, builders, n=1)
        guess = f"; did you mean {hint[0]!r}?" if hint else f" (engines: {', '.join(sorted(builders))})"
        return [f"{at}: engine: no engine named {safe(repr(name))}{guess}"]
    declared = needs.DECLARED.get(name)
    if declared is not None and (found := needs.problems(game, declared)):
        return found
    try:
        builders[name](game)
    except DataError as exc:  # a rule option or a value the rules read, missing: already placed
        return [f"{line} (the {name} engine needs it)" for line in exc.lines()]
    except (KeyError, ValueError, TypeError) as exc:
        reason = exc.args[0] if exc.args else type(exc).__name__
        return [f"{at}: the {name} engine cannot play this data: {safe(str(reason))}"]
    except Exception as exc:  # data shaped as no engine foresaw: still one line, naming what broke
        return [f"{at}: the {name} engine cannot play this data: {type(exc).__name__}: {safe(str(exc))}"]
    return []


def unread_options(game: Game) -> str | None:
    """One line naming the rule options the game's engine never reads, so changing them changes no simulated game;
    None when it reads them all (or cannot build: data_problems says why)."""
    name = game.info.engine
    builders = _builders()
    if name is None or name not in builders:
        return None
    if name in needs.DECLARED and needs.problems(game, needs.DECLARED[name]):
        return None  # data_problems says what the engine lacks
    with reading_rules() as read:
        try:
            builders[name](game)
        except Exception:  # reported by data_problems
            return None
    # an option the engine declares is checked against the values it plays, so it is not played "whatever its value"
    declared = needs.DECLARED[name].assumptions() if name in needs.DECLARED else set()
    unread = [option.id for option in game.info.rules if option.id not in read and option.id not in declared]
    if not unread:
        return None
    shown = ", ".join(unread)
    return (
        f"{game.place('rule', unread[0])}: the {name} engine reads {len(game.info.rules) - len(unread)} of the "
        f"{len(game.info.rules)} rule options and plays the other {len(unread)} as its code does, whatever their "
        f"values: {shown}"
    )
