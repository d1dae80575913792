"""Pieces on sheets: cards, counters and tokens laid out with bleed, crop marks and duplex or fold-over backs.

One mechanism for every cut-out piece: each design becomes one PDF form, placed as often as it is
printed, so pages stay small however many copies a run holds. Every slot goes in a manifest.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from reportlab.lib.colors import HexColor

from printkit.core.units import MM
from printkit.data.game import Game
from printkit.data.settings import PAPERS, PrintSettings
from printkit.draw import fonts, forms, ink
from printkit.draw.cardrender import CardPainter, Target
from printkit.draw.layout import Layout
from printkit.sheets import edges, geometry

MARK_WIDTH = 0.25  # points: hairline crop marks
MARK_COLOUR = "#000000"
MARK_HALO = 0.9  # points: the paper-white band under a mark's part over the bleed, so it shows on any colour
FOLD_CLEAR = 5 * MM  # between a fold-over sheet's fold and the bleed on either side of it
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Design:
    """One drawing: a layout and the fields it binds, under a name unique in the document."""

    key: str
    layout: Layout
    fields: dict[str, Any] = field(hash=False, compare=False)
    label: str = ""  # what an error message calls it: a card id, "red-army back"
    place: str = ""  # where the data that drew it is written: "cards/x/cards.yaml:3:5"


@dataclass(frozen=True)
class Piece:
    """One cut-out piece of a print run."""

    id: str
    name: str
    group: str  # pieces of one group share a back; a new group starts a new page unless sharing one saves paper
    copy: int
    size: tuple[float, float]
    face: Design
    back: Design | None
    shape: str = "square"  # round: cut around a disc, which bleeds all round, so it never shares a cut line


class Slots:
    """A manifest's slots, kept a column a field and read back a dict a slot.

    A dict a slot took about 460 bytes: 5 MB for a 5,400-card run, held until its file is saved, at the
    build's highest. The columns take about 70 bytes a slot; the words are the pieces' own strings.
    """

    __slots__ = ("_numbers", "_places", "_words", "last_page")
    FIELDS = ("id", "name", "group", "copy", "page", "side", "x", "y", "w", "h", "turn")

    def __init__(self) -> None:
        self._words: list[str] = []  # id, name, group and side of each slot in turn
        self._numbers = array("q")  # copy, page and turn
        self._places = array("d")  # x, y, w and h, already rounded: a double gives the same float back
        self.last_page = 0

    def add(self, words: tuple[str, str, str, str], numbers: tuple[int, int, int], place: Box) -> None:
        """A slot: its piece's id, name and group and its side; its copy, page and turn; its x, y, w and h."""
        self._words += words
        self._numbers.extend(numbers)
        self._places.extend(place)
        self.last_page = max(self.last_page, numbers[1])

    def __len__(self) -> int:
        return len(self._numbers) // 3

    def __getitem__(self, i: int) -> dict[str, Any]:
        i = range(len(self))[i]  # a negative index from the end, and IndexError past it, as a list's
        ident, name, group, side = self._words[4 * i : 4 * i + 4]
        copy, page, turn = self._numbers[3 * i : 3 * i + 3]
        x, y, w, h = self._places[4 * i : 4 * i + 4]
        return dict(zip(self.FIELDS, (ident, name, group, copy, page, side, x, y, w, h, turn), strict=True))

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (self[i] for i in range(len(self)))


@dataclass
class Manifest:
    paper: str
    page_size: tuple[float, float]
    bleed: float
    duplex: str
    offset: tuple[float, float]
    foldover: bool
    units: str = "PDF points, origin at the page's bottom-left; x, y is the trim box's bottom-left"
    slots: Slots = field(default_factory=Slots)

    def json(self) -> str:
        """The manifest as JSON, one slot a line.

        Written piece by piece: json.dumps with indent runs the pure-Python encoder, whose million
        small strings for a 5,400-card run took tens of megabytes.
        """
        head = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in vars(self).items() if k != "slots"]
        slots = ",\n".join(f"  {json.dumps(s, ensure_ascii=False)}" for s in self.slots)
        return "{\n" + ",\n".join(head) + (f',\n "slots": [\n{slots}\n ]\n}}\n' if slots else ',\n "slots": []\n}\n')


class SheetWriter:
    """Draws the pages of one PDF of pieces."""

    def __init__(self, game: Game, settings: PrintSettings, paper: str, title: str) -> None:
        self.game = game
        self.game_slug = game.slug
        self.settings = settings
        self.paper = paper
        self.margin = settings.ink_margin  # nothing prints nearer the paper edge than this
        self.foldover = settings.foldover
        self.buffer = forms.Saved()
        page = PAPERS[paper]
        self.page = (page[1], page[0]) if settings.foldover else page  # fold-over pages lie landscape
        credit = game.info.credit
        # the initial font must be an embedded one, or reportlab names an unembedded Helvetica
        self.c = ink.canvas(
            self.buffer,
            ink.press(settings),
            pagesize=self.page,
            invariant=1,
            pageCompression=1,
            initialFontName=fonts.use("sans"),
        )
        self.c.setTitle(title)
        self.c.setAuthor(credit)
        self.c.setSubject(credit)
        self.c.setCreator("printkit")
        self.forms: set[str] = set()

    def form(self, design: Design, size: tuple[float, float]) -> str:
        if design.key not in self.forms:
            w, h = size
            b = self.settings.bleed
            self.c.beginForm(design.key, lowerx=-b, lowery=-b, upperx=w + b, uppery=h + b)
            CardPainter(self.c, size, b).paint(
                design.layout,
                design.fields,
                Target.of(self.game, design.label, design.layout, design.place),
            )
            self.c.endForm()
            self.forms.add(design.key)
        return design.key

    def place(
        self, form: str, x: float, y: float, clip: Box, turn: int = 0, size: tuple[float, float] = (0, 0)
    ) -> None:
        """Draw a piece's form with its slot's bottom-left at x, y; turn 90 lies it on its side with its
        top to the left, -90 with its top to the right (size: the piece's own width and height)."""
        c = self.c
        c.saveState()
        path = c.beginPath()
        path.rect(clip[0], clip[1], clip[2] - clip[0], clip[3] - clip[1])
        c.clipPath(path, stroke=0, fill=0)
        w, h = size
        if turn == 90:
            c.translate(x + h, y)
        elif turn == -90:
            c.translate(x, y + w)
        else:
            c.translate(x, y)
        if turn:
            c.rotate(turn)
        c.doForm(form)
        c.restoreState()

    def marks(
        self, grid: geometry.Grid, shift: tuple[float, float] = (0.0, 0.0), x_limits: tuple[float, float] | None = None
    ) -> None:
        c = self.c
        c.saveState()
        c.setLineCap(0)
        bx0, by0, bx1, by1 = grid.block()
        for x0, y0, x1, y1 in geometry.crop_marks(grid, x_limits):
            if bx0 < x1 < bx1 and by0 < y1 < by1:  # its inner end over the outer bleed: on a white band
                c.setStrokeColor(HexColor("#ffffff"))
                c.setLineWidth(MARK_HALO)
                c.line(*_towards((x1, y1), (x0, y0), (bx0, by0, bx1, by1), shift))
            c.setStrokeColor(HexColor(MARK_COLOUR))
            c.setLineWidth(MARK_WIDTH)
            c.line(x0 + shift[0], y0 + shift[1], x1 + shift[0], y1 + shift[1])
        c.restoreState()

    def finish(self) -> bytes:
        self.c.save()
        return self.buffer.getvalue()


def _towards(inner: tuple[float, float], outer: tuple[float, float], block: Box, shift: tuple[float, float]) -> Box:
    """The part of a mark from its inner end over the bleed to the block's edge, shifted: where its halo goes."""
    (x1, y1), (x0, y0) = inner, outer
    edge_x = min(max(x0, block[0]), block[2])
    edge_y = min(max(y0, block[1]), block[3])
    return x1 + shift[0], y1 + shift[1], edge_x + shift[0], edge_y + shift[1]


def _shifted(box: Box, dx: float, dy: float) -> Box:
    return box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy


def mirror_box(grid: geometry.Grid, box: Box, duplex: str) -> Box:
    x0, y0, x1, y1 = box
    if duplex == "long":
        return grid.page_w - x1, y0, grid.page_w - x0, y1
    if duplex == "short":
        return x0, grid.page_h - y1, x1, grid.page_h - y0
    return box


def _mirrored_grid(grid: geometry.Grid, duplex: str) -> geometry.Grid:
    """The grid the backs form: the face grid reflected across the flip edge."""
    x0, _, _, y1 = mirror_box(grid, grid.block(), duplex)
    return replace(grid, left=x0 + grid.bleed, top=y1 - grid.bleed, area=mirror_box(grid, grid.area, duplex))


def _record(manifest: Manifest, piece: Piece, page: int, side: str, x: float, y: float, turn: int = 0) -> None:
    w, h = piece.size if not turn else piece.size[::-1]  # a piece turned on its side is as wide as it is high
    place = (round(x, 3), round(y, 3), round(w, 3), round(h, 3))
    manifest.slots.add((piece.id, piece.name, piece.group, side), (piece.copy, page, turn), place)


# pieces of one size and shape in rows of one grid, on part of a page, slot by slot: None is a slot left empty
Band = tuple[geometry.Grid, list["Piece | None"]]


def render(
    writer: SheetWriter, pieces: list[Piece], pack: bool = False, pages: list[list[Band]] | None = None
) -> Manifest:
    """Lay every piece out on pages of the writer's document; return the manifest of slots.

    pack: pieces of every size and side share pages, in bands (counters and tokens); else each group
    of pieces starts a page of its own (a deck, with its back). pages: the pages as already planned
    (by tuck: cards with counters on their last page), instead of planning the pieces here.
    """
    o = writer.settings
    manifest = Manifest(writer.paper, writer.page, o.bleed, o.duplex, o.offset, o.foldover)
    if o.foldover:
        _foldover_pages(writer, pieces, manifest)
    else:
        _duplex_pages(writer, pieces, manifest, pack, pages)
    return manifest


def printable(page: tuple[float, float], settings: PrintSettings, foldover: bool = False) -> Box:
    """Where ink may go on a page: within the printer margin and its tolerance, and on a fold-over page its face
    half only."""
    pw, ph = page
    m = settings.ink_margin
    return (m, m, pw / 2 - FOLD_CLEAR, ph - m) if foldover else (m, m, pw - m, ph - m)


def plan(
    page: tuple[float, float], settings: PrintSettings, pieces: list[Piece], area: Box, pack: bool = False
) -> list[list[Band]]:
    """Each page's bands: the grid of each run of pieces and the pieces in it, within area of the page.

    Unpacked, a page is one grid of pieces of one size: each group (a deck and its back) starts a page of
    its own, unless letting each go on where the one before ended saves paper; the backs stay in the
    mirrored slots of their own faces either way. Packed, bands of pieces of one size are stacked
    from the top of the page, each with room for its crop marks above and below, so a cut across the
    sheet between two bands frees each band to be cut like a sheet of its own. Cuts auto gives each
    group (each packed part) separate cut lines when they take no more pages than shared ones.
    """
    if pack:
        if settings.cuts != "auto":
            return _plan(page, settings.bleed, settings.cuts, pieces, area, True)
        return _either(page, settings.bleed, pieces, area, True)
    out: list[list[Band]] = []
    for run in _size_runs(pieces, settings.cuts):
        apart = [laid for group in _groups(run) for laid in _lay(page, settings, group, area)]
        together = _lay(page, settings, run, area, share=True)
        # going on saves paper, or at the same count spares the cut lines shared between neighbours
        out += together if (len(together), _shares(together)) < (len(apart), _shares(apart)) else apart
    return out


def _shares(pages: list[list[Band]]) -> bool:
    """Whether any of the pages' grids has neighbours share cut lines."""
    return any(grid.shared_cuts for bands in pages for grid, _ in bands)


def tuck(
    page: tuple[float, float], settings: PrintSettings, pieces: list[Piece], extra: list[Piece]
) -> list[list[Band]] | None:
    """The pages of pieces laid out as plan lays them, with the extra pieces packed in bands into the room
    the last page's pieces leave below them; None when they do not all fit there (or on a fold-over sheet).

    The last page's grid keeps only the rows its pieces fill, so its crop marks stop at their own cut
    lines, and the extra pieces' bands hang below them as packed bands hang below one another: a mark's
    room each side of the cut across the sheet between them, their own bleed, marks and cuts.
    """
    if settings.foldover or not pieces or not extra:
        return None
    area = printable(page, settings)
    try:
        pages = plan(page, settings, pieces, area)
    except geometry.PageTooSmall:
        return None  # the sheet cannot be made at all: render says why, naming the piece
    *bands, (grid, chunk) = pages[-1]
    kept = replace(grid, rows=-(-len(chunk) // grid.cols))
    bottom = kept.block()[1] - geometry.MARK_ROOM  # the filled rows' lowest crop marks end here
    if bottom - area[1] <= 0:
        return None
    kept = replace(kept, area=(grid.area[0], bottom, grid.area[2], grid.area[3]))
    try:
        below = plan(page, settings, extra, (area[0], area[1], area[2], bottom), pack=True)
    except geometry.PageTooSmall:
        return None
    if len(below) != 1:
        return None
    return [*pages[:-1], [*bands, (kept, chunk), *below[0]]]


def _lay(
    page: tuple[float, float], settings: PrintSettings, pieces: list[Piece], area: Box, share: bool = False
) -> list[list[Band]]:
    """Pages of one grid each for the pieces: each group from a page of its own, or (share) each group going
    on where the one before ended."""
    if settings.cuts != "auto":
        return _plan(page, settings.bleed, settings.cuts, pieces, area, False, share=share)
    return _either(page, settings.bleed, pieces, area, False, share)


def _either(
    page: tuple[float, float], bleed: float, pieces: list[Piece], area: Box, pack: bool, share: bool = False
) -> list[list[Band]]:
    """Of the ways to lay the pieces out, the one with fewest pages; of those, separate cut lines
    first, then upright pieces: the densest grids win only where they save a page."""
    ways: list[tuple[tuple[int, bool, bool], list[list[Band]]]] = []
    for cuts in ("separate", "shared"):
        for turned in (None, False) if cuts == "separate" else (None,):
            try:
                laid = _plan(page, bleed, cuts, pieces, area, pack, turned, share)
            except geometry.PageTooSmall:
                continue
            any_turned = any(grid.turned for bands in laid for grid, _ in bands)
            ways.append(((len(laid), cuts == "shared" and bleed > 0, any_turned), laid))
    if not ways:
        return _plan(page, bleed, "auto", pieces, area, pack)  # raises PageTooSmall, naming the piece
    return min(ways, key=lambda way: way[0])[1]


def _groups(items: list[Piece]) -> Iterator[list[Piece]]:
    group: list[Piece] = []
    for item in items:
        if group and group[-1].group != item.group:
            yield group
            group = []
        group.append(item)
    if group:
        yield group


Kind = tuple[tuple[float, float], bool]  # a piece's size, and whether it is round: pieces of one kind share a grid


def _kind(piece: Piece, cuts: str) -> Kind:
    """Pieces of one kind share a grid: of one size, and round or not unless every cut is separate anyway."""
    return piece.size, piece.shape == "round" and cuts != "separate"


def _grids(
    page: tuple[float, float], bleed: float, cuts: str, pieces: list[Piece], area: Box, turned: bool | None
) -> dict[Kind, geometry.Grid]:
    """The grid of each kind of piece: a round one's always with separate cuts, so its disc bleeds all round
    and no cut around it runs into a neighbour's."""
    return {
        (size, round_): geometry.grid(page, size, bleed, area=area, cuts="separate" if round_ else cuts, turned=turned)
        for size, round_ in {_kind(p, cuts) for p in pieces}
    }


def _plan(
    page: tuple[float, float],
    bleed: float,
    cuts: str,
    pieces: list[Piece],
    area: Box,
    pack: bool,
    turned: bool | None = None,
    share: bool = False,
) -> list[list[Band]]:
    grids = _grids(page, bleed, cuts, pieces, area, turned)
    if not pack:
        return [[band] for band in _chunks(pieces, grids, cuts, share)]
    pages: list[list[Band]] = []
    bands: list[Band] = []
    cursor = area[3]  # the top of the room left on the page being filled
    for run in _size_runs(pieces, cuts):
        full = grids[_kind(run[0], cuts)]
        while run:
            needed = len(_place(run, full, len(run) * (full.cols + 1)))  # the slots it takes, gaps included
            rows = min(_rows_fitting(full, cursor - area[1]), -(-needed // full.cols))
            if not bands and (needed >= full.per_page or rows == 0):
                # a page of this size alone, or a piece too tall for a band's room: its densest grid
                chunk = _place(run, full, full.per_page)
                pages.append([(full, chunk)])
                run = run[_count(chunk) :]
                continue
            if rows == 0:
                pages.append(bands)
                bands, cursor = [], area[3]
                continue
            band = _band(full, rows, area, cursor)
            chunk = _place(run, band, band.per_page)
            # a band of one part-filled row keeps the columns it fills: its cut lines, and their marks, end there
            bands.append((replace(band, cols=min(band.cols, len(chunk))), chunk))
            run = run[_count(chunk) :]
            cursor = band.area[1]
    if bands:
        pages.append(bands)
    return pages


def _place(items: list[Piece], grid: geometry.Grid, slots: int, start: int = 0) -> list[Piece | None]:
    """The first of items from start on in the grid's slots, in order, row by row, up to slots of them: as many
    as fit. (A start, not a slice: slicing off each page's pieces copied the rest of a big deck once a page.)

    On shared cut lines a piece never goes beside (right of) or below a piece whose back differs from its
    own: the slots between stay empty, and the pieces on either side of them bleed into them. A piece going
    on where one of another back colour ended so starts a row's width of slots later.
    """
    out: list[Piece | None] = []
    cols = grid.cols
    for at in range(start, len(items)):
        item = items[at]
        index = len(out)
        while index < slots and grid.shared_cuts and item.back is not None:
            left = out[index - 1] if index % cols and index - 1 < len(out) else None
            above = out[index - cols] if index >= cols and index - cols < len(out) else None
            if not any(n is not None and edges.backs_differ(n.back, item.back) for n in (left, above)):
                break
            index += 1
        if index >= slots:
            break
        out += [None] * (index - len(out)) + [item]
    return out


def _count(chunk: list[Piece | None]) -> int:
    return sum(piece is not None for piece in chunk)


def _chunks(items: list[Piece], grids: dict[Kind, geometry.Grid], cuts: str, share: bool = False) -> Iterator[Band]:
    """Page-sized runs of pieces of one kind, each in its grid; each group starts a fresh page unless share, when
    a group goes on in the slots the one before left (each back is placed behind its own face, whatever its
    group)."""
    start = 0
    for end in range(1, len(items) + 1):
        if end < len(items):
            before, item = items[end - 1], items[end]
            if _kind(before, cuts) == _kind(item, cuts) and (share or before.group == item.group):
                continue
        run = items[start:end]
        grid = grids[_kind(run[0], cuts)]
        placed = 0
        while placed < len(run):
            chunk = _place(run, grid, grid.per_page, placed)
            yield grid, chunk
            placed += _count(chunk)
        start = end


def _size_runs(items: list[Piece], cuts: str) -> Iterator[list[Piece]]:
    """Runs of pieces of one kind, in order: a band's grid holds pieces of one size and shape, backed or not."""
    run: list[Piece] = []
    for item in items:
        if run and _kind(run[-1], cuts) != _kind(item, cuts):
            yield run
            run = []
        run.append(item)
    if run:
        yield run


def _rows_fitting(full: geometry.Grid, height: float) -> int:
    """How many of the grid's rows a band of this height holds, with a crop mark's room above and below."""
    room = height - 2 * full.bleed - 2 * geometry.MARK_ROOM + full.gutter + 1e-6
    return max(0, min(full.rows, int(room // (full.slot_h + full.gutter))))


def _band(full: geometry.Grid, rows: int, area: Box, top: float) -> geometry.Grid:
    """rows of the page's grid for one size, hanging from top: the same columns, turn and cuts."""
    height = rows * full.slot_h + (rows - 1) * full.gutter + 2 * full.bleed + 2 * geometry.MARK_ROOM
    return replace(
        full, rows=rows, top=top - geometry.MARK_ROOM - full.bleed, area=(area[0], top - height, area[2], top)
    )


def _put(
    writer: SheetWriter,
    manifest: Manifest,
    piece: Piece,
    design: Design,
    page: int,
    side: str,
    x: float,
    y: float,
    clip: Box,
    turn: int = 0,
) -> None:
    writer.place(writer.form(design, piece.size), x, y, clip, turn, piece.size)
    _record(manifest, piece, page, side, x, y, turn)


def _back_turn(grid: geometry.Grid, duplex: str) -> int:
    """How a back lies in a turned slot: its top on the same card edge as its face's, once the sheet turns.

    A face lies top to the left; turned over either edge, that edge sits under the back page's right
    (long edge) or stays on its left, where a short-edge turn also turns the page upside down: in
    both cases the back lies top to the right, like a back on an upright sheet that turns over its
    short edge. Backs on pages of their own lie as their faces do.
    """
    if not grid.turned:
        return 0
    return 90 if duplex == "none" else -90


def _pages(writer: SheetWriter, pieces: list[Piece], pack: bool) -> list[list[Band]]:
    """The writer's pages of pieces, a piece too large for the paper named with the game and paper."""
    try:
        return plan(
            writer.page, writer.settings, pieces, printable(writer.page, writer.settings, writer.foldover), pack
        )
    except geometry.PageTooSmall as exc:
        raise geometry.PageTooSmall(f"{writer.game_slug}: {exc} on {writer.paper.upper()} paper") from None


def _filled(chunk: list[Piece | None], side: str) -> set[int]:
    """The slots of a band that hold a piece on this side: on the back, the one-sided pieces' slots are empty."""
    return {i for i, piece in enumerate(chunk) if piece is not None and (side == "face" or piece.back is not None)}


def _duplex_pages(
    writer: SheetWriter,
    pieces: list[Piece],
    manifest: Manifest,
    pack: bool = False,
    pages: list[list[Band]] | None = None,
) -> None:
    o, c = writer.settings, writer.c
    page_no = manifest.slots.last_page
    dx, dy = o.offset
    for bands in _pages(writer, pieces, pack) if pages is None else pages:
        page_no += 1
        for grid, chunk in bands:
            turn = 90 if grid.turned else 0
            faces = _filled(chunk, "face")
            for index, piece in enumerate(chunk):
                if piece is None:
                    continue
                x, y = grid.slot(index)
                _put(writer, manifest, piece, piece.face, page_no, "face", x, y, grid.art_box(index, faces), turn)
            writer.marks(grid)
        c.showPage()
        if not any(_filled(chunk, "back") for _, chunk in bands):
            continue  # single-sided pieces: no back page
        page_no += 1
        for grid, chunk in bands:
            backs = _filled(chunk, "back")
            if not backs:
                continue  # a band of single-sided pieces leaves its side of the back page blank
            for index in sorted(backs):
                piece = chunk[index]
                assert piece is not None and piece.back is not None
                x, y = grid.slot(index)
                if o.duplex == "none":  # backs on their own page, where the faces are
                    bx, by, clip = x + dx, y + dy, _shifted(grid.art_box(index, backs), dx, dy)
                else:
                    bx, by = geometry.back_position(grid, x, y, o.duplex, o.offset)
                    clip = _shifted(mirror_box(grid, grid.art_box(index, backs), o.duplex), dx, dy)
                _put(writer, manifest, piece, piece.back, page_no, "back", bx, by, clip, _back_turn(grid, o.duplex))
            writer.marks(grid if o.duplex == "none" else _mirrored_grid(grid, o.duplex), o.offset)
        c.showPage()


def _foldover_pages(writer: SheetWriter, pieces: list[Piece], manifest: Manifest) -> None:
    """Faces on the left half, backs mirrored across the centre fold line on the right half."""
    c, margin = writer.c, writer.margin
    pw, ph = writer.page
    fold = pw / 2
    # The fold side needs no crop marks: a fold a little off its line must still miss the art
    fold_gap = 1 * MM  # side marks stop this short of the fold
    page_no = manifest.slots.last_page
    for [(grid, chunk)] in _pages(writer, pieces, False):
        page_no += 1
        turn = 90 if grid.turned else 0
        faces, backs = _filled(chunk, "face"), _filled(chunk, "back")
        for index, piece in enumerate(chunk):
            if piece is None:
                continue
            x, y = grid.slot(index)
            _put(writer, manifest, piece, piece.face, page_no, "face", x, y, grid.art_box(index, faces), turn)
            if piece.back is not None:
                bx, by = geometry.back_position(grid, x, y, "long")
                _put(
                    writer,
                    manifest,
                    piece,
                    piece.back,
                    page_no,
                    "back",
                    bx,
                    by,
                    mirror_box(grid, grid.art_box(index, backs), "long"),
                    _back_turn(grid, "long"),
                )
        writer.marks(grid, x_limits=(margin, fold - fold_gap / 2))
        if backs:
            writer.marks(_mirrored_grid(grid, "long"), x_limits=(fold + fold_gap / 2, pw - margin))
            c.saveState()
            c.setDash(4, 3)
            c.setLineWidth(0.5)
            c.line(fold, margin, fold, ph - margin)  # the fold line too stays off the unprintable strip
            c.restoreState()
        c.showPage()
