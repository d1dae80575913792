"""A card in words: what it does, and each field its kind declares under its label, as tables and exports tell it.

The booklet's tables, the reference site and Tabletop Simulator's descriptions read a card from
here, the same printed values its face shows (cardview), so none of them can disagree with the card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from printkit.data import enginecards
from printkit.data.cards import Card
from printkit.data.cardtypes import CardType, FieldSpec
from printkit.data.cardtypes import words as words_of
from printkit.data.game import Game
from printkit.data.model import RECONSTRUCTED_MARK
from printkit.draw import cardview


@dataclass
class Told:
    """One card in words."""

    lines: list[str] = field(default_factory=list)  # what it does, a line a rule, as printed (icons, marks kept)
    rows: list[tuple[str, Any]] = field(default_factory=list)  # each field, labelled, its kind's name first
    facets: dict[str, list[str]] = field(default_factory=dict)  # its choices, as printed, by field
    numbers: dict[str, float] = field(default_factory=dict)  # its figures, by field (or a row's figure's name)
    words: list[str] = field(default_factory=list)  # the words the rules may call it by, beside its name


def number_key(declared: CardType, column: str) -> str:
    """What a figure of a row a card names (era.power) is called among the card's numbers: the figure's own name
    (power), unless a field of the kind has it."""
    attr = column.split(".")[1]
    return column if attr in declared.fields else attr


def _choices_shown(game: Game, spec: FieldSpec, value: Any) -> list[str]:
    """A choice field's value (or a list's values) as the card prints each."""
    if spec.type != "list":
        return [cardview.printed_value(game, spec, value)]
    return [cardview.printed_value(game, spec.item(), v) for v in value]


def told(game: Game, card: Card, printed: dict[str, Any]) -> Told:
    """A card in words, from the fields its face prints (printed: cardview.face_fields of it)."""
    declared = game.kinds.types[card.kind]
    out = Told(rows=[("Type", game.kind_name(card.kind))])

    def mark(name: str, value: Any) -> str:  # a value the edition chose, marked as the booklet's tables do
        return f"{value} {RECONSTRUCTED_MARK} reconstructed" if name in card.reconstructed else str(value)

    worded = enginecards.words(game, card)
    first_worded = True
    for key, spec in declared.fields.items():
        value = card.values.get(key)
        label = spec.label(key)
        if spec.type == "engine":  # its engine's sentences: the first such field plain, any later one labelled
            sentences = worded.get(key, [])
            out.lines += sentences if first_worded else [f"{label}: {line}" for line in sentences]
            first_worded = False
            continue
        if spec.type == "rich":  # what the card says it does, in its own words
            out.lines += [printed[key]] if value else []
            continue
        if value is None or value == [] or spec.type == "art":
            if spec.empty and spec.type != "art":
                out.rows.append((label, spec.empty))
            continue
        if spec.type == "stats":
            out.rows += [(words_of(name), number) for name, number in value.items()]
            out.numbers |= dict(value)
            continue
        out.rows.append((label, mark(key, printed[key])))
        if (spec.item_type if spec.type == "list" else spec.type) == "choice":
            shown = _choices_shown(game, spec, value)
            out.facets[key] = shown
            out.words += shown
        if spec.type in ("integer", "number"):
            out.numbers[key] = value
        for column in declared.columns or []:  # a figure of the row the card names: its era's power
            head, _, attr = column.partition(".")
            figure = printed.get(column) if head == key and attr else None
            if figure not in (None, ""):
                out.rows.append((words_of(attr), figure))
                if isinstance(figure, int | float) and not isinstance(figure, bool):
                    out.numbers[number_key(declared, column)] = figure
    view = enginecards.of(game)
    if view is not None and card.parsed is not None:
        out.rows += view.facts(game, card)
    return out
