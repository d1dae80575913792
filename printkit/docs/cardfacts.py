"""What the reference site says of each card: its fields in the game's words, what it is filtered by, where the
rules mention it."""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass, field
from typing import Any

from printkit.data.effect_text import effect_lines
from printkit.data.game import DeckCards, Game
from printkit.data.model import (
    RECONSTRUCTED_MARK,
    Character,
    PlainCard,
    Sage,
    Soldier,
    Tactics,
    Tanach,
    TimeCard,
    Troop,
)
from printkit.draw import cardview
from printkit.draw.cardrender import bind
from printkit.draw.layout import FIELD, Layout


@dataclass(frozen=True)
class Facet:
    """A way to narrow the gallery: its label and the values cards have, in the order the game lists them."""

    key: str
    label: str
    values: tuple[str, ...]
    swatches: tuple[str, ...] = ()  # a colour for each value, where the game gives one (Troop colours, eras, decks)


@dataclass(frozen=True)
class Section:
    """A part of the rules as the site shows it: its anchor, title and plain text."""

    anchor: str
    title: str
    text: str


@dataclass
class CardFacts:
    """One card as the site lists it: once, however many decks hold it."""

    card: Any
    decks: list[DeckCards]
    kind: str  # the kind in the game's words: Troop, Sage
    facets: dict[str, list[str]] = field(default_factory=dict)
    numbers: dict[str, int] = field(default_factory=dict)  # the stats the gallery filters by range
    fields: list[tuple[str, str]] = field(default_factory=list)  # every field, labelled, as the detail view lists
    rules: list[str] = field(default_factory=list)  # its rules text, a line a rule
    terms: list[list[str]] = field(default_factory=list)  # what the rules may call it, most particular first
    brief: str = ""  # the line under its name in the gallery: what tells it from its neighbours


# the numbers a card has, labelled as the rules name them, in the order a filter lists them
NUMBER_LABELS = {"value": "Value", "power": "Power", "order": "Order", "health": "Health", "hp": "HP"}


def kind_name(game: Game, kind: str) -> str:
    """A kind of card as the game's data names it (kind_names), else its id spelled as a word."""
    named = next((name for key, name in game.info.kind_names.items() if key == kind), None)
    return named or kind.replace("_", " ").capitalize()


def _copies(game: Game, card: Any, decks: list[DeckCards]) -> str:
    counts = [(d.deck.name, n) for d in decks for c, n in d.entries if c.id == card.id]
    if len({n for _, n in counts}) == 1 and len(counts) > 1:
        return f"{counts[0][1]} in each deck"
    return ", ".join(f"{n} in the {name}" if len(counts) > 1 else str(n) for name, n in counts)


_ICON = re.compile(r"\{[a-z_]+\}")  # an icon named inline in card text: drawn on the card, left out in a sentence


def _plain(text: str) -> str:
    return " ".join(_ICON.sub("", text).split())


def printed_rules(layout: Layout, fields: dict[str, Any]) -> list[str]:
    """The sentences a layout itself prints on the card (Soldier Battler's melee rule), its fields filled in:
    the text regions drawn for these fields whose own words make at least three."""
    out = []
    for name, region in layout.regions:
        if region.type != "text" or not region.text or not region.drawn_for(fields):
            continue
        if len(re.findall(r"[A-Za-z]{2,}", FIELD.sub("", region.text))) >= 3:
            where = functools.partial(str.format, "layout {}, region {}", layout.name, name)
            out.append(_plain(bind(region.text, fields, where)))
    return out


def facts(game: Game, card: Any, decks: list[DeckCards], layout: Layout | None = None) -> CardFacts:
    """The site's facts of one card, from the same fields the card face prints (and layout, its face's layout)."""
    info = game.info
    texts = dict(info.texts)
    printed = cardview.face_fields(game, decks[0], card)
    out = CardFacts(card, decks, kind_name(game, card.kind))
    out.facets["deck"] = [d.deck.name for d in decks]
    out.facets["kind"] = [out.kind]
    rows: list[tuple[str, Any]] = [("Type", out.kind)]

    def mark(name: str, value: Any) -> str:  # a value the edition chose, marked as the booklet's tables do
        return f"{value} {RECONSTRUCTED_MARK} reconstructed" if name in card.reconstructed else str(value)

    words: list[str] = []  # the card's own words the rules may use for it, beside its name
    lines = effect_lines(card, texts)
    if isinstance(card, Troop):
        out.facets["colour"] = [printed["colour_name"]]
        named = f" ({printed['value_name']})" if printed["value_name"] else ""
        rows += [("Colour", printed["colour_name"]), ("Value", f"{card.value}{named}")]
        words = [printed["value_name"]] if printed["value_name"] else []
        out.numbers["value"] = card.value
        out.brief = printed["value_name"] or f"{printed['colour_name']} {card.value}"
    elif isinstance(card, Tactics):
        out.facets["group"] = [printed["group"]]
        rows.append(("Tactics", printed["group"]))
        words = [printed["group"]]
        out.brief = f"{printed['group']} · {out.kind}"
    elif isinstance(card, Sage):
        out.facets["era"] = [printed["era"]]
        rows += [("Hebrew", mark("hebrew", card.hebrew)), ("Years", mark("years", card.years)), ("Era", printed["era"])]
        if printed["power"] is not None:
            rows.append(("Power", printed["power"]))
            out.numbers["power"] = printed["power"]
        words = [printed["era"]]
        out.brief = f"{printed['era']} · {card.years}"
    elif isinstance(card, Tanach):
        if card.subtitle:
            rows.append(("Subtitle", card.subtitle))
        lines = [lines[0], *(f"Can be played: {line}" for line in lines[1:])]
        out.brief = card.subtitle or out.kind
    elif isinstance(card, Soldier):
        out.facets["weapon"] = [printed["weapon"]]
        rows += [("Weapon", printed["weapon"]), ("HP", mark("hp", card.hp))]
        rows += [("Beats", printed["beats"])] if printed["beats"] else []
        rows += [("Beaten by", printed["beaten_by"])] if printed["beaten_by"] else []
        rows += [("Fights", "at range" if printed["ranged"] else "in melee")]
        rows += [("Damage", printed["damage"]), ("With advantage", printed["advantage_damage"])]
        out.numbers["hp"] = card.hp
        words = [printed["weapon"]]
        out.brief = f"{printed['weapon']} · {card.hp} HP"
    elif isinstance(card, Character):
        rows += [("Order", mark("order", card.order)), ("Health", mark("health", card.health))]
        out.numbers |= {"order": card.order, "health": card.health}
        out.brief = f"Order {card.order} · Health {card.health}"
    elif isinstance(card, TimeCard):
        out.facets["users"] = [u.strip() for u in printed["users"].split(",")]
        rows += [("Side", printed["faction"]), ("Used by", printed["users"])]
        words = [printed["faction"]]
        out.brief = _plain(lines[0]) if lines else printed["users"]  # what it does tells one from another
    elif isinstance(card, PlainCard):
        rows += [(name.replace("_", " ").capitalize(), value) for name, value in card.stats.items()]
        out.numbers |= dict(card.stats)
        lines = [card.text] if card.text else []
        out.brief = "  ".join(f"{k.replace('_', ' ').capitalize()} {v}" for k, v in card.stats.items()) or out.kind
    rows += [("Deck" if len(decks) == 1 else "Decks", ", ".join(d.deck.name for d in decks))]
    rows += [("Copies", mark("copies", _copies(game, card, decks)))]
    if card.art_credit:
        rows.append(("Art", card.art_credit))
    rows.append(("Card id", card.id))
    out.fields = [(label, _plain(str(value))) for label, value in rows]
    if layout is not None:
        lines += printed_rules(layout, printed)
    out.rules = list(dict.fromkeys(_plain(line) for line in lines if _plain(line)))
    out.terms = [[card.name], [w for w in words if w]]
    return out


# the facets the gallery offers, with their labels, in this order; a game shows those its cards have
FACETS = (
    ("deck", "Deck"),
    ("kind", "Type"),
    ("colour", "Colour"),
    ("group", "Tactics"),
    ("era", "Era"),
    ("weapon", "Weapon"),
    ("users", "Used by"),
)


def facets(game: Game, cards: list[CardFacts]) -> list[Facet]:
    """The facets worth offering: those where the game's cards differ, their values in the game's own order."""
    order = (
        [d.deck.name for d in game.decks]
        + [c.name for c in game.info.colours]
        + [e.name for e in game.info.eras]
        + [w.name for w in game.info.weapons]
    )
    rank = {name: i for i, name in enumerate(order)}
    colours = {
        "deck": {d.deck.name: d.deck.back.colour for d in game.decks},
        "colour": {c.name: c.colour for c in game.info.colours},
        "era": {e.name: e.colour or "" for e in game.info.eras},
    }
    out = []
    kept: list[list[tuple[str, ...]]] = []  # how each facet offered so far splits the cards
    for key, label in FACETS:
        seen: dict[str, None] = {}
        for card in cards:
            seen |= dict.fromkeys(card.facets.get(key, []))
        values = sorted(seen, key=lambda v: (rank.get(v, len(rank)), list(seen).index(v)))
        every_card = all(key in c.facets for c in cards)
        split = [tuple(c.facets.get(key, [])) for c in cards]
        if any(_same_split(split, other) for other in kept):
            continue  # Troop deck and Troop, Gold deck and Gold player: one way to ask is enough
        if len(values) > 1 or (values and not every_card):
            swatches = tuple(colours.get(key, {}).get(v, "") for v in values)
            out.append(Facet(key, label, tuple(values), swatches if any(swatches) else ()))
            kept.append(split)
    return out


def _same_split(a: list[tuple[str, ...]], b: list[tuple[str, ...]]) -> bool:
    """Whether two facets put the cards in the same groups, whatever the groups are called."""
    pairs = set(zip(a, b, strict=True))
    return len(pairs) == len({x for x, _ in pairs}) == len({y for _, y in pairs})


def numbers(cards: list[CardFacts]) -> list[tuple[str, str, int, int]]:
    """The stats the gallery filters by range: key, label, least and most, in NUMBER_LABELS order."""
    keys = {k for c in cards for k in c.numbers}
    ordered = [k for k in NUMBER_LABELS if k in keys] + sorted(keys - set(NUMBER_LABELS))
    out = []
    for key in ordered:
        values = [c.numbers[key] for c in cards if key in c.numbers]
        if min(values) < max(values):
            out.append((key, NUMBER_LABELS.get(key, key.replace("_", " ").capitalize()), min(values), max(values)))
    return out


_TAG = re.compile(r"<[^>]+>")
_SECTION = re.compile(r'<h([12]) id="([^"]+)">(.*?)</h\1>', re.S)


def sections(body: str) -> list[Section]:
    """The rules HTML cut at its headings (levels 1 and 2), each part as plain text."""
    marks = list(_SECTION.finditer(body))
    out = []
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(body)
        text = html.unescape(_TAG.sub(" ", body[mark.end() : end]))
        out.append(Section(mark.group(2), html.unescape(_TAG.sub("", mark.group(3))), " ".join(text.split())))
    return out


def mentions(card: CardFacts, parts: list[Section]) -> list[Section]:
    """The rules sections that name the card; where none does, those naming its value, era, group or weapon."""
    for terms in card.terms:
        if not terms:
            continue
        pattern = re.compile(r"\b(?:" + "|".join(re.escape(t) for t in terms) + r")(?:s|es)?\b", re.I)
        found = [s for s in parts if pattern.search(s.title) or pattern.search(s.text)]
        if found:
            return found
    return []
