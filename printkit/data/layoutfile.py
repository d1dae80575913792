"""The layout file's model: what layouts/<name>.yaml may say, its regions and their settings, each checked."""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field

from printkit.data import conditions
from printkit.data.basics import Frozen, Id

Length = Annotated[str, Field(pattern=r"^-?\d+(\.\d+)?(/\d+)?\s*(mm|cm|in|pt)$")]
# the colours a layout names: a hex colour, or one of these, worked out for each card (legibility.colour)
COLOUR_NAMES = ("accent", "accent-dark", "accent-shade", "accent-tint", "accent-light", "ink", "paper", "auto", "none")


def _colour(value: str) -> str:
    if re.fullmatch(r"#[0-9A-Fa-f]{6}", value) or value in COLOUR_NAMES:
        return value
    hint = difflib.get_close_matches(value, COLOUR_NAMES, n=1, cutoff=0.6)
    if hint:
        raise ValueError(f"no colour {value!r} (did you mean {hint[0]!r}?)")
    form = "#rrggbb, such as #2e5e4e" if not value.startswith("#") else "#rrggbb: six hex digits after the #"
    raise ValueError(f"expected a colour written {form}, or one of {', '.join(COLOUR_NAMES)}; found {value!r}")


ColourRef = Annotated[str, Field(max_length=40), AfterValidator(_colour)]


class Region(Frozen):
    """One drawn part of a card. Every key is optional so a layout can override a base's region in part."""

    type: Literal["background", "box", "text", "badge", "icon", "line", "pattern", "image"] | None = None
    x: Length | None = None
    y: Length | None = None
    w: Length | None = None
    h: Length | None = None
    fill: ColourRef | None = None
    stroke: ColourRef | None = None
    stroke_width: Length | None = None
    radius: Length | None = None
    motif: Literal["hatching", "lattice", "rays", "rings", "dots"] | None = None  # a pattern's figure
    step: Length | None = None  # a pattern's spacing: between lines, rings or dots, or a ray's width at its rim
    text: Annotated[str, Field(max_length=2000)] | None = None
    font: Id | None = None  # one of printkit's (sans, sans-bold, ..., serif-bold) or one the game's fonts: names
    size: Annotated[float, Field(gt=0, le=200)] | None = None
    min_size: Annotated[float, Field(gt=0, le=200)] | None = None
    leading: Annotated[float, Field(ge=0.8, le=3)] | None = None
    align: Literal["left", "center", "right"] | None = None
    valign: Literal["top", "middle", "bottom"] | None = None
    colour: ColourRef | None = None
    shape: Literal["circle", "shield", "diamond", "hexagon", "rounded"] | None = None
    icon: Annotated[str, Field(max_length=64)] | None = None
    # an image region: a field such as "{art}", or a picture beside the layout file
    image: Annotated[str, Field(max_length=500)] | None = None
    fit: Literal["cover", "contain", "stretch"] | None = None
    focus: Annotated[str, Field(pattern=r"^(0(\.\d+)?|1(\.0+)?),\s*(0(\.\d+)?|1(\.0+)?)$")] | None = None
    # drawn only when the condition holds: a field's name alone (set), or "rarity is rare", "cost >= 3" ...
    when: Annotated[str, Field(min_length=1, max_length=conditions.MAX_LENGTH)] | None = None
    unless: Annotated[str, Field(min_length=1, max_length=conditions.MAX_LENGTH)] | None = None  # drawn when it fails
    rtl: bool | None = None
    wrap: bool | None = None  # false: one line, shrunk to fit (titles)
    # a text region whose unneeded height this region takes: above it, it grows into the room; holding it, it
    # shrinks with it (draw/flow.py)
    room_from: Id | None = None
    order: int | None = None

    def drawn_for(self, fields: Mapping[str, Any]) -> bool:
        """Whether this region is drawn on a card with these fields: its when condition holds, its unless not."""
        if self.when is None and self.unless is None:
            return True
        values = fields.get(conditions.VALUES) or {}

        def value(name: str) -> Any:  # the card's value as its data has it, else the printed field
            printed = fields.get(name)  # asked either way: a field a layout tests is one it reads
            return values.get(name, printed)

        if self.when is not None and not condition(self.when).test(value):
            return False
        return self.unless is None or not condition(self.unless).test(value)


@functools.lru_cache(maxsize=1024)
def condition(text: str) -> conditions.Condition:
    """A region's when: or unless:, parsed once."""
    return conditions.parse(text)


class LayoutFile(Frozen):
    """The contents of one layouts/<name>.yaml."""

    extends: Id | None = None
    design_size: str | None = None
    regions: dict[Id, Region | None] = Field(default_factory=dict)
