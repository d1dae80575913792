"""The fields a layout can bind to, for each kind of card and for a deck's back."""

from __future__ import annotations

from typing import Any

from .effect_text import effect_lines
from .game import DeckCards, Game
from .model import Character, PlainCard, Sage, Soldier, Tactics, Tanach, TimeCard, Troop

Fields = dict[str, Any]


def _by_id(rows: list[Any], ident: str | None) -> Any:
    return next((r for r in rows if r.id == ident), None)


def accent(game: Game, deck: DeckCards, card: Any | None = None) -> str:
    """The colour a card is styled in: its own colour, era or faction, else its deck's."""
    info = game.info
    if isinstance(card, Troop):
        return str(_by_id(info.colours, card.colour).colour)
    if isinstance(card, Sage):
        era = _by_id(info.eras, card.era)
        if era.colour:
            return str(era.colour)
    if isinstance(card, TimeCard):
        return str(_by_id(info.factions, card.faction).colour)
    faction = _by_id(info.factions, deck.deck.faction)
    return str(faction.colour if faction else deck.deck.back.colour)


def face_fields(game: Game, deck: DeckCards, card: Any) -> Fields:
    """Everything a face layout may print for this card, as text or numbers."""
    info = game.info
    texts = dict(info.texts)
    out: Fields = {
        "id": card.id,
        "name": card.name,
        "kind": card.kind,
        "deck": deck.deck.name,
        "game": info.title,
        "credit": info.credit,
        "accent": accent(game, deck, card),
        "flavour": card.flavour or "",
        "effect": "\n".join(effect_lines(card, texts)),
    }
    if isinstance(card, Character):
        out |= {"order": card.order, "health": card.health}
    elif isinstance(card, Soldier):
        weapon = _by_id(info.weapons, card.weapon)
        beaten_by = next((w for w in info.weapons if w.beats == weapon.id), None)
        out |= {
            "weapon": weapon.name,
            "weapon_icon": "{" + weapon.id + "}",
            "hp": card.hp,
            "beats": _by_id(info.weapons, weapon.beats).name if weapon.beats else "",
            "beaten_by": beaten_by.name if beaten_by else "",
            "ranged": "ranged" if weapon.ranged else "",
            "melee": "" if weapon.ranged else "melee",
            "damage": game.rule("damage"),
            "advantage_damage": game.rule("advantage_damage"),
        }
    elif isinstance(card, Sage):
        era = _by_id(info.eras, card.era)
        out |= {
            "era": era.name,
            "power": era.power,
            "era_number": era.number or "",
            "hebrew": card.hebrew,
            "years": card.years,
        }
    elif isinstance(card, Tanach):
        lines = effect_lines(card, texts)
        out |= {"subtitle": card.subtitle or "", "effect": lines[0], "requires": "\n".join(lines[1:])}
    elif isinstance(card, Troop):
        colour = _by_id(info.colours, card.colour)
        name = next((v.name for v in info.value_names if v.value == card.value), "")
        out |= {"value": card.value, "value_name": name, "colour_name": colour.name}
    elif isinstance(card, Tactics):
        out |= {"group": card.group.capitalize()}
    elif isinstance(card, TimeCard):
        faction = _by_id(info.factions, card.faction)
        units = {c.id: c.name for c in info.components if c.unit}
        names = [units.get(u) or info.user_groups.get(u, u) for u in card.users]
        out |= {"faction": faction.name, "users": ", ".join(names)}
    elif isinstance(card, PlainCard):
        out |= {
            "text": card.text or "",
            **{f"stat_{k}": v for k, v in card.stats.items()},
            "stats": "  ".join(f"{k.replace('_', ' ').title()} {v}" for k, v in card.stats.items()),
        }
    return out


def back_fields(game: Game, deck: DeckCards) -> Fields:
    back = deck.deck.back
    return {
        "title": back.title,
        "subtitle": back.subtitle or "",
        "deck": deck.deck.name,
        "game": game.title,
        "credit": game.info.credit,
        "accent": back.colour,
    }
