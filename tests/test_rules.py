"""Rules booklets and the reference site: numbers only from data, hostile text kept as text, laid out as promised."""

from __future__ import annotations

import io
import os
import re
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from extractors import read_by_every_tool
from pypdf import PdfReader

from printkit import build
from printkit.data import enginecards
from printkit.data.game import Game
from printkit.data.loader import load_game
from printkit.data.settings import PrintSettings
from printkit.docs import booklet, refsite, rtlorder, rulesbook, templating
from printkit.docs.safefetch import FetchRefused, read

ROOT = Path(__file__).resolve().parent.parent
SLUGS = ["battle-line", "soldier-battler", "time-line", "time-line-battle", "torah-timeline"]


def _text(pdf: bytes) -> str:
    doc = pdfium.PdfDocument(pdf)
    return " ".join(" ".join(doc[i].get_textpage().get_text_range().split()) for i in range(len(doc)))


@pytest.mark.parametrize("slug", SLUGS)
def test_the_rules_text_states_no_number_of_its_own(slug: str) -> None:
    """Every number in a rules text comes from the data through an include: the prose has no digits."""
    source = (ROOT / "cards" / slug / "rules.md").read_text(encoding="utf-8")
    prose = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", "", source, flags=re.S)
    assert re.findall(r".{0,20}\d.{0,20}", prose) == []


@pytest.mark.parametrize("slug", SLUGS)
def test_every_card_effect_and_assumption_is_in_the_booklet_text(games: dict[str, Game], slug: str) -> None:
    game = games[slug]
    markdown = rulesbook.render_markdown(game)
    plain = markdown.replace("\\", "")
    for card in game.cards:
        for lines in enginecards.words(game, card).values():
            for line in lines:
                assert line in plain, (card.id, line)
    for option in game.info.rules:
        if option.origin == "reconstructed":
            assert rulesbook.player_text(option).replace("\\", "") in plain
    assert game.info.credit in plain
    assert "# Quick reference" in markdown and "# Assumptions" in markdown


def test_a_changed_number_changes_the_booklet(tmp_path: Path) -> None:
    folder = tmp_path / "battle-line"
    shutil.copytree(ROOT / "cards" / "battle-line", folder)
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("{id: hand_size, value: 7,", "{id: hand_size, value: 6,"))
    tactics = folder / "tactics.yaml"
    tactics.write_text(tactics.read_text().replace("draw: 3, give_back: 2", "draw: 4, give_back: 3"))
    # the worked example's deal is scripted for hands of 7: with 6 its replay stops (test_examples.py), so it goes
    (folder / "examples.yaml").unlink()
    rules = folder / "rules.md"
    rules.write_text(rules.read_text().replace('{{ example("proof-claim") }}', ""))
    before = rulesbook.render_markdown(load_game(ROOT / "cards" / "battle-line"))
    after = rulesbook.render_markdown(load_game(folder))
    assert "deals 7 Troops" in before and "deals 6 Troops" in after
    assert "Draw 4 cards" in after and "put 3 cards" in after


def _diagrams(game: Game) -> booklet.Diagrams:
    return booklet.Diagrams(game, PrintSettings())


def test_a_booklet_is_the_same_bytes_whenever_it_is_made(
    games: dict[str, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    # as a machine without libharfbuzz-subset, whatever this one has
    monkeypatch.setattr("weasyprint.pdf.fonts.harfbuzz_subset", None)
    made = []
    for clock in (1.7e9, 1.9e9):  # fontTools dates each font subset by the clock, unless told otherwise
        monkeypatch.setattr(time, "time", lambda clock=clock: clock)
        templating._SUBSETS.clear()  # each build makes its subsets anew
        made.append(booklet.build(games["soldier-battler"], "a5", _diagrams(games["soldier-battler"])))
    assert made[0] == made[1]
    assert "SOURCE_DATE_EPOCH" not in os.environ


def test_a_booklet_is_the_same_bytes_with_and_without_libharfbuzz_subset(
    games: dict[str, Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    import weasyprint.pdf.fonts

    game = games["torah-timeline"]  # Latin and Hebrew, in three faces
    # as this machine has it (Debian's libharfbuzz-subset0 here), then as a machine without the library
    present = weasyprint.pdf.fonts.harfbuzz_subset
    with_it = booklet.build(game, "a5", _diagrams(game))
    monkeypatch.setattr("weasyprint.pdf.fonts.harfbuzz_subset", None)
    templating._SUBSETS.clear()
    without = booklet.build(game, "a5", _diagrams(game))
    assert with_it == without, f"libharfbuzz-subset {'present' if present else 'absent'} here"
    # and the fonts are subsets, not whole fonts: DejaVu Sans alone is 740 kB
    fonts = [
        page["/Resources"]["/Font"][name]["/DescendantFonts"][0].get_object()["/FontDescriptor"]["/FontFile2"]
        for page in PdfReader(io.BytesIO(without)).pages
        for name in page["/Resources"]["/Font"]
    ]
    assert fonts and max(len(f.get_object().get_data()) for f in fonts) < 200_000


def test_the_booklets_hebrew_reads_as_typed(games: dict[str, Game], tmp_path: Path) -> None:
    """Every Sage's Hebrew name in Torah Timeline's booklet, read back by four tools, in the order it was typed.

    pdfium reads a line that mixes directions by the words' places, so a name of two words or more
    in a table row beside English comes out with its words in seen order: only one-word names are
    asked of it.
    """
    game = games["torah-timeline"]
    read = read_by_every_tool(booklet.build(game, "a5", _diagrams(game)), tmp_path)
    names = [card.values["hebrew"] for card in game.cards if card.values.get("hebrew")]
    assert len(names) == 30
    for tool, text in read.items():
        asked = [name for name in names if tool != "pdfium" or " " not in name]
        missing = [name for name in asked if name not in text]
        assert not missing, f"{tool} does not read {missing[:3]} (reversed: {[n[::-1] in text for n in missing[:3]]})"


def test_right_to_left_lines_are_rewritten_without_moving_a_glyph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page of mixed lines, as WeasyPrint draws it and as rewritten: the same glyphs at the same places."""
    html = (
        "<p>Plain English, no Hebrew at all.</p>"
        "<p>Rabbi Akiva, <span>רבי עקיבא</span>, taught.</p>"
        "<p><b>Bold</b> then <i>שמואל</i> in italic, and a number 18 after.</p>"
        "<p>A Hebrew year inside Hebrew: <span>שנת 70 לספירה</span>.</p>"
        "<table><tr><td>Hillel</td><td>הלל הזקן</td><td>c. 110 BCE</td></tr></table>"
    )
    document = templating.layout(f"<html><body>{html}</body></html>", tmp_path)
    rewritten = templating.write(document)
    monkeypatch.setattr(rtlorder, "logical", lambda pdf: pdf)
    drawn = templating.write(document)
    assert rewritten != drawn

    def glyphs(pdf: bytes) -> list[tuple[str, tuple[int, ...]]]:
        page = pdfium.PdfDocument(pdf)[0].get_textpage()
        boxes = [
            (page.get_text_range(i, 1), tuple(round(v * 10) for v in page.get_charbox(i)))
            for i in range(page.count_chars())
        ]
        return sorted(box for box in boxes if box[0].strip())

    assert glyphs(rewritten) == glyphs(drawn)
    read = read_by_every_tool(rewritten, tmp_path)
    for typed in ("רבי עקיבא", "שמואל", "הלל הזקן", "שנת 70 לספירה"):
        assert typed in read["pdfminer"] and typed in read["pypdf"], typed
    assert "Plain English, no Hebrew at all." in read["pdfminer"]
    assert PdfReader(io.BytesIO(rewritten)).pdf_header == PdfReader(io.BytesIO(drawn)).pdf_header


def test_booklet_pdf_has_cover_contents_headers_and_page_numbers(games: dict[str, Game]) -> None:
    game = games["battle-line"]
    pdf = booklet.build(game, "a5", _diagrams(game))
    reader = PdfReader(io.BytesIO(pdf))
    assert (round(float(reader.pages[0].mediabox.width)), round(float(reader.pages[0].mediabox.height))) == (420, 595)
    pages = [" ".join(p.extract_text().split()) for p in reader.pages]
    assert "Battle Line" in pages[0] and "rules of play" in pages[0].lower()
    contents = pages[1]
    assert "Contents" in contents and re.search(r"Tactics cards\W*\.*\s*\d+", contents)
    # the contents' page numbers point at the pages where the sections start
    for title in ("Setup", "Tactics cards", "Quick reference"):
        number = int(re.search(re.escape(title) + r"[ .]*(\d+)", contents).group(1))  # type: ignore[union-attr]
        assert title in pages[number - 1]
    titles = re.findall(r"^# (.+)$", rulesbook.render_markdown(game), flags=re.M)
    for number, text in enumerate(pages[2:], start=3):  # after the cover and the contents
        assert text.endswith(str(number))  # the page number in the footer
        assert any(text.endswith(f"{title} {number}") for title in titles)  # the running header
    # the cover's fan of cards, the formations, the setup and the worked example, drawn by the card renderer
    assert _images(reader) == 4
    a4 = PdfReader(io.BytesIO(booklet.build(game, "a4", _diagrams(game))))
    assert round(float(a4.pages[0].mediabox.width)) == 595


def test_saddle_imposition_pads_to_four_and_pairs_the_pages(games: dict[str, Game]) -> None:
    pdf = booklet.build(games["soldier-battler"], "a5", _diagrams(games["soldier-battler"]))
    n = len(PdfReader(io.BytesIO(pdf)).pages)
    sheets = PdfReader(io.BytesIO(booklet.saddle(pdf, (841.89, 595.28))))
    padded = n + (-n % 4)
    assert len(sheets.pages) == padded // 2
    first = sheets.pages[0]
    assert round(float(first.mediabox.width)) == 842
    # the outside of the first sheet carries the last page (left) and the cover (right)
    doc = pdfium.PdfDocument(booklet.saddle(pdf, (841.89, 595.28)))
    page = doc[0].get_textpage()
    chars = [(page.get_charbox(i)[0], page.get_text_range(i, 1)) for i in range(page.count_chars())]
    right = "".join(ch for x, ch in chars if x > 421)
    assert "Soldier Battler" in right


def test_fetcher_reads_only_the_project() -> None:
    data, mime = read("data:text/plain;base64,aGk=", ROOT)
    assert (data, mime) == (b"hi", "text/plain")
    assert read((ROOT / "README.md").as_uri(), ROOT)[0].startswith(b"# printkit")
    for url in (
        "file:///etc/passwd",
        (ROOT / "cards" / ".." / ".." / "etc" / "passwd").as_posix().join(["file://", ""]),
        "http://example.com/x.png",
        "https://example.com/",
        "ftp://x/y",
        "file://evil.host/etc/passwd",
    ):
        with pytest.raises(FetchRefused):
            read(url, ROOT)


def _shown_ppi(pdf: bytes) -> list[tuple[int, float, float]]:
    """Each picture in a PDF: its page and the pixels per inch it prints at across and down."""
    import pypdfium2.raw as pdfium_raw

    doc = pdfium.PdfDocument(pdf)
    found = []
    for number in range(len(doc)):
        for picture in doc[number].get_objects(filter=[pdfium_raw.FPDF_PAGEOBJ_IMAGE], max_depth=8):
            left, bottom, right, top = picture.get_bounds()
            width, height = picture.get_px_size()
            found.append((number + 1, width / ((right - left) / 72), height / ((top - bottom) / 72)))
    return found


def test_booklet_diagrams_print_at_300_ppi_or_more_and_unsquashed(games: dict[str, Game]) -> None:
    """Read back from the PDF: each diagram's pixels against the size the page shows it at, on Letter,
    the widest page a booklet is made on (a narrower page shows a diagram no larger), the same across as
    down (a picture held to the greatest height once printed squashed), and every diagram the rules name, after
    the cover's picture."""
    for slug in ("battle-line", "soldier-battler", "time-line", "time-line-battle", "torah-timeline"):
        game = games[slug]
        pictures = _shown_ppi(booklet.build(game, "letter", _diagrams(game)))
        named = set(re.findall(r"\]\(diagram:([a-z0-9-]+)\)", rulesbook.render_markdown(game)))
        assert len(pictures) == len(named) + 1 > 1 and pictures[0][0] == 1, (slug, named)  # the cover, page 1
        soft = [(page, round(min(across, down))) for page, across, down in pictures if min(across, down) < 300]
        assert not soft, f"{slug}: diagrams under 300 ppi (page, ppi): {soft}"
        squashed = [
            (page, round(across), round(down)) for page, across, down in pictures if abs(across / down - 1) > 0.02
        ]
        assert not squashed, f"{slug}: diagrams printed out of proportion (page, ppi across, down): {squashed}"


def _images(reader: PdfReader) -> int:
    """Distinct image XObjects anywhere in the document, forms included."""
    found: set[int] = set()
    seen: set[int] = set()
    stack = [page.get("/Resources") for page in reader.pages]
    while stack:
        resources = stack.pop()
        if not resources:
            continue
        for xobject in (resources.get_object().get("/XObject") or {}).values():
            key = xobject.idnum if hasattr(xobject, "idnum") else id(xobject)
            if key in seen:
                continue
            seen.add(key)
            obj = xobject.get_object()
            if obj.get("/Subtype") == "/Image":
                found.add(key)
            elif obj.get("/Resources"):
                stack.append(obj["/Resources"])
    return len(found)


HOSTILE = '<link rel=attachment href="file:///etc/passwd"> <img src="http://127.0.0.1/x.png"> & *not bold*'


def _hostile_game(tmp_path: Path) -> Game:
    from printkit.cli import main

    assert main(["new", "Hostile", "--dir", str(tmp_path)]) == 0
    folder = tmp_path / "hostile"
    cards = (folder / "cards.yaml").read_text().replace("Write what this card does.", f"'{HOSTILE}'")
    (folder / "cards.yaml").write_text(cards.replace("name: First Card", "name: '<b>First</b> Card'"))
    return load_game(folder)


def test_hostile_card_text_stays_text_in_the_booklet(tmp_path: Path) -> None:
    game = _hostile_game(tmp_path)
    html = booklet.html(game, "a5", _diagrams(game))
    assert '<img src="http' not in html and "<link rel" not in html and "&lt;link rel=attachment" in html
    pdf = booklet.build(game, "a5", _diagrams(game))
    reader = PdfReader(io.BytesIO(pdf))
    assert not reader.attachments
    assert _images(reader) == 1  # the cover's fan of the cards, printkit's own drawing: nothing fetched
    text = _text(pdf)
    assert "<link rel=attachment" in text and "<b>First</b> Card" in text
    # rich card text's own emphasis is printkit's markup, set in italic, never HTML's
    assert "not bold" in text and "*not bold*" not in text


def test_hostile_card_text_stays_text_on_the_reference_site(tmp_path: Path) -> None:
    game = _hostile_game(tmp_path)
    pages = refsite.game_pages(game, PrintSettings())
    for name in (refsite.RULES_PAGE, refsite.CARDS_PAGE):
        html = str(pages[name])
        assert '<img src="http' not in html and "<link rel=attachment" not in html and "<b>First" not in html
    cards = str(pages[refsite.CARDS_PAGE])
    assert "\\u003clink rel=attachment" in cards  # inside the card data, as JSON text
    assert "&lt;link rel=attachment" in cards and "&lt;b&gt;First&lt;/b&gt; Card" in cards  # in the gallery, as text
    assert "innerHTML" not in refsite.site_assets()["site.js"]  # the card view writes its text as text too


def test_reference_site_is_offline(tmp_path: Path, games: dict[str, Game]) -> None:
    only_site = frozenset({"reference"})
    build.build_all([build.Plan(games["soldier-battler"], PrintSettings(), parts=only_site)], tmp_path)
    site = tmp_path / "reference"
    for page in ("index.html", "soldier-battler/index.html", "soldier-battler/cards.html"):
        html = (site / page).read_text()
        assert not re.search(r"(src|href|srcset)=\"(https?:)?//", html)
        refs = re.findall(r"(?:src|href)=\"([^\"#]+)\"", html)
        refs += [part.split()[0] for srcset in re.findall(r'srcset="([^"]+)"', html) for part in srcset.split(",")]
        assert refs
        for ref in refs:
            assert (site / page).parent.joinpath(ref).resolve().is_file(), (page, ref)
    for name, text in refsite.site_assets().items():  # no font, script or picture fetched from anywhere
        assert not re.search(r"https?:|@import|@font-face|url\(", text), name
    # each of the four soldiers once, however many decks hold it, at every resolution the site draws
    pictures = list((site / "soldier-battler" / "cards").glob("*.png"))
    assert len(pictures) == 4 * len(refsite.resolutions(PrintSettings())) == 12
    assert 'href="soldier-battler/index.html"' in (site / "index.html").read_text()
