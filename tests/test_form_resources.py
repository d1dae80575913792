"""Every resource a page or a piece's form names is in its resources: the five games' RGB print files and a game whose
SVG art has a gradient and a translucent fill, read back with pypdf, then printed by Ghostscript."""

from __future__ import annotations

import io
import json
import subprocess
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream, IndirectObject, NameObject, StreamObject
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas as _ReportlabCanvas

from printkit.cli import main
from printkit.core.units import MM
from printkit.draw.forms import Canvas

GAMES = ("battle-line", "soldier-battler", "time-line", "time-line-battle", "torah-timeline")
# red to blue left to right, with a half-transparent green square in the middle
SKY = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200" viewBox="0 0 300 200">'
    '<defs><linearGradient id="sky" x1="0" y1="0" x2="1" y2="0">'
    '<stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/></linearGradient></defs>'
    '<rect width="300" height="200" fill="url(#sky)"/>'
    '<rect x="110" y="60" width="80" height="80" fill="#00ff00" fill-opacity="0.5"/></svg>'
)
DPI = 100
# an operator naming a resource, and the resource dictionary that must hold the name
NAMED = {
    b"sh": "/Shading",
    b"gs": "/ExtGState",
    b"Do": "/XObject",
    b"Tf": "/Font",
    b"cs": "/ColorSpace",
    b"CS": "/ColorSpace",
}
DEVICE_SPACES = {"/DeviceGray", "/DeviceRGB", "/DeviceCMYK", "/Pattern"}  # spaces named without a resource


def _contents(reader: PdfReader) -> Iterator[tuple[str, Any, Any]]:
    """Every content stream with its resources and where it is: each page's, and each form XObject's."""
    for number, page in enumerate(reader.pages, start=1):
        yield f"page {number}", page.get_contents(), page.get("/Resources")
    for number in range(1, int(reader.trailer["/Size"])):
        try:
            obj = reader.get_object(IndirectObject(number, 0, reader))
        except Exception:  # a free object number
            continue
        if isinstance(obj, StreamObject) and obj.get("/Subtype") == "/Form":
            yield f"form {number}", obj, obj.get("/Resources")


def unnamed_resources(pdf: Path) -> list[str]:
    """Each use of a resource name that the stream's own resources do not hold, as `where: operator name`."""
    reader = PdfReader(pdf)
    missing = []
    for where, stream, resources in _contents(reader):
        if stream is None:
            continue
        held = resources.get_object() if resources is not None else {}
        for operands, operator in ContentStream(stream, reader).operations:
            kind = NAMED.get(operator)
            if kind is None or not operands or not isinstance(operands[0], NameObject):
                continue
            if kind == "/ColorSpace" and operands[0] in DEVICE_SPACES:
                continue
            found = held.get(kind)
            if found is None or operands[0] not in found.get_object():
                missing.append(f"{where}: {operator.decode()} {operands[0]}")
    return missing


@pytest.fixture(scope="module")
def rgb_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One RGB build on A4 of the five games (cards, counters, boards) and of the sky game's cards."""
    root = tmp_path_factory.mktemp("forms")
    assert main(["new", "Sky Game", "--dir", str(root)]) == 0
    game = root / "sky-game"
    (game / "art").mkdir()
    (game / "art" / "sky.svg").write_text(SKY)
    see_through = Image.new("RGBA", (300, 200), (200, 30, 160, 255))
    see_through.paste((30, 160, 200, 0), (0, 0, 150, 200))  # a picture with transparency: a soft mask
    see_through.save(game / "art" / "glass.png")
    (game / "cards.yaml").write_text(
        "cards:\n"
        "  - {id: sky, kind: plain, name: Sky, text: Red to blue., art: art/sky.svg, copies: 2}\n"
        "  - {id: glass, kind: plain, name: Glass, text: Half clear., art: art/glass.png}\n"
    )
    out = root / "out"
    common = ["--paper", "a4", "--no-check", "-q", "--out", str(out)]
    assert main(["build", *GAMES, "--only", "cards,counters,boards", *common]) == 0
    assert main(["build", str(game), "--only", "cards", *common]) == 0
    return out


def _print_files(out: Path) -> list[Path]:
    return sorted(out.glob("*/*.pdf"))


def test_every_name_a_page_or_form_uses_is_in_its_resources(rgb_build: Path) -> None:
    files = _print_files(rgb_build)
    assert {p.parent.name for p in files} == {*GAMES, "sky-game"}
    found = {f"{p.parent.name}/{p.name}": unnamed_resources(p) for p in files}
    assert {name: missing for name, missing in found.items() if missing} == {}
    # the sky card's form paints its gradient and sets its translucency itself: the check above read them
    reader = PdfReader(rgb_build / "sky-game" / "cards-a4.pdf")
    forms = [s for _, s, r in _contents(reader) if s is not None and s.get("/Subtype") == "/Form"]
    operators = {op for form in forms for _, op in ContentStream(form, reader).operations}
    assert {b"sh", b"gs"} <= operators


def test_ghostscript_reads_every_file_without_a_complaint(rgb_build: Path) -> None:
    run = subprocess.run(
        ["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=nullpage", *map(str, _print_files(rgb_build))],
        capture_output=True,
        text=True,
        check=True,
    )
    assert (run.stdout + run.stderr).strip() == ""  # an unknown resource is "Couldn't find named resource"


def test_the_gradient_and_the_translucent_fill_print(rgb_build: Path, tmp_path: Path) -> None:
    pdf = rgb_build / "sky-game" / "cards-a4.pdf"
    png = tmp_path / "page.png"
    subprocess.run(
        ["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=png16m", f"-r{DPI}", "-dFirstPage=1"]
        + ["-dLastPage=1", "-o", str(png), str(pdf)],
        check=True,
    )
    page = Image.open(png).convert("RGB")
    slots = json.loads(pdf.with_suffix(".json").read_text())["slots"]
    faces = [s for s in slots if s["id"] == "sky" and s["side"] == "face" and s["page"] == 1]
    assert len(faces) == 2  # two copies: the one form placed twice
    for slot in faces:

        def at(across: float, down: float, slot: dict[str, Any] = slot) -> tuple[int, int, int]:
            """The pixel at a fraction across and down plain.yaml's art region (6, 16, 51.5 x 28 mm)."""
            x = (slot["x"] + (6 + 51.5 * across) * MM) * DPI / 72
            y = (page.height - (slot["y"] + slot["h"]) * DPI / 72) + (16 + 28 * down) * MM * DPI / 72
            pixel = page.getpixel((round(x), round(y)))
            assert isinstance(pixel, tuple)
            return pixel[0], pixel[1], pixel[2]

        left, quarter, right = at(0.03, 0.2), at(0.25, 0.2), at(0.97, 0.2)
        assert left[0] > 220 and left[2] < 40  # red where the gradient starts
        assert right[2] > 220 and right[0] < 40  # blue where it ends
        assert 130 < quarter[0] < 220 and 40 < quarter[2] < 120  # and between them, both
        r, g, b = at(0.5, 0.5)  # half green over the gradient's purple middle (128, 0, 128)
        assert 40 < r < 90 and 100 < g < 160 and 40 < b < 90, (r, g, b)


def _sheet(canvas_class: type[Canvas], compression: int) -> bytes:
    """Two pages placing a form twice and drawing text of their own, made on canvas_class."""
    out = io.BytesIO()
    c = canvas_class(out, pagesize=(200, 200), invariant=1, pageCompression=compression)
    c.beginForm("card", 0, 0, 50, 50)
    c.setFillColorRGB(0.2, 0.4, 0.6)
    c.rect(5, 5, 40, 40, fill=1)
    c.drawString(10, 20, "a card")
    c.endForm()
    for page in range(2):
        c.doForm("card")
        c.drawString(60, 60, f"page {page}")
        c.showPage()
    c.save()
    return out.getvalue()


@pytest.mark.parametrize("compression", [1, 0])
def test_a_form_and_a_page_packed_when_finished_make_the_same_file_as_reportlab(compression: int) -> None:
    """The early compression relies on how reportlab's save treats a stream that names its filter: with or without
    page compression, the file is reportlab's own, byte for byte (of interest whenever reportlab moves)."""
    assert _sheet(Canvas, compression) == _sheet(_ReportlabCanvas, compression)


def test_a_finished_form_and_page_keep_their_operators_compressed() -> None:
    c = Canvas(io.BytesIO(), pagesize=(200, 200), invariant=1, pageCompression=1)
    c.beginForm("card", 0, 0, 50, 50)
    c.rect(5, 5, 40, 40, fill=1)
    c.endForm()
    c.doForm("card")
    c.showPage()
    form = c._doc.idToObject[c._doc.getXObjectName("card")]
    page = c._doc.Pages.pages[-1]
    for made, operator in ((form, b" re"), (page, b" Do")):
        assert made.stream is None
        assert "Filter" in made.Contents.dictionary.dict
        assert operator in zlib.decompress(pdfdoc.PDFBase85Encode.decode(made.Contents.content))
