"""Sheet geometry: how many cards fit a page, where each slot's trim box lies, where backs go, where to cut.

All positions are PDF points with the origin at the bottom-left of the page. A slot's
position is the bottom-left corner of its trim box.
"""

from __future__ import annotations

from dataclasses import dataclass

from printkit.core.errors import UsageError
from printkit.core.units import MM

MARK_GAP = 1 * MM  # between the art's outer edge and a crop mark, so a mark never touches art
MARK_ROOM = 2.5 * MM  # the least margin beyond the bleed that still holds a visible crop mark
MARK_LENGTH = 5 * MM
EDGE_CLEAR = 0.5 * MM  # marks stop short of the paper edge


class PageTooSmall(UsageError):
    """A piece larger than the paper leaves room for."""


@dataclass(frozen=True)
class Grid:
    """Card slots on one side of a page, row by row from the top-left."""

    page_w: float
    page_h: float
    card_w: float
    card_h: float
    bleed: float
    cols: int
    rows: int
    gutter: float  # space between neighbouring trim boxes: 0 (shared cut lines) or 2 x bleed
    left: float  # trim-box x of the first column
    top: float  # trim-box top edge of the first row, from the page bottom
    area: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # where marks may go: x0, y0, x1, y1

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def shared_cuts(self) -> bool:
        return self.gutter == 0 and self.bleed > 0

    def slot(self, index: int) -> tuple[float, float]:
        """The trim box's bottom-left corner of slot index (0-based, row-major from the top-left)."""
        row, col = divmod(index, self.cols)
        x = self.left + col * (self.card_w + self.gutter)
        y = self.top - self.card_h - row * (self.card_h + self.gutter)
        return x, y

    def block(self) -> tuple[float, float, float, float]:
        """The art's outer box (all trim boxes plus the outer bleed): x0, y0, x1, y1."""
        width = self.cols * self.card_w + (self.cols - 1) * self.gutter
        height = self.rows * self.card_h + (self.rows - 1) * self.gutter
        return (
            self.left - self.bleed,
            self.top - height - self.bleed,
            self.left + width + self.bleed,
            self.top + self.bleed,
        )

    def cut_xs(self) -> list[float]:
        return sorted({round(v, 4) for c in range(self.cols) for v in (self.slot(c)[0], self.slot(c)[0] + self.card_w)})

    def cut_ys(self) -> list[float]:
        return sorted(
            {
                round(v, 4)
                for r in range(self.rows)
                for v in (self.slot(r * self.cols)[1], self.slot(r * self.cols)[1] + self.card_h)
            }
        )

    def art_box(self, index: int, filled: int | None = None) -> tuple[float, float, float, float]:
        """Where slot index may paint: its trim box plus bleed, except toward a neighbour it shares a cut with.

        filled: how many slots of the page hold a piece (all, by default). Slots fill row by row, so
        the neighbour to the right or below may be empty; toward an empty slot a piece bleeds in full,
        as at the block's edge, so a cut a little off that line shows no white.
        """
        x, y = self.slot(index)
        row, col = divmod(index, self.cols)
        filled = self.per_page if filled is None else filled
        shared = self.shared_cuts
        left = self.bleed if col == 0 or not shared else 0.0
        right = self.bleed if col == self.cols - 1 or not shared or index + 1 >= filled else 0.0
        top = self.bleed if row == 0 or not shared else 0.0
        bottom = self.bleed if row == self.rows - 1 or not shared or index + self.cols >= filled else 0.0
        return x - left, y - bottom, x + self.card_w + right, y + self.card_h + top


def _fit(space: float, card: float, bleed: float, gutter: float) -> int:
    usable = space - 2 * (bleed + MARK_ROOM - EDGE_CLEAR)
    return max(0, int((usable + gutter + 1e-6) // (card + gutter)))


def grid(
    page: tuple[float, float],
    card: tuple[float, float],
    bleed: float,
    *,
    area: tuple[float, float, float, float] | None = None,
) -> Grid:
    """The densest grid for the card on the page (or on area x0, y0, x1, y1 of it), centred there.

    Cards get their own bleed and a 2 x bleed gutter when that fits as many as shared cut
    lines do; otherwise neighbours share cut lines and only the block's outer edge bleeds.
    """
    pw, ph = page
    x0, y0, x1, y1 = area or (EDGE_CLEAR, EDGE_CLEAR, pw - EDGE_CLEAR, ph - EDGE_CLEAR)
    cw, ch = card
    best: Grid | None = None
    for gutter in (2 * bleed, 0.0):
        cols, rows = _fit(x1 - x0, cw, bleed, gutter), _fit(y1 - y0, ch, bleed, gutter)
        if cols * rows == 0 or (best is not None and cols * rows <= best.per_page):
            continue
        width = cols * cw + (cols - 1) * gutter
        height = rows * ch + (rows - 1) * gutter
        left = x0 + (x1 - x0 - width) / 2
        top = y1 - (y1 - y0 - height) / 2
        best = Grid(pw, ph, cw, ch, bleed, cols, rows, gutter, left, top, (x0, y0, x1, y1))
    if best is None:
        raise PageTooSmall(
            f"a {cw / MM:.1f} x {ch / MM:.1f} mm piece with {bleed / MM:.1f} mm bleed and its crop marks "
            "does not fit the page"
        )
    return best


def back_position(
    grid: Grid, x: float, y: float, duplex: str, offset: tuple[float, float] = (0.0, 0.0)
) -> tuple[float, float]:
    """Where a card's back goes so it lands on its face when the sheet turns over the given edge.

    Long edge (portrait): x' = PW - x - W. Short edge: y' = PH - y - H. The printer
    offset then shifts every back by the same amount.
    """
    dx, dy = offset
    if duplex == "long":
        return grid.page_w - x - grid.card_w + dx, y + dy
    if duplex == "short":
        return x + dx, grid.page_h - y - grid.card_h + dy
    raise ValueError(f"no back position for duplex {duplex!r}")


def crop_marks(grid: Grid, x_limits: tuple[float, float] | None = None) -> list[tuple[float, float, float, float]]:
    """Line segments (x0, y0, x1, y1) in the margins at every cut line, never over art.

    x_limits keeps the side marks between two x positions (a fold line, for fold-over sheets).
    """
    ax0, ay0, ax1, ay1 = grid.area
    low, high = x_limits or (ax0, ax1)
    bx0, by0, bx1, by1 = grid.block()
    marks = []
    for x in grid.cut_xs():
        top_end = min(by1 + MARK_GAP + MARK_LENGTH, ay1)
        bottom_end = max(by0 - MARK_GAP - MARK_LENGTH, ay0)
        marks.append((x, by1 + MARK_GAP, x, top_end))
        marks.append((x, by0 - MARK_GAP, x, bottom_end))
    for y in grid.cut_ys():
        left_end = max(bx0 - MARK_GAP - MARK_LENGTH, low)
        right_end = min(bx1 + MARK_GAP + MARK_LENGTH, high)
        marks.append((bx0 - MARK_GAP, y, left_end, y))
        marks.append((bx1 + MARK_GAP, y, right_end, y))
    return marks
