"""`printkit export printshop`: card images at a print shop's exact pixel sizes, its file naming, a zip,
a one-card-per-page PDF with TrimBox and BleedBox, and a check that text stays in the safe area.

Every deck goes, and every player aid of the cards' size, as a deck of its own with a blank back."""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Literal

from PIL import Image
from pydantic import Field, ValidationError, field_validator

from printkit.core import atomic, units
from printkit.core.errors import DataError, UsageError, display_path
from printkit.data.game import Game
from printkit.data.model import Frozen
from printkit.data.settings import CardSize, PrintSettings, card_size, ink_limit, pdfx, pdfx_year
from printkit.data.validation import problems_from
from printkit.data.yamlsource import load
from printkit.draw import fonts, ink, raster
from printkit.draw.cardrender import CardPainter, Target
from printkit.sheets.designs import Face, aid_faces, blank_back, card_faces

ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # fixed, so the same cards give the same zip


Side = Literal["front", "back"]
SIDES: tuple[Side, Side] = ("front", "back")


class ShopPdf(Frozen):
    """The PDF a shop takes: one a deck or one for the game, each card's sides in its order, copies or not."""

    per: Literal["deck", "game"] = "game"
    order: Annotated[list[Side], Field(min_length=2, max_length=2)] = Field(default_factory=lambda: [*SIDES])
    copies: Literal["each", "once"] = "once"  # each: a page pair for every copy of a card, as the shop counts them

    @field_validator("order")
    @classmethod
    def _both_sides(cls, value: list[str]) -> list[str]:
        if len(set(value)) != 2:
            raise ValueError("expected both sides, [back, front] or [front, back]")
        return value


class Shop(Frozen):
    """A print shop's file specification, from layouts/printshops.yaml."""

    name: str
    dpi: Annotated[int, Field(ge=72, le=2400)]
    cut: Annotated[float, Field(ge=0)]
    safe: Annotated[float, Field(ge=0)]
    templates: dict[str, Annotated[list[Annotated[int, Field(gt=0)]], Field(min_length=2, max_length=2)]]
    files: str
    pdf: ShopPdf = ShopPdf()
    # the pictures' format under --colour cmyk (a PNG cannot hold CMYK): tiff or jpeg, or png where the shop
    # takes RGB PNGs only, so its pack stays RGB
    cmyk_images: Literal["tiff", "jpeg", "png"] = "tiff"
    # the PDF/X-1a version of its PDFs under --colour cmyk, where the shop names one: the only one it takes; else
    # the print settings'
    pdfx: str | None = None
    # the most ink it prints at any point, the four inks added (2.4 is 240%), where the shop states it: its pack's
    # limit under --colour cmyk unless the settings choose a lower one; else the print settings'
    ink_limit: float | None = None
    # the printing condition the shop prints to, by its name in the ICC's registry (CGATS TR 001: US web offset
    # on coated paper, SWOP; FOGRA39 or FOGRA51: European coated); its CMYK files carry it in their output
    # intent, and the profile they are separated through must be for it. None: the profile's own condition
    condition: Annotated[str, Field(min_length=1, max_length=64)] | None = None

    @field_validator("pdfx")
    @classmethod
    def _pdfx_version(cls, value: str | None) -> str | None:
        return None if value is None else pdfx(value)

    @field_validator("ink_limit", mode="before")
    @classmethod
    def _total_ink(cls, value: object) -> float | None:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float | str):  # yes/no and lists do not read
            raise ValueError(f"expected a total ink such as 240%, found {value!r}")
        return ink_limit(value)  # as the print settings' ink_limit reads: 240% or 240

    @field_validator("templates")
    @classmethod
    def _card_sizes(cls, value: dict[str, list[int]]) -> dict[str, list[int]]:
        for name in value:
            card_size(name)  # a ValueError here is reported at the key, like any other bad value
        return value

    def image_size(self, card: CardSize) -> tuple[int, int] | None:
        """The image in pixels for a card of this size, when printkit knows the shop's template for it."""
        for name, (width, height) in self.templates.items():
            known = card_size(name)
            if abs(known.width - card.width) < 0.1 * units.MM and abs(known.height - card.height) < 0.1 * units.MM:
                return width, height
        return None


SPECS = "printshops.yaml"


def shops(game: Game) -> dict[str, Shop]:
    """The shops' specifications, from the first of the game's layout folders that has them."""
    path = next((folder / SPECS for folder in game.layout_folders if (folder / SPECS).is_file()), None)
    if path is None:
        raise UsageError(f"no {SPECS} in {', '.join(display_path(f) for f in game.layout_folders)}")
    data, smap = load(path, game.layout_folders)
    if not isinstance(data, dict):
        raise DataError([smap.problem((), "expected a mapping of shop names to their specifications")])
    table, problems = {}, []
    for key, value in data.items():
        try:
            table[str(key)] = Shop.model_validate(value)
        except ValidationError as exc:
            problems += problems_from(exc, Shop, value, smap.within(key))
    if problems:
        raise DataError(problems)
    return table


@dataclass(frozen=True)
class SafeZoneWarning:
    layout: str
    region: str
    cards: tuple[str, ...]
    outside_mm: float

    def __str__(self) -> str:
        few = ", ".join(self.cards[:3]) + (f" and {len(self.cards) - 3} more" if len(self.cards) > 3 else "")
        return (
            f"layout {self.layout}, region {self.region}: {self.outside_mm:.1f} mm outside the safe area (cards {few})"
        )


def safe_zone_warnings(faces: list[Face], shop: Shop) -> list[SafeZoneWarning]:
    """Text, badges and icons that stand nearer the cut than the shop's safe line, one warning per region."""
    inset = (shop.safe - shop.cut) / shop.dpi * 72  # safe line, measured in from the trim
    found: dict[tuple[str, str], tuple[list[str], float]] = {}
    for face in faces:
        w, h = face.size
        for box in face.layout.boxes(face.size):
            spec = box.spec
            if spec.type not in ("text", "badge", "icon") or not spec.drawn_for(face.fields):
                continue
            over = max(inset - box.x, inset - box.y, box.x + box.w - (w - inset), box.y + box.h - (h - inset))
            if over > 0.05:
                cards, worst = found.setdefault((face.layout.name, box.name), ([], 0.0))
                cards.append(face.label)
                found[(face.layout.name, box.name)] = (cards, max(worst, over))
    return [
        SafeZoneWarning(layout, region, tuple(cards), worst / units.MM)
        for (layout, region), (cards, worst) in found.items()
    ]


SUFFIXES = {"tiff": ".tif", "jpeg": ".jpg", "png": ".png"}


def _file_name(shop: Shop, face: Face, index: int, kind: str = "png") -> str:
    card = "back" if face.side == "back" else face.label
    name = shop.files.format(side=face.side, index=index, card=card, deck=face.deck)
    if kind == "png":
        return name
    stem, dot, suffix = name.rpartition(".")  # the shop's name with the format's own ending
    return (stem if dot and suffix.lower() == "png" else name) + SUFFIXES[kind]


def _picture(image: Image.Image, kind: str, dpi: int, press: ink.Press | None) -> bytes:
    """One card image as the pack holds it: PNG (RGB), or for a press TIFF or JPEG in its inks with its
    profile inside; each with its resolution, which tools read its print size from."""
    if press is None or kind == "png":
        return raster.png(image, 1, dpi)
    out = io.BytesIO()
    if kind == "tiff":  # deflated, lossless: every pixel as limited
        inks = press.pixels(image)
        inks.save(out, "TIFF", compression="tiff_adobe_deflate", dpi=(dpi, dpi), icc_profile=press.profile_bytes)
    else:  # JPEG's finest, no chroma subsampling to blur small type; aimed lower, as compression moves pixels
        inks = press.pixels(image, ink.JPEG_HEADROOM)
        inks.save(out, "JPEG", quality=100, subsampling=0, dpi=(dpi, dpi), icc_profile=press.profile_bytes)
    return out.getvalue()


def _percent(total: float) -> str:
    """A total ink as the settings take it: 2.4 as 240%."""
    return f"{total * 100:g}%"


def _shop_form(shop: Shop, settings: PrintSettings) -> PrintSettings:
    """The settings a shop's pack is made with, in the form the shop takes its files, or one line saying what the
    settings chose that it would refuse. A shop that names a PDF/X version takes its PDFs in that version only,
    which is CMYK: unless the settings chose a colour its pack is CMYK, and RGB is refused; so is another version,
    unless nobody chose one. A shop's ink limit is its pack's unless the settings chose a lower one; a higher one
    is refused."""
    if shop.pdfx is not None:
        if settings.colour is None:
            settings = replace(settings, colour="cmyk")
        elif settings.colour != "cmyk":
            raise UsageError(
                f"colour {settings.colour}: {shop.name} takes its PDFs as {shop.pdfx} only, which is CMYK: "
                "export its pack with --colour cmyk"
            )
    if settings.colour != "cmyk":
        return settings
    # Refused, not changed to what the shop takes with a note, like the colour above: the user asked for this
    # version or limit in so many words, a note scrolls past (and -q hides it), and files quietly unlike what was
    # asked for are what the shop's spec is here to prevent. The fix is one option away, and named.
    if shop.pdfx is not None:
        if settings.pdfx is None:  # nobody chose: the version the shop takes
            settings = replace(settings, pdfx=shop.pdfx)
        elif settings.pdfx != shop.pdfx:
            raise settings.refusal(
                "pdfx",
                f"{shop.name} takes its PDFs as {shop.pdfx} only, found {settings.pdfx}: "
                f"export its pack with --pdfx {pdfx_year(shop.pdfx)}",
            )
    if shop.ink_limit is not None:
        if settings.ink_limit is None:  # nobody chose: the most the shop prints
            settings = replace(settings, ink_limit=shop.ink_limit)
        elif settings.ink_limit > shop.ink_limit:
            raise settings.refusal(
                "ink_limit",
                f"{shop.name} prints at most {_percent(shop.ink_limit)} total ink, found "
                f"{_percent(settings.ink_limit)}: export its pack with --ink-limit {_percent(shop.ink_limit)} or less",
            )
    return settings


def export(game: Game, folder: Path, settings: PrintSettings, service: str) -> tuple[list[Path], list[str]]:
    """The zip of images (with order.csv) and the one-card-per-page PDF, cards at the settings' size; and warnings."""
    table = shops(game)
    if service not in table:
        raise UsageError(f"--service: expected one of {', '.join(table)}, found {service!r}")
    shop = table[service]
    notes: list[str] = []
    settings = _shop_form(shop, settings)
    press = ink.press(settings)
    if press is not None and shop.condition is not None and shop.condition != press.condition:
        raise UsageError(
            f"{shop.name} prints to {shop.condition}, and this machine's CMYK profile ({press.description}) is "
            f"for {press.condition}: files separated through it would be inked for another press"
        )
    kind = shop.cmyk_images if press is not None else "png"
    card = settings.card
    bleed = shop.cut / shop.dpi * 72
    pixels = shop.image_size(card)
    if pixels is None:
        pixels = (round((card.width + 2 * bleed) / 72 * shop.dpi), round((card.height + 2 * bleed) / 72 * shop.dpi))
        known = ", ".join(shop.templates)
        notes.append(
            f"{shop.name}: printkit has checked this shop's template for {known} cards only; the {card} files "
            f"are {pixels[0]} x {pixels[1]} px (trim and the shop's bleed): compare them with the shop's own "
            "template for that size before ordering"
        )
    if press is not None and kind == "png":
        notes.append(f"{shop.name} takes RGB PNG pictures only: its pack stays RGB, its PDF is CMYK")
    faces = card_faces(game, card.size)
    for aid in aid_faces(game, card.size):
        if aid.size == card.size:
            faces += [aid, blank_back(aid)]
        else:  # the pack's pictures and pages are all of one size, the shop's template's
            notes.append(f"{shop.name}: the player aid {aid.label} is not of the cards' size: it prints on the sheets")
    width, height = pixels
    page = (width / shop.dpi * 72, height / shop.dpi * 72)  # exactly the shop's pixels at its dpi
    # pdfium may round a page up by a pixel; the shop wants its size exactly, so trim the bleed's edge
    images = [im.crop((0, 0, width, height)) for im in raster.pictures(game, faces, bleed, shop.dpi, page)]
    buffer = io.BytesIO()
    order = io.StringIO()
    rows = csv.writer(order, lineterminator="\n")
    rows.writerow(["file", "deck", "card", "name", "side", "copies"])
    printed: dict[str, int] = {}  # a deck's cards, copies counted: how many of its one back the shop prints
    for face in faces:
        if face.side == "front":
            printed[face.deck] = printed.get(face.deck, 0) + face.copies
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for index, (face, image) in enumerate(zip(faces, images, strict=True), start=1):
            name = _file_name(shop, face, index, kind)
            archive.writestr(
                zipfile.ZipInfo(name, ZIP_TIME), _picture(image, kind, shop.dpi, press), zipfile.ZIP_DEFLATED
            )
            copies = face.copies if face.side == "front" else printed.get(face.deck, 0)
            rows.writerow([name, face.deck, face.label, face.title, face.side, copies])
        archive.writestr(zipfile.ZipInfo("order.csv", ZIP_TIME), order.getvalue(), zipfile.ZIP_DEFLATED)
    decks = list(dict.fromkeys(f.deck for f in faces)) if shop.pdf.per == "deck" else [None]
    with atomic.landing(folder) as batch:  # the pack and its PDFs together, or none when the disk refuses one
        batch.write(folder / f"{service}.zip", buffer.getvalue())
        for deck in decks:
            mine = [f for f in faces if deck is None or f.deck == deck]
            pdf_path = folder / (f"{service}.pdf" if deck is None else f"{service}-{deck}.pdf")
            batch.write(pdf_path, _pdf(game, mine, page, bleed, shop.pdf, press))
    return batch.landed, notes + [str(w) for w in safe_zone_warnings(faces, shop)]


def _pdf(
    game: Game,
    faces: list[Face],
    page: tuple[float, float],
    bleed: float,
    form: ShopPdf,
    press: ink.Press | None = None,
) -> bytes:
    """One card side per page, each card's sides in the shop's order (and once a copy when it counts them so);
    TrimBox marks the cut, BleedBox the whole image. For a press, a PDF/X-1a in its inks and version."""
    buffer = io.BytesIO()
    c = ink.canvas(buffer, press, pagesize=page, invariant=1, pageCompression=1, initialFontName=fonts.use("sans"))
    c.setTitle(f"{game.title} - cards for printing")
    c.setAuthor(game.info.credit)
    backs = {f.deck: f for f in faces if f.side == "back"}
    fronts = [f for f in faces if f.side == "front"]
    for face in (f for f in fronts for _ in range(f.copies if form.copies == "each" else 1)):
        sides = {"front": face, "back": backs[face.deck]}
        for design in (sides[side] for side in form.order):
            w, h = design.size
            c.setTrimBox(((page[0] - w) / 2, (page[1] - h) / 2, (page[0] + w) / 2, (page[1] + h) / 2))
            c.setBleedBox((0, 0, page[0], page[1]))
            c.saveState()
            c.translate((page[0] - w) / 2, (page[1] - h) / 2)
            CardPainter(c, design.size, bleed).paint(
                design.layout,
                design.fields,
                Target.of(game, design.label, design.layout, design.place),
            )
            c.restoreState()
            c.showPage()
    c.save()
    return buffer.getvalue()
