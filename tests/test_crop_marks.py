"""Crop marks read back from the sheets: every cut line marked at both ends, each mark long enough to lay a ruler
on, none reaching a piece's trim."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from printkit.core.units import MM
from printkit.data.game import Game
from printkit.data.settings import PrintSettings
from printkit.sheets import cardsheets, counters

RULER = 3 * MM  # the least length of a mark a ruler's edge can be laid along
CLEAR = 0.9 * MM  # the least a mark keeps from any piece's trim
Box = tuple[float, float, float, float]


def _hairlines(doc: Any, page: int) -> list[Box]:
    bounds = [o.get_bounds() for o in doc[page - 1].get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=1)]
    return [tuple(b) for b in bounds if (b[2] - b[0]) < 1 or (b[3] - b[1]) < 1]


def _gap(mark: Box, trim: Box) -> float:
    """How far a mark keeps from a trim box (0 when it touches or crosses it)."""
    dx = max(trim[0] - mark[2], mark[0] - trim[2], 0)
    dy = max(trim[1] - mark[3], mark[1] - trim[3], 0)
    return max(dx, dy)


def _unmarked(pdf: bytes, slots: list[dict[str, Any]]) -> tuple[int, list[str]]:
    """How many cut-line ends the sheet has, and those with no mark at least RULER long beyond the pieces on that
    line, or with a mark nearer a trim than CLEAR."""
    doc = pdfium.PdfDocument(pdf)
    ends, problems = 0, []
    for page in sorted({s["page"] for s in slots}):
        mine = [s for s in slots if s["page"] == page]
        trims = [(s["x"], s["y"], s["x"] + s["w"], s["y"] + s["h"]) for s in mine]
        marks = _hairlines(doc, page)
        problems += [f"p{page}: mark {m} near a trim" for m in marks for t in trims if _gap(m, t) < CLEAR]
        lines = {("x", round(t[i], 1)) for t in trims for i in (0, 2)} | {
            ("y", round(t[i], 1)) for t in trims for i in (1, 3)
        }
        for axis, at in sorted(lines):
            along = [t for t in trims if any(abs(t[i] - at) < 0.2 for i in ((0, 2) if axis == "x" else (1, 3)))]
            # the pieces on this line span low..high across it: its ends lie beyond them
            low = min(t[1] if axis == "x" else t[0] for t in along)
            high = max(t[3] if axis == "x" else t[2] for t in along)
            on = [m for m in marks if abs((m[0] + m[2]) / 2 - at if axis == "x" else (m[1] + m[3]) / 2 - at) < 0.2]
            for side in ("low", "high"):
                ends += 1
                found = [
                    m
                    for m in on
                    if (m[3] - m[1] if axis == "x" else m[2] - m[0]) >= RULER - 0.05
                    and (
                        (m[3] if axis == "x" else m[2]) <= low
                        if side == "low"
                        else (m[1] if axis == "x" else m[0]) >= high
                    )
                ]
                if not found:
                    problems.append(f"p{page}: the {side} end of the cut at {axis} = {at / MM:.1f} mm")
    return ends, problems


@pytest.mark.parametrize(
    ("slug", "paper", "part"),
    [
        ("time-line-battle", "a4", "cards"),
        ("battle-line", "letter", "cards"),
        ("torah-timeline", "a4", "cards"),
        ("time-line", "a4", "counters"),
        ("soldier-battler", "a4", "counters"),
        ("soldier-battler", "letter", "counters"),
    ],
)
def test_every_cut_line_is_marked_at_both_ends_for_a_ruler(
    games: dict[str, Game], slug: str, paper: str, part: str
) -> None:
    """On A4 three poker cards across leave 3.5 mm beside them inside the printer margin: the cuts between rows
    had a 1.5 mm tick on one side only, no line to lay a ruler along. Every end of every cut now has a mark of
    3 mm at least (running on over the sheet's outer bleed where the room outside is short), on faces and
    backs, and none comes within a millimetre of a piece's trim."""
    settings = replace(PrintSettings(), cuts="shared")  # as the bundled games ask
    built = (
        cardsheets.build(games[slug], settings, paper)
        if part == "cards"
        else counters.build(games[slug], settings, paper)
    )
    assert built is not None
    pdf, manifest = built
    ends, problems = _unmarked(pdf, manifest.slots)
    assert ends > 50 and problems == [], problems[:6]
