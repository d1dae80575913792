"""What the engine a game names says of its cards beyond their declared fields: the one seam from data to engine.

An engine reads some fields no layout could print as they are (an ability's structure, an effect's
kind and amount). Their form is the engine's: it declares, for each kind of card it plays, a typed
record the card must fit, and it words those fields as sentences from the game's `texts:` templates.
printkit's own code knows no game's kinds; it asks the engine here.

Engines are found, never imported by this stage: printkit's own and an installed package's through the
printkit.engines entry points, a game's own from the module its game.yaml names (engine_file:), which
runs only where the project trusts that game's folder (printkit.toml's [engines] trusted, or --trust).
"""

from __future__ import annotations

import functools
import importlib.metadata
import sys
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

from printkit.core import files
from printkit.core.errors import DataError, Problem, safe

if TYPE_CHECKING:
    from printkit.core.project import Project
    from printkit.data.cards import Card
    from printkit.data.game import Game

GROUP = "printkit.engines"  # the entry points that offer an engine, by the name a game.yaml gives it
MAX_ENGINE_FILE = 2_000_000  # bytes of a game's own engine module: far past any engine printkit has


def _none(*_: Any) -> Any:
    return {}


def _no_keys(*_: Any) -> list[str]:
    return []


def _no_rows(*_: Any) -> list[tuple[str, Any]]:
    return []


@dataclass(frozen=True)
class EngineCards:
    """What one engine says of the cards it plays."""

    engine: str
    # kind -> the typed record each card of that kind must fit (its engine fields and the declared ones it reads)
    forms: Mapping[str, type[BaseModel]] = field(default_factory=dict)
    # texts, card -> each engine field's sentences ("Attack the Front enemy for 2."); texts are game.yaml's
    words: Callable[[Mapping[str, str], Card], dict[str, list[str]]] = _none
    # card -> the texts: keys its words need: a missing one is a data error at the card
    template_keys: Callable[[Card], list[str]] = _no_keys
    # card -> the names the game's icons: table is asked, most telling first, after the card's id
    icon_keys: Callable[[Card], list[str]] = _no_keys
    # game, card -> figures the engine's rules give the card, for layouts ({beats}, {damage})
    printed: Callable[[Game, Card], dict[str, Any]] = _none
    # game, card -> the same figures, labelled, as the booklet and the reference list them
    facts: Callable[[Game, Card], list[tuple[str, Any]]] = _no_rows


class Offered(Protocol):
    """An engine as this stage sees it (engine/plugin.py's Engine): a name, and what it says of its cards."""

    @property
    def name(self) -> str: ...
    @property
    def cards(self) -> EngineCards | None: ...


class Untrusted(DataError):
    """A game's own engine module, in a folder the project does not trust to run code."""

    topic = "someone-elses-folder"


_trusted_now: set[Path] = set()  # game folders this run's command line trusts (--trust)


def trust(folders: Iterable[Path]) -> None:
    """Trust the engines of these game folders for the rest of this run: what --trust says."""
    _trusted_now.update(folder.resolve() for folder in folders)


def trusted(folder: Path, project: Project) -> bool:
    """Whether the project trusts a game folder's own engine: printkit.toml's [engines] trusted names the folder
    (by its name, or its path from the project), or this run's command line trusts it."""
    here = folder.resolve()
    if here in _trusted_now:
        return True
    names = project.section("engines").get("trusted", [])
    if not isinstance(names, list):
        return False
    for name in names:
        if isinstance(name, str) and (name == folder.name or (project.root / name).resolve() == here):
            return True
    return False


@functools.cache
def _offered() -> dict[str, importlib.metadata.EntryPoint]:
    return {point.name: point for point in importlib.metadata.entry_points(group=GROUP)}


def installed() -> list[str]:
    """The names of the engines installed packages offer, printkit's own among them."""
    return sorted(_offered())


@functools.cache
def installed_engine(name: str) -> Offered | None:
    """The engine an installed package offers by this name, or None."""
    point = _offered().get(name)
    return _checked(point.load(), f"the {GROUP} entry point {name!r}") if point is not None else None


def _checked(found: Any, what: str) -> Offered:
    if not isinstance(getattr(found, "name", None), str) or not hasattr(found, "cards"):
        raise TypeError(f"{what} gives {type(found).__name__}, not an engine (engine.plugin.Engine)")
    return found


_modules: dict[Path, types.ModuleType] = {}  # a game's own engine, run once a process


def own_engine(folder: Path, file: str, within: tuple[Path, ...], where: Callable[[str], Problem]) -> Offered:
    """A game's own engine: its module, read from inside the game's folder and run (the caller checked trust).
    Anything wrong with it is one line, where(message): placed where game.yaml names the file."""
    path = folder / file
    key = path.resolve()
    module = _modules.get(key)
    if module is None:
        try:
            source = files.read(path, MAX_ENGINE_FILE, within, "Python module")
        except DataError as exc:
            raise DataError([where(f"{file}: {exc.problems[0].message}")]) from None
        name = f"printkit_game_engine_{abs(hash(key))}"
        module = types.ModuleType(name)
        module.__file__ = str(path)
        sys.modules[name] = module  # dataclasses and pickling look their module up by name
        try:
            exec(compile(source, str(path), "exec"), module.__dict__)  # only for a folder the project trusts
        except SyntaxError as exc:
            del sys.modules[name]
            raise DataError([where(f"{file}, line {exc.lineno}: {exc.msg}")]) from None
        except Exception as exc:  # the module's own code failed as it ran: its words, no traceback
            del sys.modules[name]
            raise DataError(
                [where(f"{file} stopped as it ran: {type(exc).__name__}: {safe(str(exc))[:200]}")]
            ) from None
        _modules[key] = module
    found = getattr(module, "ENGINE", None)
    if found is None:
        raise DataError([where(f"{file} defines no ENGINE = Engine(...) (engine.plugin.Engine)")])
    try:
        return _checked(found, f"{file}'s ENGINE")
    except TypeError as exc:
        raise DataError([where(str(exc))]) from None


def found_again(name: str, module: str) -> Offered:
    """An engine passed to another process, found there again: by the game's own module, run already in this
    process (a forked worker has it), else by the name an installed package offers it under."""
    engine = getattr(sys.modules.get(module), "ENGINE", None)
    if engine is not None and getattr(engine, "name", None) == name:
        return _checked(engine, f"{module}'s ENGINE")
    found = installed_engine(name)
    if found is None:
        raise LookupError(f"no engine {name!r} in this process")
    return found


def of(game: Game) -> EngineCards | None:
    """What the engine the game names says of its cards; None when it names none, or one not found."""
    return game.engine.cards if game.engine is not None else None


def words(game: Game, card: Card) -> dict[str, list[str]]:
    """The sentences of each engine field of a card, by field; empty when its engine words none."""
    found = of(game)
    return found.words(game.info.texts, card) if found is not None and card.parsed is not None else {}
