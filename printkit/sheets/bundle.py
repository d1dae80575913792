"""The print-and-play bundle: a cover page that shows the game and says how to print each part, then every part."""

from __future__ import annotations

import io
from dataclasses import dataclass

from pypdf import PdfReader, PdfWriter
from reportlab.lib.colors import HexColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from printkit.core.units import MM
from printkit.data.game import Game
from printkit.data.settings import PAPERS
from printkit.draw import fonts, textfit
from printkit.draw.legibility import INK
from printkit.sheets import cover


@dataclass(frozen=True)
class Part:
    """One PDF that goes into the bundle, and how to print it."""

    title: str
    pdf: bytes
    copies: str  # what one print of these pages makes, in words
    sides: str  # "single-sided" or "double-sided, flip on the long edge"


def _wrap(text: str, width: float, where: str) -> list[str]:
    """Lines of text no wider than width at 9 pt; a word wider than the column stops the build, named."""
    return textfit.fitted(text, "sans", width, 1e6, 9.0, where, min_size=9.0).texts


LEFT = 20 * MM  # the cover's text and picture from the paper's edge, either side
FOOT = 15 * MM  # the credit's last line from the paper's bottom edge
FAN_TALLEST = 80 * MM  # the fan of cards under the title: at most this tall,
FAN_LEAST = 35 * MM  # and left out when the table of parts leaves it less room: the table is what the page is for
FAN_PPI = 300  # the fan's pixels as printed: as sharp as the cards' own pictures
FAN_QUALITY = 90  # JPEG: a third of the bytes of a lossless picture, and nothing a print at 300 ppi shows
ROW = 4.5 * MM  # from one line of a cell of the table to the next


def title_size(game: Game, paper: str) -> float:
    """The cover's title size: 24 pt, smaller for a long title; one that cannot fit stops the build."""
    where = f"{game.place('game', 'title')}: title: on the cover"
    return textfit.one_line(game.printed_title, "serif-bold", PAPERS[paper][0] - 2 * LEFT, 24, where, min_size=12)


def credit_lines(game: Game, paper: str) -> textfit.Fitted:
    """The credit at the cover's foot, wrapped to three lines at most."""
    where = f"{game.place('game', 'credit')}: credit: on the cover"
    return textfit.fitted(game.info.credit or " ", "sans-oblique", PAPERS[paper][0] - 2 * LEFT, 3 * 8 * 1.2, 8, where)


def byline_size(game: Game, paper: str) -> float:
    """The byline's size under the title: 12 pt, smaller for a long one; one that cannot fit stops the build."""
    where = f"{game.place('game', 'byline')}: byline: on the cover"
    return textfit.one_line(game.info.byline or "", "sans-oblique", PAPERS[paper][0] - 2 * LEFT, 12, where, min_size=8)


def check(game: Game, paper: str) -> None:
    """What of the game's own text the cover prints fits it: validate runs this without the parts."""
    title_size(game, paper)
    byline_size(game, paper)
    credit_lines(game, paper)


def _starts(counts: list[int]) -> tuple[list[int], list[bool]]:
    """Each part's first page in the bundle, and whether a blank page comes before it.

    The cover's back is blank, and every part starts on an odd page, the front of a sheet: the whole
    bundle printed double-sided keeps each back page behind its front page.
    """
    starts, blanks, page = [], [], 3
    for count in counts:
        blank = page % 2 == 0
        page += blank
        starts.append(page)
        blanks.append(blank)
        page += count
    return starts, blanks


def _fan(game: Game, card_size: tuple[float, float], room: tuple[float, float]) -> tuple[bytes, float, float] | None:
    """The game's fan of cards as the booklet's cover shows it (cover.fan_faces chooses them), as large as fits
    room (points) up to FAN_TALLEST: a JPEG at FAN_PPI as printed and its width and height there; None when the
    game has no cards or the room is under FAN_LEAST high."""
    faces = cover.fan_faces(game, card_size)
    if not faces:
        return None
    width, height = cover.extent(faces)
    scale = min(room[0] / width, min(room[1], FAN_TALLEST) / height)
    if height * scale < FAN_LEAST:
        return None
    picture = cover.fan(game, faces, FAN_PPI * scale)  # on white: the paper's own colour
    out = io.BytesIO()
    # no metadata a rebuild would change: the same data make the same bytes
    picture.save(out, format="JPEG", quality=FAN_QUALITY, optimize=True, dpi=(FAN_PPI, FAN_PPI))
    return out.getvalue(), width * scale, height * scale


def _cover(game: Game, paper: str, parts: list[Part], counts: list[int], card_size: tuple[float, float]) -> bytes:
    page = PAPERS[paper]
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=page, invariant=1, pageCompression=1, initialFontName=fonts.use("sans"))
    c.setTitle(f"{game.title} - print and play ({paper.upper()})")
    c.setAuthor(game.info.credit)
    c.setCreator("printkit")
    left, top = LEFT, page[1] - 25 * MM
    credit = credit_lines(game, paper)
    notes = [
        "Double-sided pages: each back page follows its front page. If the backs land off their fronts,",
        "print the duplex calibration page (output/duplex-calibration-*.pdf) and build with --offset X,Y.",
        "Cut cards and counters along the crop marks beside them; the colour past the cut lines is bleed.",
        "Boards larger than a page come as tiles with an assembly map: overlap the tiles and glue.",
        "The whole file may go through a duplex printer at once: blank pages start every part on a front.",
    ]
    # the table, the notes and the credit on one page: a table too long for it stops the build
    floor = FOOT + len(credit.lines) * credit.leading + 6 * MM + len(notes) * 5 * MM
    columns = (left, left + 45 * MM, left + 68 * MM, left + 112 * MM)
    widths = [b - a - 3 * MM for a, b in zip(columns, [*columns[1:], page[0] - left], strict=True)]
    rows = []
    for part, count, first in zip(parts, counts, _starts(counts)[0], strict=True):
        pages = f"{first}" if count == 1 else f"{first}-{first + count - 1}"
        where = f"{game.place('game', 'title')}: the cover's row for {part.title}"
        cells = [
            _wrap(text, width, where)
            for width, text in zip(widths, (part.title, pages, part.copies, part.sides), strict=True)
        ]
        rows.append((where, cells, max(len(lines) for lines in cells)))
    # from the header's baseline to the last row's last line: what the fan above may not take
    table = 8 * MM + sum(tallest * ROW + 3 * MM for _, _, tallest in rows[:-1]) + (rows[-1][2] - 1) * ROW if rows else 0

    c.setFillColor(HexColor(INK))
    c.setFont(fonts.use("serif-bold"), title_size(game, paper))
    c.drawString(left, top, game.printed_title)
    y = top
    if game.info.byline:
        y -= 8 * MM
        c.setFont(fonts.use("sans-oblique"), byline_size(game, paper))
        c.drawString(left, y, game.info.byline)
    y -= 5 * MM  # the fan's top
    # under the fan: 7 mm to the facts, 7 to the kit's line, 15 to the table's header, then the table
    below = 7 * MM + 7 * MM + 15 * MM + table
    fan = _fan(game, card_size, (page[0] - 2 * left, y - below - floor))
    if fan is not None:
        data, width, height = fan
        # centred between the margins: each side as far from the paper's edge as the text, or further
        c.drawImage(ImageReader(io.BytesIO(data)), (page[0] - width) / 2, y - height, width, height)
        y -= height + 7 * MM
    else:
        y -= 4 * MM
    c.setFont(fonts.use("sans"), 10)
    c.drawString(left, y, cover.facts(game))
    y -= 7 * MM
    c.drawString(
        left, y, f"Print-and-play kit, {paper.upper()} paper. Print every page at actual size (100 %, no fit to page)."
    )
    y -= 15 * MM
    headers = ("Part", "Pages", "Makes", "How to print")
    c.setFont(fonts.use("sans-bold"), 9)
    for x, text in zip(columns, headers, strict=True):
        c.drawString(x, y, text)
    c.setLineWidth(0.5)
    c.line(left, y - 2 * MM, page[0] - left, y - 2 * MM)
    y -= 8 * MM
    c.setFont(fonts.use("sans"), 9)
    for where, cells, tallest in rows:
        if y - (tallest - 1) * ROW < floor:
            raise textfit.TextDoesNotFit(f"{where}: the table of parts runs past the cover's page")
        for x, lines in zip(columns, cells, strict=True):
            for i, line in enumerate(lines):
                c.drawString(x, y - i * ROW, line)
        y -= tallest * ROW + 3 * MM
    c.setFont(fonts.use("sans"), 8)
    y -= 6 * MM
    for line in notes:
        c.drawString(left, y, line)
        y -= 5 * MM
    c.setFont(fonts.use("sans-oblique"), credit.size)
    for i, line in enumerate(reversed(credit.texts)):
        c.drawString(left, FOOT + i * credit.leading, line)
    c.showPage()
    c.save()
    return buffer.getvalue()


def build(game: Game, paper: str, parts: list[Part], card_size: tuple[float, float]) -> bytes:
    """The cover page followed by every part, with a bookmark per part; card_size: the cards' printed size, which
    the cover's fan of them is drawn from."""
    readers = [PdfReader(io.BytesIO(part.pdf)) for part in parts]
    counts = [len(r.pages) for r in readers]
    writer = PdfWriter()
    cover_page = _cover(game, paper, parts, counts, card_size)
    writer.append(PdfReader(io.BytesIO(cover_page)), outline_item="How to print")
    width, height = PAPERS[paper]
    writer.add_blank_page(width, height)  # the cover's back
    for part, reader, blank in zip(parts, readers, _starts(counts)[1], strict=True):
        if blank:
            writer.add_blank_page(width, height)
        writer.append(reader, outline_item=part.title)
    writer.add_metadata(
        {
            "/Title": f"{game.title} - print and play ({paper.upper()})",
            "/Author": game.info.credit,
            "/Creator": "printkit",
        }
    )
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
