"""What the reference site says of each card: its fields in the game's words, what it is filtered by, where the
rules mention it."""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass, field
from typing import Any

from printkit.data import richtext
from printkit.data.cards import Card
from printkit.data.cardtypes import words as words_of
from printkit.data.game import DeckCards, Game
from printkit.data.model import RECONSTRUCTED_MARK
from printkit.draw import cardtext, cardview
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
    numbers: dict[str, float] = field(default_factory=dict)  # the stats the gallery filters by range
    fields: list[tuple[str, str]] = field(default_factory=list)  # every field, labelled, as the detail view lists
    rules: list[str] = field(default_factory=list)  # its rules text, a line a rule, as plain text
    lines: list[str] = field(default_factory=list)  # the same lines as the card prints them: icons, bold, italic
    terms: list[list[str]] = field(default_factory=list)  # what the rules may call it, most particular first
    brief: str = ""  # the line under its name in the gallery: what tells it from its neighbours


def _copies(game: Game, card: Card, decks: list[DeckCards]) -> str:
    counts = [(d.deck.name, n) for d in decks for c, n in d.entries if c.id == card.id]
    if len({n for _, n in counts}) == 1 and len(counts) > 1:
        return f"{counts[0][1]} in each deck"
    return ", ".join(f"{n} in the {name}" if len(counts) > 1 else str(n) for name, n in counts)


_ICON = re.compile(r"\{[a-z_]+\}")  # an icon named inline in card text: drawn on the card, left out in a sentence


def _plain(text: str) -> str:
    return " ".join(richtext.plain(_ICON.sub("", text)).split())


def printed_rules(layout: Layout, fields: dict[str, Any]) -> list[str]:
    """The sentences a layout itself prints on the card (Soldier Battler's melee rule), its fields filled in:
    the text regions drawn for these fields whose own words make at least three."""
    out = []
    for name, region in layout.regions:
        if region.type != "text" or not region.text or not region.drawn_for(fields):
            continue
        if len(re.findall(r"[A-Za-z]{2,}", FIELD.sub("", region.text))) >= 3:
            where = functools.partial(str.format, "layout {}, region {}", layout.name, name)
            out.append(bind(region.text, fields, where))
    return out


def summary(game: Game, card: Card, printed: dict[str, Any]) -> str:
    """The line under a card's name in the gallery: its kind's summary: with the card's fields filled in (what
    tells it from its neighbours), else (or when that leaves nothing) its kind's name."""
    declared = game.kinds.types[card.kind]
    told = FIELD.sub(lambda match: str(printed.get(match.group(1), "")), declared.summary or "")
    return _plain(told) or game.kind_name(card.kind)


def facts(game: Game, card: Card, decks: list[DeckCards], layout: Layout | None = None) -> CardFacts:
    """The site's facts of one card, from the same fields the card face prints (and layout, its face's layout):
    each field its kind declares, under its display name."""
    printed = cardview.face_fields(game, decks[0], card)
    out = CardFacts(card, decks, game.kind_name(card.kind))
    said = cardtext.told(game, card, printed)
    out.facets = {"deck": [d.deck.name for d in decks], "kind": [out.kind], **said.facets}
    out.numbers = said.numbers
    rows, lines, words = said.rows, said.lines, said.words

    def mark(name: str, value: Any) -> str:  # a value the edition chose, marked as the booklet's tables do
        return f"{value} {RECONSTRUCTED_MARK} reconstructed" if name in card.reconstructed else str(value)

    rows += [("Deck" if len(decks) == 1 else "Decks", ", ".join(d.deck.name for d in decks))]
    rows += [("Copies", mark("copies", _copies(game, card, decks)))]
    if card.art_credit:
        rows.append(("Art", card.art_credit))
    rows.append(("Card id", card.id))
    out.fields = [(label, _plain(str(value))) for label, value in rows]
    if layout is not None:
        lines += printed_rules(layout, printed)
    kept = {_plain(line): line for line in reversed(lines) if _plain(line)}  # each line once, as first written
    out.rules = list(dict.fromkeys(_plain(line) for line in lines if _plain(line)))
    out.lines = [kept[line] for line in out.rules]
    out.terms = [[card.name], [w for w in words if w]]
    out.brief = summary(game, card, printed)
    return out


def facets(game: Game, cards: list[CardFacts]) -> list[Facet]:
    """The facets worth offering: deck, kind, then each choice the game's kinds declare, where the game's cards
    differ; their values in the order the game lists them (a table's rows, a field's values)."""
    order = [d.deck.name for d in game.decks]
    colours: dict[str, dict[str, str]] = {"deck": {d.deck.name: d.deck.back.colour for d in game.decks}}
    offered = [("deck", "Deck"), ("kind", "Type")]
    for declared in game.kinds.types.values():
        for key, spec in declared.fields.items():
            if (spec.item_type if spec.type == "list" else spec.type) != "choice" or any(k == key for k, _ in offered):
                continue
            offered.append((key, spec.label(key)))
            for table in spec.tables:
                rows = getattr(game.info, table, None)
                named = [r for r in rows if hasattr(r, "name")] if isinstance(rows, list) else []
                order += [str(r.name) for r in named]
                colours.setdefault(key, {}).update({str(r.name): str(getattr(r, "colour", "") or "") for r in named})
            order += list(spec.choices().values())
    rank: dict[str, int] = {}
    for i, name in enumerate(order):
        rank.setdefault(name, i)
    out = []
    kept: list[list[tuple[str, ...]]] = []  # how each facet offered so far splits the cards
    for key, label in offered:
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


def numbers(game: Game, cards: list[CardFacts]) -> list[tuple[str, str, float, float]]:
    """The figures the gallery filters by range: key, label, least and most, in the order the kinds declare them."""
    labels: dict[str, str] = {}
    for declared in game.kinds.types.values():
        for key, spec in declared.fields.items():
            if spec.type in ("integer", "number"):
                labels.setdefault(key, spec.label(key))
        for column in declared.columns or []:
            if "." in column:
                labels.setdefault(cardtext.number_key(declared, column), words_of(column.split(".")[1]))
    keys = {k for c in cards for k in c.numbers}
    ordered = [k for k in labels if k in keys] + sorted(keys - set(labels))
    out = []
    for key in ordered:
        values = [c.numbers[key] for c in cards if key in c.numbers]
        if min(values) < max(values):
            out.append((key, labels.get(key) or words_of(key), min(values), max(values)))
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
