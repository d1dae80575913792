"""A reportlab canvas whose forms name every resource they use, and whose finished streams are deflated at once.

reportlab's own endForm gives a form only its fonts and XObjects. A piece's design is a form placed
once per copy, so an SVG gradient (a shading) or a translucent fill (a graphics state) inside it
named a resource the form did not hold: Ghostscript, poppler and a shop's RIP skip the operator,
and the gradient or the see-through colour vanished from the print while the screen showed it.
Pages already carry theirs; a form made here carries the same kinds.

reportlab also keeps every form's and page's drawing operators as plain text until `save`, and
compresses them only then: a 5,400-card sheet held 20 MB of them. Here each is compressed the
moment it is finished, with the very filters and bytes `save` would have used (see packed).
"""

from __future__ import annotations

import functools
from typing import Any

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas as _ReportlabCanvas


class Saved:
    """Where a canvas saves its file: the one bytes object reportlab's save makes, kept as it is.

    A BytesIO copies what is written into it, and getvalue() may copy it again: a 5,400-card sheet's
    9 MB was held two or three times over at the moment of saving, the build's highest.
    """

    def __init__(self) -> None:
        self._parts: list[bytes] = []

    def write(self, data: bytes) -> int:
        self._parts.append(data)
        return len(data)

    def getvalue(self) -> bytes:
        """What was written: the very object save wrote, when it wrote once (as reportlab does)."""
        return self._parts[0] if len(self._parts) == 1 else b"".join(self._parts)


class Canvas(_ReportlabCanvas):
    """reportlab's canvas, its forms complete: every RGB and CMYK print file is drawn on one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # the resources of a form that names nothing beyond fonts and procedure sets (most cards), by hasImages:
        # one shared, as save writes a resource dictionary without changing it; a few hundred bytes a card
        self._plain_resources: dict[bool, pdfdoc.PDFResourceDictionary] = {}

    def endForm(self, **extra: Any) -> None:
        name = self._formData[0]
        # endForm clears the accumulators: what the form painted is read before it runs
        shading = dict(self._shadingUsed)
        super().endForm(**extra)
        form = self._doc.idToObject[self._doc.getXObjectName(name)]
        plain = not (form.XObjects or getattr(form, "ExtGState", None) or shading or getattr(form, "_colorsUsed", None))
        if plain:
            made = self._plain_resources.get(bool(form.hasImages))
            if made is None:
                made = self._plain_resources[bool(form.hasImages)] = resources(form, shading)
            form.Resources = made
        else:
            form.Resources = resources(form, shading)
        if form.compression and form.stream:
            form.Contents = packed(form.stream, "xobject form stream")
            form.stream = None

    def showPage(self) -> None:
        super().showPage()
        page = self._doc.Pages.pages[-1]
        if page.compression and page.stream and not page.Contents:
            page.Contents = packed(page.stream, "page stream")
            page.stream = None


def packed(stream: bytes | str, comment: str) -> pdfdoc.PDFStream:
    """A finished form's or page's operators as the stream reportlab's save makes of them, already compressed.

    This leans on reportlab 5's save (pyproject pins reportlab <6, and tests/test_form_resources.py compares
    whole files made with and without it): PDFFormXObject.format and PDFPage.check_format keep a Contents already
    set, and PDFStream.format applies no filter to a stream whose dictionary names a Filter already. The filters
    are the ones save would choose (ASCII85 over Flate unless rl_config.useA85 is off), applied in its order, so
    the file's bytes are the same; only the plain text is gone sooner.
    """
    filters = [pdfdoc.PDFBase85Encode, pdfdoc.PDFZCompress] if rl_config.useA85 else [pdfdoc.PDFZCompress]
    content: bytes | str = stream
    for step in reversed(filters):  # as PDFStream.format: the last filter listed is applied first
        content = step.encode(content)
    made = _Packed(content=content)
    made.dictionary["Filter"] = _filter_names(tuple(step.pdfname for step in filters))
    made.__Comment__ = comment
    return made


@functools.cache
def _filter_names(names: tuple[str, ...]) -> pdfdoc.PDFArray:
    """The /Filter array naming these filters: one for every stream, as save only reads it (a few hundred bytes
    a form)."""
    return pdfdoc.PDFArray([pdfdoc.PDFName(name) for name in names])


class _Packed(pdfdoc.PDFStream):
    """A packed stream that lets go of its bytes once save has written them into the file.

    Save formats every object into one list and joins it: without this each form's bytes were held
    twice (in the form and in the list) at the build's highest moment. A document is saved once
    (reportlab's SaveToFile refuses a second time), so nothing formats the stream again.
    """

    def format(self, document: Any) -> bytes:
        text: bytes = super().format(document)
        self.content = None  # a second format raises reportlab's "stream content not set", never writes nothing
        return text


def resources(form: pdfdoc.PDFFormXObject, shading: dict[str, str]) -> pdfdoc.PDFResourceDictionary:
    """The resources reportlab gives a form (fonts, procedure sets, XObjects) and the graphics states, shadings and
    colour spaces its content names, as it gives a page. A form using none of them gets the very same bytes."""
    made = pdfdoc.PDFResourceDictionary()
    made.basicFonts()
    if form.hasImages:
        made.allProcs()
    else:
        made.basicProcs()
    if form.XObjects:
        made.XObject = form.XObjects
    if getattr(form, "ExtGState", None):
        made.ExtGState = form.ExtGState
    made.setShading(shading)
    made.setColorSpace(getattr(form, "_colorsUsed", {}))
    return made
