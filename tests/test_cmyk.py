"""CMYK for print shops: every page of the five games' print files, and of a game with raster, grey, transparent
and SVG art, under the ink limit pixel by pixel as Ghostscript renders them; PDF/X-1a:2001 and :2003 read back
with pypdf; the shops' TIFF and JPEG packs; the settings and their errors."""

from __future__ import annotations

import io
import math
import random
import shutil
import subprocess
import zipfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import demogame
import pytest
from PIL import Image, ImageMath
from pypdf import PdfReader
from pypdf.generic import ContentStream, DictionaryObject, IndirectObject, StreamObject
from reportlab.lib.colors import CMYKColor, Color, HexColor

from printkit.cli import main
from printkit.core.errors import DataError, UsageError
from printkit.data import settings
from printkit.data.game import Game
from printkit.data.loader import load_game
from printkit.data.settings import PrintSettings
from printkit.draw import ink
from printkit.draw.legibility import INK, PAPER
from printkit.exports import printshop

LIMIT = 2.4  # the default, 240%
GAMES = ("battle-line", "soldier-battler", "time-line", "time-line-battle", "torah-timeline")
SMALL_TYPE = 12.0  # points: type under this size should print in one ink, as printers ask
RENDER_DPI = 72  # every fill is many pixels, and Ghostscript draws a hairline at least one pixel wide
# an SVG with translucent shapes and a gradient: transparency PDF/X-1a must not carry
SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="60" viewBox="0 0 100 60">'
    '<defs><linearGradient id="g"><stop offset="0" stop-color="#102030"/><stop offset="1" stop-color="#ff00ff"/>'
    "</linearGradient></defs>"
    '<rect width="100" height="60" fill="url(#g)"/>'
    '<circle cx="30" cy="30" r="25" fill="#000080" fill-opacity="0.5"/>'
    '<rect x="50" y="10" width="40" height="40" fill="#202020" stroke="#00ff00" stroke-opacity="0.3"/></svg>'
)


def _max_ink(pdf: Path, out: Path) -> list[float]:
    """Each page's greatest total ink at any pixel, as Ghostscript renders it in CMYK (0-4, 4 being 400%)."""
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc", f"-r{RENDER_DPI}"]
        + ["-o", str(out / "page-%03d.tif"), str(pdf)],
        check=True,
    )
    found = []
    for page in sorted(out.glob("page-*.tif")):
        found.append(_image_max_ink(Image.open(page)))
        page.unlink()
    return found


def _image_max_ink(image: Image.Image) -> float:
    assert image.mode == "CMYK"
    c, m, y, k = (band.convert("I") for band in image.split())
    total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
    assert isinstance(total, Image.Image)
    return float(total.getextrema()[1]) / 255  # type: ignore[index]


def _objects(reader: PdfReader) -> Iterator[Any]:
    size = int(reader.trailer["/Size"])
    for number in range(1, size):
        try:
            obj = reader.get_object(IndirectObject(number, 0, reader))
        except Exception:  # a free object number
            continue
        if obj is not None:
            yield obj


def _streams(reader: PdfReader) -> Iterator[tuple[Any, Any]]:
    """Every content stream with its resources: each page's, and each form XObject's."""
    for page in reader.pages:
        yield page.get_contents(), page.get("/Resources")
    for obj in _objects(reader):
        if isinstance(obj, StreamObject) and obj.get("/Subtype") == "/Form":
            yield obj, obj.get("/Resources")


# What names each version, as ISO 15930-1:2001 and ISO 15930-4:2003 ask: the header of the PDF version it is
# built on, and the Info keys. :2001 names its part (PDF/X-1) and then the level (1a); :2003 has one level,
# named by the version key alone, and no conformance key.
STANDARDS: dict[str, tuple[bytes, dict[str, str | None]]] = {
    "PDF/X-1a:2001": (b"%PDF-1.3", {"/GTS_PDFXVersion": "PDF/X-1:2001", "/GTS_PDFXConformance": "PDF/X-1a:2001"}),
    "PDF/X-1a:2003": (b"%PDF-1.4", {"/GTS_PDFXVersion": "PDF/X-1a:2003", "/GTS_PDFXConformance": None}),
}
# filters PDF/X-1a refuses: LZW in both versions, and JBIG2, new in PDF 1.4, in :2003
REFUSED_FILTERS = {"/LZWDecode", "/JBIG2Decode"}


def pdfx_problems(data: bytes, version: str = "PDF/X-1a:2001") -> list[str]:
    """What keeps a PDF from version (PDF/X-1a:2001, ISO 15930-1, or PDF/X-1a:2003, ISO 15930-4), as far as
    reading it back can tell."""
    problems = []
    header, keys = STANDARDS[version]
    if not data.startswith(header + b"\n"):
        problems.append(f"header {data[:8]!r}: {version} is {header[1:].decode().replace('-', ' ')}")
    reader = PdfReader(io.BytesIO(data))
    info = reader.trailer["/Info"].get_object()
    for key, wanted in keys.items():
        if info.get(key) != wanted:
            problems.append(f"{key[1:]} {info.get(key)!r}, expected {wanted!r}")
    if info.get("/Trapped") not in ("/True", "/False"):
        problems.append(f"Trapped {info.get('/Trapped')!r}")
    problems += [f"no {key} in Info" for key in ("/Title", "/CreationDate", "/ModDate") if not info.get(key)]
    if "/ID" not in reader.trailer:
        problems.append("no document ID")
    intents = reader.trailer["/Root"].get("/OutputIntents")
    pdfx = [i.get_object() for i in intents or [] if i.get_object().get("/S") == "/GTS_PDFX"]
    if len(pdfx) != 1:
        problems.append(f"{len(pdfx)} PDF/X output intents, expected 1")
    else:
        intent = pdfx[0]
        problems += [f"output intent without {k}" for k in ("/OutputConditionIdentifier", "/Info") if k not in intent]
        profile = intent["/DestOutputProfile"].get_object()
        icc = profile.get_data()
        if profile.get("/N") != 4 or icc[12:16] != b"prtr" or icc[16:20] != b"CMYK":
            problems.append(f"output profile {icc[12:20]!r} with N {profile.get('/N')}: expected a CMYK printer one")
    for number, page in enumerate(reader.pages, start=1):
        boxes = {name: page.get(name) for name in ("/MediaBox", "/BleedBox", "/TrimBox")}
        if any(v is None for v in boxes.values()):
            problems.append(f"page {number}: boxes {sorted(k for k, v in boxes.items() if v is not None)}")
            continue
        media, bleed, trim = ([float(v) for v in boxes[k]] for k in ("/MediaBox", "/BleedBox", "/TrimBox"))
        if not _within(trim, bleed) or not _within(bleed, media):
            problems.append(f"page {number}: trim {trim} in bleed {bleed} in media {media} not nested")
    for obj in _objects(reader):
        if not isinstance(obj, DictionaryObject):
            continue
        if "/SMask" in obj and obj["/SMask"] != "/None":
            problems.append("a soft mask")
        see_through = (
            any(float(obj.get(key, 1)) < 1 for key in ("/CA", "/ca")) or obj.get("/BM", "/Normal") != "/Normal"
        )
        if obj.get("/Type") == "/ExtGState" and see_through:
            problems.append(f"transparency in a graphics state {dict(obj)}")
        group = obj.get("/Group")
        if group is not None and group.get_object().get("/S") == "/Transparency":
            problems.append("a transparency group")
        space = obj.get("/ColorSpace")
        if space is not None and _rgb_space(space):
            problems.append(f"an RGB colour space {space}")
        filters = obj.get("/Filter")
        filters = filters if isinstance(filters, list) else [filters]
        problems += [f"a {f[1:]} stream" for f in filters if f in REFUSED_FILTERS]
        if obj.get("/Subtype") == "/PS" or obj.get("/Subtype2") == "/PS":
            problems.append("a PostScript XObject")
        if obj.get("/Subtype") == "/Form" and "/Ref" in obj:
            problems.append("a reference XObject: the page it shows lies in another file")
        if obj.get("/Type") == "/Font" and obj.get("/Subtype") not in ("/Type0", "/Type3"):
            descriptor = obj.get("/FontDescriptor")
            fonts = descriptor.get_object() if descriptor is not None else {}
            if not any(k in fonts for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                problems.append(f"font {obj.get('/BaseFont')} not embedded")
    named = {b"sh": "/Shading", b"Do": "/XObject", b"gs": "/ExtGState", b"Tf": "/Font"}
    for stream, resources in _streams(reader):
        if stream is None:
            continue
        held = resources.get_object() if resources is not None else {}
        for operands, operator in ContentStream(stream, reader).operations:
            if operator in named:
                kind = held.get(named[operator])
                if kind is None or operands[0] not in kind.get_object():
                    problems.append(f"{operator.decode()} {operands[0]}: no such {named[operator][1:]} resource")
            if operator in (b"rg", b"RG"):
                problems.append(f"an RGB colour {operands} {operator.decode()}")
            elif operator in (b"cs", b"CS") and _rgb_space(operands[0]):
                problems.append(f"an RGB colour space set {operands[0]}")
            elif operator == b"INLINE IMAGE" and _rgb_space(operands["settings"].get("/CS", "/G")):
                problems.append("an RGB inline image")
    return problems


def _within(inner: list[float], outer: list[float]) -> bool:
    return (
        inner[0] >= outer[0] - 0.01
        and inner[1] >= outer[1] - 0.01
        and inner[2] <= outer[2] + 0.01
        and inner[3] <= outer[3] + 0.01
    )


def _rgb_space(space: Any) -> bool:
    """A colour space PDF/X-1a refuses: RGB, calibrated or ICC-based (only CMYK, grey and spot inks are in)."""
    name = space.get_object() if hasattr(space, "get_object") else space
    if isinstance(name, list):
        name = name[0]
    return str(name) in ("/DeviceRGB", "/RGB", "/CalRGB", "/ICCBased", "/Lab")


def _art_game(folder: Path) -> Path:
    """The 54-card demo game with, beside its flat pictures, a transparent one, a grey one and a translucent SVG."""
    game = folder / demogame.SLUG
    for name, data in demogame.files(picture=(350, 200)).items():
        (game / name).parent.mkdir(parents=True, exist_ok=True)
        (game / name).write_bytes(data)
    see_through = Image.new("RGBA", (350, 200), (200, 30, 160, 255))
    for x in range(175):  # the left half clear, a soft band in the middle
        for y in range(200):
            see_through.putpixel((x, y), (30, 160, 200, 0 if x < 120 else 200))
    see_through.save(game / "art" / "c00.png")
    Image.linear_gradient("L").resize((350, 200)).save(game / "art" / "c01.png")  # grey: black ink alone
    (game / "art" / "c03.svg").write_text(SVG)
    # a dark picture of noise as a JPEG, which stays one in the inks: the limit bites at its darkest pixels, and
    # JPEG's error, largest in fine detail, took one 2% over with the shops' packs' headroom alone
    noise = random.Random(7).randbytes(340 * 200 * 3)
    photo = Image.frombytes("RGB", (340, 200), noise).point(lambda v: v // 3)
    photo.save(game / "art" / "c02.jpg", quality=90)
    rows = demogame.sheet_rows()
    rows[4][4] = "art/c03.svg"  # the header, then c00: c03 is the fifth row
    rows[3][4] = "art/c02.jpg"
    (game / "cards.xlsx").write_bytes(demogame.workbook(rows))
    return game


@pytest.fixture(scope="session")
def cmyk_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One CMYK build on A4 of the five games and the art game (cards, counters, boards), shared by the tests
    that only read it."""
    root = tmp_path_factory.mktemp("cmyk")
    art = _art_game(root / "art")
    out = root / "out"
    common = ["--colour", "cmyk", "--paper", "a4", "--only", "cards,counters,boards", "--no-check", "-q"]
    assert main(["build", *GAMES, "--out", str(out), *common]) == 0
    assert main(["build", str(art), "--out", str(out), *common]) == 0
    return out


def _print_files(out: Path) -> list[Path]:
    return sorted(p for p in out.glob("*/*.pdf"))


def test_no_pixel_of_any_cmyk_page_is_over_the_ink_limit(cmyk_build: Path, tmp_path: Path) -> None:
    """Done when: Ghostscript reports no page over the ink limit for the five games in CMYK (and the art game)."""
    assert shutil.which("gs"), "Ghostscript measures the ink: apt-get install ghostscript"
    files = _print_files(cmyk_build)
    made = {p.parent.name for p in files}
    assert made == {*GAMES, demogame.SLUG}
    assert {p.name for p in files if p.parent.name == "battle-line"} >= {"cards-a4.pdf"}
    worst = {}
    for pdf in files:
        pages = _max_ink(pdf, tmp_path / pdf.parent.name / pdf.stem)
        assert pages, pdf
        worst[f"{pdf.parent.name}/{pdf.name}"] = max(pages)
    over = {name: f"{ink * 100:.1f}%" for name, ink in worst.items() if ink > LIMIT}
    assert over == {}
    # the limit did something: the art game's darkest colours would print at 280% or more through the profile
    assert max(worst.values()) > LIMIT - 0.05


def test_cmyk_print_files_are_pdfx_1a(cmyk_build: Path) -> None:
    found = {f"{p.parent.name}/{p.name}": pdfx_problems(p.read_bytes()) for p in _print_files(cmyk_build)}
    assert {name: problems for name, problems in found.items() if problems} == {}
    assert len(found) >= 2 * len(GAMES)


def _small_type(pdf: bytes) -> list[tuple[tuple[float, ...], float]]:
    """Each string shown in a print file under SMALL_TYPE points: the inks filling it and its size, read from
    the content streams of its pages and forms (a form's text comes after the fill colour it sets itself)."""
    reader = PdfReader(io.BytesIO(pdf))
    found = []
    for stream, _ in _streams(reader):
        fill: tuple[float, ...] | None = None
        size, scale = 0.0, 1.0
        saved: list[tuple[tuple[float, ...] | None, float, float]] = []
        for operands, op in ContentStream(stream, reader).operations:
            if op == b"q":
                saved.append((fill, size, scale))
            elif op == b"Q":
                fill, size, scale = saved.pop()
            elif op == b"k":
                fill = tuple(float(v) for v in operands)
            elif op == b"g":
                fill = (0.0, 0.0, 0.0, 1 - float(operands[0]))
            elif op == b"Tf":
                size = float(operands[1])
            elif op == b"Tm":
                scale = float(math.hypot(float(operands[0]), float(operands[1])))
            elif op in (b"Tj", b"TJ", b"'", b'"') and size * scale < SMALL_TYPE and fill is not None:
                found.append((fill, size * scale))
    return found


def test_small_type_prints_in_black_ink_alone(cmyk_build: Path) -> None:
    """Text under 12 pt in the five games' CMYK print files is black ink alone (or no ink where it is as light as
    paper): the 6 pt credit lines, "HP" and "POWER" were four-ink mixes of up to 239%, which fringe with colour
    when a press's plates shift. Larger type keeps its colour."""
    small, mixed = 0, []
    for pdf in _print_files(cmyk_build):
        for fill, size in _small_type(pdf.read_bytes()):
            small += 1
            if any(fill[:3]):
                mixed.append((f"{pdf.parent.name}/{pdf.name}", round(size, 1), fill))
    assert small > 1000 and mixed == []


def _condition(pdf: bytes) -> tuple[str, str | None]:
    """The output intent's printing condition: its identifier, and the registry that defines it."""
    (intent,) = (i.get_object() for i in PdfReader(io.BytesIO(pdf)).trailer["/Root"]["/OutputIntents"])
    registry = intent.get("/RegistryName")
    return str(intent["/OutputConditionIdentifier"]), None if registry is None else str(registry)


def test_cmyk_files_name_the_registered_condition_their_profile_is_for(cmyk_build: Path) -> None:
    """Ghostscript's profile is a SWOP one: the files say so by the condition's registered name, CGATS TR 001 in
    the ICC's registry, which a shop's preflight reads without the profile (before: "Custom")."""
    found = {_condition(p.read_bytes()) for p in _print_files(cmyk_build)}
    assert found == {("CGATS TR 001", "http://www.color.org")}


def test_a_shop_that_names_its_condition_gets_it_or_a_refusal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "."]) == 0 and main(["new", "Shop Game"]) == 0
    spec = "local:\n  name: Corner Shop\n  dpi: 300\n  cut: 30\n  safe: 60\n  templates: {poker: [810, 1110]}\n"
    spec += '  files: "{index:03d}.png"\n  pdfx: PDF/X-1a:2003\n'
    shops = tmp_path / "layouts" / "printshops.yaml"
    shops.write_text(spec + "  condition: FOGRA39\n")
    capsys.readouterr()
    assert main(["export", "printshop", "shop-game", "--service", "local"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "FOGRA39" in err and "CGATS TR 001" in err
    assert not (tmp_path / "output" / "shop-game" / "printshop").exists()
    shops.write_text(spec + "  condition: CGATS TR 001\n")
    assert main(["export", "printshop", "shop-game", "--service", "local", "-q"]) == 0
    (pdf,) = (tmp_path / "output" / "shop-game" / "printshop").glob("*.pdf")
    assert _condition(pdf.read_bytes()) == ("CGATS TR 001", "http://www.color.org")


def test_the_checks_catch_an_rgb_file(tmp_path: Path, games: dict[str, Game]) -> None:
    """The same reading finds what an RGB file lacks: the check above can fail."""
    from printkit.sheets import cardsheets

    pdf, _ = cardsheets.build(games["battle-line"], PrintSettings(), "a4")
    problems = " ".join(pdfx_problems(pdf))
    for missing in ("GTS_PDFXVersion", "output intents", "boxes", "RGB colour"):
        assert missing in problems


def test_art_is_cmyk_with_stencils_not_soft_masks(cmyk_build: Path) -> None:
    reader = PdfReader(cmyk_build / demogame.SLUG / "cards-a4.pdf")
    images = [o for o in _objects(reader) if isinstance(o, StreamObject) and o.get("/Subtype") == "/Image"]
    pictures = [i for i in images if not i.get("/ImageMask")]
    assert pictures and {str(i["/ColorSpace"]) for i in pictures} == {"/DeviceCMYK"}
    stencils = [i for i in images if i.get("/ImageMask")]
    assert len(stencils) == 1 and stencils[0]["/Width"] == 350  # the one transparent picture's
    masked = [i for i in pictures if "/Mask" in i]
    assert len(masked) == 1 and masked[0]["/Mask"].get_object()["/ImageMask"]
    # the JPEG is a JPEG in the inks (PDF/X-1a takes DCT), Adobe's inverted CMYK read back by /Decode
    (photo,) = [i for i in pictures if i["/Width"] == 340]
    assert photo["/Filter"] == ["/DCTDecode"] and photo["/Decode"] == [1, 0] * 4
    inks = Image.open(io.BytesIO(photo._data))
    assert inks.mode == "CMYK" and _image_max_ink(inks) <= LIMIT
    assert len(photo._data) < 340 * 200 * 4 * 3 / 4  # unblurred noise, JPEG's worst case, still under its inks


def test_vector_colours_are_converted_where_they_are_set() -> None:
    press = ink.Press(ink.found_profile() or pytest.fail(ink.missing_profile()), LIMIT)
    assert press.colour(HexColor(INK)).cmyk()[:3] == (0, 0, 0)  # text and rules in black alone
    assert press.colour(HexColor("#ffffff")).cmyk() == (0, 0, 0, 0)  # paper stays unprinted
    paper = press.colour(HexColor(PAPER)).cmyk()
    assert 0 < sum(paper) < 0.1  # the cream card stock a tint, not white
    red = press.colour(HexColor("#c0392b")).cmyk()
    assert red[1] > 0.8 and red[2] > 0.8 and red[0] < 0.3  # magenta and yellow make red
    # a translucent colour is the colour flattened onto white paper: no alpha is left to write
    half = press.colour(Color(0.2, 0.3, 0.8, alpha=0.5))
    assert half.alpha is None and half.cmyk() == press.colour(Color(0.6, 0.65, 0.9)).cmyk()
    # a CMYK colour is kept, but limited
    assert press.colour(CMYKColor(0.1, 0.2, 0.3, 0.4)).cmyk() == (0.1, 0.2, 0.3, 0.4)
    assert sum(press.colour(CMYKColor(1, 1, 1, 1)).cmyk()) <= LIMIT
    assert sum(press.colour(Color(0.05, 0.0, 0.1)).cmyk()) <= LIMIT < sum(_unlimited(press, (13, 0, 26)))


def _unlimited(press: ink.Press, rgb: tuple[int, int, int]) -> tuple[float, ...]:
    pixel = Image.new("RGB", (1, 1), rgb)
    converted = ink._transform(press.profile).apply(pixel).getpixel((0, 0))
    return tuple(v / 255 for v in converted)  # type: ignore[union-attr]


def test_the_limit_moves_grey_into_black_then_scales_the_colour() -> None:
    rng = random.Random(14)
    for _ in range(5000):
        inks = tuple(rng.random() for _ in range(4))
        limit = rng.choice((1.0, 2.4, 3.0, 3.4))
        out = ink.limited(*inks, limit)
        assert sum(out) <= limit + 1e-9 and all(0 <= v <= 1 for v in out)
        if sum(inks) <= limit:
            assert out == inks
        else:
            assert out[3] >= inks[3]  # black only grows
    # a little over: the shared grey moved into black is enough, and the colour keeps its balance
    assert ink.limited(0.5, 0.4, 0.4, 0.5, 1.6) == pytest.approx((0.4, 0.3, 0.3, 0.6))
    # rich black: black fills up first, then cyan, magenta and yellow are scaled into the room left
    scale = (2.4 - 1.0) / (0.7 + 0.6 + 0.6)
    assert ink.limited(0.8, 0.7, 0.7, 0.9, 2.4) == pytest.approx((0.7 * scale, 0.6 * scale, 0.6 * scale, 1.0))


def test_every_rgb_pixel_converts_under_the_limit() -> None:
    """The picture table: every 8-bit step of a cube through the whole RGB gamut, at 300% and 240%."""
    steps = range(0, 256, 5)
    cube = Image.new("RGB", (len(steps) ** 2, len(steps)))
    cube.putdata([(r, g, b) for b in steps for g in steps for r in steps])
    for limit in (2.4, 3.0):
        press = ink.Press(ink.found_profile() or pytest.fail(ink.missing_profile()), limit)
        converted, stencil = press.picture(cube)
        assert converted.mode == "CMYK" and stencil is None
        assert limit - 0.1 < _image_max_ink(converted) <= limit


def test_a_transparent_picture_gets_a_stencil_where_it_is_mostly_clear() -> None:
    press = ink.Press(ink.found_profile() or pytest.fail(ink.missing_profile()), LIMIT)
    picture = Image.new("RGBA", (8, 2), (255, 0, 0, 255))
    picture.putpixel((0, 0), (255, 0, 0, 0))
    picture.putpixel((1, 0), (255, 0, 0, 100))
    picture.putpixel((2, 0), (255, 0, 0, 200))
    inks, stencil = press.picture(picture)
    assert stencil is not None and stencil.mode == "1"
    assert [stencil.getpixel((x, 0)) for x in range(4)] == [255, 255, 0, 0]  # 1: the page shows through
    assert inks.getpixel((2, 0)) != inks.getpixel((3, 0))  # a soft edge is flattened onto paper, lighter
    assert press.picture(Image.new("RGBA", (2, 2), (0, 0, 0, 255)))[1] is None  # opaque: no stencil


def _two_decks(folder: Path, settings: str = "") -> Game:
    """A small game of two decks, in strong colours: a red and a deep blue back; settings, its game.yaml's third
    line (a print: block), when given."""
    folder.mkdir()
    (folder / "game.yaml").write_text(
        f"title: Two Decks\ncredit: A test.\n{settings}decks:\n"
        "  - {id: fire, name: Fire, back: {title: Fire, colour: '#c0392b'}, cards: [ember]}\n"
        "  - {id: deep, name: Deep, back: {title: Deep, colour: '#0b1a40'}, cards: [abyss]}\n"
    )
    (folder / "cards.yaml").write_text(
        "cards:\n  - {id: ember, kind: plain, name: Ember, text: Burns., copies: 2}\n"
        "  - {id: abyss, kind: plain, name: Abyss, text: Sinks.}\n"
    )
    return load_game(folder)


def test_cmyk_for_a_shop_pdf_per_deck_and_cmyk_pictures(tmp_path: Path) -> None:
    game = _two_decks(tmp_path / "two")
    chosen = replace(PrintSettings(), colour="cmyk")
    (archive, *pdfs), notes = printshop.export(game, tmp_path / "dtc", chosen, "drivethrucards")
    assert len(pdfs) == len(game.decks) and notes == []
    for pdf in pdfs:  # the version printshops.yaml says DriveThruCards asks for
        assert pdfx_problems(pdf.read_bytes(), "PDF/X-1a:2003") == []
        assert len(pdfx_problems(pdf.read_bytes(), "PDF/X-1a:2001")) == 3  # the header, and both keys
        assert max(_max_ink(pdf, tmp_path / "ink" / pdf.stem)) <= LIMIT
        page = PdfReader(pdf).pages[0]
        assert [float(v) for v in page.trimbox] != [float(v) for v in page.bleedbox]  # the cut inside the bleed
    with zipfile.ZipFile(archive) as z:
        names = [n for n in z.namelist() if n != "order.csv"]
        assert names and all(n.endswith(".tif") for n in names)
        assert len(names) == 4  # two fronts, two backs
        for name in names:
            tiff = Image.open(io.BytesIO(z.read(name)))
            assert tiff.mode == "CMYK" and tiff.size == (825, 1125)
            assert tuple(round(float(v)) for v in tiff.info["dpi"]) == (300, 300)
            assert tiff.info.get("icc_profile") == ink.found_profile().read_bytes()  # type: ignore[union-attr]
            assert _image_max_ink(tiff) <= LIMIT
        assert z.read("order.csv").decode().splitlines()[1].split(",")[0] == names[0]
    (archive, proof), _ = printshop.export(game, tmp_path / "mpc", chosen, "mpc")
    assert pdfx_problems(proof.read_bytes(), "PDF/X-1a:2001") == []  # a shop that names no version: the default
    with zipfile.ZipFile(archive) as z:
        first = next(n for n in z.namelist() if n.endswith(".jpg"))
        jpeg = Image.open(io.BytesIO(z.read(first)))
        assert jpeg.format == "JPEG" and jpeg.mode == "CMYK" and jpeg.size == (822, 1122)
        assert jpeg.info["dpi"] == (300, 300) and jpeg.info.get("icc_profile")
        assert _image_max_ink(jpeg) <= LIMIT  # aimed under it by the room JPEG compression takes
    (archive, _), notes = printshop.export(game, tmp_path / "tgc", chosen, "gamecrafter")
    with zipfile.ZipFile(archive) as z:
        assert all(n.endswith((".png", ".csv")) for n in z.namelist())
    assert any("RGB PNG" in n for n in notes)


def test_a_shop_that_takes_pdfx_gets_it_unasked_and_rgb_for_it_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DriveThruCards' entry names PDF/X-1a:2003: `export printshop --service drivethrucards` alone writes its PDFs
    in that form and its pictures in its inks (before, RGB files with no output intent, said nothing); RGB asked
    for it is one line, exit 2, and nothing written."""
    folder = tmp_path / "two"
    _two_decks(folder)
    out = tmp_path / "out"
    common = ["export", "printshop", str(folder), "--service", "drivethrucards", "--out", str(out), "-q"]
    assert main(common) == 0
    pdfs = sorted((out / "two" / "printshop").glob("drivethrucards-*.pdf"))
    assert len(pdfs) == 2 and all(pdfx_problems(pdf.read_bytes(), "PDF/X-1a:2003") == [] for pdf in pdfs)
    # the condition its entry names, from its card prep help (US Web Coated (SWOP) v2): its files' output intent
    assert {_condition(pdf.read_bytes()) for pdf in pdfs} == {("CGATS TR 001", "http://www.color.org")}
    with zipfile.ZipFile(out / "two" / "printshop" / "drivethrucards.zip") as z:
        assert all(n.endswith((".tif", ".csv")) for n in z.namelist())
    capsys.readouterr()
    assert main([*common[:-3], "--out", str(tmp_path / "rgb"), "--colour", "rgb"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "PDF/X-1a:2003" in err and "--colour cmyk" in err
    assert not (tmp_path / "rgb" / "two" / "printshop").exists()
    assert main([*common[:-3], "--out", str(tmp_path / "mpc"), "--service", "mpc"]) == 0  # names no pdfx: RGB
    with zipfile.ZipFile(tmp_path / "mpc" / "two" / "printshop" / "mpc.zip") as z:
        assert all(n.endswith((".png", ".csv")) for n in z.namelist())


def _refused(capsys: pytest.CaptureFixture[str], args: list[str], out: Path) -> str:
    """The one line `printkit args --out out` is refused with (exit 2), having written nothing."""
    capsys.readouterr()
    assert main([*args, "--out", str(out), "-q"]) == 2
    err = capsys.readouterr().err.strip()
    assert err and "\n" not in err and "Traceback" not in err
    assert not out.exists()
    return err


def _dtc_inks(folder: Path) -> tuple[list[float], list[float]]:
    """The greatest total ink of each picture in a DriveThruCards pack written to folder, and of each PDF's pages."""
    with zipfile.ZipFile(folder / "drivethrucards.zip") as z:
        pictures = [_image_max_ink(Image.open(io.BytesIO(z.read(n)))) for n in z.namelist() if n.endswith(".tif")]
    pdfs = sorted(folder.glob("drivethrucards-*.pdf"))
    assert pictures and pdfs
    return pictures, [max(_max_ink(pdf, folder / "ink" / pdf.stem)) for pdf in pdfs]


def test_a_pdfx_version_the_shop_does_not_take_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """DriveThruCards takes PDF/X-1a:2003 alone: another version chosen, by --pdfx or the print settings, is one
    line naming the shop's version and how to ask for it, exit 2, nothing written (before: its PDFs were written
    as PDF/X-1a:2001 with a warning). Nobody choosing gets the shop's version; choosing it is no different."""
    game = _two_decks(tmp_path / "two")
    chosen = replace(PrintSettings(), colour="cmyk", pdfx="PDF/X-1a:2001")
    with pytest.raises(UsageError, match="DriveThruCards takes its PDFs as PDF/X-1a:2003 only"):
        printshop.export(game, tmp_path / "dtc", chosen, "drivethrucards")
    assert not (tmp_path / "dtc").exists()
    export = ["export", "printshop", str(tmp_path / "two"), "--service", "drivethrucards"]
    err = _refused(capsys, [*export, "--pdfx", "2001"], tmp_path / "flag")
    assert err == (
        "printkit: --pdfx: DriveThruCards takes its PDFs as PDF/X-1a:2003 only, found PDF/X-1a:2001: "
        "export its pack with --pdfx 2003"
    )
    _two_decks(tmp_path / "set", "print: {pdfx: 2001}\n")  # the game's print settings choose it
    err = _refused(capsys, [*export[:2], str(tmp_path / "set"), *export[3:]], tmp_path / "file")
    assert err.startswith(f"{tmp_path / 'set' / 'game.yaml'}:3:15: print.pdfx: DriveThruCards takes its PDFs as ")
    assert "found PDF/X-1a:2001: export its pack with --pdfx 2003" in err
    out = tmp_path / "over"  # --pdfx over the game's setting: the shop's version
    assert main([*export[:2], str(tmp_path / "set"), *export[3:], "--pdfx", "2003", "--out", str(out), "-q"]) == 0
    pdfs = sorted((out / "set" / "printshop").glob("drivethrucards-*.pdf"))
    assert len(pdfs) == 2 and all(pdfx_problems(pdf.read_bytes(), "PDF/X-1a:2003") == [] for pdf in pdfs)
    chosen = replace(chosen, pdfx="PDF/X-1a:2003")
    (_, *pdfs), notes = printshop.export(game, tmp_path / "same", chosen, "drivethrucards")
    assert all(pdfx_problems(pdf.read_bytes(), "PDF/X-1a:2003") == [] for pdf in pdfs) and notes == []
    (_, proof), notes = printshop.export(game, tmp_path / "mpc", chosen, "mpc")  # names none: the settings' version
    assert pdfx_problems(proof.read_bytes(), "PDF/X-1a:2003") == [] and notes == []


def test_more_ink_than_the_shop_prints_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """DriveThruCards prints at most 240% total ink (its ink_limit in printshops.yaml): --ink-limit 320% for it,
    or ink_limit: 320% in the print settings, is one line saying the shop's limit and how to keep to it, exit 2,
    nothing written (before: TIFFs and PDFs at 280-294% ink, said nothing). A lower limit is kept, and is what
    the pack measures."""
    folder = tmp_path / "two"
    _two_decks(folder)
    export = ["export", "printshop", str(folder), "--service", "drivethrucards"]
    err = _refused(capsys, [*export, "--ink-limit", "320"], tmp_path / "flag")
    assert err == (
        "printkit: --ink-limit: DriveThruCards prints at most 240% total ink, found 320%: "
        "export its pack with --ink-limit 240% or less"
    )
    _two_decks(tmp_path / "set", "print: {ink_limit: 320%}\n")
    err = _refused(capsys, [*export[:2], str(tmp_path / "set"), *export[3:]], tmp_path / "file")
    assert err.startswith(f"{tmp_path / 'set' / 'game.yaml'}:3:20: print.ink_limit: DriveThruCards prints at most 240%")
    out = tmp_path / "less"
    assert main([*export, "--ink-limit", "200%", "--out", str(out), "-q"]) == 0
    pictures, pdfs = _dtc_inks(out / "two" / "printshop")
    assert max(pictures) <= 2.0 and max(pdfs) <= 2.0
    assert max(pictures) > 1.95  # the limit did something: these colours print at 240% unlimited by a lower one


def test_a_shops_ink_limit_is_its_packs_default(tmp_path: Path) -> None:
    """A shop's ink_limit in printshops.yaml is its pack's when nobody chose one (before: 240% whatever the shop
    said); the bundled list gives DriveThruCards its 240% and no limit to a shop that states none."""
    game = _two_decks(tmp_path / "two")
    bundled = printshop.shops(game)
    assert bundled["drivethrucards"].ink_limit == LIMIT
    assert bundled["mpc"].ink_limit is None and bundled["gamecrafter"].ink_limit is None
    (tmp_path / "two" / "layouts").mkdir()
    (tmp_path / "two" / "layouts" / "printshops.yaml").write_text(
        "drivethrucards:\n  name: Low Ink Shop\n  dpi: 300\n  cut: 37.5\n  safe: 75\n"
        '  templates: {poker: [825, 1125]}\n  files: "{index:03d}-{side}-{card}.png"\n  pdf: {per: deck}\n'
        "  pdfx: PDF/X-1a:2003\n  ink_limit: 200%\n"
    )
    game = load_game(tmp_path / "two")
    assert printshop.shops(game)["drivethrucards"].ink_limit == 2.0
    printshop.export(game, tmp_path / "out", PrintSettings(), "drivethrucards")
    pictures, pdfs = _dtc_inks(tmp_path / "out")
    assert max(pictures) <= 2.0 and max(pdfs) <= 2.0 and max(pictures) > 1.95
    printshop.export(game, tmp_path / "less", replace(PrintSettings(), ink_limit=1.8), "drivethrucards")
    pictures, pdfs = _dtc_inks(tmp_path / "less")
    assert max(pictures) <= 1.8 and max(pdfs) <= 1.8
    with pytest.raises(UsageError, match="Low Ink Shop prints at most 200% total ink, found 240%"):
        printshop.export(game, tmp_path / "more", replace(PrintSettings(), ink_limit=2.4), "drivethrucards")
    spec = tmp_path / "two" / "layouts" / "printshops.yaml"
    spec.write_text(spec.read_text().replace("200%", "lots"))
    with pytest.raises(DataError) as refused:
        printshop.shops(load_game(tmp_path / "two"))
    assert "printshops.yaml:10:14: ink_limit: expected a total ink such as 240%, found 'lots'" in str(refused.value)


def test_a_cmyk_build_is_pdfx_2001_unless_a_setting_says_2003(tmp_path: Path) -> None:
    """The build's default stays the oldest version; `pdfx` in the print settings, or --pdfx, chooses the other.
    The :2003 files pass every check of the files above, but for the version's own header and keys."""
    game = tmp_path / "two"
    _two_decks(game)
    common = ["--colour", "cmyk", "--paper", "a4", "--only", "cards", "--no-check", "-q"]
    assert main(["build", str(game), "--out", str(tmp_path / "a"), *common]) == 0
    assert main(["build", str(game), "--out", str(tmp_path / "b"), "--pdfx", "PDF/X-1a:2003", *common]) == 0
    first = (tmp_path / "a" / "two" / "cards-a4.pdf").read_bytes()
    second = (tmp_path / "b" / "two" / "cards-a4.pdf").read_bytes()
    assert pdfx_problems(first, "PDF/X-1a:2001") == [] and pdfx_problems(second, "PDF/X-1a:2003") == []
    assert pdfx_problems(first, "PDF/X-1a:2003") != [] and pdfx_problems(second, "PDF/X-1a:2001") != []
    recorded = (tmp_path / "b" / "two" / "components.json").read_text()
    assert '"pdfx": "PDF/X-1a:2003"' in recorded
    # the same drawing, page for page: only the header and the keys naming the version differ
    pages = [[page.get_contents().get_data() for page in PdfReader(io.BytesIO(pdf)).pages] for pdf in (first, second)]
    assert pages[0] == pages[1]


def test_the_versions_printkit_writes_are_the_ones_its_settings_take() -> None:
    from printkit.draw import pdfx

    assert tuple(pdfx.VERSIONS) == settings.PDFX_VERSIONS == tuple(STANDARDS)
    assert settings.pdfx(" pdf/x-1a:2003 ") == settings.pdfx(2003) == "PDF/X-1a:2003"
    for bad in ("PDF/X-4", "2002", "x-1a"):
        with pytest.raises(ValueError, match="expected PDF/X-1a:2001 or PDF/X-1a:2003"):
            settings.pdfx(bad)


def test_a_shops_pdfx_in_printshops_yaml_is_checked_where_it_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "."]) == 0 and main(["new", "Shop Game"]) == 0
    spec = "local:\n  name: Corner Shop\n  dpi: 300\n  cut: 30\n  safe: 60\n  templates: {poker: [810, 1110]}\n"
    (tmp_path / "layouts" / "printshops.yaml").write_text(spec + '  files: "{index:03d}.png"\n  pdfx: PDF/X-4\n')
    capsys.readouterr()
    assert main(["export", "printshop", "shop-game", "--service", "local"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("layouts/printshops.yaml:8:9: pdfx: expected PDF/X-1a:2001 or PDF/X-1a:2003")
    assert "\n" not in err


def test_rgb_shop_files_keep_their_names_and_pngs(tmp_path: Path) -> None:
    (archive, pdf), _ = printshop.export(_two_decks(tmp_path / "two"), tmp_path, PrintSettings(), "mpc")
    with zipfile.ZipFile(archive) as z:
        assert all(n.endswith((".png", ".csv")) for n in z.namelist())
    assert "/OutputIntents" not in PdfReader(pdf).trailer["/Root"]


def test_colour_and_ink_limit_settings_are_layered(tmp_path: Path) -> None:
    folder = tmp_path / "inked"
    folder.mkdir()
    (folder / "game.yaml").write_text(
        "title: Inked\ncredit: A test.\nprint: {colour: cmyk, ink_limit: 300%, pdfx: 2003}\n"
        "decks:\n  - {id: main, name: Main, back: {title: Inked, colour: '#335577'}, include: {kind: plain}}\n"
    )
    (folder / "cards.yaml").write_text("cards:\n  - {id: a, kind: plain, name: A}\n")
    from printkit.core import project

    game = load_game(folder)
    here = project.find(tmp_path)
    found = settings.resolve(game, here)
    assert (found.colour, found.ink_limit, found.pdfx) == ("cmyk", 3.0, "PDF/X-1a:2003")
    assert settings.resolve(game, here, {"pdfx": "PDF/X-1a:2001"}).pdfx_version == "PDF/X-1a:2001"
    assert PrintSettings().pdfx is None and PrintSettings().pdfx_version == "PDF/X-1a:2001"
    chosen = settings.resolve(game, here, {"colour": "RGB", "ink_limit": "260"})
    assert (chosen.colour, chosen.ink_limit) == ("rgb", 2.6)
    assert settings.ink_limit("240%") == 2.4
    for bad in ("50%", "500", "lots", "nan"):
        with pytest.raises(ValueError, match="total ink"):
            settings.ink_limit(bad)
    with pytest.raises(ValueError, match="rgb or cmyk"):
        settings.colour("cmy")


def test_colour_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["build", "battle-line", "--colour", "lab", "--out", str(out)]) == 2
    assert main(["build", "battle-line", "--ink-limit", "900%", "--out", str(out)]) == 2
    assert main(["export", "png", "battle-line", "--colour", "cmyk", "--out", str(out)]) == 2
    assert main(["build", "battle-line", "--colour", "cmyk", "--pdfx", "PDF/X-4", "--out", str(out)]) == 2
    assert main(["export", "tts", "battle-line", "--pdfx", "2003", "--out", str(out)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 5 and "--colour: expected rgb or cmyk" in err[0] and "400%" in err[1]
    assert "only export printshop takes it" in err[2]
    assert err[3] == "printkit: --pdfx: expected PDF/X-1a:2001 or PDF/X-1a:2003 (or the year alone), found 'PDF/X-4'"
    assert err[4].startswith("printkit: --pdfx: only export printshop takes it")
    assert not out.exists()


def test_no_profile_is_one_line_before_anything_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ink, "PROFILES", (tmp_path / "none.icc",))
    out = tmp_path / "out"
    assert main(["build", "battle-line", "--colour", "cmyk", "--out", str(out)]) == 2
    assert main(["export", "printshop", "battle-line", "--colour", "cmyk", "--out", str(out)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all("apt-get install libgs-common" in line for line in err)
    assert not out.exists()
