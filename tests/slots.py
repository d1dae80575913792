"""Test helper: a page point read back from a sheet, brought into the coordinates of the piece its slot holds."""

from __future__ import annotations

from typing import Any


def to_piece(slot: dict[str, Any], size: tuple[float, float], x: float, y: float) -> tuple[float, float]:
    """A page point in the piece's own coordinates (origin at its trim's bottom-left), however it is turned."""
    w, h = size
    if slot["turn"] == 90:  # top to the left: drawn at x + h, y and turned a quarter anticlockwise
        return y - slot["y"], slot["x"] + h - x
    if slot["turn"] == -90:  # top to the right
        return slot["y"] + w - y, x - slot["x"]
    return x - slot["x"], y - slot["y"]
