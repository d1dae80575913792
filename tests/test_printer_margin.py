"""The printer margin: no ink nearer the paper's edge, on every paper, card size and duplex mode, read from pixels."""

from __future__ import annotations

from dataclasses import replace

import pypdfium2 as pdfium
import pytest
from pypdfium2.raw import FPDF_PAGEOBJ_FORM, FPDF_PAGEOBJ_PATH

from printkit.core.units import MM
from printkit.data.game import Game
from printkit.data.settings import CARD_SIZES_MM, PAPERS, PrintSettings, card_size
from printkit.sheets import calibration, cardsheets, counters
from printkit.sheets.cardsheets import Selection

DPI = 72  # a pixel is 0.35 mm: enough to see ink in a 5 mm strip
MODES = ("long", "short", "none", "foldover")


def _ink_reach(pdf: bytes) -> float:
    """The least distance, in mm, from any inked pixel of any page to the nearest paper edge."""
    nearest = float("inf")
    doc = pdfium.PdfDocument(pdf)
    for page in doc:
        image = page.render(scale=DPI / 72, grayscale=True).to_pil()
        w, h = image.size
        box = image.point(lambda v: 255 if v < 200 else 0).getbbox()  # pixels with ink on them
        if box is None:
            continue
        x0, y0, x1, y1 = box
        nearest = min(nearest, x0, y0, w - x1, h - y1)
    return nearest * 25.4 / DPI


def _settings(size: str, mode: str, margin: float = 5 * MM) -> PrintSettings:
    duplex = "long" if mode == "foldover" else mode
    return replace(
        PrintSettings(), card=card_size(size), duplex=duplex, foldover=mode == "foldover", printer_margin=margin
    )


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("size", list(CARD_SIZES_MM))
def test_no_ink_within_the_printer_margin(games: dict[str, Game], paper: str, size: str) -> None:
    game = games["soldier-battler"]
    for mode in MODES:
        pdf, manifest = cardsheets.build(game, _settings(size, mode), paper, Selection())
        assert manifest.slots, (size, mode)
        # a pixel's width of anti-aliasing is allowed for
        assert _ink_reach(pdf) >= 5 - 25.4 / DPI, (paper, size, mode)


@pytest.mark.parametrize("paper", list(PAPERS))
def test_counters_keep_the_margin_too(games: dict[str, Game], paper: str) -> None:
    pdf, _ = counters.build(games["time-line"], PrintSettings(), paper)
    assert _ink_reach(pdf) >= 5 - 25.4 / DPI


def test_a_wider_margin_is_kept_and_a_narrower_one_fits_more(games: dict[str, Game]) -> None:
    game = games["battle-line"]  # 60 troops: pages as full as the grid allows
    pdf, wide = cardsheets.build(game, _settings("poker", "long", 20 * MM), "letter", Selection())
    assert _ink_reach(pdf) >= 20 - 25.4 / DPI
    _, narrow = cardsheets.build(game, _settings("poker", "long", 0.5 * MM), "letter", Selection())
    _, usual = cardsheets.build(game, _settings("poker", "long"), "letter", Selection())
    cards = {card.id for card in game.cards}  # the tokens that ride on the last page do not count
    per_page = {
        name: max(sum(1 for s in m.slots if s["page"] == p and s["id"] in cards) for p in {s["page"] for s in m.slots})
        for name, m in (("wide", wide), ("usual", usual), ("narrow", narrow))
    }
    assert per_page["wide"] < per_page["usual"] < per_page["narrow"] == 9  # 9 poker cards only on borderless paper


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_cards_on_their_side_have_backs_that_turn_with_them(games: dict[str, Game], duplex: str) -> None:
    # poker cards on Letter lie on their side (8 to a page instead of 6 upright within 5 mm margins)
    pdf, manifest = cardsheets.build(games["soldier-battler"], _settings("poker", duplex), "letter", Selection())
    faces = {(s["id"], s["copy"]): s for s in manifest.slots if s["side"] == "face"}
    backs = [s for s in manifest.slots if s["side"] == "back"]
    assert backs and all(s["turn"] == 90 for s in faces.values()) and all(s["turn"] == -90 for s in backs)
    # in the PDF itself: each face's up points to the page's left, each back's to its right
    doc = pdfium.PdfDocument(pdf)
    for number, page in enumerate(doc, 1):
        ups = {round(o.get_matrix().b) for o in page.get_objects(max_depth=1) if o.type == FPDF_PAGEOBJ_FORM}
        assert ups == ({1} if number % 2 else {-1}), number
    pw, ph = PAPERS["letter"]
    for back in backs:
        face = faces[(back["id"], back["copy"])]
        assert (back["w"], back["h"]) == (face["w"], face["h"]) == (round(88.9 * MM, 3), round(63.5 * MM, 3))
        landed = (
            (pw - back["x"] - back["w"], back["y"]) if duplex == "long" else (back["x"], ph - back["y"] - back["h"])
        )
        assert landed == pytest.approx((face["x"], face["y"]), abs=0.3)


def test_boards_keep_a_printer_margin_wider_than_their_own(games: dict[str, Game]) -> None:
    from printkit.sheets import boards

    for slug in ("time-line-battle", "battle-line"):
        pdf, _ = boards.build(games[slug], "letter", 15 * MM) or (b"", None)
        assert _ink_reach(pdf) >= 15 - 25.4 / DPI, slug


@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_calibration_page_gauges_the_printers_margin_and_frames_the_builds(paper: str) -> None:
    """Bars 1-10 mm from each edge, to read how near a printer inks, and a frame at the margin the build kept."""
    margin = 6.5 * MM
    pw, ph = PAPERS[paper]
    page = pdfium.PdfDocument(calibration.build(paper, "long", margin))[0]
    boxes = [o.get_bounds() for o in page.get_objects() if o.type == FPDF_PAGEOBJ_PATH]
    bars: dict[str, list[float]] = {"bottom": [], "top": [], "left": [], "right": []}
    for x0, y0, x1, y1 in boxes:
        across, up = (x0 + x1) / 2, (y0 + y1) / 2  # a line's middle, its stroke's width either side
        if x1 - x0 == pytest.approx(calibration.BAR, abs=2) and y1 - y0 < 2:
            if up < 11 * MM:
                bars["bottom"].append(up)
            elif up > ph - 11 * MM:
                bars["top"].append(ph - up)
        elif y1 - y0 == pytest.approx(calibration.BAR, abs=2) and x1 - x0 < 2:
            if across < 11 * MM:
                bars["left"].append(across)
            elif across > pw - 11 * MM:
                bars["right"].append(pw - across)
    for edge, found in bars.items():
        assert [round(d / MM, 2) for d in sorted(found)] == [float(mm) for mm in calibration.GAUGE], edge
    frame = (margin, margin, pw - margin, ph - margin)
    assert any(all(abs(a - b) < 1 for a, b in zip(box, frame, strict=True)) for box in boxes)
    assert all(x0 >= 0 and y0 >= 0 and x1 <= pw and y1 <= ph for x0, y0, x1, y1 in boxes)
    back = pdfium.PdfDocument(calibration.build(paper, "long", margin))[1]  # the back: the target alone
    assert not [o for o in back.get_objects() if o.type == FPDF_PAGEOBJ_PATH and o.get_bounds()[1] < 11 * MM]
