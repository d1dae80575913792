"""Pictures of cards and boards, rasterised with pdfium from the same drawing that goes to the printer."""

from __future__ import annotations

import io
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, cast

import pypdfium2 as pdfium
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from printkit.data.cards import Card
from printkit.data.game import DeckCards, Game
from printkit.data.model import Component
from printkit.draw import board, cardview, drawcache, fonts
from printkit.draw.cardrender import CardPainter, Target
from printkit.draw.layout import Layout, face_layout


def drawing_pdf(size: tuple[float, float], draw: Callable[[Canvas], None]) -> bytes:
    """A one-page PDF of the given size (points) that draw paints, in printkit's fonts."""
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=size, invariant=1, initialFontName=fonts.use("sans"))
    draw(c)
    c.showPage()
    c.save()
    return buffer.getvalue()


def smallest_text(pdf: bytes, within: tuple[float, float, float, float] | None = None) -> float | None:
    """The smallest font size of any glyph on the first page of a PDF (of those inside the box within, left,
    bottom, right, top in points, when given), in points; None when it has none."""
    import ctypes

    import pypdfium2.raw as pdfium_raw

    doc = pdfium.PdfDocument(pdf)
    try:
        text = doc[0].get_textpage()
        sizes = []
        for i in range(text.count_chars()):
            if not text.get_text_range(i, 1).strip():
                continue
            if within is not None:
                left, right, bottom, top = text.get_charbox(i)
                if not (within[0] <= left and right <= within[2] and within[1] <= bottom and top <= within[3]):
                    continue
            sizes.append(pdfium_raw.FPDFText_GetFontSize(text, ctypes.c_int(i)))
    finally:
        doc.close()
    return min(sizes) if sizes else None


def render_pdf(pdf: bytes, dpi: float, page: int = 0) -> Image.Image:
    """One page of a PDF as an RGB image at dpi."""
    doc = pdfium.PdfDocument(pdf)
    try:
        return _rgb(doc[page], dpi)
    finally:
        doc.close()


def _rgb(page: pdfium.PdfPage, dpi: float) -> Image.Image:
    """The page at dpi, exactly its size times dpi rounded to whole pixels."""
    # pdfium writes RGB order directly when asked: no conversion, no second copy of the pixels
    image = page.render(scale=dpi / 72, may_draw_forms=False, rev_byteorder=True).to_pil()
    image = image if image.mode == "RGB" else image.convert("RGB")
    # pdfium rounds a page's pixels up; a 126 mm page at 300 dpi is 1488.2 px, so 1488, not 1489
    width, height = (round(v * dpi / 72) for v in page.get_size())
    return image if image.size == (width, height) else image.crop((0, 0, width, height))


def design_pdf(
    layout: Layout,
    fields: dict[str, Any],
    size: tuple[float, float],
    bleed: float,
    game: Game,
    label: str,
    place: str = "",
) -> bytes:
    """A one-page PDF of a single design: the page is the card's trim plus its bleed."""
    width, height = size

    def draw(c: Canvas) -> None:
        c.translate(bleed, bleed)
        CardPainter(c, size, bleed).paint(layout, fields, Target.of(game, label, layout, place))

    return drawing_pdf((width + 2 * bleed, height + 2 * bleed), draw)


def card_pdf(game: Game, deck: DeckCards, card: Card, size: tuple[float, float], bleed: float) -> bytes:
    layout = face_layout(game, deck, card)
    fields = cardview.face_fields(game, deck, card)
    return design_pdf(layout, fields, size, bleed, game, card.id, game.place("card", card.id))


def board_pdf(game: Game, comp: Component) -> bytes:
    return drawing_pdf(board.board_size(comp), lambda c: board.draw_board(c, game, comp))


def png(image: Image.Image, compress_level: int = 6, dpi: float | None = None) -> bytes:
    """PNG bytes; with dpi, the resolution in the file (pHYs) that print shops and image tools read its size from,
    where a PNG without one is taken for 72 dpi."""
    if compress_level == 1:
        kept = drawcache.png(image)  # the same bytes this would write, already made when it was kept
        if kept is not None:
            return _with_resolution(kept, dpi) if dpi else kept
    out = io.BytesIO()
    extra = {"dpi": (dpi, dpi)} if dpi else {}
    image.save(out, format="PNG", compress_level=compress_level, **extra)
    return out.getvalue()


def _with_resolution(png: bytes, dpi: float) -> bytes:
    """PNG bytes with a pHYs chunk (pixels per metre, as Pillow writes one) after the IHDR chunk that opens every
    PNG: the kept bytes of a picture, given their resolution without decoding and encoding them again."""
    per_metre = int(dpi / 0.0254 + 0.5)  # Pillow's own rounding, so both ways give the same file
    body = b"pHYs" + per_metre.to_bytes(4, "big") * 2 + b"\x01"
    chunk = (9).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")
    end_of_header = 8 + 8 + 13 + 4  # the signature, then IHDR's length and type, its 13 bytes and its CRC
    return png[:end_of_header] + chunk + png[end_of_header:]


class Drawing(drawcache.Drawing, Protocol):
    """One design to picture: its layout, fields and trim size (drawcache's), and names for an error about it."""

    @property
    def layout(self) -> Layout: ...
    @property
    def label(self) -> str: ...
    @property
    def place(self) -> str: ...


def designs_pdf(
    game: Game,
    designs: Sequence[Drawing],
    bleed: float,
    page_size: tuple[float, float] | None = None,
    reads: list[set[Path]] | None = None,
) -> bytes:
    """Many designs, one per page, each page its trim plus bleed (or page_size, the design centred on it).

    One document for a whole run lets pdfium load the fonts once: several times faster than a
    document per card. reads, when given, is appended the files each design read while drawn.
    """
    buffer = io.BytesIO()
    c = Canvas(buffer, invariant=1, initialFontName=fonts.use("sans"))
    for design in designs:
        size = design.size
        page = page_size or (size[0] + 2 * bleed, size[1] + 2 * bleed)
        c.setPageSize(page)
        c.saveState()
        c.translate((page[0] - size[0]) / 2, (page[1] - size[1]) / 2)
        target = Target.of(game, design.label, design.layout, design.place)
        with drawcache.noting() as read:
            CardPainter(c, size, bleed).paint(design.layout, design.fields, target)
        if reads is not None:
            reads.append(read)
        c.restoreState()
        c.showPage()
    c.save()
    return buffer.getvalue()


def pictures(
    game: Game, designs: Sequence[Drawing], bleed: float, dpi: float, page_size: tuple[float, float] | None = None
) -> list[Image.Image]:
    """Each design as an RGB image at dpi, as designs_pdf pages it: kept from an earlier run when nothing that
    draws it has changed (drawcache), the rest drawn and rendered together."""

    def draw(missed: Sequence[drawcache.Drawing], reads: list[set[Path]]) -> list[Image.Image]:
        return render_pages(designs_pdf(game, cast(Sequence[Drawing], missed), bleed, page_size, reads), dpi)

    # what every design of the game draws with, beside its own layout and fields
    fonts_ = (sorted(game.info.fonts.items()), game.project_fonts, game.project_folder.absolute())
    context = repr((game.folder.absolute(), game.reads_from, fonts_, game.icons))
    return drawcache.pictures(designs, context, bleed, dpi, page_size, draw)


def render_pages(pdf: bytes, dpi: float) -> list[Image.Image]:
    """Every page of a PDF as an RGB image at dpi."""
    doc = pdfium.PdfDocument(pdf)
    try:
        return [_rgb(doc[i], dpi) for i in range(len(doc))]
    finally:
        doc.close()
