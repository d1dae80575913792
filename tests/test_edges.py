"""Bleed read back from the sheets' pixels where it once went missing: a back beside a one-sided piece's empty
back, backs of two colours on one cut line, and round tokens, whose disc must run past its cut circle."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pypdfium2 as pdfium
import pytest
from PIL import Image

from printkit.core.units import MM
from printkit.data.game import Game
from printkit.data.settings import PrintSettings
from printkit.sheets import cardsheets, counters
from printkit.sheets.pieces import Manifest

SCALE = 200 / 72  # pixels per point
SHARED = replace(PrintSettings(), cuts="shared")  # as the bundled games' print settings ask
Slot = dict[str, Any]


def _pages(pdf: bytes, pages: set[int]) -> dict[int, Image.Image]:
    doc = pdfium.PdfDocument(pdf)
    return {page: doc[page - 1].render(scale=SCALE).to_pil().convert("RGB") for page in sorted(pages)}


def _pixel(image: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    found = image.getpixel((round(x * SCALE), round(image.height - y * SCALE)))
    assert isinstance(found, tuple)
    return found[0], found[1], found[2]


def _paper(ink: tuple[int, int, int]) -> bool:
    return min(ink) >= 245


def _near(a: tuple[int, int, int], b: tuple[int, int, int], by: int = 40) -> bool:
    return max(abs(p - q) for p, q in zip(a, b, strict=True)) <= by


def _touching(a: Slot, b: Slot) -> str:
    """Which of a's edges b lies against, sharing its cut line ("" when they do not touch)."""
    if abs(a["y"] - b["y"]) < 0.05 and abs(a["h"] - b["h"]) < 0.05:
        if abs(a["x"] + a["w"] - b["x"]) < 0.05:
            return "right"
        if abs(b["x"] + b["w"] - a["x"]) < 0.05:
            return "left"
    if abs(a["x"] - b["x"]) < 0.05 and abs(a["w"] - b["w"]) < 0.05:
        if abs(a["y"] + a["h"] - b["y"]) < 0.05:
            return "top"
        if abs(b["y"] + b["h"] - a["y"]) < 0.05:
            return "bottom"
    return ""


def _across(slot: Slot, edge: str, inward: float, along: float = 0.5) -> tuple[float, float]:
    """A point inward points inside slot's edge (negative: outside it), along the edge's length by fraction."""
    x0, y0, x1, y1 = slot["x"], slot["y"], slot["x"] + slot["w"], slot["y"] + slot["h"]
    mx, my = x0 + along * (x1 - x0), y0 + along * (y1 - y0)
    return {
        "right": (x1 - inward, my),
        "left": (x0 + inward, my),
        "top": (mx, y1 - inward),
        "bottom": (mx, y0 + inward),
    }[edge]


def _bled(manifest: Manifest, pdf: bytes, side: str) -> tuple[int, list[tuple[int, str, str, float]]]:
    """How many edges of the side's slots face no piece of that side across their cut line, and those of them
    whose ink stops short of the bleed: page, piece, edge and how far past the trim the ink reaches, in mm."""
    slots = [s for s in manifest.slots if s["side"] == side]
    images = _pages(pdf, {s["page"] for s in slots})
    bleed, checked, short = manifest.bleed, 0, []
    for slot in slots:
        mine = [s for s in slots if s["page"] == slot["page"] and s is not slot]
        faced = {_touching(slot, other) for other in mine}
        for edge in ("left", "right", "top", "bottom"):
            if edge in faced:
                continue
            image = images[slot["page"]]
            for along in (0.3, 0.5, 0.7):  # away from corners and from any badge that reaches one edge
                if _paper(_pixel(image, *_across(slot, edge, 0.5 * MM, along))):
                    continue  # a design white at its edge shows nothing to judge
                checked += 1
                reach = 0.0
                while reach < bleed and not _paper(_pixel(image, *_across(slot, edge, -reach - 0.5 / SCALE, along))):
                    reach += 1 / SCALE
                if reach < bleed - 0.5 * MM:
                    short.append((slot["page"], slot["id"], edge, round(reach / MM, 2)))
    return checked, short


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_back_beside_a_one_sided_pieces_empty_back_bleeds_in_full(games: dict[str, Game], paper: str) -> None:
    """Time Line Battle's player aid has no back: the back page leaves its slot empty, and its neighbours' backs
    bleed into it as at the sheet's edge (they stopped at the trim: 0.00 mm on A4 p10 and Letter p12)."""
    pdf, manifest = cardsheets.build(games["time-line-battle"], SHARED, paper)
    checked, short = _bled(manifest, pdf, "back")
    assert checked > 100 and short == []


def test_counter_backs_beside_one_sided_markers_bleed_in_full(games: dict[str, Game]) -> None:
    """Time Line's unit counters have a reverse, its control markers none: a unit's back edge beside a marker's
    empty back bleeds (13 edges stopped at the trim on p2)."""
    built = counters.build(games["time-line"], SHARED, "a4")
    assert built is not None
    checked, short = _bled(built[1], built[0], "back")
    assert checked > 100 and short == []


def _differing_backs(manifest: Manifest, pdf: bytes) -> list[tuple[int, str, str]]:
    """Pairs of backs on one cut line whose colours, read just inside each, differ: a cut a little off the line
    leaves one's colour on the other's edge, a mark on a card face down."""
    slots = [s for s in manifest.slots if s["side"] == "back"]
    images = _pages(pdf, {s["page"] for s in slots})
    found = []
    for a in slots:
        for b in slots:
            edge = _touching(a, b) if a["page"] == b["page"] else ""
            if edge not in ("right", "top"):
                continue
            other = {"right": "left", "top": "bottom"}[edge]
            image = images[a["page"]]
            mine, theirs = _pixel(image, *_across(a, edge, 0.4 * MM)), _pixel(image, *_across(b, other, 0.4 * MM))
            if not _near(mine, theirs):
                found.append((a["page"], a["id"], b["id"]))
    return found


@pytest.mark.parametrize(
    ("slug", "paper"), [("time-line-battle", "a4"), ("time-line-battle", "letter"), ("battle-line", "a4")]
)
def test_no_cut_line_is_shared_by_backs_that_differ(games: dict[str, Game], slug: str, paper: str) -> None:
    """Gold beside silver (Time Line Battle) and Troops beside Tactics (Battle Line) where one deck went on in the
    page the other left: they keep apart, and every back that faces no neighbour bleeds."""
    pdf, manifest = cardsheets.build(games[slug], SHARED, paper)
    assert _differing_backs(manifest, pdf) == []
    assert _bled(manifest, pdf, "back")[1] == []


def test_counter_backs_of_two_colours_share_no_cut_line(games: dict[str, Game]) -> None:
    """Atlantean and Teraxian unit counters, each side in its faction's colour, once met on 13 lines of p2."""
    built = counters.build(games["time-line"], SHARED, "a4")
    assert built is not None
    assert _differing_backs(built[1], built[0]) == []


def _round(game: Game) -> set[str]:
    return {c.id for c in game.info.components if c.shape == "round"}


@pytest.mark.parametrize(
    ("slug", "paper", "cuts"),
    [
        ("soldier-battler", "a4", "auto"),
        ("time-line-battle", "letter", "auto"),
        ("battle-line", "letter", "shared"),
        ("torah-timeline", "a4", "shared"),
    ],
)
def test_a_round_tokens_disc_runs_past_its_cut_circle(games: dict[str, Game], slug: str, paper: str, cuts: str) -> None:
    """Read around each token's cut circle, half the bleed outside it: the disc's own colour, never paper; and
    no token touches another, so no cut around one runs into its neighbour's disc (Battle Line's flags touched
    in rows on Letter)."""
    game = games[slug]
    settings = replace(PrintSettings(), cuts=cuts)
    built = cardsheets.build(game, settings, paper)
    if not any(s["id"] in _round(game) for s in built[1].slots):
        built = counters.build(game, settings, paper) or built
    pdf, manifest = built
    tokens = [s for s in manifest.slots if s["id"] in _round(game) and s["side"] == "face"]
    assert tokens
    images = _pages(pdf, {s["page"] for s in tokens})
    bleed = manifest.bleed
    for slot in tokens:
        image = images[slot["page"]]
        cx, cy, r = slot["x"] + slot["w"] / 2, slot["y"] + slot["h"] / 2, min(slot["w"], slot["h"]) / 2
        for step in range(12):
            angle = math.tau * (step + 0.5) / 12
            dx, dy = math.cos(angle), math.sin(angle)
            inside = _pixel(image, cx + (r - 0.45 * MM) * dx, cy + (r - 0.45 * MM) * dy)  # within the stroke and ring
            outside = _pixel(image, cx + (r + bleed / 2) * dx, cy + (r + bleed / 2) * dy)
            assert not _paper(outside) and _near(inside, outside), (slug, slot["id"], step, inside, outside)
        for other in tokens:
            if other is not slot and other["page"] == slot["page"]:
                apart = math.dist((cx, cy), (other["x"] + other["w"] / 2, other["y"] + other["h"] / 2))
                assert apart >= r + min(other["w"], other["h"]) / 2 + 2 * bleed - 0.05, (slug, slot["id"])
