"""Boards on pages: a part larger than the printable area tiled with overlap, alignment marks and a map.

A part is cut into tiles of one size that overlap by OVERLAP (an even split: no thin strip at
the end); each tile is labelled with its row and column, and an assembly map shows how the tiles
go together. Tiles, whole small parts and maps share pages, packed in shelves from the top-left,
a gap between them to cut along; each part is split for the page turn that takes fewer pages.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from printkit.core.errors import PlacedError
from printkit.core.units import MM
from printkit.data.game import Game
from printkit.data.model import BOARD_KINDS, Component
from printkit.data.settings import PAPERS
from printkit.draw import fonts, ink, textfit
from printkit.draw.board import board_size, draw_board
from printkit.draw.legibility import INK

MARGIN = 8 * MM  # page edge to the printed area (or the printer margin and its tolerance, when wider)
OVERLAP = 10 * MM  # each tile repeats this much of its neighbour, for gluing
LABEL = 6 * MM  # above each tile: the part's name, the tile's row and column
GAP = 5 * MM  # between pieces sharing a page: room to cut each out
MAP_WIDTHS = (120 * MM, 90 * MM, 60 * MM, 45 * MM)  # an assembly map's widths to try: the narrower fit beside a tile
MAP_CELL = 9 * MM  # the least height of a tile's cell on a map, so its label reads
# tiles of one board, its copies together: a tile is near a page, and a thousand pages of one board is past any
# game (1,000 copies of a 20-tile board took 35 s to be checked)
MAX_TILES = 1_000
MAP_TALLEST = 150 * MM  # a map's grid of cells at the most: with its text, it fits any page's window


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
    """A part cut into cols x rows tiles of one size, neighbours overlapping by OVERLAP."""

    cols: int
    rows: int
    tile_w: float
    tile_h: float

    @property
    def count(self) -> int:
        return self.cols * self.rows

    def tile(self, row: int, col: int, board: tuple[float, float]) -> tuple[float, float, float, float]:
        """The part of the board (x, y from its bottom-left, w, h) that tile row, col shows (row 0 at the top)."""
        step_x, step_y = self.tile_w - OVERLAP, self.tile_h - OVERLAP
        return col * step_x, board[1] - row * step_y - self.tile_h, self.tile_w, self.tile_h


def _split(length: float, room: float) -> tuple[int, float]:
    """How many tiles of one length cover length within room, overlapping by OVERLAP, and that length."""
    if length <= room + 1e-6:
        return 1, length
    count = math.ceil((length - OVERLAP) / (room - OVERLAP) - 1e-9)
    return count, (length + (count - 1) * OVERLAP) / count


def tiling(board: tuple[float, float], window: tuple[float, float]) -> Tiling:
    """The fewest tiles of one size that cover the board, each fitting window with its label above it."""
    cols, tile_w = _split(board[0], window[0])
    rows, tile_h = _split(board[1], window[1] - LABEL)
    return Tiling(cols, rows, tile_w, tile_h)


@dataclass(frozen=True)
class Item:
    """One thing to place on a page: a tile with its label, or an assembly map; w x h with everything it draws."""

    w: float
    h: float
    draw: Callable[[Canvas, float, float], dict[str, Any]]  # at its top-left x, y: what the manifest records
    part: int  # the index of its part, for the manifest
    turn: str  # the page turn its part was split for: "portrait" or "landscape"


Placed = tuple[Item, float, float]  # an item and its top-left corner on the page


def _windows(paper: str, margin: float) -> dict[str, tuple[float, float]]:
    pw, ph = PAPERS[paper]
    return {"portrait": (pw - 2 * margin, ph - 2 * margin), "landscape": (ph - 2 * margin, pw - 2 * margin)}


def shelves(items: list[Item], window: tuple[float, float]) -> tuple[list[Placed], list[Item]]:
    """Items placed in order on one page's window, in shelves from the top-left: those placed (x, y from the
    window's top-left, y downward) and those left for the next page. A shelf is as tall as its first item."""
    placed, end = _shelves_from(items, 0, window)
    return placed, items[end:]


def _shelves_from(items: list[Item], start: int, window: tuple[float, float]) -> tuple[list[Placed], int]:
    """shelves() of the items from start on: those placed, and the index of the first left for the next page.
    (An index, not the rest as a list: a thousand copies of a board's tiles were copied once a page.)"""
    placed: list[Placed] = []
    rows: list[list[float]] = []  # each shelf: its top, its height, the width used
    for index in range(start, len(items)):
        item = items[index]
        if item.w > window[0] + 1e-6 or item.h > window[1] + 1e-6:
            return placed, index
        shelf = next((r for r in rows if r[2] + GAP + item.w <= window[0] + 1e-6 and item.h <= r[1] + 1e-6), None)
        if shelf is not None:
            placed.append((item, shelf[2] + GAP, shelf[0]))
            shelf[2] += GAP + item.w
            continue
        top = rows[-1][0] + rows[-1][1] + GAP if rows else 0.0
        if top + item.h > window[1] + 1e-6:
            return placed, index
        rows.append([top, item.h, item.w])
        placed.append((item, 0.0, top))
    return placed, len(items)


def pack(items: list[Item], windows: dict[str, tuple[float, float]]) -> list[tuple[str, list[Placed]]]:
    """Items on pages in order, each page turned whichever way holds more of what comes next (its first
    item's turn when both hold as many)."""
    pages: list[tuple[str, list[Placed]]] = []
    start = 0
    while start < len(items):
        ways = {turn: _shelves_from(items, start, window) for turn, window in windows.items()}
        first = items[start].turn
        turn = max(ways, key=lambda t: (len(ways[t][0]), t == first))
        placed, start = ways[turn]
        if not placed:  # tiling() keeps every tile, and _map_item every map, within a window
            raise AssertionError(f"an item of {items[start].w / MM:.0f} x {items[start].h / MM:.0f} mm fits no page")
        pages.append((turn, placed))
    return pages


CELL_LINE = 0.6  # points: the assembly map's cell outlines
GUIDE = 0.4  # points: the line in an overlap strip that the covering tile's edge is laid along
HALO = 1.2  # points: the paper-white band under it, so it shows on dark art


def _guide(c: Canvas, x0: float, y0: float, x1: float, y1: float) -> None:
    """A guide line from x0, y0 to x1, y1 on a white halo: where the neighbouring tile's edge goes. It lies in the
    strip that tile covers, drawn wholly on the covered side of that edge (the caller's points), so the
    assembled board hides it."""
    c.saveState()
    c.setLineCap(0)
    for colour, width in (("#ffffff", HALO), ("#000000", GUIDE)):
        c.setStrokeColor(HexColor(colour))
        c.setLineWidth(width)
        c.line(x0, y0, x1, y1)
    c.restoreState()


@dataclass(frozen=True)
class Part:
    """One board to print: the component, its size, its tiling and where its data is written."""

    comp: Component
    board: tuple[float, float]
    tiling: Tiling
    copies: int
    at: str  # "file:line:column: board ID" for error messages
    form: str


def _map_lines(part: Part) -> list[str]:
    t = part.tiling
    return [
        f"{t.rows} x {t.cols} tiles of {t.tile_w / MM:.0f} x {t.tile_h / MM:.0f} mm make the "
        f"{part.board[0] / MM:.0f} x {part.board[1] / MM:.0f} mm board"
        + (f" (print {part.copies} copies)." if part.copies > 1 else "."),
        "Cut each tile out along its edges. Lay each tile over the one to its left and the one above,",
        f"its edges along the lines in their {OVERLAP / MM:.0f} mm strips, so the lines just hide; then glue.",
    ]


def _map_item(part: Part, index: int, width: float) -> Item:
    """The assembly map: the part's name, how to assemble it, and its tiles drawn as a grid of labelled cells."""
    t = part.tiling
    text = " ".join(_map_lines(part))
    where = f"{part.at}: its assembly map"
    title_size = textfit.one_line(f"{part.comp.name}: assembly map", "sans-bold", width, 12, f"{where}'s title")
    lines = textfit.fitted(text, "sans", width, 60 * MM, 8, f"{where}'s instructions", min_size=7)
    scale = min(width / part.board[0], 90 * MM / part.board[1])
    cell_h = max(t.tile_h * scale, MAP_CELL)  # a schematic: cells as tall as their labels need
    if t.rows * cell_h > MAP_TALLEST:  # tiles without number: a map a page can hold, or the board named
        raise textfit.TextDoesNotFit(
            f"{where}: {t.rows} rows of tiles do not fit a page's map with their labels: make the board smaller"
        )
    step_y = cell_h if t.rows == 1 else (t.tile_h - OVERLAP) * scale * cell_h / (t.tile_h * scale)
    grid_h = cell_h + (t.rows - 1) * step_y
    text_h = 5 * MM + len(lines.lines) * lines.leading
    cell_w = t.tile_w * scale
    try:
        label = textfit.one_line(f"row {t.rows}, col {t.cols}", "sans-bold", cell_w - 2 * MM, 9, f"{where}'s cells")
        name = "row {}, col {}"
    except textfit.TextDoesNotFit:  # a narrow cell: the short form
        label = textfit.one_line(f"r{t.rows} c{t.cols}", "sans-bold", cell_w - 2 * MM, 9, f"{where}'s cells")
        name = "r{} c{}"

    def draw(c: Canvas, x: float, y: float) -> dict[str, Any]:
        c.setFillColor(HexColor(INK))
        c.setFont(fonts.use("sans-bold"), title_size)
        c.drawString(x, y - title_size * 0.8, f"{part.comp.name}: assembly map")
        c.setFont(fonts.use("sans"), lines.size)
        baseline = y - 5 * MM - lines.size * 0.8
        for words in lines.texts:
            c.drawString(x, baseline, words)
            baseline -= lines.leading
        top = y - text_h - 2 * MM
        c.setLineWidth(CELL_LINE)
        half = CELL_LINE / 2  # each cell's outline stroked inside its box: none of it past the printable area
        for row in range(t.rows):
            for col in range(t.cols):
                cx = x + col * (t.tile_w - OVERLAP) * scale
                cy = top - row * step_y - cell_h
                c.setStrokeColor(HexColor("#555555"))
                c.setFillColor(Color(0.9, 0.9, 0.9, alpha=0.35))
                c.rect(cx + half, cy + half, cell_w - CELL_LINE, cell_h - CELL_LINE, stroke=1, fill=1)
                c.setFillColor(HexColor(INK))
                c.setFont(fonts.use("sans-bold"), label)
                c.drawCentredString(cx + cell_w / 2, cy + cell_h / 2 - label * 0.35, name.format(row + 1, col + 1))
        height = text_h + 2 * MM + grid_h
        return {
            "map": True,
            "page_x": round(x, 3),
            "page_y": round(y - height, 3),
            "w": round(width, 3),
            "h": round(height, 3),
        }

    return Item(width, text_h + 2 * MM + grid_h, draw, index, "")


def _tile_item(part: Part, index: int, row: int, col: int, copy: int) -> Item:
    t, comp, board = part.tiling, part.comp, part.board
    x, y, w, h = t.tile(row, col, board)
    of = f", copy {copy + 1} of {part.copies}" if part.copies > 1 else ""
    label = f"{comp.name}: tile row {row + 1}, column {col + 1} of {t.rows} x {t.cols}{of}" if t.count > 1 else ""
    label = label or (f"{comp.name}, copy {copy + 1} of {part.copies}" if part.copies > 1 else comp.name)
    size = textfit.one_line(label, "sans", w, 7, f"{part.at}: its tile label")

    def draw(c: Canvas, px: float, top: float) -> dict[str, Any]:
        c.setFont(fonts.use("sans"), size)
        c.setFillColor(HexColor(INK))
        c.drawString(px, top - 3 * MM, label)
        py = top - LABEL - h
        c.saveState()
        path = c.beginPath()
        path.rect(px, py, w, h)
        c.clipPath(path, stroke=0, fill=0)
        c.translate(px - x, py - y)
        c.doForm(part.form)
        c.restoreState()
        # guides only in the strips the neighbours to the right and below lie over (each tile goes over the one
        # to its left and the one above), at the covering tile's edge: none shows on the assembled board
        inset = HALO / 2
        if col < t.cols - 1:
            edge = px + w - OVERLAP + inset
            _guide(c, edge, py, edge, py + h)
        if row < t.rows - 1:
            edge = py + OVERLAP - inset
            _guide(c, px, edge, px + w, edge)
        return {
            "copy": copy + 1,
            "row": row + 1,
            "col": col + 1,
            "board_x": round(x, 3),
            "board_y": round(y, 3),
            "w": round(w, 3),
            "h": round(h, 3),
            "page_x": round(px, 3),
            "page_y": round(py, 3),
        }

    return Item(w, h + LABEL, draw, index, "")


def _items(part: Part, index: int, turn: str, map_width: float = MAP_WIDTHS[0]) -> list[Item]:
    """Every tile of a part, copy by copy and row by row, then its map (when it has more than one tile):
    last, it takes the room the tiles leave on their shelves."""
    assembly = [_map_item(part, index, map_width)] if part.tiling.count > 1 else []  # a map too big says so first
    out = []
    for copy in range(part.copies):
        for row in range(part.tiling.rows):
            for col in range(part.tiling.cols):
                out.append(_tile_item(part, index, row, col, copy))
    out += assembly
    return [Item(i.w, i.h, i.draw, i.part, turn) for i in out]


def _choose(
    comp: Component, board: tuple[float, float], copies: int, at: str, windows: dict[str, tuple[float, float]]
) -> tuple[Part, str, float]:
    """The part split for the page turn, and its map at the width, that take the fewest pages alone; then the
    fewest tiles, portrait, and the widest map."""
    ways = []
    tiles = []
    for turn, window in windows.items():
        part = Part(comp, board, tiling(board, window), copies, at, f"board-{comp.id}")
        tiles.append(part.tiling.count * copies)
        if tiles[-1] > MAX_TILES:  # counted before a tile is laid out: each is a page's worth of drawing
            continue
        for width in MAP_WIDTHS if part.tiling.count > 1 else MAP_WIDTHS[:1]:
            try:
                pages = len(pack(_items(part, 0, turn, width), {turn: window}))
            except textfit.TextDoesNotFit:
                if width == MAP_WIDTHS[0]:
                    raise
                continue  # a narrower map whose cells cannot hold their labels
            ways.append(((pages, part.tiling.count, turn != "portrait", -width), part, turn, width))
    if not ways:
        each = f" ({copies:,} copies)" if copies > 1 else ""
        raise PlacedError(
            f"{at}: {min(tiles):,} tiles to print{each}: expected at most {MAX_TILES:,} a board; "
            "print fewer copies or make it smaller"
        )
    _, part, turn, width = min(ways, key=lambda way: way[0])
    return part, turn, width


def _parts(game: Game, paper: str, ink_margin: float, only: Component | None = None) -> list[tuple[Part, str, float]]:
    comps = [c for c in game.info.components if c.kind in BOARD_KINDS and c.board is not None]
    comps = [c for c in comps if only is None or c is only]
    windows = _windows(paper, max(MARGIN, ink_margin))
    return [
        _choose(
            comp,
            board_size(comp),
            game.printed_count(comp),
            f"{game.place('component', comp.id)}: board {comp.id}",
            windows,
        )
        for comp in comps
    ]


def check(game: Game, paper: str, ink_margin: float = 0.0, only: Component | None = None) -> None:
    """Every tile label and assembly map of the game's boards (or of one) fits: validate runs this, drawing
    nothing."""
    _parts(game, paper, ink_margin, only)


def build(
    game: Game, paper: str, ink_margin: float = 0.0, press: ink.Press | None = None
) -> tuple[bytes, BoardManifest] | None:
    """The boards PDF and its manifest, or None when the game has no boards; nothing nearer the paper's edge
    than MARGIN or ink_margin (the print settings' printer margin and its tolerance), whichever is wider."""
    chosen = _parts(game, paper, ink_margin)
    if not chosen:
        return None
    margin = max(MARGIN, ink_margin)
    windows = _windows(paper, margin)
    items = [item for index, (part, turn, width) in enumerate(chosen) for item in _items(part, index, turn, width)]
    pages = pack(items, windows)
    buffer = io.BytesIO()
    portrait = PAPERS[paper]
    sizes = {"portrait": portrait, "landscape": (portrait[1], portrait[0])}
    c = ink.canvas(
        buffer, press, pagesize=sizes[pages[0][0]], invariant=1, pageCompression=1, initialFontName=fonts.use("sans")
    )
    c.setTitle(f"{game.title} - boards ({paper.upper()})")
    c.setAuthor(game.info.credit)
    c.setCreator("printkit")
    for part, _, _ in chosen:
        c.beginForm(part.form, lowerx=0, lowery=0, upperx=part.board[0], uppery=part.board[1])
        draw_board(c, game, part.comp)
        c.endForm()
    manifest = BoardManifest(paper, PAPERS[paper], OVERLAP)
    for part, turn, _ in chosen:
        manifest.parts.append(
            {
                "id": part.comp.id,
                "name": part.comp.name,
                "copies": part.copies,
                "width": round(part.board[0], 3),
                "height": round(part.board[1], 3),
                "tiles_across": part.tiling.cols,
                "tiles_down": part.tiling.rows,
                "orientation": turn,
                "pages": [],
            }
        )
    for number, (turn, placed) in enumerate(pages, 1):
        page = sizes[turn]
        c.setPageSize(page)
        for item, x, y in placed:
            record = item.draw(c, margin + x, page[1] - margin - y)
            manifest.parts[item.part]["pages"].append({"page": number, **record})
        c.showPage()
    c.save()
    return buffer.getvalue(), manifest
