"""PDF/X-1a for CMYK print files, in the version a shop asks for: PDF/X-1a:2001 (ISO 15930-1, on PDF 1.3) or
PDF/X-1a:2003 (ISO 15930-4, on PDF 1.4). Either way: the output intent with its ICC profile, the keys naming
the version in the Info dictionary, a trim and a bleed box on every page, and the header of the PDF version
the standard is built on.

The drawing itself keeps to what PDF/X-1a allows (ink.PressCanvas): DeviceCMYK colours and
pictures, stencil masks rather than soft ones, no transparency; reportlab embeds every font
printkit draws with. PDF 1.4 brought transparency, JBIG2 and reference XObjects, and PDF/X-1a:2003
refuses all three, so the same drawing serves both versions; they differ in the header and the keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas


@dataclass(frozen=True)
class Version:
    """A PDF/X-1a version: the PDF version it is built on and the Info keys that name it."""

    name: str  # as print settings and printshops.yaml write it
    standard: str
    pdf: tuple[int, int]  # the header's %PDF-1.x
    keys: tuple[tuple[str, str], ...]  # Info dictionary entries, in the order written


VERSIONS = {
    version.name: version
    for version in (
        # :2001 names the part (PDF/X-1) and then the level within it (1a: all CMYK, every font embedded)
        Version(
            "PDF/X-1a:2001",
            "ISO 15930-1:2001",
            (1, 3),
            (("GTS_PDFXVersion", "PDF/X-1:2001"), ("GTS_PDFXConformance", "PDF/X-1a:2001")),
        ),
        # :2003 has the one level only, named by the version key; it has no conformance key
        Version("PDF/X-1a:2003", "ISO 15930-4:2003", (1, 4), (("GTS_PDFXVersion", "PDF/X-1a:2003"),)),
    )
}
# where a registered printing condition's name is defined: the ICC's registry of characterization data
REGISTRY = "http://www.color.org"
CUSTOM = "Custom"  # a condition of the profile's own, registered nowhere: the profile travels in the file


class _Info(pdfdoc.PDFInfo):
    """The document's Info dictionary with the PDF/X keys."""

    keys: tuple[tuple[str, str], ...] = ()

    def format(self, document: Any) -> bytes:
        text: bytes = super().format(document)
        keys = "".join(f"/{key} {_string(value)} " for key, value in self.keys).encode("latin-1")
        return text.replace(b"<<", b"<<\n" + keys, 1)


def _string(text: str) -> str:
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def frame(c: Canvas, profile: bytes, description: str, version: str, condition: str = CUSTOM) -> None:
    """Make c's document, about to be saved, a PDF/X-1a one in version (a name of VERSIONS, the print settings'
    pdfx) printed through profile (its ICC bytes), for condition: the printing condition's name in the ICC's
    registry (CGATS TR 001 for SWOP), or Custom for one of the profile's own."""
    standard = VERSIONS[version]
    doc = c._doc
    if len(c._code):  # a page still open is closed as save would, so it gets its boxes too
        c.showPage()
    for page in doc.Pages.pages:
        media = [0, 0, page.pagewidth, page.pageheight]
        if getattr(page, "TrimBox", None) is None:  # a sheet of pieces is not itself trimmed: its trim is the paper
            page.TrimBox = pdfdoc.PDFArray(media)
        if getattr(page, "BleedBox", None) is None:
            page.BleedBox = pdfdoc.PDFArray(media)
    stream = pdfdoc.PDFStream(pdfdoc.PDFDictionary({"N": 4}), profile, filters=[pdfdoc.PDFZCompress])
    entries = {
        "Type": pdfdoc.PDFName("OutputIntent"),
        "S": pdfdoc.PDFName("GTS_PDFX"),
        "OutputCondition": pdfdoc.PDFString(description),
        "OutputConditionIdentifier": pdfdoc.PDFString(condition),
        "RegistryName": pdfdoc.PDFString(REGISTRY),
        "Info": pdfdoc.PDFString(description),
        "DestOutputProfile": doc.Reference(stream),
    }
    if condition == CUSTOM:  # a condition of no registry's
        del entries["RegistryName"]
    intent = pdfdoc.PDFDictionary(entries)
    catalog = doc.Catalog
    catalog.__NoDefault__ = [*type(catalog).__NoDefault__, "OutputIntents"]
    catalog.OutputIntents = pdfdoc.PDFArray([intent])
    info = _Info()
    info.__dict__.update(doc.info.__dict__)
    info.keys = standard.keys
    info.trapped = "False"  # printkit does no trapping; PDF/X wants it said
    doc.info = info
    # reportlab starts at PDF 1.3 and moves up only for transparency, which the press canvas never sets
    doc._pdfVersion = standard.pdf


class StencilMask(pdfdoc.PDFImageXObject):
    """A 1-bit image mask (PDF 1.3's explicit masking): where a bit is 1 the picture it masks leaves the page
    as it was. PDF/X-1a takes this where it refuses a soft mask."""

    def __init__(self, name: str, width: int, height: int, bits: bytes) -> None:
        super().__init__(name)
        self.width, self.height = width, height
        self.streamContent = bits
        self._filters = ("FlateDecode",)

    def format(self, document: Any) -> bytes:
        stream = pdfdoc.PDFStream(content=self.streamContent)
        d = stream.dictionary
        d["Type"] = pdfdoc.PDFName("XObject")
        d["Subtype"] = pdfdoc.PDFName("Image")
        d["Width"] = self.width
        d["Height"] = self.height
        d["ImageMask"] = "true"
        d["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName(f) for f in self._filters])
        d["Length"] = len(self.streamContent)
        formatted: bytes = stream.format(document)
        return formatted


class MaskedImage(pdfdoc.PDFImageXObject):
    """An image XObject that names its stencil mask (/Mask, a reference) where reportlab would give a soft one."""

    stencil: Any = None  # a PDFObjectReference to a StencilMask

    def format(self, document: Any) -> bytes:
        text: bytes = super().format(document)
        if self.stencil is None:
            return text
        return text.replace(b"<<", b"<< /Mask " + self.stencil.format(document) + b" ", 1)
