"""The fields a layout can bind to, for each kind of card and for a deck's back."""

from __future__ import annotations

import re
from typing import Any

from printkit.data import conditions, enginecards, iconkeys, richtext
from printkit.data.cards import Card
from printkit.data.cardtypes import RECONSTRUCTED_NOT, FieldSpec
from printkit.data.game import DeckCards, Game
from printkit.data.model import Component

Fields = dict[str, Any]
VALUES = conditions.VALUES
# printed fields that show words from elsewhere than the card's own data: the deck's, the game's
_NOT_THE_CARDS = frozenset({"deck", "game", "credit", "accent", "art_icon", "kind"})


def source_key(field: str) -> str | None:
    """The card's own key a printed field shows (its name when they agree), or None when it shows other words."""
    if field.startswith("stat_"):  # stat_power: one of the card's stats
        return "stats"
    if field in _NOT_THE_CARDS or "." in field:  # era.power: a figure of the era's row in game.yaml
        return None
    return field


def _picture(game: Game, name: str | None) -> str:
    """A picture's path as a layout binds it: from the game's folder (checked by the loader), or nothing.

    Absolute, because the layout reads a relative path from its own folder: a game named on the command
    line as cards/x would otherwise have its pictures looked for in layouts/cards/x/.
    """
    return str((game.folder / name).absolute()) if name else ""


def accent(game: Game, deck: DeckCards, card: Card | None = None) -> str:
    """The colour a card is styled in: the colour of the row its kind's accent field names (its era, its
    colour, its side), else its deck's accent, else its deck's faction's colour, else its back's."""
    declared = game.kinds.types.get(card.kind) if card is not None else None
    if card is not None and declared is not None and declared.accent is not None:
        spec = declared.fields[declared.accent]
        row = game.row(spec.tables[0], card.values.get(declared.accent))
        if getattr(row, "colour", None):
            return str(row.colour)
    if deck.deck.accent:
        return deck.deck.accent
    faction = game.row("factions", deck.deck.faction)
    return str(faction.colour if faction else deck.deck.back.colour)


def art_icon(game: Game, card: Card, deck: DeckCards | None = None) -> str:
    """The icon a card pictures: the first of its names (data/iconkeys.py) that the game's icons: table has, else
    its deck's icon, else printkit's."""
    keys = iconkeys.card_keys(card, game.kinds, enginecards.of(game))
    fallback = (deck.deck.icon if deck is not None else None) or iconkeys.DEFAULT_ICON
    return iconkeys.choose(game.info.icons, keys, fallback) or fallback


def printed_value(game: Game, spec: FieldSpec, value: Any) -> str:
    """A declared field's value as a card prints it: a choice by its display name (a table's row by its name),
    a list as its items joined, a number in the field's format, an icon as {name} (drawn inline)."""
    if value is None:
        return ""
    if spec.type == "list":
        return ", ".join(printed_value(game, spec.item(), v) for v in value)
    if spec.type == "choice":
        if spec.tables:
            return game.row_name(spec.tables, value)
        return spec.choices().get(value, str(value))
    if spec.type in ("integer", "number") and spec.format:
        return format(value, spec.format)
    if spec.type == "yesno":
        return "yes" if value else "no"
    if spec.type == "icon":
        return "{" + str(value) + "}"
    if spec.type == "rich":  # its **bold** and *italic* read into marks the text fitter sets in those faces
        return richtext.marked(str(value))
    if spec.type == "stats":
        return "  ".join(f"{k.replace('_', ' ').title()} {v}" for k, v in value.items())
    return str(value)


def face_fields(game: Game, deck: DeckCards, card: Card) -> Fields:
    """Everything a face layout may print for this card, as text or numbers, and its values as its data has them."""
    info = game.info
    declared = game.kinds.types[card.kind]
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
        "copies": card.copies,
    }
    out["art_icon"] = "{" + art_icon(game, card, deck) + "}"
    # {hp_reconstructed} and the like: set where the card says its value is the edition's choice, so a
    # layout can mark it (when: hp_reconstructed); every value field has one, so a layout binds any of them
    for name in ("name", "copies", *declared.fields):
        if name not in RECONSTRUCTED_NOT:
            out[f"{name}_reconstructed"] = "reconstructed" if name in card.reconstructed else ""
    values: dict[str, Any] = {"id": card.id, "name": card.name, "kind": card.kind, "copies": card.copies}
    values |= {"flavour": card.flavour, "art": card.art or deck.deck.art, "art_credit": card.art_credit}
    words = enginecards.words(game, card)
    for key, spec in declared.fields.items():
        value = card.values.get(key)
        values[key] = value
        if spec.type == "engine":
            out[key] = "\n".join(words.get(key, []))
        elif spec.type == "art":
            out[key] = _picture(game, value)
        else:
            out[key] = printed_value(game, spec, value)
        if spec.type == "stats":  # each number by itself: {stats.power}, as a sheet's column names it, or {stat_power}
            out |= {f"stat_{k}": v for k, v in (value or {}).items()}
            out |= {f"{key}.{k}": v for k, v in (value or {}).items()}
        if len(spec.tables) == 1 and value is not None:  # {era.power}: a figure of the row the card names
            row = game.row(spec.tables[0], value)
            for attr, figure in (row.model_dump() if hasattr(row, "model_dump") else {}).items():
                if not isinstance(figure, dict | list):
                    out[f"{key}.{attr}"] = "" if figure is None else figure
                    values[f"{key}.{attr}"] = figure
    found = enginecards.of(game)
    if found is not None and card.parsed is not None:
        extra = found.printed(game, card)
        out |= extra
        values |= {k: v for k, v in extra.items() if k not in values}
    out[VALUES] = values
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
    faction = game.row("factions", comp.faction)
    if faction:
        return str(faction.colour)
    era = game.row("eras", comp.era)
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
    era = game.row("eras", comp.era)
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
    faction = game.row("factions", comp.faction)
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
