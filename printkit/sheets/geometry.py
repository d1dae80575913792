"""Sheet geometry: how many cards fit a page, where each slot's trim box lies, where backs go, where to cut.

All positions are PDF points with the origin at the bottom-left of the page. A slot's
position is the bottom-left corner of its trim box.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass

from printkit.core.errors import UsageError
from printkit.core.units import MM

MARK_GAP = 1 * MM  # between the art's outer edge and a crop mark, so a mark never touches art
MARK_ROOM = 2.5 * MM  # the least room beyond the bleed that still holds a visible crop mark
MARK_SHORTEST = MARK_ROOM - MARK_GAP  # a mark shorter than this is left out: no guide, and no speck
MARK_LENGTH = 5 * MM
# a mark shorter than this beside the art (where the printer margin leaves little room) runs on over the
# sheet's outer bleed, which the cut leaves as waste, to TRIM_CLEAR short of the trim: a ruler's edge needs
# a mark at each end of its cut, long enough to lay it along
MARK_RULER = 3 * MM
TRIM_CLEAR = 1 * MM


class PageTooSmall(UsageError):
    """A piece larger than the paper leaves room for."""

    topic = "printing-at-home"


@dataclass(frozen=True)
class Grid:
    """Card slots on one side of a page, row by row from the top-left.

    A turned grid lies each piece on its side (a quarter turn), when that fits more of them within
    the printer margin: a slot is then card_h wide and card_w high.
    """

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
    area: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # where ink may go: x0, y0, x1, y1
    turned: bool = False

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def slot_w(self) -> float:
        return self.card_h if self.turned else self.card_w

    @property
    def slot_h(self) -> float:
        return self.card_w if self.turned else self.card_h

    @property
    def shared_cuts(self) -> bool:
        return self.gutter == 0 and self.bleed > 0

    def slot(self, index: int) -> tuple[float, float]:
        """The trim box's bottom-left corner of slot index (0-based, row-major from the top-left)."""
        row, col = divmod(index, self.cols)
        x = self.left + col * (self.slot_w + self.gutter)
        y = self.top - self.slot_h - row * (self.slot_h + self.gutter)
        return x, y

    def block(self) -> tuple[float, float, float, float]:
        """The art's outer box (all trim boxes plus the outer bleed): x0, y0, x1, y1."""
        width = self.cols * self.slot_w + (self.cols - 1) * self.gutter
        height = self.rows * self.slot_h + (self.rows - 1) * self.gutter
        return (
            self.left - self.bleed,
            self.top - height - self.bleed,
            self.left + width + self.bleed,
            self.top + self.bleed,
        )

    def cut_xs(self) -> list[float]:
        return sorted({round(v, 4) for c in range(self.cols) for v in (self.slot(c)[0], self.slot(c)[0] + self.slot_w)})

    def cut_ys(self) -> list[float]:
        return sorted(
            {
                round(v, 4)
                for r in range(self.rows)
                for v in (self.slot(r * self.cols)[1], self.slot(r * self.cols)[1] + self.slot_h)
            }
        )

    def art_box(self, index: int, filled: Container[int] | None = None) -> tuple[float, float, float, float]:
        """Where slot index may paint: its trim box plus bleed, except toward a neighbour it shares a cut with.

        filled: the slots of the page that hold a piece on this side (all, by default). Toward a slot that holds
        none (the page's unfilled end, a gap left between pieces, the back of a one-sided piece) a piece bleeds
        in full, as at the block's edge, so a cut a little off that line shows no white.
        """
        x, y = self.slot(index)
        row, col = divmod(index, self.cols)
        taken = range(self.per_page) if filled is None else filled

        def bleeds(edge: bool, neighbour: int) -> float:
            return self.bleed if edge or not self.shared_cuts or neighbour not in taken else 0.0

        left = bleeds(col == 0, index - 1)
        right = bleeds(col == self.cols - 1, index + 1)
        top = bleeds(row == 0, index - self.cols)
        bottom = bleeds(row == self.rows - 1, index + self.cols)
        return x - left, y - bottom, x + self.slot_w + right, y + self.slot_h + top


def _fit(space: float, card: float, bleed: float, gutter: float) -> int:
    """How many pieces fit along space with their bleed and a crop mark's room on one side at least."""
    usable = space - 2 * bleed - MARK_ROOM
    return max(0, int((usable + gutter + 1e-6) // (card + gutter)))


def _start(low: float, high: float, length: float, bleed: float) -> float:
    """Where a run of art length long (bleed included) starts between low and high: centred when both
    sides keep a crop mark's room, or a mark MARK_RULER long once it runs on over the bleed (see crop_marks);
    else with a mark's room on the low side only."""
    spare = high - low - length
    if spare >= 2 * MARK_ROOM or (bleed > TRIM_CLEAR and spare / 2 + bleed - TRIM_CLEAR >= MARK_RULER - 1e-6):
        return low + spare / 2
    return low + MARK_ROOM


def grid(
    page: tuple[float, float],
    card: tuple[float, float],
    bleed: float,
    *,
    area: tuple[float, float, float, float] | None = None,
    cuts: str = "auto",
    turned: bool | None = None,
) -> Grid:
    """The densest grid for the card on area x0, y0, x1, y1 of the page (the whole page by default).

    No ink goes outside area, crop marks included; every cut line keeps a mark at both ends (crop_marks runs
    one over the outer bleed where the room beside the art is short).
    cuts: shared (neighbours share cut lines and only the block's outer edge bleeds), separate (each
    piece its own bleed and a 2 x bleed gutter), or auto: separate when that fits as many as shared
    does. Pieces lie on their side when that fits more; of grids that fit as many, separate cuts
    come first, then upright pieces. turned: only upright (False) or only on their side (True).
    """
    pw, ph = page
    x0, y0, x1, y1 = area or (0.0, 0.0, pw, ph)
    cw, ch = card
    gutters = {"shared": (0.0,), "separate": (2 * bleed,)}.get(cuts, (2 * bleed, 0.0))
    best: Grid | None = None
    best_key: tuple[int, bool, bool] | None = None
    ways = (False, True) if abs(cw - ch) > 1e-6 else (False,)
    for turn in ways if turned is None else (turned,):
        sw, sh = (ch, cw) if turn else (cw, ch)
        for gutter in gutters:
            cols, rows = _fit(x1 - x0, sw, bleed, gutter), _fit(y1 - y0, sh, bleed, gutter)
            key = (cols * rows, gutter > 0, not turn)
            if cols * rows == 0 or (best_key is not None and key <= best_key):
                continue
            width = cols * sw + (cols - 1) * gutter
            height = rows * sh + (rows - 1) * gutter
            left = _start(x0, x1, width + 2 * bleed, bleed) + bleed
            top = y1 - (_start(y0, y1, height + 2 * bleed, bleed) - y0) - bleed  # a one-sided room lies at the top
            best = Grid(pw, ph, cw, ch, bleed, cols, rows, gutter, left, top, (x0, y0, x1, y1), turn)
            best_key = key
    if best is None:
        raise PageTooSmall(
            f"a {cw / MM:.1f} x {ch / MM:.1f} mm piece with {bleed / MM:.1f} mm bleed and its crop marks "
            "does not fit the page within the printer margin"
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
        return grid.page_w - x - grid.slot_w + dx, y + dy
    if duplex == "short":
        return x + dx, grid.page_h - y - grid.slot_h + dy
    raise ValueError(f"no back position for duplex {duplex!r}")


def crop_marks(grid: Grid, x_limits: tuple[float, float] | None = None) -> list[tuple[float, float, float, float]]:
    """Line segments (x0, y0, x1, y1) at both ends of every cut line, within the grid's area, never on a trim box.

    Each mark lies beside the art where there is room for one MARK_RULER long; where there is less (three poker
    cards across A4 leave 3.5 mm), it runs on from the room there is over the block's outer bleed, the waste
    the cut leaves, to TRIM_CLEAR short of the trim: every cut then has a mark at each end to lay a ruler on.
    A mark that runs over the bleed goes from outside inward (x1, y1 lie on the bleed).
    x_limits keeps the side marks between two x positions (a fold line, for fold-over sheets).
    """
    ax0, ay0, ax1, ay1 = grid.area
    low, high = x_limits or (ax0, ax1)
    bx0, by0, bx1, by1 = grid.block()
    inward = grid.bleed - TRIM_CLEAR  # how far a mark may run over the outer bleed toward the trim
    marks = []

    def add(start: float, room_end: float, direction: float, other: float, vertical: bool) -> None:
        """A mark at x or y = other beyond the block's edge at start, outward (direction +1 or -1) as far as
        room_end allows, and on over the outer bleed when that is too short for a ruler."""
        room = (room_end - start) * direction  # from the block's edge to the area's
        outside = min(MARK_LENGTH, room - MARK_GAP)
        if outside >= MARK_RULER - 1e-6 or inward <= 0:
            if outside < MARK_SHORTEST - 1e-6:
                return  # no room for a mark, and no bleed to run over
            outer, inner = start + direction * (MARK_GAP + outside), start + direction * MARK_GAP
        else:
            outer = start + direction * max(0.0, min(room, MARK_GAP + max(outside, 0.0)))
            inner = start - direction * inward
        marks.append((other, outer, other, inner) if vertical else (outer, other, inner, other))

    for x in grid.cut_xs():
        add(by1, ay1, 1, x, True)
        add(by0, ay0, -1, x, True)
    for y in grid.cut_ys():
        add(bx0, low, -1, y, False)
        add(bx1, high, 1, y, False)
    return marks
