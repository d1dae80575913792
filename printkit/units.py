"""Lengths written as text ("63.5mm", "0.125in", "12pt", "5/8in") and card size presets, in points."""

from __future__ import annotations

import re
from fractions import Fraction

MM = 72 / 25.4
INCH = 72.0

_UNITS = {"mm": MM, "cm": 10 * MM, "in": INCH, "pt": 1.0}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?(?:/\d+)?)\s*(mm|cm|in|pt)\s*$")

# Trim sizes in millimetres, width x height (portrait).
CARD_SIZES_MM: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.2, 88.9),
    "mini": (44.5, 63.5),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}


def length(text: str) -> float:
    """A length in points; raises ValueError with the accepted forms on bad input."""
    match = _LENGTH.match(text)
    if not match:
        raise ValueError(f"expected a length such as 3mm, 0.125in, 5/8in or 12pt, found {text!r}")
    number, unit = match.groups()
    return float(Fraction(number)) * _UNITS[unit]


def card_size(text: str) -> tuple[float, float]:
    """A card's trim size in points from a preset name or "WxH" in millimetres (units optional)."""
    key = text.strip().lower()
    if key in CARD_SIZES_MM:
        w, h = CARD_SIZES_MM[key]
        return w * MM, h * MM
    parts = re.split(r"\s*[x×]\s*", key)
    if len(parts) == 2:
        # "2.5x3.5in": a unit written once applies to both; none written means millimetres
        unit = re.search(r"[a-z]+$", parts[1])
        suffix = unit.group(0) if unit else "mm"
        try:
            w, h = (length(p if re.search(r"[a-z]$", p) else p + suffix) for p in parts)
            return w, h
        except ValueError:
            pass
    presets = ", ".join(CARD_SIZES_MM)
    raise ValueError(f"expected a card size ({presets}) or WxH such as 63.5x88.9mm, found {text!r}")
