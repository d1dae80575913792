"""Boards on pages: a part larger than the printable area tiled with overlap, alignment marks and a map.

A part is cut into tiles that overlap by OVERLAP; each tile is labelled with its row and
column, and an assembly map page shows how the tiles go together.
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from printkit.core.units import MM
from printkit.data.game import Game
from printkit.data.model import BOARD_KINDS, Component
from printkit.data.settings import PAPERS
from printkit.draw import fonts
from printkit.draw.board import Rect, board_size, draw_board
from printkit.draw.legibility import INK

MARGIN = 8 * MM  # page edge to the printed area: room for labels, inside any printer's reach
OVERLAP = 10 * MM  # each tile repeats this much of its neighbour, for gluing


@dataclass
class BoardManifest:
    paper: str
    page_size: tuple[float, float]
    overlap: float
    units: str = "PDF points; board_x, board_y from the board's bottom-left; page_x, page_y where that corner prints"
    parts: list[dict[str, Any]] = field(default_factory=list)

    def json(self) -> str:
        return json.dumps(asdict(self), indent=1, ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class Tiling:
    cols: int
    rows: int
    step_x: float
    step_y: float
    window: tuple[float, float]  # printable width and height of one tile

    def tile(self, row: int, col: int, board: tuple[float, float]) -> tuple[float, float, float, float]:
        """The part of the board (x, y from its bottom-left, w, h) that tile row, col shows."""
        w = min(self.window[0], board[0] - col * self.step_x)
        h = min(self.window[1], board[1] - row * self.step_y)
        y_top = board[1] - row * self.step_y
        return col * self.step_x, y_top - h, w, h


def tiling(board: tuple[float, float], page: tuple[float, float]) -> Tiling:
    window = (page[0] - 2 * MARGIN, page[1] - 2 * MARGIN - 6 * MM)  # 6 mm more for the tile label
    step = (window[0] - OVERLAP, window[1] - OVERLAP)
    cols = 1 if board[0] <= window[0] else math.ceil((board[0] - OVERLAP) / step[0])
    rows = 1 if board[1] <= window[1] else math.ceil((board[1] - OVERLAP) / step[1])
    return Tiling(cols, rows, step[0], step[1], window)


def _page_for(board: tuple[float, float], paper: str) -> tuple[float, float]:
    """Portrait or landscape, whichever needs fewer tiles."""
    portrait = PAPERS[paper]
    landscape = (portrait[1], portrait[0])
    count = {p: tiling(board, p).cols * tiling(board, p).rows for p in (portrait, landscape)}
    return min((portrait, landscape), key=lambda p: (count[p], p != portrait))


CROSS = 3 * MM  # an alignment cross's arm, from its centre
CROSS_CLEAR = 1 * MM  # and the least space between it and the board's text


def _spots(fixed: float, low: float, high: float, across: bool, labels: list[Rect]) -> list[float]:
    """Two places for crosses along an overlap strip, clear of the board's text when a place nearby is.

    The strip runs from low to high at fixed (a vertical strip at x = fixed when across is false, a
    horizontal one at y = fixed when true); each cross starts at a quarter of the way from either
    end and moves, a millimetre at a time, up to a fifth of the strip each way to the nearest place
    clear of every line of text. Both tiles that share the strip reckon it from the same board
    points, so their crosses still meet.
    """
    reach = CROSS + CROSS_CLEAR

    def clear(at: float) -> bool:
        x, y = (at, fixed) if across else (fixed, at)
        return not any(x0 - reach < x < x1 + reach and y0 - reach < y < y1 + reach for x0, y0, x1, y1 in labels)

    length = high - low
    spots = []
    for start in (low + length * 0.25, low + length * 0.75):
        tries = [start] + [start + sign * k * MM for k in range(1, int(length * 0.2 / MM) + 1) for sign in (-1, 1)]
        inside = [t for t in tries if low + reach <= t <= high - reach]
        spots.append(next((t for t in inside if clear(t)), start))
    return spots


def _cross(c: Canvas, x: float, y: float) -> None:
    c.setStrokeColor(HexColor("#000000"))
    c.setLineWidth(0.4)
    c.line(x - CROSS, y, x + CROSS, y)
    c.line(x, y - CROSS, x, y + CROSS)
    c.circle(x, y, 1.5 * MM, stroke=1, fill=0)


def _assembly_map(
    c: Canvas, comp: Component, board: tuple[float, float], t: Tiling, page: tuple[float, float], copy: int, copies: int
) -> None:
    pw, ph = page
    scale = min((pw - 2 * MARGIN) / board[0], (ph - 2 * MARGIN - 30 * MM) / board[1])
    x0 = (pw - board[0] * scale) / 2
    y0 = MARGIN
    c.setFont(fonts.use("sans-bold"), 12)
    c.setFillColor(HexColor(INK))
    of = f" (copy {copy + 1} of {copies})" if copies > 1 else ""
    c.drawString(MARGIN, ph - MARGIN - 8 * MM, f"{comp.name}{of}: assembly map")
    c.setFont(fonts.use("sans"), 8)
    c.drawString(
        MARGIN,
        ph - MARGIN - 14 * MM,
        f"{t.rows} x {t.cols} tiles, {board[0] / MM:.0f} x {board[1] / MM:.0f} mm. Trim each tile's top and left "
        "margin (not on the first row or column),",
    )
    c.drawString(
        MARGIN,
        ph - MARGIN - 18 * MM,
        f"lay it over its neighbour so the {OVERLAP / MM:.0f} mm overlaps and the circled crosses match, and glue.",
    )
    c.setLineWidth(0.6)
    for row in range(t.rows):
        for col in range(t.cols):
            x, y, w, h = t.tile(row, col, board)
            c.setStrokeColor(HexColor("#555555"))
            c.setFillColor(Color(0.9, 0.9, 0.9, alpha=0.35))
            c.rect(x0 + x * scale, y0 + y * scale, w * scale, h * scale, stroke=1, fill=1)
            c.setFillColor(HexColor(INK))
            c.setFont(fonts.use("sans-bold"), 9)
            c.drawCentredString(x0 + (x + w / 2) * scale, y0 + (y + h / 2) * scale, f"row {row + 1}, col {col + 1}")


def _tile_page(
    c: Canvas,
    form: str,
    comp: Component,
    board: tuple[float, float],
    t: Tiling,
    row: int,
    col: int,
    page: tuple[float, float],
    copy: int,
    copies: int,
    labels: list[Rect],
) -> dict[str, Any]:
    x, y, w, h = t.tile(row, col, board)
    px, py = MARGIN, page[1] - MARGIN - 6 * MM - h  # tiles hang from the top-left of the printable area
    c.saveState()
    path = c.beginPath()
    path.rect(px, py, w, h)
    c.clipPath(path, stroke=0, fill=0)
    c.translate(px - x, py - y)
    c.doForm(form)
    c.restoreState()
    # alignment marks in the overlap strips: the same board points appear on both neighbours
    for bx in ([x + OVERLAP / 2] if col > 0 else []) + ([x + w - OVERLAP / 2] if col < t.cols - 1 else []):
        for by in _spots(bx, y, y + h, False, labels):
            _cross(c, px + bx - x, py + by - y)
    for by in ([y + h - OVERLAP / 2] if row > 0 else []) + ([y + OVERLAP / 2] if row < t.rows - 1 else []):
        for bx in _spots(by, x, x + w, True, labels):
            _cross(c, px + bx - x, py + by - y)
    c.setFont(fonts.use("sans"), 7)
    c.setFillColor(HexColor(INK))
    of = f", copy {copy + 1} of {copies}" if copies > 1 else ""
    label = f"{comp.name}: tile row {row + 1}, column {col + 1} of {t.rows} x {t.cols}{of}"
    c.drawString(MARGIN, page[1] - MARGIN - 3 * MM, label)
    return {
        "row": row + 1,
        "col": col + 1,
        "board_x": round(x, 3),
        "board_y": round(y, 3),
        "w": round(w, 3),
        "h": round(h, 3),
        "page_x": round(px, 3),
        "page_y": round(py, 3),
    }


def build(game: Game, paper: str) -> tuple[bytes, BoardManifest] | None:
    parts = [c for c in game.info.components if c.kind in BOARD_KINDS and c.board is not None]
    if not parts:
        return None
    buffer = io.BytesIO()
    first_page = _page_for(board_size(parts[0]), paper)
    c = Canvas(buffer, pagesize=first_page, invariant=1, pageCompression=1, initialFontName=fonts.use("sans"))
    c.setTitle(f"{game.title} - boards ({paper.upper()})")
    c.setAuthor(game.info.credit)
    c.setCreator("printkit")
    manifest = BoardManifest(paper, PAPERS[paper], OVERLAP)
    page_no = 0
    for comp in parts:
        board = board_size(comp)
        page = _page_for(board, paper)
        t = tiling(board, page)
        form = f"board-{comp.id}"
        c.beginForm(form, lowerx=0, lowery=0, upperx=board[0], uppery=board[1])
        labels: list[Rect] = []  # where the board's text lies, for the crosses to keep clear of
        draw_board(c, game, comp, labels)
        c.endForm()
        copies = game.printed_count(comp)
        record: dict[str, Any] = {
            "id": comp.id,
            "name": comp.name,
            "copies": copies,
            "width": round(board[0], 3),
            "height": round(board[1], 3),
            "tiles_across": t.cols,
            "tiles_down": t.rows,
            "orientation": "portrait" if page[0] < page[1] else "landscape",
            "pages": [],
        }
        for copy in range(copies):
            if t.cols * t.rows > 1:
                c.setPageSize(page)
                _assembly_map(c, comp, board, t, page, copy, copies)
                page_no += 1
                record["pages"].append({"page": page_no, "copy": copy + 1, "map": True})
                c.showPage()
            for row in range(t.rows):
                for col in range(t.cols):
                    c.setPageSize(page)
                    tile = _tile_page(c, form, comp, board, t, row, col, page, copy, copies, labels)
                    page_no += 1
                    record["pages"].append({"page": page_no, "copy": copy + 1, **tile})
                    c.showPage()
        manifest.parts.append(record)
    c.save()
    return buffer.getvalue(), manifest
