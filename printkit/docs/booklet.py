"""The rules booklet: the rules rendered to HTML with diagrams, then to PDF by WeasyPrint, A5, A4 or Letter."""

from __future__ import annotations

import io
from collections.abc import Callable

import markupsafe
from PIL import Image, ImageDraw, ImageFont
from pypdf import PageObject, PdfReader, PdfWriter, Transformation

from printkit.data.game import Game
from printkit.data.model import Troop
from printkit.data.settings import PrintSettings
from printkit.docs import examples, rulesbook, scenes, templating
from printkit.draw import fonts, raster
from printkit.draw.cardview import aid_fields
from printkit.draw.layout import layouts_for
from printkit.sheets.cardsheets import aid_size

PAGE_SIZES = {"a5": "A5", "a4": "A4", "letter": "letter", "half-letter": "5.5in 8.5in"}
SADDLE = {"a5": "a4", "half-letter": "letter"}  # booklet page size -> the sheet two pages share
DIAGRAM_DPI = 110


def _formations_png(game: Game, settings: PrintSettings) -> bytes | None:
    """Battle Line's formations, strongest first, each shown with example Troops drawn as printed."""
    troops = {(c.colour, c.value): c for c in game.cards if isinstance(c, Troop)}
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
    size = settings.card_size
    font = ImageFont.truetype(str(fonts.font_file("sans-bold")), 26)
    rows = []
    for formation in game.info.formations:
        images = [
            raster.render_pdf(raster.card_pdf(game, deck, troops[key], size, 0.0), 60) for key in examples[formation.id]
        ]
        rows.append((formation.name, images))
    w, h = rows[0][1][0].size
    label_w = 300
    sheet = Image.new("RGB", (label_w + 3 * (w + 12), len(rows) * (h + 14)), "white")
    draw = ImageDraw.Draw(sheet)
    for i, (name, images) in enumerate(rows):
        y = i * (h + 14)
        draw.text((10, y + h // 2 - 14), f"{i + 1}. {name}", fill="black", font=font)
        for j, image in enumerate(images):
            sheet.paste(image, (label_w + j * (w + 12), y))
    return raster.png(sheet)


def _board_png(game: Game, kind: str) -> bytes | None:
    comp = next((c for c in game.info.components if c.kind == kind and c.board), None)
    return raster.png(raster.render_pdf(raster.board_pdf(game, comp), 60)) if comp else None


def _aid_png(game: Game, settings: PrintSettings) -> bytes | None:
    comp = next((c for c in game.info.components if c.kind == "reference"), None)
    if comp is None:
        return None
    layout = layouts_for(game, {"reference"})["reference"]
    size = aid_size(comp, settings.card_size)
    pdf = raster.design_pdf(layout, aid_fields(game, comp), size, 0.0, game, comp.id, game.place("component", comp.id))
    return raster.png(raster.render_pdf(pdf, DIAGRAM_DPI + 40))


DIAGRAMS: dict[str, Callable[[Game, PrintSettings], bytes | None]] = {
    "formations": _formations_png,
    "battlefield": lambda game, _: _board_png(game, "board"),
    "era-track": lambda game, _: _board_png(game, "board"),
    "day-phases": _aid_png,
}


class Diagrams:
    """Each diagram a game's rules name, drawn once per build: those above, the setup, each example's position."""

    def __init__(self, game: Game, settings: PrintSettings) -> None:
        self.game = game
        self.settings = settings  # the cards are pictured at their printed size
        self.drawn: dict[str, bytes | None] = {}
        self._replays: dict[str, examples.Replay | None] | None = None

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
        return make(self.game, self.settings) if make else None


def html(game: Game, size: str, diagrams: Diagrams) -> str:
    markdown = rulesbook.render_markdown(game)
    body, headings = rulesbook.to_html(markdown, diagrams)
    # body is our own Markdown rendering, raw HTML off: safe to insert as it is
    return templating.render(
        "booklet.html.j2",
        game=game,
        title=game.title,
        credit=game.info.credit,
        body=markupsafe.Markup(body),
        headings=[h for h in headings if h.level == 1],
        page=PAGE_SIZES[size],
    )


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
    """The booklet as a PDF; it reads no file but those inside the game's folder."""
    return templating.pdf(html(game, size, diagrams), game.folder)
