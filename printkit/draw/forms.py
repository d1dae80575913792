"""A reportlab canvas whose form XObjects name in their resources every graphics state, shading and colour space
their drawing uses.

reportlab's own endForm gives a form only its fonts and XObjects. A piece's design is a form placed
once per copy, so an SVG gradient (a shading) or a translucent fill (a graphics state) inside it
named a resource the form did not hold: Ghostscript, poppler and a shop's RIP skip the operator,
and the gradient or the see-through colour vanished from the print while the screen showed it.
Pages already carry theirs; a form made here carries the same kinds.
"""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas as _ReportlabCanvas


class Canvas(_ReportlabCanvas):
    """reportlab's canvas, its forms complete: every RGB and CMYK print file is drawn on one."""

    def endForm(self, **extra: Any) -> None:
        name = self._formData[0]
        # endForm clears the accumulators: what the form painted is read before it runs
        shading = dict(self._shadingUsed)
        super().endForm(**extra)
        form = self._doc.idToObject[self._doc.getXObjectName(name)]
        form.Resources = resources(form, shading)


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
