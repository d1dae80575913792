"""The fields a layout can bind to, for each kind of card and for a deck's back."""

from __future__ import annotations

import re
from typing import Any

from printkit.data import iconkeys
from printkit.data.effect_text import effect_lines
from printkit.data.game import DeckCards, Game
from printkit.data.model import (
    RECONSTRUCTED_NOT,
    Character,
    Component,
    PlainCard,
    Sage,
    Soldier,
    Tactics,
    Tanach,
    TimeCard,
    Troop,
)

Fields = dict[str, Any]

# The key of the card's (or the deck's back's) own data that each printed field shows, where the two
# names differ: a drawing's error about a field's value is placed at that key's value (Target.value_at).
# None: words written elsewhere, such as the weapon's name in game.yaml that a card's weapon: id names.
SOURCE_KEYS: dict[str, str | None] = {
    "effect": "effects",
    "requires": "effects",
    "weapon": None,
    "weapon_icon": None,
    "beats": None,
    "beaten_by": None,
    "era": None,
    "power": None,
    "era_number": None,
    "faction": None,
    "users": None,
    "value_name": None,
    "colour_name": None,
    "accent": None,
    "art_icon": None,
}


def source_key(field: str) -> str | None:
    """The card's own key a printed field shows (its name when they agree), or None when it shows other words."""
    if field.startswith("stat_"):  # stat_power: one of the card's stats
        return "stats"
    return SOURCE_KEYS.get(field, field)


def _by_id(rows: list[Any], ident: str | None) -> Any:
    return next((r for r in rows if r.id == ident), None)


def _picture(game: Game, name: str | None) -> str:
    """A picture's path as a layout binds it: from the game's folder (checked by the loader), or nothing.

    Absolute, because the layout reads a relative path from its own folder: a game named on the command
    line as cards/x would otherwise have its pictures looked for in layouts/cards/x/.
    """
    return str((game.folder / name).absolute()) if name else ""


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


def art_icon(game: Game, card: Any) -> str:
    """The icon a card pictures: the first of its names (data/iconkeys.py) that the game's icons: table has."""
    return iconkeys.choose(game.info.icons, iconkeys.card_keys(card)) or iconkeys.DEFAULT_ICON


def face_fields(game: Game, deck: DeckCards, card: Any) -> Fields:
    """Everything a face layout may print for this card, as text or numbers."""
    info = game.info
    texts = dict(info.texts)
    out: Fields = {
        "id": card.id,
        "name": card.name,
        "kind": card.kind,
        "deck": deck.deck.name,
        "game": game.printed_title,
        "credit": info.credit,
        "accent": accent(game, deck, card),
        "flavour": card.flavour or "",
        "art": _picture(game, card.art or deck.deck.art),
        "art_credit": card.art_credit or "",
        "effect": "\n".join(effect_lines(card, texts)),
    }
    out["art_icon"] = "{" + art_icon(game, card) + "}"
    # {hp_reconstructed} and the like: set where the card says its value is the edition's choice, so a
    # layout can mark it (when: hp_reconstructed); every value field has one, so a layout binds any of them
    for name in set(type(card).model_fields) - RECONSTRUCTED_NOT:
        out[f"{name}_reconstructed"] = "reconstructed" if name in card.reconstructed else ""
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
        "art": _picture(game, back.art),
        "title": back.title,
        "subtitle": back.subtitle or "",
        "deck": deck.deck.name,
        "game": game.printed_title,
        "credit": game.info.credit,
        "byline": game.info.byline or "",
        "icon": "{" + back.icon + "}" if back.icon else "",
        "accent": back.colour,
    }


def _component_accent(game: Game, comp: Component) -> str:
    if comp.colour:
        return str(comp.colour)
    faction = _by_id(game.info.factions, comp.faction)
    if faction:
        return str(faction.colour)
    era = _by_id(game.info.eras, comp.era)
    if era and era.colour:
        return str(era.colour)
    return str(game.decks[0].deck.back.colour)


def component_fields(game: Game, comp: Component) -> Fields:
    """What a counter, token or marker face (and reverse) may print.

    A unit counter has a title (its name), its icon and its figures, worded by the game's texts
    counter.unit_stats ({force}, {move}, {start}); a counter of an era its title counter.era_title
    ({number}, {name}) and figures counter.era_stats ({force}); a token its value as a large label;
    anything else its name as plain text. icon is the piece's icon from the game's icons: table;
    title_icon and plain_icon split it by the kind of face, and plain_alone is the name with no icon.
    """
    era = _by_id(game.info.eras, comp.era)
    texts = game.info.texts
    title, label, stats = "", "", ""
    if comp.unit:
        unit = comp.unit
        title = comp.name
        figures: dict[str, Any] = {"force": unit.force, "move": unit.move, "start": unit.start}
        stats = _fill(texts.get("counter.unit_stats", "{force}-{move}"), figures)
    elif era is not None:
        figures = {"number": era.number or "", "name": era.name, "force": era.force}
        title = _fill(texts.get("counter.era_title", "{number}"), figures)
        stats = _fill(texts.get("counter.era_stats", "{force}"), figures) if era.force is not None else ""
    elif comp.value is not None:
        label = str(comp.value)
    chosen = iconkeys.choose(game.info.icons, iconkeys.component_keys(comp), None)
    icon = "{" + chosen + "}" if chosen else ""
    plain = "" if title or label else comp.name
    faction = _by_id(game.info.factions, comp.faction)
    return {
        "id": comp.id,
        "name": comp.name,
        "title": title,
        "label": label,
        "stats": stats,
        "code": comp.unit.code if comp.unit else "",
        "icon": icon,
        "title_icon": icon if title else "",
        "plain_icon": icon if plain else "",
        "game": game.printed_title,
        "faction": faction.name if faction else "",
        "era": era.name if era else "",
        "reverse": comp.reverse or "",
        "accent": _component_accent(game, comp),
        "credit": game.info.credit,
        "plain": plain,
        "plain_alone": plain if not icon else "",
        "plain_named": plain if icon else "",
    }


def _fill(template: str, values: dict[str, Any]) -> str:
    return re.sub(r"\{([a-z_]+)\}", lambda m: str(values.get(m.group(1), m.group(0))), template)


def aid_fields(game: Game, comp: Component) -> Fields:
    """A player-aid card: the game's phases, numbered, in order."""
    steps = "\n".join(f"{i}. {p.name}: {game.phrase(p.summary)}" for i, p in enumerate(game.info.phases, start=1))
    faction = game.info.factions[0].colour if game.info.factions else game.decks[0].deck.back.colour
    return {
        "name": comp.name,
        "steps": steps,
        "game": game.printed_title,
        "credit": game.info.credit,
        "accent": faction,
    }
