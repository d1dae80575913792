"""The print-and-play bundle: a cover page that says how to print each part, then every part in one PDF."""

from __future__ import annotations

import io
from dataclasses import dataclass

from pypdf import PdfReader, PdfWriter
from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from printkit.core.units import MM
from printkit.data.game import Game
from printkit.data.settings import PAPERS
from printkit.draw import fonts, textfit
from printkit.draw.legibility import INK


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


LEFT = 20 * MM  # the cover's text from the paper's edge, either side
FOOT = 15 * MM  # the credit's last line from the paper's bottom edge


def title_size(game: Game, paper: str) -> float:
    """The cover's title size: 24 pt, smaller for a long title; one that cannot fit stops the build."""
    where = f"{game.place('game', 'title')}: title: on the cover"
    return textfit.one_line(game.printed_title, "serif-bold", PAPERS[paper][0] - 2 * LEFT, 24, where, min_size=12)


def credit_lines(game: Game, paper: str) -> textfit.Fitted:
    """The credit at the cover's foot, wrapped to three lines at most."""
    where = f"{game.place('game', 'credit')}: credit: on the cover"
    return textfit.fitted(game.info.credit or " ", "sans-oblique", PAPERS[paper][0] - 2 * LEFT, 3 * 8 * 1.2, 8, where)


def check(game: Game, paper: str) -> None:
    """What of the game's own text the cover prints fits it: validate runs this without the parts."""
    title_size(game, paper)
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


def _cover(game: Game, paper: str, parts: list[Part], counts: list[int]) -> bytes:
    page = PAPERS[paper]
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=page, invariant=1, pageCompression=1, initialFontName=fonts.use("sans"))
    c.setTitle(f"{game.title} - print and play ({paper.upper()})")
    c.setAuthor(game.info.credit)
    c.setCreator("printkit")
    left, top = LEFT, page[1] - 25 * MM
    credit = credit_lines(game, paper)
    c.setFillColor(HexColor(INK))
    c.setFont(fonts.use("serif-bold"), title_size(game, paper))
    c.drawString(left, top, game.printed_title)
    c.setFont(fonts.use("sans"), 10)
    c.drawString(
        left,
        top - 9 * MM,
        f"Print-and-play kit, {paper.upper()} paper. Print every page at actual size (100 %, no fit to page).",
    )
    y = top - 24 * MM
    headers = ("Part", "Pages", "Makes", "How to print")
    columns = (left, left + 45 * MM, left + 68 * MM, left + 112 * MM)
    c.setFont(fonts.use("sans-bold"), 9)
    for x, text in zip(columns, headers, strict=True):
        c.drawString(x, y, text)
    c.setLineWidth(0.5)
    c.line(left, y - 2 * MM, page[0] - left, y - 2 * MM)
    y -= 8 * MM
    c.setFont(fonts.use("sans"), 9)
    widths = [b - a - 3 * MM for a, b in zip(columns, [*columns[1:], page[0] - left], strict=True)]
    notes = [
        "Double-sided pages: each back page follows its front page. If the backs land off their fronts,",
        "print the duplex calibration page (output/duplex-calibration-*.pdf) and build with --offset X,Y.",
        "Cut cards and counters along the crop marks beside them; the colour past the cut lines is bleed.",
        "Boards larger than a page come as tiles with an assembly map: overlap the tiles and glue.",
        "The whole file may go through a duplex printer at once: blank pages start every part on a front.",
    ]
    # the table, the notes and the credit on one page: a table too long for it stops the build
    floor = FOOT + len(credit.lines) * credit.leading + 6 * MM + len(notes) * 5 * MM
    for part, count, first in zip(parts, counts, _starts(counts)[0], strict=True):
        pages = f"{first}" if count == 1 else f"{first}-{first + count - 1}"
        where = f"{game.place('game', 'title')}: the cover's row for {part.title}"
        cells = [
            _wrap(text, width, where)
            for width, text in zip(widths, (part.title, pages, part.copies, part.sides), strict=True)
        ]
        tallest = max(len(lines) for lines in cells)
        if y - (tallest - 1) * 4.5 * MM < floor:
            raise textfit.TextDoesNotFit(f"{where}: the table of parts runs past the cover's page")
        for x, lines in zip(columns, cells, strict=True):
            for i, line in enumerate(lines):
                c.drawString(x, y - i * 4.5 * MM, line)
        y -= (tallest * 4.5 + 3) * MM
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


def build(game: Game, paper: str, parts: list[Part]) -> bytes:
    """The cover page followed by every part, with a bookmark per part."""
    readers = [PdfReader(io.BytesIO(part.pdf)) for part in parts]
    counts = [len(r.pages) for r in readers]
    writer = PdfWriter()
    writer.append(PdfReader(io.BytesIO(_cover(game, paper, parts, counts))), outline_item="How to print")
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
