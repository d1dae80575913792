"""Find the system's fonts by family name and register them with reportlab, embedded as subsets."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import shutil
import subprocess
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFError

from printkit.core import atomic, cache, files
from printkit.core.errors import PrintkitError
from printkit.data.game import Game
from printkit.data.model import FontSpec
from printkit.draw import drawcache

# Layout font names and the fontconfig patterns that find them. DejaVu covers Latin,
# Hebrew and the symbols the cards use; Debian ships it as fonts-dejavu-core.
FAMILIES: dict[str, tuple[str, str]] = {
    "sans": ("DejaVu Sans", "DejaVuSans.ttf"),
    "sans-bold": ("DejaVu Sans:style=Bold", "DejaVuSans-Bold.ttf"),
    "sans-oblique": ("DejaVu Sans:style=Oblique", "DejaVuSans-Oblique.ttf"),
    "condensed": ("DejaVu Sans Condensed", "DejaVuSansCondensed.ttf"),
    "condensed-bold": ("DejaVu Sans Condensed:style=Bold", "DejaVuSansCondensed-Bold.ttf"),
    "serif": ("DejaVu Serif", "DejaVuSerif.ttf"),
    "serif-bold": ("DejaVu Serif:style=Bold", "DejaVuSerif-Bold.ttf"),
    # the faces rich text's bold and italic words are set in
    "sans-bold-oblique": ("DejaVu Sans:style=Bold Oblique", "DejaVuSans-BoldOblique.ttf"),
    "condensed-oblique": ("DejaVu Sans Condensed:style=Oblique", "DejaVuSansCondensed-Oblique.ttf"),
    "condensed-bold-oblique": ("DejaVu Sans Condensed:style=Bold Oblique", "DejaVuSansCondensed-BoldOblique.ttf"),
    "serif-italic": ("DejaVu Serif:style=Italic", "DejaVuSerif-Italic.ttf"),
    "serif-bold-italic": ("DejaVu Serif:style=Bold Italic", "DejaVuSerif-BoldItalic.ttf"),
}
# each of printkit's fonts, and the fonts of its rich text's bold, italic and bold italic words
STYLED: dict[str, tuple[str, str, str]] = {
    "sans": ("sans-bold", "sans-oblique", "sans-bold-oblique"),
    "sans-bold": ("sans-bold", "sans-bold-oblique", "sans-bold-oblique"),
    "sans-oblique": ("sans-bold-oblique", "sans-oblique", "sans-bold-oblique"),
    "sans-bold-oblique": ("sans-bold-oblique", "sans-bold-oblique", "sans-bold-oblique"),
    "condensed": ("condensed-bold", "condensed-oblique", "condensed-bold-oblique"),
    "condensed-bold": ("condensed-bold", "condensed-bold-oblique", "condensed-bold-oblique"),
    "condensed-oblique": ("condensed-bold-oblique", "condensed-oblique", "condensed-bold-oblique"),
    "condensed-bold-oblique": ("condensed-bold-oblique", "condensed-bold-oblique", "condensed-bold-oblique"),
    "serif": ("serif-bold", "serif-italic", "serif-bold-italic"),
    "serif-bold": ("serif-bold", "serif-bold-italic", "serif-bold-italic"),
    "serif-italic": ("serif-bold-italic", "serif-italic", "serif-bold-italic"),
    "serif-bold-italic": ("serif-bold-italic", "serif-bold-italic", "serif-bold-italic"),
}
FACE = "printkit-"  # every face printkit registers starts so, apart from reportlab's own
MAX_FONT_BYTES = 30_000_000
_SEARCH_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), Path.home() / ".local/share/fonts")


class FontMissing(PrintkitError):
    """A font the layouts need is not installed."""

    topic = "art-fonts-icons"


def subset_tag(font: bytes, codes: Sequence[int]) -> str:
    """Six capital letters for a subset of a font (font: a digest of its file) and the characters it keeps, in order.

    PDF 32000-1 9.6.4 asks that different subsets in one file have different tags; reportlab numbers
    them from AAAAAA+ in each file, so two files joined (the bundle) held different fonts under one
    name. A tag from the content is the same for the same subset on every run and machine.
    """
    digest = hashlib.sha256(font + ",".join(map(str, codes)).encode()).digest()
    number = int.from_bytes(digest[:8], "big")
    return "".join(chr(65 + (number // 26**i) % 26) for i in range(6))


_TAGGING = threading.Lock()  # reportlab reads the subset names from a function of its module's


class TTFont(ttfonts.TTFont):
    """reportlab's TrueType font, each embedded subset named by its content (subset_tag) rather than its number."""

    def addObjects(self, doc: Any) -> None:
        state = self.state.get(doc)
        if state is None:
            super().addObjects(doc)
            return
        font = self._digest()
        tags = [subset_tag(font, codes).encode() for codes in state.subsets]
        with _TAGGING:
            numbered = ttfonts.SUBSETN
            ttfonts.SUBSETN = lambda n, *_: tags[n]
            try:
                super().addObjects(doc)
            finally:
                ttfonts.SUBSETN = numbered

    def _digest(self) -> bytes:
        if not hasattr(self, "_font_digest"):
            self._font_digest = hashlib.sha256(self.face._ttf_data).digest()
        return self._font_digest


def _fc_match(pattern: str, filename: str) -> Path | None:
    if shutil.which("fc-match") is None:
        return None
    try:
        found = subprocess.run(
            ["fc-match", "-f", "%{file}", pattern], capture_output=True, text=True, timeout=10, check=False
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    # fc-match always answers with something; only the file we asked for will do
    return Path(found) if found and Path(found).name == filename else None


def _search(filename: str) -> Path | None:
    for folder in _SEARCH_DIRS:
        if folder.is_dir():
            for hit in sorted(folder.rglob(filename)):
                return hit
    return None


@functools.cache
def font_file(name: str) -> Path:
    """The TrueType file for a layout font name such as 'sans-bold'."""
    if name not in FAMILIES:
        raise FontMissing(f"unknown font {name!r}: expected one of {', '.join(FAMILIES)}")
    pattern, filename = FAMILIES[name]
    path = _search(filename) or _fc_match(pattern, filename)
    if path is None:
        raise FontMissing(
            f"font {pattern!r} ({filename}) is not installed: on Debian, apt-get install fonts-dejavu-core"
        )
    return path


@functools.cache
def use(name: str) -> str:
    """Register a layout font with reportlab once and return the name to draw with."""
    face = f"{FACE}{name}"
    pdfmetrics.registerFont(TTFont(face, str(font_file(name))))
    return face


def use_file(path: Path, within: Sequence[Path] | None) -> str:
    """Register a font file of a game's (inside within) or the system's (within None) once; the name to draw with."""
    real = files.resolved(path, within)
    stamp = real.stat()
    drawcache.note(real)
    return _register(real, stamp.st_mtime_ns, stamp.st_size, path)


@functools.cache
def _register(real: Path, mtime: int, size: int, shown: Path) -> str:
    data = files.read(real, MAX_FONT_BYTES, None, "font")
    face = f"{FACE}file-{hashlib.sha256(data).hexdigest()[:16]}"  # the same font always gets the same name
    try:
        if data[:4] == b"OTTO":  # PostScript (CFF) outlines, which reportlab cannot embed: redrawn as TrueType
            data = truetype(hashlib.sha256(data).digest(), data)
        pdfmetrics.registerFont(TTFont(face, io.BytesIO(data)))
    except TTFError as exc:  # what reportlab still refuses: a collection, a font without the tables it needs
        reason = str(exc).splitlines()[0][:80]
        raise files.refused(shown, f"not a TrueType font reportlab can embed ({reason})") from None
    except Exception as exc:  # a damaged font can fail anywhere in reportlab's reader, not only as a TTFError
        raise files.refused(shown, f"a damaged font file: reportlab cannot read it ({type(exc).__name__})") from None
    return face


MAX_CURVE_ERROR = 1.0  # font units: how far a quadratic outline may stray from the cubic one (otf2ttf's)


@functools.lru_cache(maxsize=16)
def truetype(digest: bytes, data: bytes) -> bytes:
    """An OpenType font of PostScript (CFF) outlines as one of TrueType outlines: converted once per machine and
    kept in the cache under the font's digest (the conversion takes seconds; reading it back, milliseconds)."""
    from fontTools import version as tools

    kept = cache.folder("fonts") / f"{digest.hex()}-{tools}-{MAX_CURVE_ERROR}.ttf"
    try:
        stored = kept.read_bytes()
        if hashlib.sha256(stored[32:]).digest() == stored[:32]:  # whole, as written: a torn file is made again
            return stored[32:]
    except OSError:  # not kept yet, or the cache unreadable: convert
        pass
    out = _converted(data)
    with contextlib.suppress(OSError):  # a full or read-only cache costs the conversion next run, nothing more
        atomic.write_bytes(kept, hashlib.sha256(out).digest() + out)
    return out


def _converted(data: bytes) -> bytes:
    """An OpenType font of PostScript (CFF) outlines as one of TrueType outlines.

    fontTools' otf2ttf recipe: each cubic outline turned into quadratic ones, within MAX_CURVE_ERROR
    font units, with the tables TrueType outlines need (glyf, loca, maxp) in place of CFF's. Its head
    table keeps the file's own dates, so the same file gives the same bytes on every run.
    """
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont as Tables
    from fontTools.ttLib import newTable

    font = Tables(io.BytesIO(data), recalcTimestamp=False, lazy=False)
    outlines = "CFF " if "CFF " in font else "CFF2"
    if outlines not in font:
        raise TTFError("an OpenType font without its CFF outlines")
    order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()  # a variable font's (CFF2) default instance
    quadratic = {}
    for name in order:
        pen = TTGlyphPen(glyphs)
        glyphs[name].draw(Cu2QuPen(pen, MAX_CURVE_ERROR, reverse_direction=True))  # TrueType winds the other way
        quadratic[name] = pen.glyph()
    for tag in (outlines, "VORG", "fvar", "gvar", "avar", "HVAR", "VVAR", "MVAR", "STAT", "cvar"):
        if tag in font:  # CFF's own, and a variable font's axes: the one instance drawn has none
            del font[tag]
    font["loca"] = newTable("loca")
    font["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = quadratic
    glyf.compile(font)
    metrics = font["hmtx"]
    for name, glyph in glyf.glyphs.items():  # a TrueType glyph's left side bearing is its xMin
        if hasattr(glyph, "xMin"):
            metrics[name] = (metrics[name][0], glyph.xMin)
    font["maxp"] = maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for field in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs"):
        setattr(maxp, field, 1 if field == "maxZones" else 0)
    maxp.maxStackElements = maxp.maxSizeOfInstructions = maxp.maxComponentElements = 0
    maxp.compile(font)
    post = font["post"]
    post.formatType, post.extraNames, post.mapping, post.glyphOrder = 2.0, [], {}, order
    try:
        post.compile(font)
    except OverflowError:  # too many glyph names for the table: reportlab maps characters by cmap, not names
        post.formatType = 3.0
    font.sfntVersion = "\x00\x01\x00\x00"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def family_file(family: str) -> Path:
    """The file fontconfig gives for a family name, when it really has that family (fc-match always answers)."""
    if shutil.which("fc-match") is None:
        raise FontMissing(f"font family {family!r}: fontconfig's fc-match is not installed to find it")
    try:
        found = subprocess.run(
            ["fc-match", "-f", "%{family}\n%{file}", family], capture_output=True, text=True, timeout=10, check=False
        ).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        found = []
    families = found[0].split(",") if found else []
    if len(found) < 2 or family.split(":")[0].strip().lower() not in (f.strip().lower() for f in families):
        raise FontMissing(f"font family {family!r} is not installed (fc-list lists the families there are)")
    return Path(found[1])


@dataclass(frozen=True)
class FontTable:
    """The fonts one game's layouts may name: printkit's own, its project's and its own files and families.

    own: each name with its spec, the folder its file is named from and the folders it may be read
    from; a later entry of a name wins, so the game's own (listed after the project's) does.
    """

    own: tuple[tuple[str, FontSpec, Path, tuple[Path, ...]], ...] = ()

    @classmethod
    def of(cls, game: Game) -> FontTable:
        root = game.project_folder
        shared = [(name, spec, root, (root,)) for name, spec in game.project_fonts]
        return cls((*shared, *((name, spec, game.folder, game.reads_from) for name, spec in game.info.fonts.items())))

    def face(self, name: str) -> str:
        """The face to draw a layout's font name with; an unknown name is an error naming the choices."""
        found = {n: (spec, folder, within) for n, spec, folder, within in self.own}.get(name)
        if found is not None:
            spec, folder, within = found
            if spec.file:
                return use_file(folder / spec.file, within)
            return use_file(family_file(spec.family or ""), None)  # a system font: fontconfig's own folders
        if name in FAMILIES:
            return use(name)
        known = ", ".join(dict.fromkeys([*FAMILIES, *(n for n, *_ in self.own)]))
        raise FontMissing(
            f"no font {name!r} (fonts: {known}; a game adds its own under fonts: in game.yaml, "
            "a project for all its games under [fonts] in printkit.toml)"
        )

    def styles(self, name: str) -> tuple[str, str, str]:
        """The faces of a layout font's bold, italic and bold italic words: a game's own font names them (bold:,
        italic:, bold_italic:), printkit's have theirs; a style a font has no face for is set in the font."""
        spec = {n: s for n, s, _, _ in self.own}.get(name)
        if spec is not None:
            both = spec.bold_italic or spec.bold or spec.italic or name
            return (self.face(spec.bold or name), self.face(spec.italic or name), self.face(both))
        if name in STYLED:
            bold, italic, both = STYLED[name]
            return (use(bold), use(italic), use(both))
        face = self.face(name)
        return (face, face, face)


BUILT_IN = FontTable()


def face(font: str) -> str:
    """The registered face for a layout font name or a face already registered."""
    return font if font.startswith(FACE) else use(font)


def missing_glyphs(text: str, font: str) -> str:
    """The characters of text that the font cannot draw (they would print as empty boxes)."""
    table = pdfmetrics.getFont(face(font)).face
    return "".join(sorted({ch for ch in text if not ch.isspace() and ord(ch) not in table.charToGlyph}))


def width(text: str, font: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, face(font), size)


def printable(text: str) -> str:
    """text without the characters that any of the layout fonts cannot draw."""
    missing = set().union(*(missing_glyphs(text, name) for name in FAMILIES))
    return "".join(ch for ch in text if ch not in missing)
