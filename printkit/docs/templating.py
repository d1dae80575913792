"""printkit's own HTML templates filled in, and HTML made into PDF by WeasyPrint through the safe fetcher."""

from __future__ import annotations

import functools
import warnings
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
        # WeasyPrint warns when the system lacks libharfbuzz-subset; it still embeds the fonts whole
        warnings.filterwarnings("ignore", message="HarfBuzz-Subset", category=DeprecationWarning)
        import weasyprint  # imported when a PDF is made: most commands never need it

        from printkit.docs.safefetch import fetcher

        out = weasyprint.HTML(string=html, base_url=str(root), url_fetcher=fetcher(root)).write_pdf()
    assert out is not None
    return bytes(out)
