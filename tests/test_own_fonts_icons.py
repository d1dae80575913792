"""A designer's own fonts (files in the game's folder, or families fontconfig knows) and icons (SVGs in icons/)."""

from __future__ import annotations

import hashlib
import io
import shutil
from pathlib import Path

import pytest
from PIL import Image

from printkit.cli import main
from printkit.draw import fonts

GREEN = (0, 200, 83)
RUNE = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
    '<rect width="10" height="10" fill="#00c853"/></svg>'
)


@pytest.fixture
def studio(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "."]) == 0
    assert main(["new", "Own Game"]) == 0
    capsys.readouterr()
    return tmp_path


def _game(studio: Path) -> Path:
    return studio / "cards" / "own-game"


def _fonts(studio: Path, fonts_block: str) -> None:
    game_yaml = _game(studio) / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("players: 2", f"players: 2\nfonts:\n{fonts_block}"))


def test_a_games_own_font_files_and_families_are_embedded(studio: Path) -> None:
    (_game(studio) / "fonts").mkdir()
    shutil.copy(fonts.font_file("serif-bold"), _game(studio) / "fonts" / "title.ttf")  # a font the system provides
    _fonts(studio, "  title: {file: fonts/title.ttf}\n  mono: {family: DejaVu Sans Mono}\n")
    (studio / "layouts" / "plain.yaml").write_text(
        "extends: plain\nregions:\n  name: {font: title}\n  text: {font: mono}\n"
    )
    assert main(["validate"]) == 0
    assert main(["build", "--only", "cards", "--paper", "a4", "--no-check"]) == 0
    pdf = (studio / "output" / "own-game" / "cards-a4.pdf").read_bytes()
    assert b"DejaVuSansMono" in pdf and b"DejaVuSerif-Bold" in pdf
    assert main(["build", "--only", "cards", "--paper", "a4", "--no-check"]) == 0
    assert (studio / "output" / "own-game" / "cards-a4.pdf").read_bytes() == pdf  # the same bytes again


def cff_font(family: str = "Printkit Test Cubic") -> bytes:
    """An OpenType font of PostScript (CFF) outlines made here, no file kept: every ASCII letter a cubic blob."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    letters = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + [chr(c) for c in range(ord("a"), ord("z") + 1)]
    order = [".notdef", "space", *(f"g{ord(ch)}" for ch in letters)]
    builder = FontBuilder(1000, isTTF=False)
    builder.setupGlyphOrder(order)
    builder.setupCharacterMap({32: "space", **{ord(ch): f"g{ord(ch)}" for ch in letters}})
    strings = {}
    for name in order:
        pen = T2CharStringPen(600, None)
        if name != "space":  # a shape of cubic curves, each letter its own height: cu2qu has work to do
            top = 300 + (sum(map(ord, name)) % 400)
            pen.moveTo((50, 0))
            pen.curveTo((50, top), (550, top), (550, 0))
            pen.closePath()
        strings[name] = pen.getCharString()
    ps_name = family.replace(" ", "") + "-Regular"
    builder.setupCFF(ps_name, {"FullName": family}, strings, {})
    builder.setupHorizontalMetrics({name: (600, 0 if name == "space" else 50) for name in order})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": family, "styleName": "Regular", "psName": ps_name})
    builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    out = io.BytesIO()
    builder.save(out)
    return out.getvalue()


def test_an_otf_of_postscript_outlines_is_embedded_as_truetype(studio: Path) -> None:
    """reportlab embeds TrueType outlines only: a CFF font is redrawn as one, the same bytes every run."""
    from fontTools.ttLib import TTFont
    from pypdf import PdfReader

    otf = cff_font()
    assert otf[:4] == b"OTTO"
    (_game(studio) / "fonts").mkdir()
    (_game(studio) / "fonts" / "title.otf").write_bytes(otf)
    _fonts(studio, "  title: {file: fonts/title.otf}\n")
    (studio / "layouts" / "plain.yaml").write_text("extends: plain\nregions:\n  name: {font: title}\n")
    assert main(["validate"]) == 0
    assert main(["build", "--only", "cards", "--paper", "a4", "--no-check"]) == 0
    pdf = (studio / "output" / "own-game" / "cards-a4.pdf").read_bytes()
    reader = PdfReader(io.BytesIO(pdf))
    embedded: dict[str, list[str]] = {}  # each font's name, and how its file is embedded
    subsets: list[bytes] = []
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            for descendant in font.get("/DescendantFonts", [font]):
                descriptor = descendant.get_object().get("/FontDescriptor")
                if descriptor is None:
                    continue
                descriptor = descriptor.get_object()
                kinds = sorted(k for k in descriptor if k.startswith("/FontFile"))
                embedded[str(descriptor["/FontName"])] = kinds
                if "PrintkitTestCubic" in str(descriptor["/FontName"]) and kinds == ["/FontFile2"]:
                    subsets.append(descriptor["/FontFile2"].get_object().get_data())
    ours = {name: kinds for name, kinds in embedded.items() if "PrintkitTestCubic" in name}
    assert ours and all(kinds == ["/FontFile2"] for kinds in ours.values()), embedded  # a TrueType subset
    assert all(name[7] == "+" for name in ours), ours  # /ABCDEF+: a subset's tag
    for subset in subsets:  # the letters drawn, as TrueType outlines: contours, not empty glyphs
        glyf = TTFont(io.BytesIO(subset))["glyf"]
        assert sum(1 for name in glyf.glyphOrder if glyf[name].numberOfContours > 0) >= 8
    text = " ".join(page.extract_text() for page in reader.pages)
    assert "First Card" in text and "Second Card" in text, text  # its glyphs show, read back as the letters
    assert main(["build", "--only", "cards", "--paper", "a4", "--no-check"]) == 0
    assert (studio / "output" / "own-game" / "cards-a4.pdf").read_bytes() == pdf  # the same bytes again
    digest = hashlib.sha256(otf).digest()
    converted = fonts.truetype(digest, otf)
    assert fonts._converted(otf) == converted and converted[:4] == b"\x00\x01\x00\x00"  # afresh: the same bytes


def test_a_converted_font_is_kept_in_the_cache_and_a_torn_copy_made_again(
    studio: Path, own_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    otf = cff_font()
    digest = hashlib.sha256(otf).digest()
    fonts.truetype.cache_clear()
    converted = fonts.truetype(digest, otf)
    (kept,) = (own_cache / "fonts").glob(f"{digest.hex()}-*.ttf")
    fonts.truetype.cache_clear()  # as a new run would: nothing remembered in the process

    def refuse(data: bytes) -> bytes:
        raise AssertionError("converted again although the cache keeps it")

    with monkeypatch.context() as patched:
        patched.setattr(fonts, "_converted", refuse)
        assert fonts.truetype(digest, otf) == converted
    kept.write_bytes(kept.read_bytes()[:-100])  # a copy cut short (a full disk, a crash while writing)
    fonts.truetype.cache_clear()
    assert fonts.truetype(digest, otf) == converted
    assert kept.read_bytes()[32:] == converted  # and it is whole again


def test_a_family_fontconfig_finds_as_an_otf_is_embedded(studio: Path) -> None:
    """Debian's fonts-urw-base35 (Nimbus Sans) installs OpenType fonts of PostScript outlines only."""
    try:
        found = fonts.family_file("Nimbus Sans")
    except fonts.FontMissing:
        pytest.skip("Nimbus Sans is not installed (Debian: apt-get install fonts-urw-base35)")
    if found.read_bytes()[:4] != b"OTTO":
        pytest.skip(f"fontconfig finds Nimbus Sans as {found.name}, not an OTF of PostScript outlines")
    _fonts(studio, "  nimbus: {family: Nimbus Sans}\n")
    (studio / "layouts" / "plain.yaml").write_text("extends: plain\nregions:\n  text: {font: nimbus}\n")
    assert main(["build", "--only", "cards", "--paper", "a4", "--no-check"]) == 0
    pdf = (studio / "output" / "own-game" / "cards-a4.pdf").read_bytes()
    assert b"NimbusSans" in pdf and b"/FontFile2" in pdf and b"/FontFile3" not in pdf


def _embedded_fonts(pdf: bytes) -> str:
    """The names of the fonts a PDF embeds, one string: what a test looks a font up in."""
    from pypdf import PdfReader

    names = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for font in page["/Resources"]["/Font"].values():
            names.append(str(font.get_object()["/BaseFont"]))
    return " ".join(names)


def test_a_projects_fonts_serve_every_game_and_a_games_own_of_that_name_wins(studio: Path) -> None:
    (studio / "fonts").mkdir()
    (studio / "fonts" / "title.otf").write_bytes(cff_font())  # in the project's folder, not the game's
    config = studio / "printkit.toml"
    config.write_text(config.read_text() + '\n[fonts]\ntitle = {file = "fonts/title.otf"}\n')
    (studio / "layouts" / "plain.yaml").write_text("extends: plain\nregions:\n  name: {font: title}\n")
    assert main(["new", "Other Game"]) == 0  # a second game names it too
    assert main(["validate"]) == 0
    assert main(["build", "--only", "cards", "--paper", "a4", "--no-check"]) == 0
    for game in ("own-game", "other-game"):
        embedded = _embedded_fonts((studio / "output" / game / "cards-a4.pdf").read_bytes())
        assert "PrintkitTestCubic" in embedded, (game, embedded)

    _fonts(studio, "  title: {family: DejaVu Sans Mono}\n")  # the game's own font of that name wins in it
    assert main(["build", "--only", "cards", "--paper", "a4", "--no-check"]) == 0
    own = _embedded_fonts((studio / "output" / "own-game" / "cards-a4.pdf").read_bytes())
    other = _embedded_fonts((studio / "output" / "other-game" / "cards-a4.pdf").read_bytes())
    assert "DejaVuSansMono" in own and "PrintkitTestCubic" not in own, own
    assert "PrintkitTestCubic" in other and "DejaVuSansMono" not in other, other


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (
            'title = {file = "../title.ttf"}',
            "fonts.title.file: expected a path inside the project's folder, such as fonts/title.ttf",
        ),
        ('title = {file = "fonts/none.ttf"}', "printkit.toml:20:1: fonts.title.file: fonts/none.ttf: cannot read"),
        ('title = {file = "fonts/title.png"}', "printkit.toml:20:1: fonts.title.file: expected a font (ttf, otf)"),
        ('title = "fonts/title.ttf"', "printkit.toml:20:1: fonts.title: expected a table, such as"),
        ('title = {file = "a.ttf", family = "DejaVu Sans"}', "fonts.title: expected either file"),
        ('title = {path = "a.ttf"}', "printkit.toml:20:1: fonts.title.path: Extra inputs are not permitted"),
    ],
    ids=["climbs-out", "missing", "wrong-kind", "not-a-table", "both-sources", "unknown-key"],
)
def test_a_project_font_that_cannot_be_used_is_one_line_at_its_setting(
    studio: Path, capsys: pytest.CaptureFixture[str], entry: str, expected: str
) -> None:
    config = studio / "printkit.toml"
    lines = config.read_text().splitlines()
    config.write_text("\n".join([*lines[:18], "[fonts]", entry]) + "\n")  # the entry on line 20
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize(
    ("fonts_block", "layout", "expected"),
    [
        ("", "  text: {font: fancy}\n", "layout plain, region text: no font 'fancy' (fonts: sans"),
        ("  odd: {family: Nope Sans Nowhere}\n", "  text: {font: odd}\n", "font family 'Nope Sans Nowhere' is not"),
        ("  bad: {file: fonts/bad.ttf}\n", "  text: {font: bad}\n", "fonts/bad.ttf:1:1: not a TrueType font"),
        ("  two: {file: fonts/bad.ttf, family: DejaVu Sans}\n", "", "expected either file"),
        ("  pic: {file: fonts/bad.png}\n", "", "fonts.pic.file: expected a font (ttf, otf), found 'fonts/bad.png'"),
        ("  up: {file: ../up.ttf}\n", "", "fonts.up.file: expected a path inside the game's folder, such as fonts/"),
    ],
    ids=["unknown-name", "unknown-family", "not-a-font", "both-sources", "wrong-kind", "climbs-out"],
)
def test_a_font_that_cannot_be_used_is_one_line(
    studio: Path, capsys: pytest.CaptureFixture[str], fonts_block: str, layout: str, expected: str
) -> None:
    (_game(studio) / "fonts").mkdir()
    (_game(studio) / "fonts" / "bad.ttf").write_bytes(b"this is no font")
    (_game(studio) / "fonts" / "bad.png").write_bytes(b"nor this")
    if fonts_block:
        _fonts(studio, fonts_block)
    if layout:
        (studio / "layouts" / "plain.yaml").write_text(f"extends: plain\nregions:\n{layout}")
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err, err
    assert main(["build", "--no-check"]) == 2
    assert not (studio / "output").exists()


def test_own_icons_show_inline_and_replace_printkits_by_name(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (studio / "icons").mkdir()
    (studio / "icons" / "rune.svg").write_text(RUNE)  # the project's, for all its games
    cards = _game(studio) / "cards.yaml"
    cards.write_text(cards.read_text().replace("Write what this card does.", "'Cast {rune} {rune} {rune} now.'"))
    assert main(["validate"]) == 0
    assert main(["export", "png", "own-game", "--dpi", "100"]) == 0
    image = Image.open(studio / "output" / "own-game" / "png" / "main" / "001-first-card.png").convert("RGB")
    pixels = (image.getpixel((x, y)) for x in range(image.width) for y in range(image.height))
    greens = sum(1 for pixel in pixels if all(abs(a - b) < 10 for a, b in zip(pixel, GREEN, strict=True)))
    assert greens > 50  # three green squares in the card's text

    (studio / "icons" / "star.svg").write_text(RUNE)  # printkit draws a star of its own; the project's wins
    cards.write_text(cards.read_text().replace("Cast {rune} {rune} {rune} now.", "A {star} and a {star}."))
    assert main(["export", "png", "own-game", "--dpi", "100"]) == 0
    image = Image.open(studio / "output" / "own-game" / "png" / "main" / "001-first-card.png").convert("RGB")
    pixels = (image.getpixel((x, y)) for x in range(image.width) for y in range(image.height))
    assert sum(1 for pixel in pixels if all(abs(a - b) < 10 for a, b in zip(pixel, GREEN, strict=True))) > 20

    cards.write_text(cards.read_text().replace("A {star} and a {star}.", "Cast {runne} now."))
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert "cards[0].text: no icon 'runne' (did you mean 'rune'?)" in err


def test_an_icon_file_name_must_be_its_name_in_text(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (_game(studio) / "icons").mkdir()
    (_game(studio) / "icons" / "My-Icon.svg").write_text(RUNE)
    assert main(["validate"]) == 2
    assert "icons/My-Icon.svg:1:1: an icon's file name is its name in card text" in capsys.readouterr().err


def test_printkits_icons_are_many_distinct_vector_shapes_inside_their_square() -> None:
    """Each built-in icon drawn alone, read back: vector paths only, ink inside its square, none a copy of another."""
    import io

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw
    from reportlab.pdfgen.canvas import Canvas

    from printkit.data.model import ICON_NAMES
    from printkit.draw import icons

    assert len(ICON_NAMES) >= 40
    side, page = 72.0, 144.0
    seen: dict[bytes, str] = {}
    for name in sorted(ICON_NAMES):
        buffer = io.BytesIO()
        c = Canvas(buffer, pagesize=(page, page), invariant=1)
        icons.draw(c, name, 36, 36, side)
        c.showPage()
        c.save()
        doc = pdfium.PdfDocument(buffer.getvalue())
        objects = list(doc[0].get_objects(max_depth=4))
        assert objects and all(o.type == raw.FPDF_PAGEOBJ_PATH for o in objects), name
        image = doc[0].render(scale=1).to_pil().convert("L")
        inked = [(x, y) for y in range(image.height) for x in range(image.width) if image.getpixel((x, y)) < 128]
        assert len(inked) > 0.05 * side * side, f"{name}: hardly any ink"
        xs, ys = [x for x, _ in inked], [y for _, y in inked]
        assert min(xs) >= 35 and max(xs) <= 109 and min(ys) >= 35 and max(ys) <= 109, f"{name} leaves its square"
        key = image.tobytes()
        assert key not in seen, f"{name} draws what {seen.get(key)} does"
        seen[key] = name
