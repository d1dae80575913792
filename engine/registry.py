"""The engine a game names, found and built from the loaded game: printkit's own, an installed package's, its own.

The loader finds the engine (printkit/data/enginecards.py: the printkit.engines entry points, or the game's
own module where the project trusts its folder) and keeps it on the game; here it is built, its needs
checked first.
"""

from __future__ import annotations

import difflib

from engine import needs
from engine.api import GameDef
from engine.plugin import Engine
from printkit.core.errors import DataError, PrintkitError, safe
from printkit.data import enginecards
from printkit.data.game import Game, reading_rules


class EngineMismatch(PrintkitError):
    """A game names an engine whose rules its data does not fit."""


def registered() -> list[str]:
    """The names of the engines installed: printkit's own, and those installed packages offer."""
    return enginecards.installed()


def _engine(game: Game) -> Engine | None:
    found = game.engine
    return found if isinstance(found, Engine) else None


# the games built last, each with the rule options its build read: one validate asks for a game's engine game to
# check its data, its rule options and its worked examples (each build of 5,400 Soldier cards took seconds), and
# a Game is frozen, so the same one builds the same engine game
_BUILT: list[tuple[Game, GameDef, frozenset[str]]] = []
KEPT = 4


def _built(game: Game, engine: Engine, fresh: bool = False) -> tuple[GameDef, frozenset[str]]:
    """engine's game for game, built once while the same Game is asked for again, and the rule options it read.
    fresh: built again all the same (and kept), as build() gives it: a game to play, whatever was built before."""
    for index, (held, built, read) in enumerate(_BUILT):
        if held is game and not fresh:
            _BUILT.insert(0, _BUILT.pop(index))  # the most recently asked for is kept longest
            return built, read
    with reading_rules() as reading:
        built = engine.build(game)
    if game.info.expert:
        built.expert = game.info.expert
    _BUILT[:] = [entry for entry in _BUILT if entry[0] is not game]
    _BUILT.insert(0, (game, built, frozenset(reading)))
    del _BUILT[KEPT:]
    return built, frozenset(reading)


def build(game: Game, again: bool = True) -> GameDef:
    """The engine game for a loaded game: the engine its game.yaml names, built from its data; again=False: the one
    built last for this same Game, where there is one (an engine game holds no play of its own: replays share it).

    KeyError when the game names no engine, or one printkit does not find.
    """
    name = game.info.engine
    if name is None:
        raise KeyError(f"{game.slug}: no engine plays this game (game.yaml names none)")
    engine = _engine(game)
    if engine is None:
        raise KeyError(f"{game.slug}: no engine {name!r} (engines: {', '.join(registered())})")
    found = needs.problems(game, engine.needs) if engine.needs is not None else []
    if found:  # said in validate's words: where in the data, what the engine needs
        more = f" (and {len(found) - 1} more: printkit validate lists them)" if len(found) > 1 else ""
        raise EngineMismatch(f"{game.slug}: the {name} engine cannot play this game's data: {found[0]}{more}")
    try:
        return _built(game, engine, fresh=again)[0]
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
    engine = _engine(game)
    if engine is None:
        known = registered()
        hint = difflib.get_close_matches(name, known, n=1)
        guess = f"; did you mean {hint[0]!r}?" if hint else f" (engines: {', '.join(known)})"
        return [f"{at}: engine: no engine named {safe(repr(name))}{guess}"]
    if engine.needs is not None and (found := needs.problems(game, engine.needs)):
        return found
    try:
        _built(game, engine)
    except DataError as exc:  # a rule option or a value the rules read, missing: already placed
        if getattr(exc, "in_rules_file", False):  # a problem of the engine's own rules file (play.yaml): as it is
            return exc.lines()
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
    engine = _engine(game)
    if name is None or engine is None:
        return None
    if engine.needs is not None and needs.problems(game, engine.needs):
        return None  # data_problems says what the engine lacks
    try:
        _, read = _built(game, engine)
    except Exception:  # reported by data_problems
        return None
    # an option the engine declares is checked against the values it plays, so it is not played "whatever its value"
    declared = engine.needs.assumptions() if engine.needs is not None else set()
    unread = [option.id for option in game.info.rules if option.id not in read and option.id not in declared]
    if not unread:
        return None
    shown = ", ".join(unread)
    return (
        f"{game.place('rule', unread[0])}: the {name} engine reads {len(game.info.rules) - len(unread)} of the "
        f"{len(game.info.rules)} rule options and plays the other {len(unread)} as its code does, whatever their "
        f"values: {shown}"
    )
