"""printkit's own HTML templates filled in, and HTML made into PDF by WeasyPrint through the safe fetcher."""

from __future__ import annotations

import contextlib
import functools
import os
import warnings
from collections.abc import Iterator
from pathlib import Path

import jinja2

from printkit.core import assets


@functools.cache
def environment() -> jinja2.Environment:
    """The templates in printkit's templates/ folder: every value escaped, an unknown name an error."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(assets.folder("templates")), autoescape=True, undefined=jinja2.StrictUndefined
    )


def render(template: str, **values: object) -> str:
    return environment().get_template(template).render(**values)


def pdf(html: str, root: Path) -> bytes:
    """A PDF of html; the only files it may read are data: URIs and files under root."""
    with warnings.catch_warnings():
        # WeasyPrint warns when the system lacks libharfbuzz-subset; it subsets the fonts with fontTools instead
        warnings.filterwarnings("ignore", message="HarfBuzz-Subset", category=DeprecationWarning)
        import weasyprint  # imported when a PDF is made: most commands never need it

        from printkit.docs.safefetch import fetcher

        with _fonts_dated():
            out = weasyprint.HTML(string=html, base_url=str(root), url_fetcher=fetcher(root)).write_pdf()
    assert out is not None
    return bytes(out)


@contextlib.contextmanager
def _fonts_dated() -> Iterator[None]:
    """Font subsets dated by SOURCE_DATE_EPOCH, not the clock, so the same booklet gives the same bytes.

    Without libharfbuzz-subset WeasyPrint subsets fonts with fontTools, which stamps each subset's
    head table with the time it was made unless SOURCE_DATE_EPOCH (reproducible-builds.org) is set;
    one the user set is kept.
    """
    if "SOURCE_DATE_EPOCH" in os.environ:
        yield
        return
    os.environ["SOURCE_DATE_EPOCH"] = "0"
    try:
        yield
    finally:
        os.environ.pop("SOURCE_DATE_EPOCH", None)
