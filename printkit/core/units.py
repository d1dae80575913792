"""Lengths and sizes written as text ("63.5mm", "0.125in", "12pt", "5/8in", "70x110mm"), in points."""

from __future__ import annotations

import re
from fractions import Fraction

MM = 72 / 25.4
INCH = 72.0

_UNITS = {"mm": MM, "cm": 10 * MM, "in": INCH, "pt": 1.0}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?(?:/\d+)?)\s*(mm|cm|in|pt)\s*$")


def length(text: str) -> float:
    """A length in points; raises ValueError with the accepted forms on bad input."""
    match = _LENGTH.match(text)
    if not match:
        raise ValueError(f"expected a length such as 3mm, 0.125in, 5/8in or 12pt, found {text!r}")
    number, unit = match.groups()
    try:
        return float(Fraction(number)) * _UNITS[unit]
    except ZeroDivisionError:
        raise ValueError(f"expected a length with a non-zero denominator, found {text!r}") from None


def size(text: str) -> tuple[float, float]:
    """A width and height in points from "WxH": "70x110" (millimetres), "2.5x3.5in", "66mm x 30mm"."""
    parts = re.split(r"\s*[x×]\s*", text.strip().lower())
    if len(parts) == 2:
        # "2.5x3.5in": a unit written once applies to both; none written means millimetres
        unit = re.search(r"[a-z]+$", parts[1])
        suffix = unit.group(0) if unit else "mm"
        try:
            w, h = (length(p if re.search(r"[a-z]$", p) else p + suffix) for p in parts)
        except ValueError:
            pass
        else:
            if w > 0 and h > 0:
                return w, h
    raise ValueError(f"expected a size WxH such as 63.5x88.9mm or 2.5x3.5in, found {text!r}")
