"""The names a game's `icons:` table is asked for a card or a piece, most specific first."""

from __future__ import annotations

from typing import Any

from printkit.data.model import Attack, Character, Component, Sage, Tactics, Tanach, TimeCard

DEFAULT_ICON = "star"  # the picture of a card the table says nothing about


def card_keys(card: Any) -> list[str]:
    """The card's id; then each of its effects, the most telling first, as kind-qualifier before kind alone;
    then its era or group; then its kind.

    A Character's later abilities say more about it than its attack, so they come first, and an
    attack is asked as kind-target ("attack-rear"). A Time Line card's effect is asked with each
    unit type that may play it and its faction ("force-hero", "force-teraxian").
    """
    keys = [card.id]
    if isinstance(card, Character):
        for ability in reversed(card.ability):
            keys += [f"attack-{ability.target}", "attack"] if isinstance(ability, Attack) else [ability.kind]
    elif isinstance(card, TimeCard):
        for effect in card.effects:
            keys += [f"{effect.kind}-{who}" for who in [*card.users, card.faction]] + [effect.kind]
    elif isinstance(card, (Tanach, Tactics)):
        keys.append(card.effect.kind)
    if isinstance(card, Sage):
        keys.append(card.era)
    elif isinstance(card, Tactics):
        keys.append(card.group)
    keys.append(card.kind)
    return keys


def component_keys(comp: Component) -> list[str]:
    """A counter, token or marker: its id, then its era (a period troop shows its era's icon), then its kind."""
    return [comp.id, *([comp.era] if comp.era else []), comp.kind]


def choose(icons: dict[str, str], keys: list[str], default: str | None = DEFAULT_ICON) -> str | None:
    """The icon of the first key the table names, else default."""
    return next((icons[k] for k in keys if k in icons), default)
