"""Card sheets: faces and backs on A4 or Letter pages with bleed, crop marks, duplex or fold-over, and a manifest."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from . import atomic, cardview, fonts, sheet
from .cardrender import CardPainter, Target
from .errors import UsageError
from .game import DeckCards, Game
from .layout import Layout, load_layout
from .loader import project_root
from .units import MM

MARK_WIDTH = 0.25  # points: hairline crop marks
MARK_COLOUR = "#000000"


@dataclass(frozen=True)
class SheetOptions:
    """What a card-sheet build is asked for; a frozen value passed down to every step."""

    paper: str = "a4"
    card_size: tuple[float, float] = (63.5 * MM, 88.9 * MM)
    bleed: float = 3 * MM
    duplex: str = "long"
    offset: tuple[float, float] = (0.0, 0.0)  # points, added to every back's position
    foldover: bool = False
    decks: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    copies: int = 1


@dataclass(frozen=True)
class Placed:
    """One card in the print run, in order."""

    deck: DeckCards
    card: Any
    copy: int


@dataclass
class Manifest:
    paper: str
    page_size: tuple[float, float]
    card_size: tuple[float, float]
    bleed: float
    duplex: str
    offset: tuple[float, float]
    foldover: bool
    units: str = "PDF points, origin at the page's bottom-left; x, y is the trim box's bottom-left"
    slots: list[dict[str, Any]] = field(default_factory=list)


def run_order(game: Game, options: SheetOptions) -> list[Placed]:
    """Every card to print, deck by deck in deck order, copies together."""
    decks = [d for d in game.decks if not options.decks or d.deck.id in options.decks]
    unknown = set(options.decks) - {d.deck.id for d in game.decks}
    if unknown:
        raise UsageError(
            f"{game.slug}: no deck {', '.join(sorted(unknown))} (decks: {', '.join(d.deck.id for d in game.decks)})"
        )
    unknown_cards = set(options.cards) - {c.id for c in game.cards}
    if unknown_cards:
        raise UsageError(f"{game.slug}: no card {', '.join(sorted(unknown_cards))}")
    out: list[Placed] = []
    for deck in decks:
        for card, copies in deck.entries:
            if options.cards and card.id not in options.cards:
                continue
            out.extend(Placed(deck, card, n) for n in range(copies * options.copies))
    return out


def layouts_for(game: Game) -> dict[str, Layout]:
    """Each card kind's layout and the back's, from the game's own layouts/ first, then the project's."""
    folders = [game.folder / "layouts", project_root() / "layouts"]
    kinds = {c.kind for c in game.cards} | {"back"}
    return {kind: load_layout(game.info.layouts.get(kind, kind), folders) for kind in sorted(kinds)}


def _chunks(items: list[Placed], size: int) -> Iterator[list[Placed]]:
    """Page-sized runs; each deck starts a fresh page because its backs differ."""
    page: list[Placed] = []
    for item in items:
        if page and (len(page) == size or page[-1].deck is not item.deck):
            yield page
            page = []
        page.append(item)
    if page:
        yield page


class SheetWriter:
    """Draws the pages of one sheet PDF; each card design is one PDF form, placed as often as it is printed."""

    def __init__(self, game: Game, options: SheetOptions, title: str) -> None:
        self.game = game
        self.options = options
        self.buffer = io.BytesIO()
        page = sheet.PAPERS[options.paper]
        if options.foldover:
            page = (page[1], page[0])  # landscape: faces on the left half, backs on the right
        self.page = page
        # the initial font must be an embedded one, or reportlab names an unembedded Helvetica
        self.c = Canvas(self.buffer, pagesize=page, invariant=1, pageCompression=1, initialFontName=fonts.use("sans"))
        self.c.setTitle(title)
        self.c.setAuthor(game.info.credit)
        self.c.setCreator("printkit")
        self.c.setSubject(game.info.credit)
        self.layouts = layouts_for(game)
        self.forms: set[str] = set()
        self.painter = CardPainter(self.c, options.card_size, options.bleed)

    def _form(self, name: str, layout: Layout, fields: dict[str, Any], card_id: str) -> str:
        if name not in self.forms:
            w, h = self.options.card_size
            b = self.options.bleed
            self.c.beginForm(name, lowerx=-b, lowery=-b, upperx=w + b, uppery=h + b)
            self.painter.paint(layout, fields, Target(self.game.slug, card_id, layout))
            self.c.endForm()
            self.forms.add(name)
        return name

    def face(self, placed: Placed) -> str:
        fields = cardview.face_fields(self.game, placed.deck, placed.card)
        name = f"face-{placed.deck.deck.id}-{placed.card.id}"
        return self._form(name, self.layouts[placed.card.kind], fields, placed.card.id)

    def back(self, deck: DeckCards) -> str:
        return self._form(
            f"back-{deck.deck.id}", self.layouts["back"], cardview.back_fields(self.game, deck), f"{deck.deck.id} back"
        )

    def place(self, form: str, x: float, y: float, clip: tuple[float, float, float, float]) -> None:
        c = self.c
        c.saveState()
        path = c.beginPath()
        path.rect(clip[0], clip[1], clip[2] - clip[0], clip[3] - clip[1])
        c.clipPath(path, stroke=0, fill=0)
        c.translate(x, y)
        c.doForm(form)
        c.restoreState()

    def marks(
        self, grid: sheet.Grid, shift: tuple[float, float] = (0.0, 0.0), x_limits: tuple[float, float] | None = None
    ) -> None:
        c = self.c
        c.saveState()
        c.setStrokeColor(HexColor(MARK_COLOUR))
        c.setLineWidth(MARK_WIDTH)
        for x0, y0, x1, y1 in sheet.crop_marks(grid, x_limits):
            c.line(x0 + shift[0], y0 + shift[1], x1 + shift[0], y1 + shift[1])
        c.restoreState()

    def finish(self) -> bytes:
        self.c.save()
        return self.buffer.getvalue()


def _shifted(box: tuple[float, float, float, float], dx: float, dy: float) -> tuple[float, float, float, float]:
    return box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy


def _mirror_box(
    grid: sheet.Grid, box: tuple[float, float, float, float], duplex: str
) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = box
    if duplex == "long":
        return grid.page_w - x1, y0, grid.page_w - x0, y1
    if duplex == "short":
        return x0, grid.page_h - y1, x1, grid.page_h - y0
    return box


def _mirrored_grid(grid: sheet.Grid, duplex: str) -> sheet.Grid:
    """The grid the backs form: the face grid reflected across the flip edge."""
    x0, _y0, _x1, y1 = _mirror_box(grid, grid.block(), duplex)
    return replace(grid, left=x0 + grid.bleed, top=y1 - grid.bleed)


def build(game: Game, options: SheetOptions) -> tuple[bytes, Manifest]:
    """The sheet PDF and its manifest for one game."""
    fonts.use("sans")
    page = sheet.PAPERS[options.paper]
    order = run_order(game, options)
    if not order:
        raise UsageError(f"{game.slug}: the selection holds no cards")
    manifest = Manifest(
        options.paper, page, options.card_size, options.bleed, options.duplex, options.offset, options.foldover
    )
    writer = SheetWriter(game, options, f"{game.title} - cards ({options.paper.upper()})")
    if options.foldover:
        _foldover_pages(writer, order, manifest)
    else:
        _duplex_pages(writer, order, manifest)
    return writer.finish(), manifest


def _slot_record(placed: Placed, page: int, side: str, x: float, y: float, options: SheetOptions) -> dict[str, Any]:
    return {
        "card": placed.card.id,
        "name": placed.card.name,
        "deck": placed.deck.deck.id,
        "copy": placed.copy,
        "page": page,
        "side": side,
        "x": round(x, 3),
        "y": round(y, 3),
        "w": round(options.card_size[0], 3),
        "h": round(options.card_size[1], 3),
    }


def _duplex_pages(writer: SheetWriter, order: list[Placed], manifest: Manifest) -> None:
    options, c = writer.options, writer.c
    grid = sheet.grid(sheet.PAPERS[options.paper], options.card_size, options.bleed)
    page_no = 0
    for chunk in _chunks(order, grid.per_page):
        page_no += 1
        for index, placed in enumerate(chunk):
            x, y = grid.slot(index)
            writer.place(writer.face(placed), x, y, grid.art_box(index))
            manifest.slots.append(_slot_record(placed, page_no, "face", x, y, options))
        writer.marks(grid)
        c.showPage()
        page_no += 1
        back = writer.back(chunk[0].deck)
        dx, dy = options.offset
        for index, placed in enumerate(chunk):
            x, y = grid.slot(index)
            if options.duplex == "none":
                bx, by = x + dx, y + dy
                clip = _shifted(grid.art_box(index), dx, dy)
            else:
                bx, by = sheet.back_position(grid, x, y, options.duplex, options.offset)
                clip = _shifted(_mirror_box(grid, grid.art_box(index), options.duplex), dx, dy)
            writer.place(back, bx, by, clip)
            manifest.slots.append(_slot_record(placed, page_no, "back", bx, by, options))
        writer.marks(grid if options.duplex == "none" else _mirrored_grid(grid, options.duplex), options.offset)
        c.showPage()


def _foldover_pages(writer: SheetWriter, order: list[Placed], manifest: Manifest) -> None:
    """Faces on the left half, backs mirrored across the centre fold line on the right half."""
    options, c = writer.options, writer.c
    pw, ph = writer.page
    fold = pw / 2
    # The fold side needs no room for crop marks, only a gap that keeps the fold off the art.
    fold_gap = 1 * MM
    grid = sheet.grid(
        (pw, ph), options.card_size, options.bleed, area=(0.0, 0.0, fold - fold_gap + sheet.MARK_ROOM, ph)
    )
    for page_no, chunk in enumerate(_chunks(order, grid.per_page), start=1):
        back = writer.back(chunk[0].deck)
        for index, placed in enumerate(chunk):
            x, y = grid.slot(index)
            writer.place(writer.face(placed), x, y, grid.art_box(index))
            manifest.slots.append(_slot_record(placed, page_no, "face", x, y, options))
            bx, by = sheet.back_position(grid, x, y, "long")
            writer.place(back, bx, by, _mirror_box(grid, grid.art_box(index), "long"))
            manifest.slots.append(_slot_record(placed, page_no, "back", bx, by, options))
        writer.marks(grid, x_limits=(sheet.EDGE_CLEAR, fold - fold_gap / 2))
        writer.marks(_mirrored_grid(grid, "long"), x_limits=(fold + fold_gap / 2, pw - sheet.EDGE_CLEAR))
        c.saveState()
        c.setDash(4, 3)
        c.setLineWidth(0.5)
        c.line(fold, 0, fold, ph)
        c.restoreState()
        c.showPage()


def manifest_json(manifest: Manifest) -> str:
    return json.dumps(asdict(manifest), indent=1, ensure_ascii=False) + "\n"


def output_name(options: SheetOptions) -> str:
    return f"cards-{options.paper}{'-foldover' if options.foldover else ''}.pdf"


def write(game: Game, options: SheetOptions, folder: Path) -> list[Path]:
    """Build and write the sheet PDF and its manifest, each whole or not at all."""
    pdf, manifest = build(game, options)
    target = folder / output_name(options)
    atomic.write_bytes(target, pdf)
    atomic.write_text(target.with_suffix(".json"), manifest_json(manifest))
    return [target, target.with_suffix(".json")]
