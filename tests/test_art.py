"""Card art: pictures the tests draw themselves reach the sheets, every export and the reference alike."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader

from printkit.cli import main
from printkit.core.units import MM

MAGENTA = (200, 30, 160)  # the raster art's colour
BLUE = (30, 144, 255)  # the SVG's colour
SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200" viewBox="0 0 300 200">'
    '<rect x="0" y="0" width="300" height="200" fill="#1e90ff"/></svg>'
)


def _close(pixel: tuple[int, ...], colour: tuple[int, int, int], slack: int = 12) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(pixel[:3], colour, strict=True))


@pytest.fixture
def studio(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A project with a game whose cards name a PNG, an SVG and a picture too small to print sharp."""
    monkeypatch.chdir(tmp_path)
    assert main(["init", "."]) == 0
    assert main(["new", "Art Game"]) == 0
    game = tmp_path / "cards" / "art-game"
    (game / "art").mkdir()
    Image.new("RGB", (1200, 700), MAGENTA).save(game / "art" / "dragon.png")
    (game / "art" / "shield.svg").write_text(SVG)
    Image.new("RGB", (60, 40), MAGENTA).save(game / "art" / "tiny.png")
    (game / "cards.yaml").write_text(
        "cards:\n"
        "  - {id: dragon, kind: plain, name: Dragon, text: Breathes fire., art: art/dragon.png,"
        " art_credit: Ann Artist, copies: 2}\n"
        "  - {id: shield, kind: plain, name: Shield, text: Holds firm., art: art/shield.svg}\n"
        "  - {id: tiny, kind: plain, name: Tiny, text: Too small., art: art/tiny.png}\n"
    )
    capsys.readouterr()
    return tmp_path


def _art_centre(image: Image.Image, bleed_px: float, dpi: float) -> tuple[int, ...]:
    """The pixel at the middle of plain.yaml's art region (6, 16, 51.5 x 28 mm) of a card image."""
    x = bleed_px + (6 + 51.5 / 2) / 25.4 * dpi
    y = bleed_px + (16 + 28 / 2) / 25.4 * dpi
    return tuple(image.convert("RGB").getpixel((round(x), round(y))))


def test_art_reaches_the_sheet_and_every_export(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--paper", "a4", "--no-check", "--only", "cards,reference"]) == 0
    err = capsys.readouterr().err
    assert "card tiny: tiny.png prints at 30 dpi in region art-image" in err  # 60 px over 51.5 mm
    assert "card dragon" not in err  # 1,200 px over 51.5 mm: 592 dpi
    out = studio / "output" / "art-game"
    pdf = (out / "cards-a4.pdf").read_bytes()
    reader = PdfReader(io.BytesIO(pdf))
    assert pdf.count(b"/Subtype /Image") == 2  # the dragon once for its two copies, and tiny; the SVG is vector
    text = " ".join(" ".join(page.extract_text() for page in reader.pages).split())
    assert "Ann Artist" in text
    slots = json.loads((out / "cards-a4.json").read_text())["slots"]
    page = pdfium.PdfDocument(pdf)[0].render(scale=150 / 72).to_pil().convert("RGB")
    for card, colour in (("dragon", MAGENTA), ("shield", BLUE)):
        slot = next(s for s in slots if s["id"] == card and s["side"] == "face")
        top = page.height - (slot["y"] + slot["h"]) * 150 / 72
        x = (slot["x"] + (6 + 25.75) * MM) * 150 / 72
        y = top + (16 + 14) * MM * 150 / 72
        assert _close(page.getpixel((round(x), round(y))), colour), card

    assert main(["export", "png", "art-game", "--dpi", "100"]) == 0
    bleed = 3 / 25.4 * 100
    assert _close(_art_centre(Image.open(out / "png" / "main" / "001-dragon.png"), bleed, 100), MAGENTA)
    assert _close(_art_centre(Image.open(out / "png" / "main" / "002-shield.png"), bleed, 100), BLUE)

    assert main(["export", "tts", "art-game"]) == 0
    sheet = Image.open(out / "tts" / "main-sheet-1.png")
    deck = json.loads((out / "tts" / "main.json").read_text())["ObjectStates"][0]
    custom = next(iter(deck["CustomDeck"].values()))
    cell_w = sheet.width / custom["NumWidth"]
    assert _close(_art_centre(sheet, 0, cell_w / (63.5 / 25.4)), MAGENTA)

    assert main(["export", "printshop", "art-game", "--service", "mpc"]) == 0
    with zipfile.ZipFile(out / "printshop" / "mpc.zip") as archive:
        first = sorted(n for n in archive.namelist() if n.startswith("front/"))[0]
        shop = Image.open(io.BytesIO(archive.read(first)))
    assert _close(_art_centre(shop, 36, 300), MAGENTA)

    thumb = Image.open(studio / "output" / "reference" / "art-game" / "cards" / "main-dragon-240.png")
    assert _close(_art_centre(thumb, 0, thumb.width / (63.5 / 25.4)), MAGENTA)


def test_a_picture_that_touches_the_trim_runs_into_the_bleed(studio: Path) -> None:
    game = studio / "cards" / "art-game"
    (game / "game.yaml").write_text(
        (game / "game.yaml").read_text().replace("back: {title:", "back: {art: art/dragon.png, title:")
    )
    assert main(["export", "png", "art-game", "--dpi", "100"]) == 0
    back = Image.open(studio / "output" / "art-game" / "png" / "main" / "back.png").convert("RGB")
    assert _close(back.getpixel((1, 1)), MAGENTA)  # the outermost pixel of the bleed is the picture's


def test_the_same_art_gives_the_same_bytes(studio: Path) -> None:
    assert main(["build", "--paper", "a4", "--no-check", "--only", "cards"]) == 0
    first = (studio / "output" / "art-game" / "cards-a4.pdf").read_bytes()
    assert main(["build", "--paper", "a4", "--no-check", "--only", "cards"]) == 0
    assert (studio / "output" / "art-game" / "cards-a4.pdf").read_bytes() == first


@pytest.mark.parametrize(
    ("art", "content", "expected"),
    [
        ("art/none.png", None, "cards[0].art: art/none.png: cannot read: no such file"),
        ("../outside.png", None, "cards[0].art: expected a path inside the game's folder"),
        ("art/notes.txt", b"words", "cards[0].art: expected a picture (png, jpg, jpeg, webp, svg)"),
        (  # at the card's art: value, which names the card, not at the picture, which does not
            "art/broken.png",
            b"not a png at all",
            "cards.yaml:2:44: cards[0].art: art/broken.png (the image of layout plain, region art-image): "
            "not a PNG picture, as its name says, or a damaged one",
        ),
        (
            "art/bomb.png",
            "bomb",
            "cards.yaml:2:44: cards[0].art: art/bomb.png (the image of layout plain, region art-image): "
            "picture is 400,000,000 pixels: expected at most 40,000,000",
        ),
        ("art/entity.svg", b'<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>', "refused"),
    ],
    ids=["missing", "outside", "not-a-picture", "corrupt", "bomb", "svg-entity"],
)
def test_bad_art_is_one_line_at_validate_and_build_writes_nothing(
    studio: Path, capsys: pytest.CaptureFixture[str], art: str, content: bytes | str | None, expected: str
) -> None:
    game = studio / "cards" / "art-game"
    if content == "bomb":  # a small file that would decode to 400 million pixels
        Image.new("1", (20000, 20000)).save(game / art, optimize=True)
    elif content is not None:
        (game / art).write_bytes(content)  # type: ignore[arg-type]
    (game / "cards.yaml").write_text(f"cards:\n  - {{id: one, kind: plain, name: One, art: '{art}'}}\n")
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err, err
    assert main(["build", "--no-check"]) == 2
    assert not (studio / "output").exists()


def test_art_compressed_once_writes_what_reportlab_would(studio: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """printkit keeps each picture compressed between documents; the bytes are those of reportlab's own drawImage."""
    from printkit.draw import art

    game = studio / "cards" / "art-game"
    see_through = Image.new("RGBA", (400, 300), (*MAGENTA, 128))  # transparency: a soft mask goes with it
    see_through.save(game / "art" / "glass.png")
    # lossless: a lossy WebP becomes a JPEG, which a PDF shows as it is (test_jpeg_art_goes_in_as_it_is)
    Image.new("RGB", (300, 200), MAGENTA).save(game / "art" / "dragon.webp", lossless=True)
    (game / "cards.yaml").write_text(
        "cards:\n  - {id: glass, kind: plain, name: Glass, art: art/glass.png}\n"
        "  - {id: dragon, kind: plain, name: Dragon, art: art/dragon.webp}\n"
    )
    assert main(["build", "--paper", "a4", "--no-check", "--only", "cards"]) == 0
    cached = (studio / "output" / "art-game" / "cards-a4.pdf").read_bytes()

    def reportlabs_own(c: object, picture: object) -> str:
        raise AttributeError("use drawImage")

    monkeypatch.setattr(art, "_place_image", reportlabs_own)
    assert main(["build", "--paper", "a4", "--no-check", "--only", "cards"]) == 0
    assert (studio / "output" / "art-game" / "cards-a4.pdf").read_bytes() == cached
    assert b"/SMask" in cached


def _damaged_png(path: Path, cut: bool) -> None:
    """An RGB PNG whose header is sound and whose rows are not: the last third cut off, or bytes scrambled."""
    Image.frombytes("RGB", (64, 64), bytes(range(256)) * 48).save(path)
    data = bytearray(path.read_bytes())
    start = data.index(b"IDAT") + 4
    if cut:
        data = data[: start + (len(data) - start) * 2 // 3]
    else:
        data[start + 20 : start + 60] = bytes(40)
    path.write_bytes(bytes(data))


def _png_stream(path: Path) -> bytes:
    """A PNG file's image data chunks, joined: its pixels as the file deflated them."""
    data, at, parts = path.read_bytes(), 8, []
    while at < len(data):
        length, kind = int.from_bytes(data[at : at + 4], "big"), data[at + 4 : at + 8]
        if kind == b"IDAT":
            parts.append(data[at + 8 : at + 8 + length])
        at += 12 + length
    return b"".join(parts)


def test_opaque_png_art_goes_into_the_pdf_as_the_file_deflated_it(studio: Path) -> None:
    """8-bit grey and RGB PNGs keep their own compressed rows (nothing inflated and deflated again) and read
    back pixel for pixel; a palette PNG, which a PDF cannot take that way, is converted and reads back the same."""
    import random

    game = studio / "cards" / "art-game"
    noise = random.Random(5)

    def pixels(mode: str, size: tuple[int, int]) -> Image.Image:
        return Image.frombytes(mode, size, bytes(noise.randrange(256) for _ in range(size[0] * size[1] * len(mode))))

    pictures = {"rgb": pixels("RGB", (120, 80)), "grey": pixels("L", (90, 60)), "palette": pixels("RGB", (150, 100))}
    pictures["palette"] = pictures["palette"].quantize(16)
    for name, picture in pictures.items():
        picture.save(game / "art" / f"{name}.png")
    (game / "cards.yaml").write_text(
        "cards:\n" + "".join(f"  - {{id: {n}, kind: plain, name: {n}, art: art/{n}.png}}\n" for n in pictures)
    )
    assert main(["build", "--paper", "a4", "--no-check", "--only", "cards"]) == 0
    pdf = PdfReader(studio / "output" / "art-game" / "cards-a4.pdf")
    images = {}
    for number in range(1, int(pdf.trailer["/Size"])):
        obj = pdf.get_object(number)
        if isinstance(obj, dict) and obj.get("/Subtype") == "/Image":
            images[int(obj["/Width"])] = obj
    assert images[120]._data == _png_stream(game / "art" / "rgb.png")
    assert images[90]._data == _png_stream(game / "art" / "grey.png")
    assert images[120]["/DecodeParms"][0]["/Predictor"] == 15 and "/DecodeParms" not in images[150]
    # pixels as a viewer decodes them (pdfium, as Chrome does): pypdf alone forgave a malformed DecodeParms
    shown = {}
    for obj in pdfium.PdfDocument(studio / "output" / "art-game" / "cards-a4.pdf")[0].get_objects(max_depth=4):
        if obj.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE:
            bitmap = obj.get_bitmap(render=False).to_pil()
            shown[bitmap.width] = bitmap
    assert shown[120].convert("RGB").tobytes() == pictures["rgb"].tobytes()
    assert shown[90].convert("L").tobytes() == pictures["grey"].tobytes()
    assert shown[150].convert("RGB").tobytes() == pictures["palette"].convert("RGB").tobytes()


@pytest.mark.parametrize(
    ("name", "make", "expected"),
    [
        (
            "eps.png",
            lambda p: p.write_bytes(b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nshowpage\n"),
            "not a PNG",
        ),
        ("gif.png", lambda p: Image.new("RGB", (8, 8)).save(p, format="GIF"), "not a PNG picture"),
        ("bmp.jpg", lambda p: Image.new("RGB", (8, 8)).save(p, format="BMP"), "not a JPEG picture"),
        (
            "moving.webp",
            lambda p: Image.new("RGB", (8, 8)).save(
                p, format="WEBP", save_all=True, append_images=[Image.new("RGB", (8, 8), "red")]
            ),
            "an animated picture",
        ),
        (
            "wide.svg",
            lambda p: p.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="1e8" height="10"/>'),
            "sides",
        ),
        (
            "utf16.svg",
            lambda p: p.write_bytes(
                '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>'.encode("utf-16")
            ),
            "expected an SVG in UTF-8",
        ),
        ("crowd.svg", lambda p: p.write_text("<svg>" + "<rect/>" * 30_000 + "</svg>"), "more than 20,000 elements"),
        ("cut.png", lambda p: _damaged_png(p, cut=True), "or a damaged one"),
        ("scrambled.png", lambda p: _damaged_png(p, cut=False), "or a damaged one"),
    ],
    ids=[
        "eps-named-png",
        "gif-named-png",
        "bmp-named-jpg",
        "animated-webp",
        "huge-svg",
        "utf16-svg",
        "crowded-svg",
        "png-rows-cut-short",
        "png-rows-scrambled",
    ],
)
def test_a_picture_is_what_its_name_says_or_refused(
    studio: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    make: object,
    expected: str,
) -> None:
    from PIL import ImageFile

    # as WeasyPrint leaves Pillow for the rest of the process once a booklet is made: truncated files accepted
    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", True)
    game = studio / "cards" / "art-game"
    make(game / "art" / name)  # type: ignore[operator]
    (game / "cards.yaml").write_text(f"cards:\n  - {{id: one, kind: plain, name: One, art: art/{name}}}\n")
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err and "Traceback" not in err, err


def test_sixteen_bit_grey_prints_grey(studio: Path) -> None:
    game = studio / "cards" / "art-game"
    Image.new("I;16", (300, 200), 40000).save(game / "art" / "grey16.png")  # 61% of full white
    (game / "cards.yaml").write_text("cards:\n  - {id: grey, kind: plain, name: Grey, art: art/grey16.png}\n")
    assert main(["export", "png", "art-game", "--dpi", "100"]) == 0
    image = Image.open(studio / "output" / "art-game" / "png" / "main" / "001-grey.png")
    pixel = _art_centre(image, 3 / 25.4 * 100, 100)
    assert all(abs(v - 40000 / 257) < 6 for v in pixel[:3]), pixel


def _images(pdf: Path) -> dict[int, object]:
    """The PDF's image XObjects by width (each test picture has its own)."""
    reader = PdfReader(pdf)
    found = {}
    for number in range(1, int(reader.trailer["/Size"])):
        obj = reader.get_object(number)
        if isinstance(obj, dict) and obj.get("/Subtype") == "/Image":
            found[int(obj["/Width"])] = obj
    return found


def _noisy(mode: str, size: tuple[int, int], seed: int) -> Image.Image:
    """A photograph's worth of detail: noise softened a little, so a JPEG of it is neither tiny nor all noise."""
    import random

    from PIL import ImageFilter

    bands = len(Image.new(mode, (1, 1)).getbands())
    noise = random.Random(seed).randbytes(size[0] * size[1] * bands)
    return Image.frombytes(mode, size, noise).filter(ImageFilter.GaussianBlur(1.2))


def test_jpeg_art_goes_in_as_it_is(studio: Path) -> None:
    """An RGB or grey JPEG is the PDF's image stream byte for byte (DCTDecode), not its pixels deflated (a
    198 kB photograph was 3 MB); a lossy WebP goes in as a JPEG written once; a rotated JPEG, a WebP with
    alpha and a PNG keep the exact path. Each reads back as its picture, and the same files give the same PDF."""
    game = studio / "cards" / "art-game"
    photo, grey = _noisy("RGB", (240, 160), 1), _noisy("L", (210, 140), 2)
    photo.save(game / "art" / "photo.jpg", quality=90)
    grey.save(game / "art" / "grey.jpeg", quality=90, progressive=True)
    _noisy("RGB", (230, 150), 3).save(game / "art" / "lossy.webp", quality=90)
    Image.new("RGBA", (220, 150), (*MAGENTA, 128)).save(game / "art" / "glass.webp", lossless=True)
    _noisy("RGB", (200, 130), 4).save(game / "art" / "plain.png")
    turned = Image.new("RGB", (190, 120), MAGENTA)
    exif = turned.getexif()
    exif[0x0112] = 6  # to be shown turned a quarter: a PDF would ignore that, so its pixels go in, turned
    turned.paste((0, 0, 0), (0, 0, 20, 10))  # a dark corner, top left as stored: top right once turned
    turned.save(game / "art" / "turned.jpg", exif=exif)
    names = ["photo.jpg", "grey.jpeg", "lossy.webp", "glass.webp", "plain.png", "turned.jpg"]
    (game / "cards.yaml").write_text(
        "cards:\n" + "".join(f"  - {{id: c{i}, kind: plain, name: C{i}, art: art/{n}}}\n" for i, n in enumerate(names))
    )
    assert main(["build", "--paper", "a4", "--no-check", "--only", "cards"]) == 0
    pdf = studio / "output" / "art-game" / "cards-a4.pdf"
    first = pdf.read_bytes()
    images = _images(pdf)
    for width, name, space in ((240, "photo.jpg", "/DeviceRGB"), (210, "grey.jpeg", "/DeviceGray")):
        image = images[width]
        assert image["/Filter"] == ["/DCTDecode"] and image["/ColorSpace"] == space, name
        assert image._data == (game / "art" / name).read_bytes(), name  # type: ignore[attr-defined]
    webp = images[230]
    assert webp["/Filter"] == ["/DCTDecode"]
    assert len(webp._data) < 230 * 150 * 3 / 2  # type: ignore[attr-defined]
    for width in (220, 200, 120):  # the WebP with alpha is its soft mask's width too: either is deflated
        assert "/FlateDecode" in images[width]["/Filter"], width
    assert b"/SMask" in first
    # as a viewer decodes them (pdfium, as Chrome does): each is its picture, the WebP within JPEG's error
    shown = {}
    for obj in pdfium.PdfDocument(pdf)[0].get_objects(max_depth=4):
        if obj.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE:
            bitmap = obj.get_bitmap(render=False).to_pil()
            shown[bitmap.width] = bitmap
    from PIL import ImageChops, ImageStat

    def off(a: Image.Image, b: Image.Image) -> float:
        return max(ImageStat.Stat(ImageChops.difference(a, b)).mean)

    assert off(shown[240].convert("RGB"), Image.open(game / "art" / "photo.jpg").convert("RGB")) < 1.5
    assert off(shown[210].convert("L"), Image.open(game / "art" / "grey.jpeg").convert("L")) < 1.5
    assert off(shown[230].convert("RGB"), Image.open(game / "art" / "lossy.webp").convert("RGB")) < 3
    assert off(shown[200].convert("RGB"), Image.open(game / "art" / "plain.png").convert("RGB")) == 0
    upright = shown[120].convert("RGB")  # 190 x 120 as stored, 120 x 190 as shown
    assert upright.size == (120, 190) and _close(upright.getpixel((115, 5)), (0, 0, 0), 40)
    assert _close(upright.getpixel((5, 5)), MAGENTA, 40)
    assert main(["build", "--paper", "a4", "--no-check", "--only", "cards"]) == 0
    assert pdf.read_bytes() == first


def test_a_decks_bad_art_is_faulted_at_the_deck(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A card with no art of its own shows its deck's: a damaged one is named at the deck's art:, and a
    back's at the back's."""
    game = studio / "cards" / "art-game"
    (game / "art" / "broken.jpg").write_bytes(b"not a jpeg")
    text = (game / "game.yaml").read_text()
    text = text.replace("back: {title:", "art: art/broken.jpg\n    back: {art: art/broken.jpg, title:")
    (game / "game.yaml").write_text(text)
    (game / "cards.yaml").write_text("cards:\n  - {id: one, kind: plain, name: One}\n")
    lines = text.splitlines()
    deck_art = next(i for i, line in enumerate(lines) if line.startswith("    art: ")) + 1
    back = next(i for i, line in enumerate(lines) if "back: {art:" in line) + 1
    assert main(["validate"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"cards/art-game/game.yaml:{deck_art}:10: decks[0].art: art/broken.jpg (the image of layout plain, "
        "region art-image): not a JPEG picture, as its name says, or a damaged one [printkit help cards]",
        f"cards/art-game/game.yaml:{back}:17: decks[0].back.art: art/broken.jpg (the image of layout back, "
        "region art): not a JPEG picture, as its name says, or a damaged one [printkit help cards]",
    ], err


@pytest.mark.parametrize(
    ("image", "expected"),
    [
        ("'../../../../{outside}'", "image '../../../../{outside}': a file outside the game's folder: refused"),
        ("missing-logo.png", "image 'missing-logo.png': cannot read: no such file"),
        ("'{deck}.png'", "image '{deck}.png' gives 'Main deck.png': cannot read: no such file"),
        ("'{name}'", "cards[0].name: 'One' (the image of layout plain, region logo): expected a picture"),
    ],
    ids=["outside", "missing", "template-of-no-card-field", "card-field"],
)
def test_a_layouts_image_is_faulted_at_its_image_setting(
    studio: Path, capsys: pytest.CaptureFixture[str], image: str, expected: str
) -> None:
    """A picture a layout names is one line at the layout's image: value (the picture path meant nothing to
    the user: layouts/../../../../outside.png:1:1); one a card's own field gives, at that field."""
    game = studio / "cards" / "art-game"
    outside = studio.parent / f"outside-{studio.name}.png"  # beyond the project: refused though it is there
    Image.new("RGB", (8, 8)).save(outside)
    image, expected = image.replace("{outside}", outside.name), expected.replace("{outside}", outside.name)
    (game / "layouts").mkdir()
    region = f"  logo: {{type: image, x: 2mm, y: 2mm, w: 10mm, h: 10mm, image: {image}}}\n"
    (game / "layouts" / "plain.yaml").write_text("extends: plain\nregions:\n" + region)
    (game / "cards.yaml").write_text("cards:\n  - {id: one, kind: plain, name: One}\n")
    try:
        assert main(["validate"]) == 2
        err = capsys.readouterr().err
        assert main(["build", "--no-check", "-q"]) == 2
        built = capsys.readouterr().err
    finally:
        outside.unlink()
    if expected.startswith("cards["):
        place = "cards/art-game/cards.yaml:2:34: "  # the name: value
    else:
        place = f"cards/art-game/layouts/plain.yaml:3:{region.index('image: ') + 8}: layout plain, region logo: "
    assert err.count("\n") == 1 and err.startswith(place + expected), err
    assert built == err


def test_svg_art_and_icons_list_no_font_the_pdf_leaves_out(studio: Path) -> None:
    """reportlab selected Helvetica, unembedded, for every SVG it drew (text or none), and svglib sets text in a
    font it has no file for in Helvetica or Times: a print shop's preflight refuses a PDF listing such a font.
    Every font the sheets list is embedded, and the SVG's words still read."""
    game = studio / "cards" / "art-game"
    (game / "icons").mkdir()
    (game / "icons" / "sunny.svg").write_text(SVG)  # the game's own icon, drawn from its SVG
    words = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"><text x="10" y="50" '
        'font-family="NoSuchFont" font-weight="bold" font-size="30">Welcome</text>'
        '<text x="10" y="120" font-family="Times New Roman" font-size="30">Aboard</text></svg>'
    )
    (game / "art" / "words.svg").write_text(words)
    (game / "cards.yaml").write_text(
        "cards:\n  - {id: shield, kind: plain, name: Shield, text: 'Holds {sunny} firm.', art: art/shield.svg}\n"
        "  - {id: words, kind: plain, name: Words, art: art/words.svg}\n"
    )
    assert main(["build", "--paper", "a4", "--no-check", "--only", "cards"]) == 0
    pdf = studio / "output" / "art-game" / "cards-a4.pdf"
    reader = PdfReader(pdf)
    listed = {}
    for number in range(1, int(reader.trailer["/Size"])):
        obj = reader.get_object(number)
        if isinstance(obj, dict) and obj.get("/Type") == "/Font":
            descriptor = obj.get("/FontDescriptor")
            listed[str(obj["/BaseFont"])] = descriptor is not None and "/FontFile2" in descriptor.get_object()
    assert listed and all(listed.values()), listed
    assert not [name for name in listed if "Helvetica" in name or "Times" in name], listed
    text = pdfium.PdfDocument(pdf)[0].get_textpage().get_text_range()
    assert "Welcome" in text and "Aboard" in text
