"""Right-to-left text: placed in visual order, written to the PDF in logical order, so text tools read it as typed.

A PDF records glyphs with their positions; a tool that extracts text must guess the reading order
of a right-to-left line from them. Poppler and pdfium sort the glyphs by position and apply the
Unicode bidirectional algorithm, so either order reads right; pdfminer (and tools built on it)
keeps the order the glyphs are written in; pypdf reverses each right-to-left run it meets,
assuming visual order, but starts a new run at each change of font. Each glyph of a line is
therefore written in logical order, at its visual place, after its own font setting: every one
of these reads the line as typed. (An ActualText span would not help: pdfminer and pypdf ignore
it, and Poppler 22 and pdfium lay its characters out left to right and then reverse them.)
"""

from __future__ import annotations

import functools

from bidi import algorithm as uba
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

# The steps of the Unicode bidirectional algorithm after the levels are set, in python-bidi's order
_STEPS = (
    uba.explicit_embed_and_overrides,
    uba.resolve_weak_types,
    uba.resolve_neutral_types,
    uba.resolve_implicit_levels,
    uba.reorder_resolved_levels,
    uba.apply_mirroring,
)


@functools.lru_cache(maxsize=4096)
def visual_order(text: str) -> tuple[tuple[int, str], ...]:
    """Each character of a line as it is seen, left to right: its index in text and the glyph drawn (mirrored)."""
    storage = uba.get_empty_storage()
    base = uba.get_base_level(text)
    storage["base_level"] = base
    storage["base_dir"] = ("L", "R")[base]
    uba.get_embedding_levels(text, storage)
    for index, char in enumerate(storage["chars"]):
        char["index"] = index  # the algorithm moves these records about; each keeps its place in text
    for step in _STEPS:
        step(storage, False)
    return tuple((char["index"], char["ch"]) for char in storage["chars"])


def visual(text: str) -> str:
    """The line as it is seen, left to right."""
    return "".join(glyph for _, glyph in visual_order(text))


def draw(c: Canvas, face: str, size: float, x: float, baseline: float, text: str) -> None:
    """One line of text (logical order) with its left edge at x, seen in visual order, written in logical order."""
    places: dict[int, tuple[float, str]] = {}
    cursor = x
    for index, glyph in visual_order(text):
        places[index] = (cursor, glyph)
        cursor += pdfmetrics.stringWidth(glyph, face, size)
    out = c.beginText()
    for index in sorted(places):
        left, glyph = places[index]
        out.setFont(face, size)  # a font setting per glyph: where pypdf starts a new run
        out.setTextOrigin(left, baseline)
        out.textOut(glyph)
    c.drawText(out)
