"""Text against what lies under it: each text region's contrast, from the layout and the card's own colours.

A region's background is the fill of the last region drawn before it that covers it whole (the
card's background at the least). Contrast is WCAG 2's ratio of relative luminances; text needs
4.5:1, or 3:1 when it is large (18 pt, or 14 pt bold). A text colour of `auto` reads as ink or
paper, whichever stands out more from the background: a deck of six colours gets readable
numerals on each without a layout per colour.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib.colors import Color, HexColor

from printkit.draw.layout import FIELD, Box, Layout

INK = "#1c1c1c"
PAPER = "#fbf8f1"
NORMAL = 4.5
LARGE = 3.0

# what a region's fill can be read from; a picture or a pattern under text leaves its contrast unknown
_FILLED = ("background", "box", "badge")
_UNKNOWN = ("image", "pattern")


def mix(a: str, b: str, amount: float) -> Color:
    """a moved toward b by amount (0..1)."""
    ca, cb = HexColor(a), HexColor(b)
    return Color(
        ca.red + (cb.red - ca.red) * amount,
        ca.green + (cb.green - ca.green) * amount,
        ca.blue + (cb.blue - ca.blue) * amount,
    )


def colour(ref: str | None, fields: dict[str, Any]) -> Color | None:
    """A layout colour reference resolved for one card; None for none (and for auto, resolved by readable)."""
    return _colour(ref, str(fields.get("accent", INK)))


@functools.lru_cache(maxsize=4096)
def _colour(ref: str | None, accent: str) -> Color | None:
    # asked for each region of each card (400,000 times for 10,000 cards), of a handful of colours: kept
    table = {
        "accent": lambda: HexColor(accent),
        "accent-dark": lambda: mix(accent, "#000000", 0.45),
        "accent-shade": lambda: mix(accent, "#000000", 0.18),
        "accent-tint": lambda: mix(accent, "#ffffff", 0.22),
        "accent-light": lambda: mix(accent, "#ffffff", 0.82),
        "ink": lambda: HexColor(INK),
        "paper": lambda: HexColor(PAPER),
    }
    if ref is None or ref in ("none", "auto"):
        return None
    return table[ref]() if ref in table else HexColor(ref)


def luminance(c: Color) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""

    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.red) + 0.7152 * channel(c.green) + 0.0722 * channel(c.blue)


def contrast(a: Color, b: Color) -> float:
    """WCAG 2 contrast ratio, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def needed(size: float, font: str) -> float:
    """The least contrast text of this size and font needs: 3:1 when large, else 4.5:1."""
    return LARGE if size >= 18 or (size >= 14 and "bold" in font) else NORMAL


def legible(ink: Color, background: Color, least: float) -> Color:
    """ink, darkened (on a light ground) or lightened (on a dark one) in steps until it stands out from background
    by least: the same hue, as readable as its size needs."""
    towards = (0.0, 0.0, 0.0) if luminance(background) > 0.18 else (1.0, 1.0, 1.0)
    shade = ink
    for step in range(1, 21):
        if contrast(shade, background) >= least:
            break
        t = step / 20
        shade = Color(*(a + (b - a) * t for a, b in zip((ink.red, ink.green, ink.blue), towards, strict=True)))
    return shade


def readable(background: Color) -> Color:
    """Ink or paper, whichever stands out more from background."""
    ink, paper = HexColor(INK), HexColor(PAPER)
    return ink if contrast(ink, background) >= contrast(paper, background) else paper


def _covers(outer: Box, inner: Box) -> bool:
    return (
        outer.x <= inner.x + 1e-6
        and outer.y <= inner.y + 1e-6
        and outer.x + outer.w >= inner.x + inner.w - 1e-6
        and outer.y + outer.h >= inner.y + inner.h - 1e-6
    )


def _overlaps(a: Box, b: Box) -> bool:
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


def under(drawn: Sequence[Box], box: Box, fields: dict[str, Any]) -> Color | None:
    """The colour under box: a badge's own fill, else the fill of the last drawn region covering it.

    drawn: the regions drawn before it, in order. None when a picture or a pattern lies under the
    text, or nothing with a fill does.
    """
    if box.spec.type == "badge" and colour(box.spec.fill, fields) is not None:
        return colour(box.spec.fill, fields)
    for below in reversed(drawn):
        kind = below.spec.type
        if kind in _UNKNOWN and _overlaps(below, box):
            if kind == "image" and str(below.spec.image or "").strip("{}") not in fields:
                continue  # an image region whose field the card leaves empty draws nothing
            return None
        fill = colour(below.spec.fill, fields) if kind in _FILLED else None
        if fill is not None and (kind == "background" or _covers(below, box)):
            return fill
    return None


def text_colour(drawn: Sequence[Box], box: Box, fields: dict[str, Any]) -> Color:
    """The colour a region's text prints in: its own, or for auto the more readable of ink and paper."""
    if box.spec.colour == "auto":
        background = under(drawn, box, fields)
        return readable(background) if background is not None else HexColor(INK)
    return colour(box.spec.colour, fields) or HexColor(INK)


@dataclass(frozen=True)
class Finding:
    """A text region whose colour does not stand out enough from what lies under it."""

    region: str
    text: str  # #rrggbb
    background: str
    ratio: float
    needed: float


def _hex(c: Color) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in (c.red, c.green, c.blue))


def reading(layout: Layout, fields: dict[str, Any], card_size: tuple[float, float]) -> tuple[object, ...]:
    """What of one card its findings turn on: its accent, and for each region whether it is drawn, whether its
    text prints and whether its picture's field is set. Cards alike in these have the same findings."""
    out: list[object] = [str(fields.get("accent", INK))]
    for box in layout.boxes(card_size):
        spec = box.spec
        if not spec.drawn_for(fields):
            out.append(None)
        elif spec.type in ("text", "badge") and spec.text:
            out.append(_bound(spec.text, fields))
        else:
            out.append(spec.type != "image" or str(spec.image or "").strip("{}") in fields)
    return tuple(out)


def findings(layout: Layout, fields: dict[str, Any], card_size: tuple[float, float]) -> list[Finding]:
    """Every text region of one card that prints with too little contrast against what lies under it."""
    drawn: list[Box] = []
    found = []
    for box in layout.boxes(card_size):
        spec = box.spec
        if not spec.drawn_for(fields):
            continue
        if spec.type in ("text", "badge") and spec.text and _bound(spec.text, fields):
            background = under(drawn, box, fields)
            if background is not None:
                ink = text_colour(drawn, box, fields)
                ratio = contrast(ink, background)
                need = needed(float(spec.size or 9), str(spec.font or "sans"))
                if ratio < need - 1e-9:
                    found.append(Finding(box.name, _hex(ink), _hex(background), ratio, need))
        drawn.append(box)
    return found


def _bound(template: str, fields: dict[str, Any]) -> bool:
    """Whether a text template prints anything for this card (a field left empty prints nothing)."""
    names = FIELD.findall(template)
    literal = FIELD.sub("", template).strip()
    return bool(literal) or any(str(fields.get(n, "")).strip() for n in names)
