"""The names a game's `icons:` table is asked for a card or a piece, most specific first."""

from __future__ import annotations

from typing import Any

from printkit.data.cards import Card, Kinds
from printkit.data.enginecards import EngineCards
from printkit.data.model import Component

DEFAULT_ICON = "star"  # the picture of a card the table says nothing about


def card_keys(card: Card, kinds: Kinds, engine: EngineCards | None = None) -> list[str]:
    """The card's id; then what its engine reads it to do, the most telling first (an effect's kind, alone or with
    who plays it); then the values of its choice fields, in the order its kind declares them; then its kind."""
    keys = [card.id]
    if engine is not None and card.parsed is not None:
        keys += engine.icon_keys(card)
    declared = kinds.types.get(card.kind)
    for key, spec in declared.fields.items() if declared else ():
        kind = spec.item_type if spec.type == "list" else spec.type
        value = card.values.get(key)
        if kind == "choice" and value is not None:
            keys += [str(v) for v in value] if isinstance(value, list) else [str(value)]
    keys.append(card.kind)
    return keys


def component_keys(comp: Component) -> list[str]:
    """A counter, token or marker: its id, then its era (a period troop shows its era's icon), then its kind."""
    return [comp.id, *([comp.era] if comp.era else []), comp.kind]


def choose(icons: dict[str, Any], keys: list[str], default: str | None = DEFAULT_ICON) -> str | None:
    """The icon of the first key the table names, else default."""
    return next((icons[k] for k in keys if k in icons), default)
