"""The printer margin: no ink nearer the paper's edge, on every paper, card size and duplex mode, read from pixels."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdfium2.raw import FPDF_PAGEOBJ_FORM, FPDF_PAGEOBJ_PATH, FPDF_PAGEOBJ_TEXT

from printkit.core.units import MM
from printkit.data.game import Game
from printkit.data.settings import CARD_SIZES_MM, PAPERS, PrintSettings, card_size
from printkit.sheets import calibration, cardsheets, counters
from printkit.sheets.cardsheets import Selection

ROOT = Path(__file__).resolve().parent.parent
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


# --- the margin tolerance: ink begins past the printer margin by a band a designer can see and set -------------

FINE = 300  # dpi: a pixel is 0.085 mm, finer than the 0.5 mm tolerance it reads


def _nearest(pdf: bytes) -> float:
    """The least distance, in mm, from any inked pixel of any page to the nearest paper edge, read at FINE dpi."""
    nearest = float("inf")
    for page in pdfium.PdfDocument(pdf):
        image = page.render(scale=FINE / 72, grayscale=True).to_pil()
        w, h = image.size
        box = image.point(lambda v: 255 if v < 250 else 0).getbbox()  # any mark at all, the palest grey included
        if box is not None:
            nearest = min(nearest, box[0], box[1], w - box[2], h - box[3])
    return nearest * 25.4 / FINE


@pytest.mark.parametrize("paper", list(PAPERS))
def test_ink_begins_past_the_printer_margin_and_its_tolerance(games: dict[str, Game], paper: str) -> None:
    """The sheets a build makes, through build.paper_parts as a build makes them: by default the nearest ink is the
    printer margin and the tolerance from every edge (5.5 mm; it was 5.00 before the tolerance), and with the
    tolerance 0 it is the margin itself, to the pixel."""
    from printkit import build

    pixel = 25.4 / FINE
    defaults = PrintSettings()
    assert defaults.margin_tolerance > 0 and defaults.ink_margin == defaults.printer_margin + defaults.margin_tolerance
    wanted = {"battle-line": ("cards", "boards"), "time-line": ("counters",)}
    for tolerance in (defaults.margin_tolerance, 0.0):
        settings = replace(defaults, margin_tolerance=tolerance, cuts="shared")  # shared: marks at the page's edge
        edge = (settings.printer_margin + tolerance) / MM
        for slug, parts in wanted.items():
            files = build.paper_parts(games[slug], settings, paper, parts=frozenset(parts))
            for part in parts:
                pdf = files.get(f"{part}-{paper}.pdf")
                assert isinstance(pdf, bytes), (slug, part)
                reach = _nearest(pdf)
                assert reach >= edge - pixel, (slug, part, tolerance, reach)
                if part != "boards":  # a board keeps its own 8 mm: the sheets of pieces run to the edge allowed
                    assert reach < edge + 2 * pixel, (slug, part, tolerance, reach)


def test_a_board_keeps_the_tolerance_past_a_margin_wider_than_its_own(games: dict[str, Game]) -> None:
    from printkit import build

    settings = replace(PrintSettings(), printer_margin=12 * MM, margin_tolerance=3 * MM)
    pdf = build.paper_parts(games["battle-line"], settings, "letter", parts=frozenset({"boards"}))["boards-letter.pdf"]
    assert isinstance(pdf, bytes) and _nearest(pdf) >= 15 - 25.4 / FINE


@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_calibration_page_shows_the_tolerance_band_and_says_its_figures(paper: str) -> None:
    """Inside the dashed frame at the printer margin, a grey band as wide as the tolerance, ending where ink begins;
    its figures in the lower-left corner, in text no smaller than any page prints."""
    from printkit.draw.layout import SMALLEST_TEXT

    margin, tolerance = 6 * MM, 1.5 * MM
    ph = PAPERS[paper][1]
    page = pdfium.PdfDocument(calibration.build(paper, "long", margin, tolerance))[0]
    image = page.render(scale=FINE / 72, grayscale=True).to_pil()
    px = FINE / 72  # pixels a point
    # across the band, a third of the way up the left edge (away from the gauge at the middle): grey from the
    # margin to margin + tolerance, white past it
    row = round((ph - ph / 3) * px)
    shades = [image.getpixel((round(x / 25.4 * FINE), row)) for x in (6.5, 7.0, 7.25, 8.0, 10.0)]
    assert all(100 < v < 230 for v in shades[:3]) and all(v > 250 for v in shades[3:]), shades
    text = page.get_textpage()
    said = text.get_text_range()
    assert "printer margin 6 mm" in said and "margin tolerance 1.5 mm" in said and "ink begins 7.5 mm" in said
    assert "margin_tolerance" in said  # the instructions name the setting to widen
    sizes = [o.get_font_size() for o in page.get_objects() if o.type == FPDF_PAGEOBJ_TEXT]
    assert sizes and min(sizes) >= SMALLEST_TEXT - 0.01
    no_band = pdfium.PdfDocument(calibration.build(paper, "long", margin, 0.0))[0]
    image = no_band.render(scale=FINE / 72, grayscale=True).to_pil()
    assert image.getpixel((round(7.0 / 25.4 * FINE), row)) > 250  # no tolerance, no band
    assert "no band" in no_band.get_textpage().get_text_range()


@pytest.mark.parametrize(
    ("where", "value", "expected"),
    [
        ("game", "9mm", r"^game\.yaml:12:\d+: print\.margin_tolerance: expected a margin tolerance from 0mm to 5mm, "),
        ("project", "-1mm", r"^printkit\.toml:2:1: print\.margin_tolerance: expected a margin tolerance from 0mm "),
        ("command", "6mm", r"^printkit: --margin-tolerance: expected a margin tolerance from 0mm to 5mm, found '6mm'"),
    ],
)
def test_a_bad_margin_tolerance_is_one_line_at_its_place(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    where: str,
    value: str,
    expected: str,
) -> None:
    from printkit.cli import main

    monkeypatch.chdir(tmp_path)
    shutil.copytree(ROOT / "cards" / "soldier-battler", tmp_path / "soldier-battler")
    game_yaml = tmp_path / "soldier-battler" / "game.yaml"
    args = ["build", "soldier-battler", "--only", "cards", "--no-check", "--out", str(tmp_path / "out")]
    if where == "game":
        text = game_yaml.read_text()
        game_yaml.write_text(
            text.replace("print: {card_size: poker,", f"print: {{margin_tolerance: {value}, card_size: poker,")
        )
    elif where == "project":
        (tmp_path / "printkit.toml").write_text(f'[print]\nmargin_tolerance = "{value}"\n')
    else:
        args += ["--margin-tolerance", value]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert re.match(expected, err.replace(str(tmp_path) + "/", "").replace("soldier-battler/", "")), err
    assert not (tmp_path / "out").exists()


def test_a_build_says_the_margin_and_tolerance_it_keeps(
    tmp_path: Path, games: dict[str, Game], capsys: pytest.CaptureFixture[str]
) -> None:
    from printkit.cli import main

    out = tmp_path / "out"
    args = ["build", "soldier-battler", "--only", "cards", "--paper", "a4", "--no-check", "--out", str(out)]
    assert main([*args, "--margin-tolerance", "1mm"]) == 0
    said = capsys.readouterr().out
    assert "ink begins 6 mm from each paper edge: printer margin 5 mm + margin tolerance 1 mm" in said, said
    recorded = json.loads((out / "soldier-battler" / "components.json").read_text())["print"]
    assert (recorded["printer_margin_mm"], recorded["margin_tolerance_mm"]) == (5.0, 1.0)
