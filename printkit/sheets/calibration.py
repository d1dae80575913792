"""The calibration sheet: print it double-sided, hold it to the light, read the printer's offset and margin."""

from __future__ import annotations

import io

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas

from printkit.core.units import MM
from printkit.data.settings import PAPERS, PrintSettings
from printkit.draw import fonts, textfit
from printkit.draw.layout import SMALLEST_TEXT
from printkit.sheets import geometry

TARGET = 20 * MM  # ruler half-length each way from the centre mark
GAUGE = range(1, 11)  # the margin gauge's bars, in whole mm from the paper's edge
BAR = 3 * MM  # a bar's length, along the edge
PITCH = 4 * MM  # from one bar to the next, along the edge
NUMBERS = 12 * MM  # the bars' numbers, this far in from the edge: clear of what any printer leaves blank
BAND = HexColor("#b4b4b4")  # the tolerance band: a grey that a laser's or an inkjet's clipped edge shows plainly
LEGEND = 7.0  # points: the frame's legend, above the smallest text any page prints
LEGEND_CORNER = 16 * MM  # the legend at least this far in from the left and bottom edges: clear of the gauge's numbers
DEFAULTS = PrintSettings()


def _ruler(c: Canvas, cx: float, cy: float, label: str) -> None:
    face = fonts.use("sans")
    c.setLineWidth(0.3)
    c.setStrokeColor(HexColor("#000000"))
    c.setFillColor(HexColor("#000000"))
    for i in range(-20, 21):
        tick = (3 if i % 5 == 0 else 1.5) * MM
        c.line(cx + i * MM, cy - tick / 2, cx + i * MM, cy + tick / 2)
        c.line(cx - tick / 2, cy + i * MM, cx + tick / 2, cy + i * MM)
        if i % 5 == 0 and i:
            # each ruler's labels in quadrants of their own, so neither reads over the other near the centre:
            # across, + below the line and - above it; up, + to the right and - to the left
            c.setFont(face, SMALLEST_TEXT)
            c.drawCentredString(cx + i * MM, cy + (-4.5 if i > 0 else 2.5) * MM, f"{i:+d}")
            if i > 0:
                c.drawString(cx + 2.5 * MM, cy + i * MM - 1.5, f"{i:+d}")
            else:
                c.drawRightString(cx - 2.5 * MM, cy + i * MM - 1.5, f"{i:+d}")
    c.setLineWidth(0.8)
    c.line(cx - TARGET, cy, cx + TARGET, cy)
    c.line(cx, cy - TARGET, cx, cy + TARGET)
    c.circle(cx, cy, 2 * MM, stroke=1, fill=0)
    c.setFont(fonts.use("sans-bold"), 8)
    c.drawCentredString(cx, cy + TARGET + 3 * MM, label)


def _margin_gauge(c: Canvas, pw: float, ph: float, margin: float, tolerance: float) -> None:
    """At the middle of each edge a bar 1, 2, ... 10 mm from it, each numbered further in: the bars a printer cannot
    reach are missing, so the lowest number printed whole is how near it inks. A dashed frame at the printer margin
    shows whether that is near enough, and a grey band inside it, as wide as the margin tolerance, ends where this
    build's ink begins: a band clipped on some sheets asks for a wider tolerance."""
    face = fonts.use("sans")
    c.saveState()
    c.setStrokeColor(HexColor("#000000"))
    c.setFillColor(HexColor("#000000"))
    c.setLineWidth(0.6)
    c.setFont(face, SMALLEST_TEXT)
    span = (len(GAUGE) - 1) * PITCH + BAR
    for edge in ("bottom", "top", "left", "right"):
        along = (pw if edge in ("bottom", "top") else ph) / 2 - span / 2
        for i, mm in enumerate(GAUGE):
            start, depth = along + i * PITCH, mm * MM
            middle = start + BAR / 2
            if edge == "bottom":
                c.line(start, depth, start + BAR, depth)
                c.drawCentredString(middle, NUMBERS, str(mm))
            elif edge == "top":
                c.line(start, ph - depth, start + BAR, ph - depth)
                c.drawCentredString(middle, ph - NUMBERS - SMALLEST_TEXT * 0.7, str(mm))
            elif edge == "left":
                c.line(depth, start, depth, start + BAR)
                c.drawString(NUMBERS, middle - SMALLEST_TEXT * 0.35, str(mm))
            else:
                c.line(pw - depth, start, pw - depth, start + BAR)
                c.drawRightString(pw - NUMBERS, middle - SMALLEST_TEXT * 0.35, str(mm))
    ink = margin + tolerance
    if tolerance > 0:  # the band between the two frames, filled even-odd: a ring, not a sheet of grey
        band = c.beginPath()
        band.rect(margin, margin, pw - 2 * margin, ph - 2 * margin)
        band.rect(ink, ink, pw - 2 * ink, ph - 2 * ink)
        c.setFillColor(BAND)
        c.drawPath(band, stroke=0, fill=1, fillMode=FILL_EVEN_ODD)
        c.setFillColor(HexColor("#000000"))
    c.setLineWidth(0.3)
    c.setDash(2, 2)
    c.rect(margin, margin, pw - 2 * margin, ph - 2 * margin, stroke=1, fill=0)
    c.restoreState()
    _legend(c, margin, tolerance)


def _legend(c: Canvas, margin: float, tolerance: float) -> None:
    """The frame's figures in the page's lower-left corner, inside where ink begins: what the band and frame stand
    for, in millimetres, so a sheet held to the printer's output says which setting to change."""
    lines = [
        f"dashed frame: printer margin {margin / MM:g} mm",
        f"grey band: margin tolerance {tolerance / MM:g} mm" if tolerance > 0 else "margin tolerance 0 mm: no band",
        f"ink begins {(margin + tolerance) / MM:g} mm from each edge",
    ]
    corner = max(margin + tolerance + 2 * MM, LEGEND_CORNER)
    c.setFont(fonts.use("sans"), LEGEND)
    for i, line in enumerate(reversed(lines)):
        c.drawString(corner, corner + i * LEGEND * 1.3, line)


def build(
    paper: str, duplex: str, margin: float = DEFAULTS.printer_margin, tolerance: float = DEFAULTS.margin_tolerance
) -> bytes:
    """Two pages: a target on the front, and on the back the same target where the flip should land it; on the
    front, too, a gauge of how near the paper's edge the printer inks, a frame at the printer margin (margin) and
    inside it a band as wide as the margin tolerance (tolerance), which ends where the build's ink begins."""
    pw, ph = PAPERS[paper]
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(pw, ph), invariant=1, pageCompression=1, initialFontName=fonts.use("sans"))
    c.setTitle(f"printkit duplex calibration ({paper.upper()}, {duplex} edge)")
    c.setCreator("printkit")
    spots = [(pw * 0.3, ph * 0.7), (pw * 0.7, ph * 0.3)]
    text = [
        f"Duplex calibration - {paper.upper()}, flip on the {duplex} edge",
        "1. Print both pages double-sided at actual size (no scaling, no fit to page).",
        "2. Hold the sheet against a bright light: you see both targets at once.",
        "3. Read where the back's centre falls on the front's rulers, in mm: right and up are +.",
        "4. Build with --offset X,Y using the negated readings, e.g. a back 1.5 mm right and",
        "   0.5 mm down needs --offset -1.5,0.5. Two targets show whether the error is a shift.",
        "5. At the middle of each edge, bars stand 1 to 10 mm from it: the lowest number whose bar printed whole",
        f"   is how near this printer inks. The dashed frame is the printer margin ({margin / MM:g} mm): if any of it"
        " is",
        "   missing, or a bar inside it, set printer_margin (or --printer-margin) to that number. Ink begins past the",
        f"   grey band inside it, the margin tolerance ({tolerance / MM:g} mm): if the band is cut on some sheets,"
        " set margin_tolerance wider.",
    ]
    for side in ("front", "back"):
        for x, y in spots:
            if side == "back":
                grid = geometry.Grid(pw, ph, 0.0, 0.0, 0.0, 1, 1, 0.0, 0.0, 0.0)
                x, y = geometry.back_position(grid, x, y, duplex)
            _ruler(c, x, y, f"{side.upper()} target")
        if side == "front":
            _margin_gauge(c, pw, ph, margin, tolerance)
        line_y = ph - 20 * MM
        for line in text if side == "front" else text[:1]:  # the one fit check, as for every text drawn
            size = textfit.one_line(line, "sans", pw - 30 * MM, 9, "the duplex calibration page: its instructions")
            c.setFont(fonts.use("sans"), size)
            c.drawString(15 * MM, line_y, line)
            line_y -= 12
        c.showPage()
    c.save()
    return buffer.getvalue()
