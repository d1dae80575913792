"""The rules booklet: the rules rendered to HTML with diagrams, then to PDF by WeasyPrint, A5, A4 or Letter."""

from __future__ import annotations

import io
from collections.abc import Callable

import markupsafe
from PIL import Image
from pypdf import PageObject, PdfReader, PdfWriter, Transformation
from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from printkit.core import units
from printkit.core.units import MM
from printkit.data.game import Game
from printkit.data.model import Component
from printkit.data.settings import PAPERS, PrintSettings
from printkit.docs import examples, floats, inline, rulesbook, scenes, templating
from printkit.draw import board, cardview, fonts, raster
from printkit.draw.cardrender import CardPainter, Target
from printkit.draw.cardview import aid_fields
from printkit.draw.layout import SMALLEST_TEXT, face_layout, layouts_for
from printkit.draw.legibility import INK
from printkit.sheets import cover
from printkit.sheets.designs import aid_size

PAGE_SIZES = {"a5": "A5", "a4": "A4", "letter": "letter", "half-letter": "5.5in 8.5in"}
SADDLE = {"a5": "a4", "half-letter": "letter"}  # booklet page size -> the sheet two pages share
# A diagram is shown at most this tall and as wide as the text (the booklet's style sheet says so), and
# rendered from its drawing with pixels enough for SHARP_PPI however large the widest page shows it.
DIAGRAM_HEIGHT = rulesbook.DIAGRAM_TALLEST_MM * MM
WIDEST_PAGE = max(PAPERS["a4"][0], PAPERS["letter"][0])  # the text is narrower still: a margin to spare
SHARP_PPI = 300
_DRAWN_PPI = SHARP_PPI * 1.03  # a little over, so whole pixels and the layout's rounding never take it under


# A board pictured in the rules shows its layout, not its print: it is drawn to print at most this tall
BOARD_TALLEST = 55 * MM
# the narrowest text column of a booklet page (half letter, less the style sheet's 14 mm side margins): a board
# pictured no wider prints the same on every booklet size
NARROWEST_TEXT = (215.9 / 2 - 28) * MM


def sharp_dpi(size: tuple[float, float], tallest: float = DIAGRAM_HEIGHT) -> float:
    """The resolution to render a drawing of this size (points) at for SHARP_PPI as the booklet shows it,
    held to tallest points high."""
    width, height = size
    shown = min(WIDEST_PAGE, tallest * width / height)  # a tall drawing is held to the height
    return _DRAWN_PPI * shown / width


def _formations_pdf(game: Game, settings: PrintSettings) -> bytes | None:
    """Battle Line's formations, strongest first, each shown with example Troops drawn as printed."""
    # the cards of a colour and a value: Troops
    troops = {(c.values["colour"], c.values["value"]): c for c in game.cards if {"colour", "value"} <= set(c.values)}
    colours = [c.id for c in game.info.colours]
    values = sorted({v for _, v in troops})
    if len(colours) < 3 or len(values) < 9 or len(game.info.formations) != 5:
        return None
    top = values[-3:]
    examples = {  # one plain example of each kind, and of nothing stronger
        "wedge": [(colours[0], v) for v in top],
        "phalanx": [(c, values[-2]) for c in colours[:3]],
        "battalion": [(colours[1], values[i]) for i in (1, 4, 8)],
        "skirmish": [(c, values[i]) for c, i in zip(colours[:3], (3, 4, 5), strict=True)],
        "host": [(c, values[i]) for c, i in zip(colours[:3], (0, 4, 8), strict=True)],
    }
    deck = game.deck("troops")
    w, h = settings.card_size
    gap, label_w = 0.2 * units.INCH, 5 * units.INCH
    rows = len(game.info.formations)
    size = (label_w + 3 * (w + gap), rows * (h + gap))

    label = 0.43 * units.INCH  # the diagram is shown about a quarter of its size: about 8 pt on the page

    def draw(c: Canvas) -> None:
        for i, formation in enumerate(game.info.formations):
            y = size[1] - (i + 1) * (h + gap)
            c.setFillColor(HexColor(INK))
            c.setFont(fonts.use("sans-bold"), label)
            c.drawString(0.17 * units.INCH, y + h / 2 - 0.35 * label, f"{i + 1}. {formation.name}")
            for j, key in enumerate(examples[formation.id]):
                card = troops[key]
                layout = face_layout(game, deck, card)
                c.saveState()
                c.translate(label_w + j * (w + gap), y)
                target = Target.of(game, card.id, layout, game.place("card", card.id))
                CardPainter(c, (w, h), 0.0).paint(layout, cardview.face_fields(game, deck, card), target)
                c.restoreState()

    return raster.drawing_pdf(size, draw)


def _board(game: Game, kind: str) -> Component | None:
    return next((c for c in game.info.components if c.kind == kind and c.board), None)


def _board_pdf(game: Game, kind: str) -> bytes | None:
    comp = _board(game, kind)
    return raster.board_pdf(game, comp) if comp else None


def _aid_pdf(game: Game, settings: PrintSettings) -> bytes | None:
    comp = next((c for c in game.info.components if c.kind == "reference"), None)
    if comp is None:
        return None
    layout = layouts_for(game, {"reference"})["reference"]
    size = aid_size(comp, settings.card_size)
    return raster.design_pdf(layout, aid_fields(game, comp), size, 0.0, game, comp.id, game.place("component", comp.id))


# Each diagram a game's rules may name: a one-page drawing (PDF) of it, which Diagrams renders sharp.
DIAGRAMS: dict[str, Callable[[Game, PrintSettings], bytes | None]] = {
    "formations": _formations_pdf,
    "battlefield": lambda game, _: _board_pdf(game, "board"),
    "era-track": lambda game, _: _board_pdf(game, "board"),
    "day-phases": _aid_pdf,
}
BOARDS = {"battlefield", "era-track"}


class Diagrams:
    """Each diagram a game's rules name, drawn once per build as a PNG sharp where the booklet shows it: those
    above (rendered at SHARP_PPI), the setup and each example's position (composed at scenes.PPI)."""

    def __init__(self, game: Game, settings: PrintSettings) -> None:
        self.game = game
        self.settings = settings  # the cards are pictured at their printed size
        self.drawn: dict[str, bytes | None] = {}
        self.captions: dict[str, str] = {}  # a diagram's words under it, when it needs them (a board in part)
        self._replays: dict[str, examples.Replay | None] | None = None
        self._cover: bytes | None = None

    def cover(self) -> bytes:
        """The cover's picture: the game's cards fanned out (cover.fan_faces says which), sharp where it shows."""
        if self._cover is None:
            faces = cover.fan_faces(self.game, self.settings.card_size)
            self._cover = _sharp(cover.extent(faces), lambda dpi: cover.fan(self.game, faces, dpi))
        return self._cover

    def replays(self) -> dict[str, examples.Replay | None]:
        if self._replays is None:
            self._replays = examples.replays(self.game)
        return self._replays

    def __call__(self, name: str) -> bytes | None:
        if name not in self.drawn:
            self.drawn[name] = self._make(name)
        return self.drawn[name]

    def _make(self, name: str) -> bytes | None:
        if name == "setup":
            script = examples.load_examples(self.game)
            hand = int(self.game.rule(script.hand)) if script.hand else None
            return scenes.setup(self.game, self.settings, hand, examples.seat_names(self.game, script.seats))
        if name.startswith("example-"):
            replay = self.replays().get(name[len("example-") :])
            return scenes.position(self.game, self.settings, replay) if replay else None
        make = DIAGRAMS.get(name)
        drawing = make(self.game, self.settings) if make else None
        if drawing is None:
            return None
        comp = _board(self.game, "board")
        if name in BOARDS and comp is not None:
            picture, caption = _board_png(drawing, board.spaces_box(comp))
            if caption:
                self.captions[name] = caption
            return picture
        return _sharp_png(drawing)


def _board_png(pdf: bytes, spaces: tuple[float, float, float, float]) -> tuple[bytes, str | None]:
    """A board as the rules picture it, and a caption when it is shown in part: whole when the smallest words of
    its spaces still print at 6 pt on the smallest booklet page; a long strip (a track) that would print them
    smaller, its left part at the scale where they do, as wide as that page, since a picture of words no one can
    read shows nothing. A grid stays whole: a part would misshow its layout. (The game's title and credit along
    its top are set at 6 pt to print: the rules picture them smaller.)"""
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    smallest = raster.smallest_text(pdf, spaces)
    tallest = min(BOARD_TALLEST, min(tallest_mm(size) for size in TEXT_HEIGHT_MM) * MM)
    whole = min(NARROWEST_TEXT / width, tallest / height)
    scale = min(1.0, SMALLEST_TEXT / smallest) if smallest else 1.0
    if smallest is None or smallest * whole >= SMALLEST_TEXT or height * scale > tallest:
        # legible whole; or a board whose layout is a grid, which a part would misshow: pictured whole
        return _sharp_png(pdf, BOARD_TALLEST), None
    shown = min(width, NARROWEST_TEXT / scale)  # of the board, in its own points: a strip's first spaces
    dpi = _DRAWN_PPI * scale  # pixels enough for SHARP_PPI as printed at the scale
    image = raster.render_pdf(pdf, dpi)
    part = image.crop((0, 0, round(shown * dpi / 72), image.height))
    caption = (
        f"The board's left part, at 1:{1 / scale:.1f}, where its words read at {SMALLEST_TEXT:g} pt or more; "
        f"it prints whole, {width / MM:.0f} mm long, on its sheets."
    )
    return raster.png(part, dpi=dpi / scale), caption


def _sharp_png(pdf: bytes, tallest: float = DIAGRAM_HEIGHT) -> bytes:
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    size = float(page.mediabox.width), float(page.mediabox.height)
    return _sharp(size, lambda dpi: raster.render_pdf(pdf, dpi), tallest)


def _sharp(size: tuple[float, float], draw: Callable[[float], Image.Image], tallest: float = DIAGRAM_HEIGHT) -> bytes:
    """A PNG of a picture of size (points) that draw makes at a resolution, sharp as the booklet shows it."""
    dpi = sharp_dpi(size, tallest)
    # the file's resolution says how large it prints: no taller than tallest, its pixels packed closer
    return raster.png(draw(dpi), dpi=dpi * max(1.0, size[1] / tallest))


# the text area of each booklet page, from its size less the style sheet's margins (16 mm top and bottom)
TEXT_HEIGHT_MM = {"a5": 210 - 32, "a4": 297 - 32, "letter": 279.4 - 32, "half-letter": 215.9 - 32}
# the cover fills the text area less the body's own margins (8 px, 2.1 mm, above and below) and a little to spare:
# any taller and its foot would run on to a second page
COVER_SHORT = 6
COVER_TYPE = 1.3  # the cover's words on a full page (A4, Letter), as against half of one (A5, half letter)
PAGE_SHARE = 0.5  # a diagram takes at most half a page's text height, so the text around it has room


def tallest_mm(size: str) -> float:
    """How tall a diagram prints at most on a booklet page of this size."""
    return min(rulesbook.DIAGRAM_TALLEST_MM, PAGE_SHARE * TEXT_HEIGHT_MM[size])


def _blocks(game: Game, size: str, diagrams: Diagrams) -> tuple[list[floats.Block], list[rulesbook.Heading]]:
    markdown = rulesbook.render_markdown(game)
    body, headings = rulesbook.to_html(markdown, diagrams, tallest_mm(size), diagrams.captions)
    # WeasyPrint, breaking a line at the space before an emphasis, can set the first word alone on a line of
    # its own when the words up to that space exactly fill the next ("A / Character has survived ..."); the
    # space kept inside the emphasis breaks the same and prints the same
    body = body.replace(" <em>", "<em> ")
    body, _ = inline.icons_in(body, game, lambda name: inline.data_uri(game, name))  # {sword}: the icon, as printed
    return floats.blocks(floats.figures(body)), headings


def _kept_together(text: str) -> str:
    """text with its last two words joined by a no-break space: a line of its own never holds one short word
    ("... for personal / use.")."""
    head, space, last = text.rstrip().rpartition(" ")
    return f"{head}\u00a0{last}" if space and head else text


def _page(
    game: Game, size: str, order: list[floats.Block], headings: list[rulesbook.Heading], diagrams: Diagrams
) -> str:
    # body is our own Markdown rendering, raw HTML off: safe to insert as it is
    return templating.render(
        "booklet.html.j2",
        game=game,
        title=game.title,
        byline=game.info.byline,
        credit=_kept_together(game.info.credit),
        facts=cover.facts(game),
        cover=templating.png_uri(diagrams.cover()),
        body=markupsafe.Markup("".join(b.html for b in order)),
        headings=[h for h in headings if h.level == 1],
        page=PAGE_SIZES[size],
        diagram_height=f"{tallest_mm(size):g}mm",
        cover_height=f"{TEXT_HEIGHT_MM[size] - COVER_SHORT:g}mm",
        cover_type=1.0 if size in SADDLE else COVER_TYPE,
    )


def html(game: Game, size: str, diagrams: Diagrams) -> str:
    """The booklet's HTML, its pictures where the rules put them (build moves those that would leave a gap)."""
    order, headings = _blocks(game, size, diagrams)
    return _page(game, size, order, headings, diagrams)


def saddle(pdf_bytes: bytes, sheet: tuple[float, float]) -> bytes:
    """Pages 2-up on landscape sheets in saddle-stitch order, padded with blanks to a multiple of 4.

    Fold the printed pile in half and staple on the fold: the pages read in order.
    """
    reader = PdfReader(io.BytesIO(pdf_bytes))
    pages: list[PageObject | None] = list(reader.pages)
    while len(pages) % 4:
        pages.append(None)
    n = len(pages)
    sheet_w, sheet_h = sheet
    writer = PdfWriter()
    order: list[tuple[int, int]] = []
    for i in range(n // 4):  # each sheet: front (last, first), back (second, second-last)
        order += [(n - 1 - 2 * i, 2 * i), (2 * i + 1, n - 2 - 2 * i)]
    for left, right in order:
        out = writer.add_blank_page(width=sheet_w, height=sheet_h)
        for slot, index in ((0, left), (1, right)):
            page = pages[index]
            if page is None:
                continue
            w, h = float(page.mediabox.width), float(page.mediabox.height)
            scale = min(sheet_w / 2 / w, sheet_h / h)
            x = slot * sheet_w / 2 + (sheet_w / 2 - w * scale) / 2
            y = (sheet_h - h * scale) / 2
            out.merge_transformed_page(page, Transformation().scale(scale).translate(x, y))
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def fit(pdf_bytes: bytes, page: tuple[float, float]) -> bytes:
    """Every page scaled to fit the given page size and centred on it (an A4 booklet on Letter paper)."""
    reader = PdfReader(io.BytesIO(pdf_bytes))
    writer = PdfWriter()
    for source in reader.pages:
        w, h = float(source.mediabox.width), float(source.mediabox.height)
        scale = min(page[0] / w, page[1] / h)
        out = writer.add_blank_page(width=page[0], height=page[1])
        out.merge_transformed_page(
            source, Transformation().scale(scale).translate((page[0] - w * scale) / 2, (page[1] - h * scale) / 2)
        )
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def build(game: Game, size: str, diagrams: Diagrams) -> bytes:
    """The booklet as a PDF, each picture that would leave a page gap moved after the text that fills it;
    it reads no file but those inside the game's folder."""
    order, headings = _blocks(game, size, diagrams)
    document = templating.layout(_page(game, size, order, headings, diagrams), game.folder)
    for _ in range(floats.ROUNDS):
        moved = floats.reflow(order, document)
        if moved is None:
            break
        order = moved
        document = templating.layout(_page(game, size, order, headings, diagrams), game.folder)
    return templating.write(document)
