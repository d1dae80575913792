"""Colour as a print shop inks it: the drawing's sRGB colours and pictures turned into CMYK through an ICC profile,
total ink limited, on a canvas that converts every colour set on it.

RGB output never comes here: `canvas` hands back printkit.draw.forms' canvas, reportlab's drawing
with complete forms, when no press is asked for. For CMYK the canvas converts each colour as it is
set (fills, strokes, text, icons, boards, and the shapes svglib makes of SVG art), pictures are
converted once each through a 3-D table sampled from the profile, and nothing is transparent:
PDF/X-1a has no transparency, so a translucent colour is flattened onto the paper and a
picture's transparent pixels are cut out with a stencil mask.
"""

from __future__ import annotations

import functools
import io
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from PIL import Image, ImageCms, ImageFilter
from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from printkit.core.errors import UsageError
from printkit.data.settings import PDFX_VERSIONS, PrintSettings
from printkit.draw import fonts, forms, pdfx

# Where a CMYK output profile is found, first match wins. Ghostscript's SWOP profile comes from
# Debian's libgs-common (installed with ghostscript), under Ghostscript's GNU AGPL: free to use and
# to pass on, which embedding it in a PDF's output intent does. Nothing is copied into printkit.
PROFILES = (Path("/usr/share/color/icc/ghostscript/default_cmyk.icc"),)
# The printing condition each profile characterizes, by its reference name in the ICC's registry of
# characterization data (www.color.org), which a PDF/X output intent names so that a shop's preflight
# knows the condition without reading the profile: Ghostscript's is a SWOP profile, US web offset on
# coated paper, whose registered name is CGATS TR 001. Another profile's condition is its own (pdfx.CUSTOM).
CONDITIONS = {PROFILES[0]: "CGATS TR 001"}
PROFILE_PACKAGE = "libgs-common"
# 8-bit rounding of four inks can add 2/255 to a sum: aim that far under, so no pixel a RIP makes is over
ROUNDING = 2 / 255
# a JPEG's compression moves pixels a little either way, at edges most: its pictures aim this much lower still
JPEG_HEADROOM = 0.04
GRID = 33  # points along each axis of the picture table: as fine as the profile's own tables
INTENT = ImageCms.Intent.RELATIVE_COLORIMETRIC  # paper white stays unprinted; in-gamut colours keep their values
FLAGS = ImageCms.Flags.BLACKPOINTCOMPENSATION  # the darkest RGB maps to the darkest ink, not a clipped one
STENCIL = 128  # a pixel at least this opaque prints; under it the mask leaves what lies beneath
# points: type smaller than this prints in black ink alone, as light as its colour: four inks mixed in a
# stroke this thin fringe with colour wherever the plates shift (white type stays unprinted)
SMALL_TEXT = 12.0


def found_profile() -> Path | None:
    """The CMYK profile on this machine, or None."""
    return next((p for p in PROFILES if p.is_file()), None)


def missing_profile() -> str:
    """The one line printkit says when CMYK is asked for and no profile is found."""
    return (
        f"--colour cmyk: no CMYK ICC profile found (looked for {', '.join(str(p) for p in PROFILES)}); "
        f"install Debian's {PROFILE_PACKAGE} (it comes with ghostscript): apt-get install {PROFILE_PACKAGE}"
    )


def limited(c: float, m: float, y: float, k: float, limit: float) -> tuple[float, float, float, float]:
    """Inks (0-1 each) whose sum is at most limit: first the grey shared by cyan, magenta and yellow moved
    into black (each unit moved saves two of ink and keeps the colour), then the three scaled down."""
    total = c + m + y + k
    if total <= limit:
        return c, m, y, k
    grey = min(c, m, y, (total - limit) / 2, 1 - k)
    c, m, y, k = c - grey, m - grey, y - grey, k + grey
    colour, room = c + m + y, limit - k
    if colour > room:
        scale = room / colour
        c, m, y = c * scale, m * scale, y * scale
    return c, m, y, k


@dataclass(frozen=True)
class Press:
    """A CMYK press: its ICC profile, total ink limit (a fraction: 2.4 is 240%) and the PDF/X-1a version of the
    files sent to it."""

    profile: Path
    limit: float  # the print settings' ink_limit, else the shop's an export is for, else 240%
    # the file's standard, not how ink is laid down: left out of comparing and naming, so a picture converted
    # once serves both versions (its image object is the same in either)
    pdfx: str = field(default=PDFX_VERSIONS[0], compare=False, repr=False)

    @property
    def condition(self) -> str:
        """The registered printing condition the profile characterizes (its ICC registry name), or Custom."""
        return CONDITIONS.get(self.profile, pdfx.CUSTOM)

    @property
    def aim(self) -> float:
        """The sum every colour is brought under: the limit less what rounding may add."""
        return self.limit - ROUNDING

    @functools.cached_property
    def description(self) -> str:
        return str(ImageCms.getProfileDescription(_profile(self.profile))).strip() or self.profile.name

    @functools.cached_property
    def profile_bytes(self) -> bytes:
        return self.profile.read_bytes()

    def rgb(self, red: float, green: float, blue: float) -> tuple[float, float, float, float]:
        """An sRGB colour (0-1 each) as inks: neutral greys in black alone, as printers want text and hairlines,
        other colours through the profile; total ink limited."""
        return _rgb_to_cmyk(self.profile, self.aim, round(red * 255), round(green * 255), round(blue * 255))

    def colour(self, colour: Any) -> CMYKColor:
        """Any reportlab colour as a CMYK one without alpha: a translucent colour flattened onto white paper
        (PDF/X-1a has no transparency), a CMYK one kept but limited."""
        found = colour if isinstance(colour, Color) else toColor(colour)
        alpha = found.alpha if found.alpha is not None else 1
        if isinstance(found, CMYKColor):
            d = found.density * alpha
            inks = limited(found.cyan * d, found.magenta * d, found.yellow * d, found.black * d, self.aim)
        else:
            white = 1 - alpha
            inks = self.rgb(*(v * alpha + white for v in (found.red, found.green, found.blue)))
        return CMYKColor(*(round(v, 4) for v in inks), alpha=None)

    def black_alone(self, colour: CMYKColor) -> CMYKColor:
        """A CMYK colour as black ink alone, as light as it prints (CIE L* through the profile): small type's."""
        inks = tuple(round(v * colour.density, 4) for v in colour.cmyk())
        if inks[:3] == (0, 0, 0):
            return colour
        return CMYKColor(0, 0, 0, _black_as_light(self.profile, inks), alpha=None)

    def picture(self, image: Image.Image, headroom: float = 0.0) -> tuple[Image.Image, Image.Image | None]:
        """A picture as CMYK pixels, ink limited, and its stencil (1 where nothing prints) when it has
        transparent pixels. A grey picture prints in black alone, as grey drawing colours do."""
        alpha = image.getchannel("A") if image.mode in ("RGBA", "LA") else None
        if alpha is not None:  # flattened onto white; the stencil cuts out what is mostly transparent
            flat = Image.new(image.mode[:-1], image.size, "white")
            flat.paste(image.convert(image.mode[:-1]), mask=alpha)
            image = flat
        if image.mode == "L":
            black = image.point(list(_grey_to_black(self.profile)))
            blank = Image.new("L", image.size, 0)
            cmyk = Image.merge("CMYK", (blank, blank, blank, black))
        else:
            cmyk = image.convert("RGB").filter(_table(self.profile, self.aim - headroom))
        stencil = None
        if alpha is not None and cast(tuple[int, int], alpha.getextrema())[0] < STENCIL:
            stencil = alpha.point(lambda a: 255 if a < STENCIL else 0, "1")
        return cmyk, stencil

    def pixels(self, image: Image.Image, headroom: float = 0.0) -> Image.Image:
        """An RGB picture (a rendered card) as CMYK pixels, ink limited (headroom under it): the shops' TIFF and
        JPEG packs."""
        return self.picture(image.convert("RGB"), headroom)[0]


@functools.lru_cache(maxsize=4)
def _profile(path: Path) -> ImageCms.ImageCmsProfile:
    return ImageCms.getOpenProfile(str(path))


@functools.lru_cache(maxsize=4)
def _transform(path: Path) -> ImageCms.ImageCmsTransform:
    srgb = ImageCms.createProfile("sRGB")
    return ImageCms.buildTransform(srgb, _profile(path), "RGB", "CMYK", renderingIntent=INTENT, flags=FLAGS)


@functools.lru_cache(maxsize=4)
def _to_lab(path: Path) -> ImageCms.ImageCmsTransform:
    return ImageCms.buildTransform(_profile(path), ImageCms.createProfile("LAB"), "CMYK", "LAB")


@functools.lru_cache(maxsize=4)
def _black_lightness(path: Path) -> tuple[int, ...]:
    """For each black ink level alone (0-255), how light it prints through the profile (L*, 0-255)."""
    inks = Image.new("CMYK", (256, 1))
    inks.putdata([(0, 0, 0, k) for k in range(256)])
    printed = ImageCms.applyTransform(inks, _to_lab(path))
    assert printed is not None
    return tuple(printed.getpixel((k, 0))[0] for k in range(256))  # type: ignore[index]


@functools.lru_cache(maxsize=1024)
def _black_as_light(path: Path, inks: tuple[float, ...]) -> float:
    """The black ink alone (0-1) that prints as light as the four inks do: the least at least as dark."""
    pixel = Image.new("CMYK", (1, 1), tuple(round(v * 255) for v in inks))
    printed = ImageCms.applyTransform(pixel, _to_lab(path))
    assert printed is not None
    return _least_black(path, printed.getpixel((0, 0))[0]) / 255  # type: ignore[index]


def _least_black(path: Path, lightness: int) -> int:
    """The least black ink (0-255) that prints at least as dark as lightness (L*, 0-255), else solid black."""
    return next((k for k, printed in enumerate(_black_lightness(path)) if printed <= lightness), 255)


@functools.lru_cache(maxsize=4)
def _grey_to_black(path: Path) -> tuple[int, ...]:
    """For each sRGB grey level, the black ink alone that prints as light (CIE L*) through the profile."""
    lab = ImageCms.createProfile("LAB")
    greys = Image.new("RGB", (256, 1))
    greys.putdata([(g, g, g) for g in range(256)])
    wanted = ImageCms.applyTransform(greys, ImageCms.buildTransform(ImageCms.createProfile("sRGB"), lab, "RGB", "LAB"))
    assert wanted is not None
    return tuple(_least_black(path, wanted.getpixel((g, 0))[0]) for g in range(256))  # type: ignore[index]


@functools.lru_cache(maxsize=4096)
def _rgb_to_cmyk(path: Path, aim: float, red: int, green: int, blue: int) -> tuple[float, float, float, float]:
    if red == green == blue:
        return 0.0, 0.0, 0.0, _grey_to_black(path)[red] / 255
    pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), (red, green, blue)), _transform(path))
    assert pixel is not None
    c, m, y, k = (v / 255 for v in pixel.getpixel((0, 0)))  # type: ignore[union-attr]
    return limited(c, m, y, k, aim)


@functools.lru_cache(maxsize=4)
def _table(path: Path, aim: float) -> ImageFilter.Color3DLUT:
    """The profile's sRGB-to-CMYK conversion sampled on a grid, each point ink limited. A picture's pixels are
    interpolated between grid points, and a sum of inks interpolates linearly, so none is over the limit."""
    steps = [round(i * 255 / (GRID - 1)) for i in range(GRID)]
    grid = Image.new("RGB", (GRID**3, 1))
    grid.putdata([(r, g, b) for b in steps for g in steps for r in steps])  # red fastest, as Color3DLUT reads
    inks = ImageCms.applyTransform(grid, _transform(path))
    assert inks is not None
    table: list[float] = []
    raw = inks.tobytes()
    for at in range(0, len(raw), 4):
        table.extend(limited(raw[at] / 255, raw[at + 1] / 255, raw[at + 2] / 255, raw[at + 3] / 255, aim))
    return ImageFilter.Color3DLUT(GRID, table, channels=4, target_mode="CMYK")


def press(settings: PrintSettings) -> Press | None:
    """The press the settings print for: None for rgb; for cmyk the machine's profile, the settings' ink limit
    and PDF/X-1a version, or one line saying how to get a profile."""
    if settings.colour != "cmyk":
        return None
    profile = found_profile()
    if profile is None:
        raise UsageError(missing_profile())
    return Press(profile, settings.total_ink, settings.pdfx_version)


class PressCanvas(forms.Canvas):
    """A reportlab canvas that writes every colour in CMYK for a press, and no transparency."""

    def __init__(self, *args: Any, press: Press, **kwargs: Any) -> None:
        self.press = press
        # reportlab calls this for every fill and stroke colour set, on the canvas and its text objects
        super().__init__(*args, enforceColorSpace=press.colour, **kwargs)

    def _setFillAlpha(self, v: float) -> None:
        """Ignored: a colour's alpha is flattened where it is set; an ExtGState alpha is transparency."""

    def _setStrokeAlpha(self, v: float) -> None:
        """Ignored, as for fills."""

    def setFont(self, psfontname: str, size: float, leading: float | None = None) -> None:
        """A font, embedded: reportlab's standard ones (which svglib's drawings start in) are not, and PDF/X
        wants every font in the file, so they become printkit's own faces of the same kind."""
        super().setFont(_embedded(psfontname), size, leading)

    def drawText(self, aTextObject: Any) -> None:
        """Text, in black ink alone when it is small (SMALL_TEXT): every string printkit draws comes here."""
        fill = self._fillColorObj
        if aTextObject._fontsize >= SMALL_TEXT or not isinstance(fill, CMYKColor):
            super().drawText(aTextObject)
            return
        black = self.press.black_alone(fill)
        if black is fill:
            super().drawText(aTextObject)
            return
        self.saveState()
        self.setFillColor(black)
        super().drawText(aTextObject)
        self.restoreState()

    def linearGradient(self, x0: float, y0: float, x1: float, y1: float, colors: Sequence[Any], *args: Any) -> None:
        super().linearGradient(x0, y0, x1, y1, [self.press.colour(c) for c in colors], *args)

    def radialGradient(self, x: float, y: float, radius: float, colors: Sequence[Any], *args: Any) -> None:
        super().radialGradient(x, y, radius, [self.press.colour(c) for c in colors], *args)

    def save(self) -> None:
        press = self.press
        pdfx.frame(self, press.profile_bytes, press.description, press.pdfx, press.condition)
        super().save()


def _embedded(name: str) -> str:
    if name not in pdfmetrics.standardFonts:
        return name
    if name.startswith("Times"):
        return fonts.use("serif-bold" if "Bold" in name else "serif")
    if "Bold" in name:
        return fonts.use("sans-bold")
    return fonts.use("sans-oblique" if "Oblique" in name or "Italic" in name else "sans")


def canvas(buffer: io.BytesIO | forms.Saved, press: Press | None, **kwargs: Any) -> Canvas:
    """A canvas writing into buffer, its forms complete: for RGB reportlab's drawing as it is, else one for the
    press."""
    if press is None:
        return forms.Canvas(buffer, **kwargs)
    return PressCanvas(buffer, press=press, **kwargs)


def of(c: Canvas) -> Press | None:
    """The press a canvas draws for, or None for RGB."""
    return c.press if isinstance(c, PressCanvas) else None


def stencil_bytes(mask: Image.Image) -> bytes:
    """A 1-bit stencil's rows, deflated, as a PDF image mask holds them."""
    return zlib.compress(mask.tobytes())
