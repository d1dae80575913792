"""Print settings: one frozen object per game, settled from printkit's defaults, the game's `print:` block,
the project's [print] table and the command line, later ones winning. Every printed part and export reads it.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from printkit.core import units
from printkit.core.errors import PlacedError, UsageError
from printkit.core.project import Project
from printkit.core.units import INCH, MM

if TYPE_CHECKING:  # the command line's help reads the settings' words without loading the game model
    from printkit.data.game import Game

PAPERS: dict[str, tuple[float, float]] = {"a4": (210 * MM, 297 * MM), "letter": (8.5 * INCH, 11 * INCH)}
PAPER_NAMES = {"a4": "A4", "letter": "Letter"}  # as a sentence names them
# Trim sizes in millimetres, width x height (portrait).
CARD_SIZES_MM: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.2, 88.9),
    "mini": (44.5, 63.5),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}
DUPLEX_EDGES = ("long", "short", "none")
# shared: neighbours share a cut line and only a sheet's outer edge bleeds; separate: each piece its own
# bleed and cut lines, a gutter of twice the bleed between; auto: separate when it fits as many to a page
CUT_MODES = ("auto", "shared", "separate")
COLOUR_MODES = ("rgb", "cmyk")  # cmyk: for a print shop, through an ICC profile (printkit/draw/ink.py)
# cmyk: the PDF/X-1a versions printkit writes (printkit/draw/pdfx.py), the first a build's and a shop's that
# names none: the oldest, which every PDF/X-1a workflow reads
PDFX_VERSIONS = ("PDF/X-1a:2001", "PDF/X-1a:2003")
INK_LIMIT_RANGE = (100, 400)  # total ink in percent: 400 is every ink solid, shops ask for 240 to 340
INK_LIMIT = 2.4  # cmyk: the total ink a file is limited to when neither the settings nor a shop say: 240%
MAX_BLEED = 5 * MM
MAX_PRINTER_MARGIN = 20 * MM
MAX_MARGIN_TOLERANCE = 5 * MM  # more than this is a wrong printer margin, better measured off the calibration page
DPI_RANGE = (36, 1200)
CARD_SIDE_MM = (10, 280)  # a card's shortest and longest side: from a token-sized card to a page


@dataclass(frozen=True)
class CardSize:
    """A card's trim size: its name as written (a preset or WxH) and its width and height in points."""

    name: str
    width: float
    height: float

    @property
    def size(self) -> tuple[float, float]:
        return self.width, self.height

    def __str__(self) -> str:
        return f"{self.name} ({self.width / MM:.1f} x {self.height / MM:.1f} mm)"


POKER = CardSize("poker", CARD_SIZES_MM["poker"][0] * MM, CARD_SIZES_MM["poker"][1] * MM)


def card_size(text: str) -> CardSize:
    """A card size from a preset name (poker, bridge, mini, tarot, square) or WxH, in millimetres unless marked."""
    key = str(text).strip().lower()
    if key in CARD_SIZES_MM:
        w, h = CARD_SIZES_MM[key]
        return CardSize(key, w * MM, h * MM)
    try:
        w, h = units.size(key)
    except ValueError:
        presets = ", ".join(CARD_SIZES_MM)
        hint = difflib.get_close_matches(key, CARD_SIZES_MM, n=1, cutoff=0.6)
        guess = f" (did you mean {hint[0]!r}?)" if hint else ""
        raise ValueError(f"expected a card size ({presets}) or WxH such as 70x110mm, found {text!r}{guess}") from None
    low, high = CARD_SIDE_MM
    if not (low * MM <= w <= high * MM and low * MM <= h <= high * MM):
        raise ValueError(f"expected a card's sides from {low} to {high} mm, found {text!r}")
    return CardSize(key, w, h)


def bleed(text: str) -> float:
    """A bleed from 0mm to 5mm: more than that runs into the next card on any sheet."""
    value = units.length(str(text))
    if not 0 <= value <= MAX_BLEED + 1e-9:
        raise ValueError(f"expected a bleed from 0mm to 5mm, found {text!r}")
    return value


def printer_margin(text: str) -> float:
    """The strip along each paper edge a printer leaves blank, 0mm to 20mm: nothing is drawn there."""
    value = units.length(str(text))
    if not 0 <= value <= MAX_PRINTER_MARGIN + 1e-9:
        raise ValueError(f"expected a printer margin from 0mm to 20mm, found {text!r}")
    return value


def margin_tolerance(text: str) -> float:
    """How much further in than the printer margin ink begins, 0mm to 5mm: a printer's blank strip varies."""
    value = units.length(str(text))
    if not 0 <= value <= MAX_MARGIN_TOLERANCE + 1e-9:
        raise ValueError(f"expected a margin tolerance from 0mm to 5mm, found {text!r}")
    return value


def papers(value: str | list[str]) -> tuple[str, ...]:
    """One paper or several: "a4", "letter", "a4,letter" or a list of them."""
    names = value if isinstance(value, list) else str(value).split(",")
    chosen = tuple(dict.fromkeys(str(n).strip().lower() for n in names if str(n).strip()))
    if not chosen or any(p not in PAPERS for p in chosen):
        raise ValueError(f"expected {', '.join(PAPERS)} or both as a4,letter, found {value!r}")
    return chosen


def duplex(text: str) -> str:
    key = str(text).strip().lower()
    if key not in DUPLEX_EDGES:
        raise ValueError(f"expected one of {', '.join(DUPLEX_EDGES)}, found {text!r}")
    return key


def cuts(text: str) -> str:
    """How neighbouring pieces are cut: shared, separate, or auto (separate wherever it costs no piece a page)."""
    key = str(text).strip().lower()
    if key not in CUT_MODES:
        raise ValueError(f"expected one of {', '.join(CUT_MODES)}, found {text!r}")
    return key


def offset(value: str | list[float]) -> tuple[float, float]:
    """A printer's duplex correction, X,Y in millimetres ("-1.5,0.5" or [-1.5, 0.5]), in points."""
    parts = value if isinstance(value, list) else str(value).split(",")
    try:
        x, y = (float(v) for v in parts)
    except (TypeError, ValueError):
        raise ValueError(f"expected X,Y in millimetres such as -1.5,0.5, found {value!r}") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ValueError(f"expected X,Y in millimetres such as -1.5,0.5, found {value!r}")
    if max(abs(x), abs(y)) > 20:
        raise ValueError(f"expected an offset within 20 mm each way, found {value!r}")
    return x * MM, y * MM


def foldover(value: bool | str) -> bool:
    if isinstance(value, bool):
        return value
    key = str(value).strip().lower()
    if key not in ("true", "false", "yes", "no"):
        raise ValueError(f"expected true or false, found {value!r}")
    return key in ("true", "yes")


def dpi(value: int | str) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        raise ValueError(f"expected a whole number of dots per inch, found {value!r}") from None
    low, high = DPI_RANGE
    if not low <= number <= high:
        raise ValueError(f"expected {low} to {high} dots per inch, found {value!r}")
    return number


def colour(text: str) -> str:
    key = str(text).strip().lower()
    if key not in COLOUR_MODES:
        raise ValueError(f"expected {' or '.join(COLOUR_MODES)}, found {text!r}")
    return key


def ink_limit(value: int | float | str) -> float:
    """The most ink any point of a CMYK page carries, all four inks added: 240% (or 240) as the fraction 2.4."""
    text = str(value).strip().removesuffix("%").strip()
    low, high = INK_LIMIT_RANGE
    try:
        number = float(text)
    except ValueError:
        raise ValueError(f"expected a total ink such as 240%, found {value!r}") from None
    if not (math.isfinite(number) and low <= number <= high):
        raise ValueError(f"expected a total ink from {low}% to {high}%, found {value!r}")
    return number / 100


def pdfx(value: str | int) -> str:
    """A PDF/X-1a version by its name, PDF/X-1a:2001 or PDF/X-1a:2003 in any case, or by its year alone."""
    key = str(value).strip().lower()
    found = next((name for name in PDFX_VERSIONS if key in (name.lower(), pdfx_year(name))), None)
    if found is None:
        raise ValueError(f"expected {' or '.join(PDFX_VERSIONS)} (or the year alone), found {value!r}")
    return found


def pdfx_year(name: str) -> str:
    """The year a PDF/X version is named by: 2003 for PDF/X-1a:2003."""
    return name.rpartition(":")[2]


# Each setting as written in game.yaml, printkit.toml and on the command line: its parser and
# the PrintSettings field it sets.
SETTINGS: dict[str, tuple[Callable[[Any], Any], str]] = {
    "paper": (papers, "papers"),
    "card_size": (card_size, "card"),
    "bleed": (bleed, "bleed"),
    "printer_margin": (printer_margin, "printer_margin"),
    "margin_tolerance": (margin_tolerance, "margin_tolerance"),
    "duplex": (duplex, "duplex"),
    "cuts": (cuts, "cuts"),
    "offset": (offset, "offset"),
    "foldover": (foldover, "foldover"),
    "dpi": (dpi, "dpi"),
    "colour": (colour, "colour"),
    "ink_limit": (ink_limit, "ink_limit"),
    "pdfx": (pdfx, "pdfx"),
}


@dataclass(frozen=True)
class PrintSettings:
    """What every printed part and export of one game is made with."""

    papers: tuple[str, ...] = tuple(PAPERS)  # each paper a build prints on
    card: CardSize = POKER
    bleed: float = 3 * MM  # points, past the trim on every side
    # points along each paper edge where no ink goes, crop marks included: home printers leave 3-5 mm blank
    printer_margin: float = 5 * MM
    # points past the printer margin that ink also keeps clear of: a printer's blank strip is not the same on
    # every sheet (a sheet fed a hair askew, a roller's slip), and crop marks drawn exactly at the margin are the
    # first to go. 0.5 mm is the widest that costs no preset card size a slot on A4 or Letter: at 1 mm mini
    # cards on A4 drop from 18 to 16 a page (measured with cardsheets.build on battle-line's 60 troops)
    margin_tolerance: float = 0.5 * MM
    duplex: str = "long"  # the edge a double-sided sheet turns over, or none
    cuts: str = "auto"  # shared or separate cut lines between neighbours; auto chooses per paper and piece size
    offset: tuple[float, float] = (0.0, 0.0)  # points, added to every back to correct a printer
    foldover: bool = False  # faces and backs side by side, for single-sided printers
    dpi: int = 300  # for card images
    # rgb, or cmyk for a print shop; None: nobody chose, which is rgb, or for a shop's pack the shop's own form
    colour: str | None = None
    # cmyk: the most ink at any point, all four added (2.4 is 240%); None leaves it to the shop an export is for,
    # else INK_LIMIT
    ink_limit: float | None = None
    # cmyk: the PDF/X-1a version asked for; None leaves it to the shop an export is for, else the first version
    pdfx: str | None = None
    # where each setting a layer chose was written, by its field: the place an error about it starts with
    # (file:line:column: print.key, or --key) and the error that says so. Not compared: the same settings are
    # the same wherever they were written
    places: tuple[tuple[str, str, type[UsageError]], ...] = field(default=(), compare=False, repr=False)

    @property
    def pdfx_version(self) -> str:
        """The PDF/X-1a version a CMYK file is written in when no shop says otherwise."""
        return self.pdfx or PDFX_VERSIONS[0]

    @property
    def total_ink(self) -> float:
        """The total ink limit a CMYK file is written to when no shop says otherwise."""
        return INK_LIMIT if self.ink_limit is None else self.ink_limit

    def refusal(self, name: str, message: str) -> UsageError:
        """An error about the setting in field name, which reads but cannot be used: at the place it was chosen
        (a file's line and column, or the command line's option), or by its name when made in code."""
        place, error = next(((p, e) for f, p, e in reversed(self.places) if f == name), (name, UsageError))
        return error(f"{place}: {message}")

    @property
    def ink_margin(self) -> float:
        """How near each paper edge ink begins, in points: the printer margin and its tolerance. Every page
        printkit lays out reads it here, and nowhere adds the two again."""
        return self.printer_margin + self.margin_tolerance

    @property
    def card_size(self) -> tuple[float, float]:
        return self.card.size

    def to_json(self) -> dict[str, Any]:
        """The settings as written in components.json: lengths in millimetres."""
        return {
            "paper": list(self.papers),
            "card_size": self.card.name,
            "card_mm": [round(self.card.width / MM, 2), round(self.card.height / MM, 2)],
            "bleed_mm": round(self.bleed / MM, 3),
            "printer_margin_mm": round(self.printer_margin / MM, 3),
            "margin_tolerance_mm": round(self.margin_tolerance / MM, 3),
            "duplex": self.duplex,
            "cuts": self.cuts,
            "offset_mm": [round(v / MM, 3) for v in self.offset],
            "foldover": self.foldover,
            "dpi": self.dpi,
            "colour": self.colour or "rgb",
        } | (
            {"ink_limit_percent": round(self.total_ink * 100, 1), "pdfx": self.pdfx_version}
            if self.colour == "cmyk"
            else {}
        )


def apply(
    settings: PrintSettings, layer: Mapping[str, Any], where: Callable[[str], str], error: type[UsageError] = UsageError
) -> PrintSettings:
    """settings with one layer's values over them; a bad or unknown key raises error, placed and named by where(key)."""
    changes: dict[str, Any] = {}
    places = list(settings.places)
    for key, value in layer.items():
        if value is None:
            continue
        if key not in SETTINGS:
            hint = difflib.get_close_matches(key, SETTINGS, n=1)
            guess = f"; did you mean {hint[0]!r}?" if hint else ""
            raise error(f"{where(key)}: not a print setting (expected one of: {', '.join(SETTINGS)}){guess}")
        parse, name = SETTINGS[key]
        try:
            changes[name] = parse(value)
        except ValueError as exc:
            raise error(f"{where(key)}: {exc}") from None
        places.append((name, where(key), error))
    return replace(settings, **changes, places=tuple(places))


def resolve(game: Game, project: Project, command_line: Mapping[str, Any] | None = None) -> PrintSettings:
    """The settings in force for a game: printkit's defaults < the game's print: < the project's < the command line."""
    in_game = game.info.print.model_dump()
    settings = apply(PrintSettings(), in_game, lambda key: f"{game.place('print', key)}: print.{key}", PlacedError)
    in_project = project.section("print")
    settings = apply(settings, in_project, lambda key: f"{project.where('print', key)}: print.{key}", PlacedError)
    return apply(settings, command_line or {}, lambda key: f"--{key.replace('_', '-')}")
