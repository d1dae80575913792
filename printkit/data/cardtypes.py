"""The kinds of card a game declares in its game.yaml: each kind's fields, their types, bounds and display names."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import Field, model_validator

from printkit.data.basics import Frozen, Id, Text

# a field's name, as layouts bind it ({cost}) and conditions test it (cost >= 3): lower case, digits and _
FieldName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]
# a value of a choice: a word or a few, as a card writes it (rarity: rare) and a condition names it
ChoiceValue = Annotated[str, Field(min_length=1, max_length=60, pattern=r"^[^{}\n\"]+$")]

FieldType = Literal["text", "rich", "integer", "number", "yesno", "choice", "list", "icon", "art", "stats", "engine"]
ItemType = Literal["text", "integer", "number", "choice", "icon"]
# the game.yaml tables whose ids a choice may be drawn from: a card names a row (weapon: sword), prints its name
TABLES = ("factions", "colours", "eras", "weapons", "formations", "phases", "components", "decks", "user_groups")
Table = Literal["factions", "colours", "eras", "weapons", "formations", "phases", "components", "decks", "user_groups"]

MAX_FIELDS = 60  # fields of one kind of card: past any card a person reads
MAX_TYPES = 30
MAX_CHOICES = 200
MAX_ITEMS = 100  # values in one list field of one card

# What every card has, whatever its kind: a declared field may not take one of these names
BUILT_IN = ("id", "kind", "name", "copies", "flavour", "art", "art_credit", "shared", "reconstructed")
# names a layout binds beside a card's own fields: the deck and game it prints in, its colour and icon
PRINTED = ("deck", "game", "credit", "accent", "art_icon")
# what a card's reconstructed list cannot name: who it is and how it is printed, not a value of the game
RECONSTRUCTED_NOT = frozenset({"id", "kind", "shared", "reconstructed", "art", "art_credit", "flavour"})


def _spec_words(spec: str) -> str | None:
    """Why a number format is refused, or None: a format spec of Python's mini-language, no braces or names."""
    if not re.fullmatch(r"[<>=^]?[+\- ]?z?#?0?\d{0,2}[,_]?(\.\d{1,2})?[dfeEgG%]?", spec):
        return "expected a number format such as +d, 02d, .1f or ,d"
    try:
        format(1.5 if spec[-1:] in "feEgG%" else 1, spec)
    except ValueError as exc:
        return f"not a number format: {exc}"
    return None


class FieldSpec(Frozen):
    """One field of a kind of card: what its values are, whether a card must set it, and what it is called."""

    type: FieldType
    name: Text | None = None  # its label in the booklet, the reference and the exports: "Cost"
    required: bool = False
    unique: bool = False  # no two cards of the kind may share a value (a Character's Order, a collector number)
    default: bool | int | float | str | list[bool | int | float | str] | None = None
    min: float | None = None  # integer and number: the least value; list: the fewest items
    max: float | None = None  # integer and number: the most; list: the most items
    max_length: Annotated[int, Field(ge=1, le=2000)] | None = None  # text and rich: characters at most
    # choice, and a list of choices: the values a card may give, or {value: display name}
    values: (
        Annotated[list[ChoiceValue], Field(min_length=1, max_length=MAX_CHOICES)]
        | Annotated[dict[ChoiceValue, Text], Field(min_length=1, max_length=MAX_CHOICES)]
        | None
    ) = None
    # choice: the values are the ids of a game.yaml table's rows (or of several tables'), and a card prints the
    # row's name
    table: Table | Annotated[list[Table], Field(min_length=1, max_length=len(TABLES))] | None = Field(
        default=None, alias="from"
    )
    of: ItemType | None = None  # list: the type of each item (choice when it has values or from)
    format: Annotated[str, Field(max_length=12)] | None = None  # integer and number: as printed, "+d", ".1f"
    # what the booklet's table and the reference print for a card that leaves the field empty: "always", "-"
    empty: Text | None = None
    description: Text | None = None  # a line of help, shown by editors as the designer types

    model_config = Frozen.model_config | {"populate_by_name": True}

    @model_validator(mode="after")
    def _fits(self) -> FieldSpec:
        kind = self.item_type if self.type == "list" else self.type
        choices = self.values is not None or self.table is not None
        if kind == "choice" and not choices:
            raise ValueError("a choice needs its values (values: [common, rare]) or a table to name (from: factions)")
        if choices and kind != "choice":
            raise ValueError(f"values and from are for a choice (or a list of choices), not {self.type}")
        if self.values is not None and self.table is not None:
            raise ValueError("expected values or from, not both")
        if self.of is not None and self.type != "list":
            raise ValueError(f"of: is for a list, the type of its items, not for {self.type}")
        numeric = self.type in ("integer", "number", "list")
        if (self.min is not None or self.max is not None) and not numeric:
            raise ValueError(f"min and max bound an integer, a number or a list's items, not {self.type}")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min {self.min:g} is above max {self.max:g}")
        if self.type == "integer" and any(b is not None and b != int(b) for b in (self.min, self.max)):
            raise ValueError("an integer's min and max are whole numbers")
        if self.max_length is not None and self.type not in ("text", "rich"):
            raise ValueError(f"max_length is for text, not {self.type}")
        if self.format is not None:
            if kind not in ("integer", "number"):
                raise ValueError(f"format is for an integer or a number, not {self.type}")
            why = _spec_words(self.format)
            if why:
                raise ValueError(f"format {self.format!r}: {why}")
        if self.type == "engine" and (self.required or self.default is not None):
            raise ValueError("an engine field's form is its engine's to check: no required or default here")
        return self

    @property
    def item_type(self) -> str:
        """A list's item type: of, else choice when it names values or a table, else text."""
        if self.of is not None:
            return self.of
        return "choice" if self.values is not None or self.table is not None else "text"

    @property
    def tables(self) -> list[str]:
        """The tables a choice draws its values from, first match first: none for a choice of its own values."""
        if self.table is None:
            return []
        return list(self.table) if isinstance(self.table, list) else [self.table]

    def item(self) -> FieldSpec:
        """A list's item as a field of its own: its type, values and format (its min and max count items)."""
        return self.model_copy(update={"type": self.item_type, "of": None, "min": None, "max": None})

    def choices(self) -> dict[str, str]:
        """A choice's own values and their display names (a table's come from the game: see Tables)."""
        if isinstance(self.values, dict):
            return dict(self.values)
        return {v: v for v in self.values or []}

    def label(self, key: str) -> str:
        return self.name or words(key)


class CardType(Frozen):
    """A kind of card a game has: its name in the game's words, its fields, and how it prints."""

    name: Text | None = None  # one card of the kind: "Spirit"
    plural: Text | None = None  # several: "Spirits"
    fields: Annotated[dict[FieldName, FieldSpec], Field(max_length=MAX_FIELDS)] = {}
    layout: Id | None = None  # the layout its faces print with; the kind's own name when not given
    # a choice field drawn from a table whose rows have colours: each card prints in its row's colour
    accent: FieldName | None = None
    # the line under a card's name in the reference's gallery, its fields in braces: "{weapon} · {hp} HP"
    summary: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    # the booklet's table of these cards: which fields, in order (a table's field as era.power); all by default
    columns: (
        Annotated[list[Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)?$")]], Field(max_length=20)]
        | None
    ) = None
    sort: FieldName | None = None  # the field the booklet's table and the reference list these cards by

    @model_validator(mode="after")
    def _names(self) -> CardType:
        taken = [f for f in self.fields if f in BUILT_IN or f in PRINTED or f.endswith("_reconstructed")]
        if taken:
            raise ValueError(
                f"field {taken[0]!r}: every card has it, or a layout binds it already; name the field otherwise"
            )
        for key in (self.accent, self.sort):
            if key is not None and key not in self.fields and key not in ("name", "id"):
                raise ValueError(f"{key!r} is no field of this kind (fields: {', '.join(self.fields) or 'none'})")
        if self.accent is not None and len(self.fields[self.accent].tables) != 1:
            raise ValueError(f"accent: {self.accent!r} must be a choice drawn from a table of colours (from: eras)")
        for column in self.columns or []:
            head = column.split(".")[0]
            if head not in self.fields and head not in ("name", "copies", "id"):
                raise ValueError(f"column {column!r}: no field {head!r} (fields: {', '.join(self.fields) or 'none'})")
            if "." in column and len(self.fields.get(head, FieldSpec(type="text")).tables) != 1:
                raise ValueError(f"column {column!r}: only a choice drawn from a table has parts to name")
        return self

    def one(self, kind: str) -> str:
        """What one card of the kind is called."""
        return self.name or words(kind)

    def many(self, kind: str) -> str:
        """What several are called."""
        return self.plural or f"{self.one(kind)}s"


def words(key: str) -> str:
    """An id spelled as a label: art_credit -> Art credit."""
    return key.replace("_", " ").replace("-", " ").capitalize()


# The kind a game has when it declares none: a title, a text with inline icons, and named numbers.
PLAIN = "plain"
DEFAULT_TYPES: dict[str, CardType] = {
    PLAIN: CardType(
        name="Card",
        fields={"text": FieldSpec(type="rich", name="Text"), "stats": FieldSpec(type="stats", name="Stats")},
    )
}
