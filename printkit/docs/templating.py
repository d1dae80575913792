"""printkit's own HTML templates filled in, and HTML made into PDF by WeasyPrint through the safe fetcher."""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import io
import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2

from printkit.core import assets
from printkit.docs import rtlorder


@functools.cache
def environment() -> jinja2.Environment:
    """The templates in printkit's templates/ folder: every value escaped, an unknown name an error."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(assets.folder("templates")), autoescape=True, undefined=jinja2.StrictUndefined
    )


def render(template: str, **values: object) -> str:
    return environment().get_template(template).render(**values)


def png_uri(data: bytes) -> str:
    """A PNG as a data: URI, a picture a page holds in itself (the safe fetcher serves no other)."""
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def pdf(html: str, root: Path) -> bytes:
    """A PDF of html; the only files it may read are data: URIs and files under root."""
    return write(layout(html, root))


def layout(html: str, root: Path) -> Any:
    """html laid out in pages (a WeasyPrint Document), reading only data: URIs and files under root."""
    with warnings.catch_warnings():
        # WeasyPrint warns when the system lacks libharfbuzz-subset; printkit subsets with fontTools either way
        warnings.filterwarnings("ignore", message="HarfBuzz-Subset", category=DeprecationWarning)
        import weasyprint  # imported when a PDF is made: most commands never need it

        from printkit.docs.safefetch import fetcher

        return weasyprint.HTML(string=html, base_url=str(root), url_fetcher=fetcher(root)).render()


def write(document: Any) -> bytes:
    """A laid-out document as PDF bytes, its fonts subset alike on every machine, right-to-left text in typed order."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="HarfBuzz-Subset", category=DeprecationWarning)
        _subset_with_fonttools()
        with _fonts_dated():
            out = document.write_pdf()
    assert out is not None
    return rtlorder.logical(bytes(out))


# Tables a font program in a PDF never uses, removed before subsetting (fontTools would read the
# layout tables first): WeasyPrint has shaped the text (GSUB, GPOS, kern, JSTF, BASE, MATH) and draws
# no colour or bitmap glyphs; the rest are what WeasyPrint's HarfBuzz path drops too.
_UNUSED_TABLES = (
    *("GSUB", "GPOS", "kern", "JSTF", "BASE", "MATH"),
    *("SVG ", "DSIG", "EBDT", "EBLC", "EBSC", "LTSH", "PCLT"),
)


def _fonttools_subset(font: Any, to_unicode: dict[int, str], hinting: bool) -> None:
    """Keep only the glyphs a document uses, by their ids (kept in place): the same subset on every machine."""
    if not to_unicode:
        return
    notdef = bool(font.missing)
    key = (hashlib.sha256(font.file_content).digest(), font.index, tuple(sorted(to_unicode)), hinting, notdef)
    made = _SUBSETS.pop(key, None) or _subset(font.file_content, *key[1:])
    _SUBSETS[key] = made  # the most recent last
    while len(_SUBSETS) > 64:
        del _SUBSETS[next(iter(_SUBSETS))]
    font.file_content = made


# subsets made in this process, by font and glyphs: an A5 and an A4 booklet of a game use the same ones
_SUBSETS: dict[tuple[bytes, int, tuple[int, ...], bool, bool], bytes] = {}


def _subset(data: bytes, index: int, gids: tuple[int, ...], hinting: bool, notdef: bool) -> bytes:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options(
        retain_gids=True,
        passthrough_tables=True,
        ignore_missing_glyphs=True,
        hinting=hinting,
        desubroutinize=True,
        notdef_outline=notdef,
    )
    options.drop_tables += [t.strip() for t in _UNUSED_TABLES]
    subsetter = subset.Subsetter(options)
    subsetter.populate(gids=gids)
    ttfont = TTFont(io.BytesIO(data), fontNumber=index)
    for table in _UNUSED_TABLES:
        if table in ttfont:
            del ttfont[table]
    subsetter.subset(ttfont)
    out = io.BytesIO()
    ttfont.save(out)
    return out.getvalue()


@functools.cache
def _subset_with_fonttools() -> None:
    """WeasyPrint's fonts subset by fontTools alone, whether or not the system has libharfbuzz-subset.

    WeasyPrint subsets with HarfBuzz when libharfbuzz-subset is installed and with fontTools when it
    is not, and the two make different font programs, so the same booklet would be other bytes on a
    machine with the library than on one without (and other bytes again with another HarfBuzz
    version). fontTools is a Python package installed with printkit: the same versions of it subset
    alike on every system.
    """
    from weasyprint.pdf.fonts import Font

    Font.subset = _fonttools_subset


@contextlib.contextmanager
def _fonts_dated() -> Iterator[None]:
    """Font subsets dated by SOURCE_DATE_EPOCH, not the clock, so the same booklet gives the same bytes.

    fontTools stamps each subset's head table with the time it was made unless SOURCE_DATE_EPOCH
    (reproducible-builds.org) is set; one the user set is kept.
    """
    if "SOURCE_DATE_EPOCH" in os.environ:
        yield
        return
    os.environ["SOURCE_DATE_EPOCH"] = "0"
    try:
        yield
    finally:
        os.environ.pop("SOURCE_DATE_EPOCH", None)
