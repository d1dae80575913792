"""What the engine a game names says of its cards beyond their declared fields: the one seam from data to engine.

An engine reads some fields no layout could print as they are (an ability's structure, an effect's
kind and amount). Their form is the engine's: it declares, for each kind of card it plays, a typed
record the card must fit, and it words those fields as sentences from the game's `texts:` templates.
printkit's own code knows no game's kinds; it asks the engine here.
"""

from __future__ import annotations

import functools
import importlib.metadata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    from printkit.data.cards import Card
    from printkit.data.game import Game


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


GROUP = "printkit.engine_cards"  # the entry points that offer an engine's card view, by the engine's name


@functools.cache
def _offered() -> dict[str, importlib.metadata.EntryPoint]:
    return {point.name: point for point in importlib.metadata.entry_points(group=GROUP)}


@functools.cache
def view(engine: str | None) -> EngineCards | None:
    """The card view of the engine a game names; None when it names none, or one no installed package offers.

    printkit's own engines offer theirs through the same entry points as any installed package (pyproject.toml),
    so this stage finds them without importing the engine."""
    point = _offered().get(engine) if engine is not None else None
    if point is None:
        return None
    found = point.load()
    if not isinstance(found, EngineCards):
        raise TypeError(f"the {GROUP} entry point {engine!r} gives {type(found).__name__}, not EngineCards")
    return found


def words(game: Game, card: Card) -> dict[str, list[str]]:
    """The sentences of each engine field of a card, by field; empty when its engine words none."""
    found = view(game.info.engine)
    return found.words(game.info.texts, card) if found is not None and card.parsed is not None else {}
