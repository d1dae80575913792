"""Find the system's fonts by family name and register them with reportlab, embedded as subsets."""

from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from printkit.core.errors import PrintkitError

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
}
_SEARCH_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), Path.home() / ".local/share/fonts")


class FontMissing(PrintkitError):
    """A font the layouts need is not installed."""


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
    face = f"printkit-{name}"
    pdfmetrics.registerFont(TTFont(face, str(font_file(name))))
    return face


def missing_glyphs(text: str, name: str) -> str:
    """The characters of text that the font cannot draw (they would print as empty boxes)."""
    face = pdfmetrics.getFont(use(name)).face
    return "".join(sorted({ch for ch in text if not ch.isspace() and ord(ch) not in face.charToGlyph}))


def width(text: str, name: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, use(name), size)


def printable(text: str) -> str:
    """text without the characters that any of the layout fonts cannot draw."""
    missing = set().union(*(missing_glyphs(text, name) for name in FAMILIES))
    return "".join(ch for ch in text if ch not in missing)
