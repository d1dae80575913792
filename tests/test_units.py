"""Lengths and card sizes written as text."""

from __future__ import annotations

import pytest

from printkit.core import units
from printkit.data import settings


@pytest.mark.parametrize(
    ("text", "points"), [("3mm", 8.50394), ("0.125in", 9.0), ("12pt", 12.0), ("5/8in", 45.0), ("1cm", 28.3465)]
)
def test_lengths(text: str, points: float) -> None:
    assert units.length(text) == pytest.approx(points, abs=1e-4)


@pytest.mark.parametrize(
    ("text", "mm"),
    [
        ("poker", (63.5, 88.9)),
        ("bridge", (57.2, 88.9)),
        ("mini", (44.5, 63.5)),
        ("tarot", (70, 120)),
        ("square", (70, 70)),
        ("50x75", (50, 75)),
        ("2.5x3.5in", (63.5, 88.9)),
    ],
)
def test_card_sizes(text: str, mm: tuple[float, float]) -> None:
    w, h = settings.card_size(text).size
    assert (w / units.MM, h / units.MM) == pytest.approx(mm)


@pytest.mark.parametrize("text", ["3", "mm", "3 furlongs", "huge", "10x"])
def test_bad_lengths_say_what_is_expected(text: str) -> None:
    with pytest.raises(ValueError, match="expected"):
        settings.card_size(text) if "x" in text or text == "huge" else units.length(text)
