"""Card art: PNG, JPEG and WebP pictures and SVG drawings, read safely and placed in a region by a fit mode.

Raster art is drawn at its own resolution; SVG stays vector. An opaque 8-bit PNG keeps its own deflated
rows and an upright RGB or grey JPEG its own bytes (DCTDecode), so neither grows in the PDF. A picture
comes only from inside the game's folder, its project or the layout folders, through the one reading
helper, with Pillow's decompression-bomb limit, and an SVG may not pull in anything outside itself.
"""

from __future__ import annotations

import copy
import functools
import io
import logging
import re
import struct
import warnings
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageMath, ImageOps, UnidentifiedImageError
from reportlab.lib.utils import ImageReader, _digester
from reportlab.pdfbase import pdfdoc, pdfmetrics, ttfonts
from reportlab.pdfgen.canvas import Canvas

from printkit.core import decoding, files
from printkit.data.model import PICTURE_KINDS
from printkit.draw import drawcache, fonts, ink, pdfx

# reportlab's graphics (and the platypus they import) load only for a game that draws an SVG: they took a tenth of a
# small build's start
if TYPE_CHECKING:
    from reportlab.graphics.shapes import Drawing

VECTOR = (".svg",)
KINDS = PICTURE_KINDS
MAX_BYTES = 50_000_000
MAX_PIXELS = 40_000_000  # a 300 dpi A4 page is 8.7 million; more is a mistake or a bomb
SHARP_DPI = 300  # below this, raster art looks soft in print
FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".webp": "WEBP"}  # the decoder each name allows
MAX_SVG_ELEMENTS = 20_000
MAX_SVG_SIDE = 14_400.0  # points: 200 inches
CACHED = 256  # pictures kept decoded and compressed between drawings: a big deck's art, rebuilt while watched
# an SVG that declares entities or links anything but its own parts could read or fetch what it should not
_SVG_REFUSED = re.compile(rb"<!DOCTYPE|<!ENTITY|(?:xlink:)?href\s*=\s*[\"'](?!#)|@import|url\(\s*[\"']?(?!#)", re.I)


@dataclass(frozen=True)
class Picture:
    """A loaded picture: raster pixels or an SVG drawing, with its natural width and height."""

    path: Path
    raster: ImageReader | None
    drawing: Drawing | None
    width: float  # pixels for raster art, points for SVG
    height: float
    png: PngPixels | None = None  # a PNG's own compressed pixels, when a PDF can show them as they are
    jpeg: JpegPixels | None = None  # a JPEG a PDF shows as it is: the file's own, or a lossy WebP's written once

    @property
    def vector(self) -> bool:
        return self.drawing is not None


@dataclass(frozen=True)
class PngPixels:
    """A PNG's image data as one deflate stream, still filtered row by row: a PDF reads it through PNG predictors."""

    stream: bytes
    colours: int  # 1 for grey, 3 for RGB
    columns: int
    file: bytes  # the whole PNG, decoded only where the pixels themselves are needed (a press's inks)


@dataclass(frozen=True)
class JpegPixels:
    """A whole JPEG file, which a PDF takes as its image's stream through DCTDecode (no pixel decoded for it)."""

    data: bytes
    colours: int  # 1 for grey, 3 for RGB


CMYK_JPEG = 95  # the quality a JPEG's picture is written at in a press's inks, 4:4:4
WEBP_AS_JPEG = 94  # the JPEG quality a lossy WebP is written at (with 4:4:4 colour): past what the eye tells apart
_EXIF_ORIENTATION = 0x0112
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_pixels(data: bytes) -> PngPixels | None:
    """The pixels of a PNG a PDF can take unchanged (8-bit grey or RGB, not interlaced, nothing transparent),
    so they are neither inflated for the PDF nor deflated again: the build's slowest step for art. None otherwise."""
    if not data.startswith(_PNG_SIGNATURE):
        return None
    at, header, parts = len(_PNG_SIGNATURE), b"", []
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        body = data[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            parts.append(body)
        elif kind == b"tRNS":  # a transparent colour: the picture needs a mask reportlab makes from the pixels
            return None
        elif kind == b"IEND":
            break
        at += 12 + length
    if len(header) != 13 or not parts:
        return None
    width, _, depth, colour_type, _, _, interlaced = struct.unpack(">IIBBBBB", header)
    colours = {0: 1, 2: 3}.get(colour_type)
    if depth != 8 or colours is None or interlaced:
        return None
    return PngPixels(b"".join(parts), colours, width, data)


def _jpeg_pixels(image: Image.Image, data: bytes) -> JpegPixels | None:
    """The JPEG or WebP, already decoded whole (so a damaged one is refused first), as a JPEG a PDF can show;
    None when it must go the way of other pictures: pixels deflated losslessly.

    A JPEG's own bytes go in when a viewer would draw them as Pillow does: RGB or grey (a CMYK or YCCK JPEG's
    inverted inks are read differently by different viewers) and upright (a PDF ignores EXIF orientation).
    Deflating a JPEG's decoded pixels instead made a 198 kB photograph 3 MB. A WebP has no PDF filter at all:
    a lossy one (VP8, its pixels already approximate) is written once as a JPEG at high quality (a 208 kB
    photograph: 2.76 MB of deflated pixels, 0.5 MB so); a lossless one, or one with alpha, keeps the exact path.
    """
    if image.mode not in ("RGB", "L"):
        return None
    colours = 3 if image.mode == "RGB" else 1
    if image.format == "JPEG":
        if image.getexif().get(_EXIF_ORIENTATION, 1) != 1:
            return None
        return JpegPixels(data, colours)
    if image.format == "WEBP" and _lossy_webp(data):
        written = io.BytesIO()
        # Pillow's encoder writes no date or other varying bytes: the same WebP gives the same JPEG
        image.save(written, "JPEG", quality=WEBP_AS_JPEG, subsampling=0, optimize=True)
        return JpegPixels(written.getvalue(), colours)
    return None


def _lossy_webp(data: bytes) -> bool:
    """Whether a WebP file's picture is VP8 (lossy) and has no alpha chunk, read from its RIFF chunks."""
    at, lossy = 12, False
    while at + 8 <= len(data):
        kind, length = data[at : at + 4], int.from_bytes(data[at + 4 : at + 8], "little")
        if kind in (b"ALPH", b"VP8L"):
            return False
        lossy = lossy or kind == b"VP8 "
        at += 8 + length + (length & 1)  # chunks are padded to an even length
    return lossy


def _whole(png: PngPixels, rows: int) -> bool:
    """Whether the deflated rows inflate to exactly the rows the header promises, each with a filter PNG defines:
    what a viewer needs to draw them. Anything else goes to Pillow, which names the damage."""
    row = 1 + png.columns * png.colours
    inflater = zlib.decompressobj()
    try:
        rows_read = inflater.decompress(png.stream, row * rows + 1)
    except zlib.error:
        return False
    if len(rows_read) != row * rows or not inflater.eof:
        return False
    return max(rows_read[::row]) <= 4


def load(path: Path, within: Sequence[Path]) -> Picture:
    """The picture at path, which must lie inside within; anything wrong with it is a one-line DataError."""
    if path.suffix.lower() not in KINDS:
        raise files.refused(path, f"expected a picture ({', '.join(k[1:] for k in KINDS)}), found {path.suffix!r}")
    real = files.resolved(path, within)
    stamp = real.stat()
    drawcache.note(real)
    return _load(real, stamp.st_mtime_ns, stamp.st_size, path)


@functools.lru_cache(maxsize=CACHED)
def _load(real: Path, mtime: int, size: int, shown: Path) -> Picture:
    """The picture itself, decoded once per file version (the same art often serves many cards)."""
    data = files.read(real, MAX_BYTES, None, "picture")
    if real.suffix.lower() in VECTOR:
        return _svg(data, shown)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # printkit's own limit is lower
            # only the format the name says: never a decoder the name does not ask for (Pillow would hand an
            # EPS to Ghostscript, whatever it is called)
            image: Image.Image = Image.open(io.BytesIO(data), formats=[FORMATS[real.suffix.lower()]])
            pixels = image.width * image.height
            plain = image.format == "PNG" and image.mode in ("RGB", "L") and not getattr(image, "is_animated", False)
            png = _png_pixels(data) if plain else None
            if png is not None and pixels <= MAX_PIXELS and _whole(png, image.height):
                # the PDF takes the file's rows as they are: the pixels are decoded only if a press needs them
                return Picture(shown, None, None, image.width, image.height, png)
            if pixels <= MAX_PIXELS:
                decoding.load_whole(image)
                jpeg = _jpeg_pixels(image, data) if image.format in ("JPEG", "WEBP") else None
                if jpeg is not None and not getattr(image, "is_animated", False):
                    return Picture(shown, None, None, image.width, image.height, jpeg=jpeg)
                if not getattr(image, "is_animated", False) and image.getexif().get(_EXIF_ORIENTATION, 1) != 1:
                    # a camera's picture is stored as the sensor lay and shown turned by its EXIF tag, which a
                    # PDF does not read: turned here, it prints the way every viewer shows it
                    image = ImageOps.exif_transpose(image)
    except Image.DecompressionBombError as exc:  # past Pillow's own hard limit: only its message has the size
        found = re.search(r"\((\d+) pixels\)", str(exc))
        pixels = int(found.group(1)) if found else MAX_PIXELS + 1
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        kind = FORMATS[real.suffix.lower()]
        raise files.refused(shown, f"not a {kind} picture, as its name says, or a damaged one") from None
    if pixels > MAX_PIXELS:
        raise files.refused(shown, f"picture is {pixels:,} pixels: expected at most {MAX_PIXELS:,}")
    if getattr(image, "is_animated", False):
        raise files.refused(shown, "an animated picture: a card prints one frame; save the one you want alone")
    return Picture(shown, ImageReader(_printable(image)), None, image.width, image.height)


def pixels_of(picture: Picture) -> ImageReader:
    """A raster picture's pixels for reportlab; a PNG or JPEG kept as its file is decoded now, once."""
    return picture.raster if picture.raster is not None else _decoded(picture)


@functools.lru_cache(maxsize=CACHED)
def _decoded(picture: Picture) -> ImageReader:
    if picture.jpeg is not None:
        return ImageReader(Image.open(io.BytesIO(picture.jpeg.data), formats=["JPEG"]))
    assert picture.png is not None
    return ImageReader(Image.open(io.BytesIO(picture.png.file), formats=["PNG"]))


def _printable(image: Image.Image) -> Image.Image:
    """The image in a mode reportlab embeds: RGB, RGB with alpha, or 8-bit grey."""
    if image.mode in ("RGB", "RGBA", "L"):
        return image
    if image.mode.startswith("I"):  # 16- or 32-bit grey: scaled to 8 bits, not clipped to white
        return image.convert("I").point(lambda v: v / 257).convert("L")
    if image.mode == "F":
        return image.point(lambda v: v * 255).convert("L")
    has_alpha = "A" in image.getbands() or "transparency" in image.info
    return image.convert("RGBA" if has_alpha else "RGB")


def _svg(data: bytes, shown: Path) -> Picture:
    from svglib.svglib import svg2rlg

    # svglib logs a file it cannot parse and returns nothing: printkit's own line below names the file instead
    logging.getLogger("svglib").setLevel(logging.CRITICAL)

    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise files.refused(shown, "expected an SVG in UTF-8 (save it as UTF-8)") from None
    if text.count("<") > MAX_SVG_ELEMENTS:
        raise files.refused(shown, f"an SVG of more than {MAX_SVG_ELEMENTS:,} elements: simplify it or use a PNG")
    if _SVG_REFUSED.search(text.encode()):
        raise files.refused(
            shown, "an SVG that declares entities or links other files: refused; make it self-contained"
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # svglib warns about unsupported features; the drawing still stands
            drawing = svg2rlg(io.BytesIO(text.encode()))
    except Exception as exc:  # svglib and lxml raise many kinds for a bad file; all mean the same here
        raise files.refused(shown, f"not an SVG drawing svglib can read ({type(exc).__name__})") from None
    if drawing is None:
        raise files.refused(shown, "not an SVG drawing svglib can read (empty, or not XML)")
    if not drawing.width or not drawing.height:
        raise files.refused(shown, "an SVG drawing with no size: give its <svg> a width and height or a viewBox")
    width, height = float(drawing.width), float(drawing.height)
    if not (0 < width <= MAX_SVG_SIDE and 0 < height <= MAX_SVG_SIDE):
        raise files.refused(shown, f"an SVG {width:g} x {height:g} points: expected sides up to {MAX_SVG_SIDE:g}")
    _embedded_fonts(drawing)
    return Picture(shown, None, drawing, float(drawing.width), float(drawing.height))


def _embedded_fonts(drawing: Drawing) -> None:
    """The drawing's fonts made ones a PDF embeds: a print shop's preflight refuses a file that lists a font it
    does not hold. reportlab's renderer starts every drawing by selecting its default font, Helvetica (one of the
    14 a PDF may leave out), whether or not it draws text: the drawing starts in printkit's sans instead. Text
    in a font svglib has no file for (it falls back to Helvetica, Times or Courier) is set in DejaVu, which
    printkit embeds, bold or slanted as the stand-in was."""
    from reportlab.graphics.shapes import String

    drawing.initialFontName = fonts.face("sans")
    nodes: list[Any] = [drawing]
    while nodes:
        node = nodes.pop()
        nodes.extend(getattr(node, "contents", ()))
        if isinstance(node, String) and not isinstance(pdfmetrics.getFont(node.fontName), ttfonts.TTFont):
            node.fontName = fonts.face(_stand_in(node.fontName))


def _stand_in(standard: str) -> str:
    """printkit's font for one of a PDF's standard fonts: serif for Times, sans for the rest (no mono face)."""
    bold, slanted = "Bold" in standard, "Italic" in standard or "Oblique" in standard
    if standard.startswith("Times"):
        return "serif-bold" if bold else "serif"
    return "sans-bold" if bold else "sans-oblique" if slanted else "sans"


def placement(
    picture: Picture, box: tuple[float, float, float, float], fit: str, focus: tuple[float, float]
) -> tuple[float, float, float, float]:
    """Where the picture is drawn (x, y, width, height) to fill box by fit: cover, contain or stretch.

    focus (0-1 across, 0-1 down) is the point of the picture cover keeps in view when it crops.
    """
    x, y, w, h = box
    if fit == "stretch":
        return x, y, w, h
    ratio = picture.width / picture.height
    scale = max if fit == "cover" else min
    dw = scale(w, h * ratio)
    dh = dw / ratio
    fx, fy = focus if fit == "cover" else (0.5, 0.5)
    return x + (w - dw) * fx, y + (h - dh) * (1 - fy), dw, dh


def draw(c: Canvas, picture: Picture, where: tuple[float, float, float, float]) -> None:
    """The picture drawn at x, y, width, height (points)."""
    x, y, w, h = where
    if picture.drawing is not None:
        from reportlab.graphics import renderPDF

        c.saveState()
        c.translate(x, y)
        c.scale(w / picture.width, h / picture.height)
        renderPDF.draw(picture.drawing, c, 0, 0)
        c.restoreState()
        return
    press = ink.of(c)
    try:
        name = _place_image(c, picture) if press is None else _place_image(c, picture, press)
    except AttributeError:  # a reportlab without the internals below: its own way, slower and the same
        c.drawImage(pixels_of(picture), x, y, w, h, mask="auto")
        return
    c.saveState()
    c.translate(x, y)
    c.scale(w, h)
    c._code.append(f"/{c._doc.getXObjectName(name)} Do")
    c.restoreState()
    c._formsinuse.append(name)


@dataclass(frozen=True)
class _Compressed:
    """A raster picture as a PDF image object, compressed once for every document that shows it."""

    name: str
    image: pdfdoc.PDFImageXObject
    mask: pdfdoc.PDFImageXObject | None  # its transparency: a soft mask, or for a press a stencil


@functools.lru_cache(maxsize=CACHED)
def _compressed(picture: Picture) -> _Compressed:
    """What reportlab's drawImage makes of the picture on each call (hashing and deflating its pixels), made once:
    a rebuild under --watch, or the same art on many cards, reuses it. The bytes written are the same."""
    if picture.png is not None:
        name = _digester(picture.png.stream)
        return _Compressed(name, _PngImage(name, picture), None)
    if picture.jpeg is not None:
        name = _digester(picture.jpeg.data)
        return _Compressed(name, _JpegImage(name, picture), None)
    reader = pixels_of(picture)
    pixels = reader.getRGBData()  # reads the transparency too, into _dataA
    mask = reader._dataA
    name = _digester(pixels + (mask.getRGBData() if mask else b"auto"))
    image = pdfdoc.PDFImageXObject(name, reader, mask="auto")
    image.name = name
    soft = getattr(image, "_smask", None)
    if soft is not None:
        del image._smask
    return _Compressed(name, image, soft)


class _PngImage(pdfdoc.PDFImageXObject):
    """An image XObject holding a PNG's deflated rows as they are, with the predictor that undoes its filters."""

    def __init__(self, name: str, picture: Picture) -> None:
        super().__init__(name)
        assert picture.png is not None
        self.png = picture.png
        self.width, self.height = int(picture.width), int(picture.height)
        self.bitsPerComponent = 8
        self.colorSpace = "DeviceRGB" if self.png.colours == 3 else "DeviceGray"
        self.streamContent = self.png.stream
        self._filters = ("FlateDecode",)
        self.mask = None

    def format(self, document: Any) -> bytes:
        text: bytes = super().format(document)
        png = self.png
        # an array, as Filter is one: pdfium and Poppler ignore a lone dictionary beside a filter array (black art)
        parms = f"/Predictor 15 /Colors {png.colours} /BitsPerComponent 8 /Columns {png.columns}"
        parms = f"/DecodeParms [ << {parms} >> ] "
        return text.replace(b"<<", b"<< " + parms.encode(), 1)


class _JpegImage(pdfdoc.PDFImageXObject):
    """An image XObject holding a JPEG's bytes as they are: DCTDecode alone, not ASCII85 (a quarter larger)."""

    def __init__(self, name: str, picture: Picture) -> None:
        super().__init__(name)
        assert picture.jpeg is not None
        self.width, self.height = int(picture.width), int(picture.height)
        self.bitsPerComponent = 8
        self.colorSpace = "DeviceRGB" if picture.jpeg.colours == 3 else "DeviceGray"
        self.streamContent = picture.jpeg.data
        self._filters = ("DCTDecode",)
        self.mask = None


@functools.lru_cache(maxsize=CACHED)
def _compressed_cmyk(picture: Picture, press: ink.Press) -> _Compressed:
    """The picture in the press's inks, its transparent pixels cut out by a stencil (PDF/X-1a has no soft
    masks), compressed once like an RGB one. A JPEG (or lossy WebP), already approximate, stays a JPEG in the
    inks, as PDF/X-1a allows: its deflated CMYK pixels were 3.3 MB for a 247 kB photograph, the JPEG 1.3 MB."""
    reader = pixels_of(picture)
    kept = _cmyk_jpeg(reader._image, press) if picture.jpeg is not None else None
    if kept is not None:
        return kept
    cmyk, stencil = press.picture(reader._image)
    name = _digester(cmyk.tobytes() + (stencil.tobytes() if stencil else b"opaque") + str(press).encode())
    image = pdfx.MaskedImage(name, ImageReader(cmyk), mask=None)
    image.name = name
    mask = None
    if stencil is not None:
        mask = pdfx.StencilMask(name + "-mask", cmyk.width, cmyk.height, ink.stencil_bytes(stencil))
    return _Compressed(name, image, mask)


def _cmyk_jpeg(picture: Image.Image, press: ink.Press) -> _Compressed | None:
    """An opaque picture in the press's inks as a JPEG, aimed under the ink limit by the room compression
    takes, and read back to be sure: JPEG's error is largest where detail is finest, and a noisy dark picture
    went 2% over with the shops' packs' headroom alone. None when no headroom tried keeps every pixel under."""
    for headroom in (ink.JPEG_HEADROOM, 2 * ink.JPEG_HEADROOM, 3 * ink.JPEG_HEADROOM):
        cmyk, _ = press.picture(picture, headroom)
        written = io.BytesIO()
        cmyk.save(written, "JPEG", quality=CMYK_JPEG, subsampling=0, optimize=True)  # same pixels, same bytes
        data = written.getvalue()
        if _most_ink(Image.open(io.BytesIO(data), formats=["JPEG"])) <= press.aim:
            break
    else:
        return None
    name = _digester(data + str(press).encode())
    image = pdfx.MaskedImage(name, mask=None)
    image.name = name
    image.width, image.height = cmyk.size
    image.bitsPerComponent = 8
    image.colorSpace = "DeviceCMYK"
    image.streamContent = data
    image._filters = ("DCTDecode",)
    image._dotrans = 1  # Pillow writes CMYK as Adobe does, each ink inverted: /Decode [1 0 ...] reads it back
    return _Compressed(name, image, None)


def _most_ink(cmyk: Image.Image) -> float:
    """The largest sum of the four inks over the picture's pixels, 1.0 for 100%."""
    c, m, y, k = (band.convert("I") for band in cmyk.split())
    total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
    assert isinstance(total, Image.Image)
    highest = total.getextrema()[1]
    assert isinstance(highest, (int, float))
    return highest / 255


def _place_image(c: Canvas, picture: Picture, press: ink.Press | None = None) -> str:
    """The picture's image object in c's document (a copy of the compressed one, added once); its name."""
    made = _compressed(picture) if press is None else _compressed_cmyk(picture, press)
    doc = c._doc
    registered = doc.getXObjectName(made.name)
    c._currentPageHasImages = 1
    if registered in doc.idToObject:
        return made.name
    image = copy.copy(made.image)  # a document marks the objects it holds: each document gets its own
    c._setXObjects(image)
    doc.Reference(image, registered)
    doc.addForm(made.name, image)
    if made.mask is not None:
        mask_name = doc.getXObjectName(made.mask.name)
        if mask_name in doc.idToObject:
            reference = pdfdoc.PDFObjectReference(mask_name)
        else:
            mask = copy.copy(made.mask)
            c._setXObjects(mask)
            reference = doc.Reference(mask, mask_name)
        if press is None:
            image.smask = reference
        else:
            image.stencil = reference
    return made.name


def dpi(picture: Picture, drawn_width: float) -> float | None:
    """The raster art's resolution as printed at drawn_width points; None for vector art."""
    return None if picture.vector else picture.width / (drawn_width / 72)
