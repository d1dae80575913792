"""Every bundled game on A4 and Letter, in every card size, duplex mode and cut mode, read back from the PDFs'
drawn geometry: pieces inside the printer margin, no two trims overlapping, crop marks off every trim and
inside the margin, every back behind its front, and a piece's bleed its own wherever its cuts are separate."""

from __future__ import annotations

import io
import itertools
from dataclasses import replace

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from printkit.data.game import Game
from printkit.data.settings import CARD_SIZES_MM, PAPERS, PrintSettings, card_size
from printkit.sheets import cardsheets, counters

Box = tuple[float, float, float, float]
MODES = ("long", "short", "none", "foldover")


def _objects(pdf: bytes) -> list[tuple[tuple[float, float], list[Box], list[Box]]]:
    """Each page's size, the art box each placed piece is clipped to (read from the content stream: the
    rectangle clipped to before each drawing is placed), and its hairlines (crop marks and the fold line)."""
    reader = PdfReader(io.BytesIO(pdf))
    doc = pdfium.PdfDocument(pdf)
    out = []
    for page, drawn in zip(reader.pages, doc, strict=True):
        clips: list[Box] = []
        last: Box | None = None
        for operands, operator in ContentStream(page.get_contents(), reader).operations:
            if operator == b"re":
                x, y, w, h = (float(v) for v in operands)
                last = (x, y, x + w, y + h)
            elif operator in (b"W", b"W*") and last is not None:
                clips.append(last)
            elif operator != b"n":
                last = None
        lines = []
        for o in drawn.get_objects(max_depth=1):
            box = tuple(o.get_bounds())
            if o.type == raw.FPDF_PAGEOBJ_PATH and ((box[2] - box[0]) < 1 or (box[3] - box[1]) < 1):
                lines.append(box)
        out.append(((float(page.mediabox.width), float(page.mediabox.height)), clips, lines))
    return out


def _overlap(a: Box, b: Box) -> float:
    return min(min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1]))


def _check(pdf: bytes, manifest: object, settings: PrintSettings, what: tuple[str, ...]) -> None:
    margin = settings.ink_margin
    slots = manifest.slots  # type: ignore[attr-defined]
    pages = _objects(pdf)
    for number, ((pw, ph), forms, lines) in enumerate(pages, 1):
        on_page = [s for s in slots if s["page"] == number]
        assert len(forms) == len(on_page), (*what, number)  # every slot drawn, once
        trims = [(s["x"], s["y"], s["x"] + s["w"], s["y"] + s["h"]) for s in on_page]
        for box in forms:  # what each piece draws, its bleed included, inside the printer margin
            assert box[0] >= margin - 0.05 and box[1] >= margin - 0.05, (*what, number, box)
            assert box[2] <= pw - margin + 0.05 and box[3] <= ph - margin + 0.05, (*what, number, box)
        for trim in trims:  # each trim inside the art it is cut from, the bleed beyond it
            assert any(_overlap(trim, box) >= min(trim[2] - trim[0], trim[3] - trim[1]) - 0.05 for box in forms), what
        for a, b in itertools.combinations(trims, 2):
            assert _overlap(a, b) <= 0.01, (*what, number)
        for line in lines:
            assert line[0] >= margin - 0.5 and line[1] >= margin - 0.5, (*what, number, line)
            assert line[2] <= pw - margin + 0.5 and line[3] <= ph - margin + 0.5, (*what, number, line)
            assert all(_overlap(line, trim) <= 0 for trim in trims), (*what, number, line)
    faces = {(s["id"], s["group"], s["copy"]): s for s in slots if s["side"] == "face"}
    for back in (s for s in slots if s["side"] == "back"):
        face = faces[(back["id"], back["group"], back["copy"])]
        pw, ph = pages[back["page"] - 1][0]
        if settings.foldover:  # mirrored across the fold, on the same page
            landed, page = (pw - back["x"] - back["w"], back["y"]), face["page"]
        elif settings.duplex == "long":
            landed, page = (pw - back["x"] - back["w"], back["y"]), face["page"] + 1
        elif settings.duplex == "short":
            landed, page = (back["x"], ph - back["y"] - back["h"]), face["page"] + 1
        else:
            landed, page = (back["x"], back["y"]), face["page"] + 1
        assert back["page"] == page and landed == pytest.approx((face["x"], face["y"]), abs=0.05), what


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("slug", ["battle-line", "soldier-battler", "time-line", "time-line-battle", "torah-timeline"])
def test_every_game_in_every_size_duplex_and_cut_mode(games: dict[str, Game], slug: str, paper: str) -> None:
    game = games[slug]
    # every size and mode with auto cuts (separate for a small deck, shared where they keep a page), and each
    # forced cut mode on two sizes that lie differently, upright and turned, duplex and folded
    forced = itertools.product(("poker", "mini"), ("long", "foldover"), ("shared", "separate"))
    for size, mode, cuts in [*itertools.product(CARD_SIZES_MM, MODES, ("auto",)), *forced]:
        duplex = "long" if mode == "foldover" else mode
        settings = replace(PrintSettings(), card=card_size(size), duplex=duplex, foldover=mode == "foldover", cuts=cuts)
        pdf, manifest = cardsheets.build(game, settings, paper)
        _check(pdf, manifest, settings, (slug, paper, size, mode, cuts))
        if cuts == "separate":  # each piece its own gutter: neighbours' trims at least twice the bleed apart
            for page in {s["page"] for s in manifest.slots}:
                on_page = [s for s in manifest.slots if s["page"] == page]
                trims = [(s["x"], s["y"], s["x"] + s["w"], s["y"] + s["h"]) for s in on_page]
                for a, b in itertools.combinations(trims, 2):
                    assert -_overlap(a, b) >= 2 * settings.bleed - 0.05, (slug, paper, size, mode, page)
    for mode, cuts in itertools.product(("long", "short", "none"), ("auto", "shared", "separate")):
        settings = replace(PrintSettings(), duplex=mode, cuts=cuts)
        built = counters.build(game, settings, paper)
        if built is not None:
            _check(*built, settings, (slug, paper, "counters", mode, cuts))
