"""Booklet pages read back from the PDF: no page left half empty for a picture, every picture sized to its page."""

from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest

from printkit.core.units import MM
from printkit.data.game import Game
from printkit.data.settings import PrintSettings
from printkit.docs import booklet, floats

SLUGS = ["battle-line", "soldier-battler", "time-line", "time-line-battle", "torah-timeline"]
SIZES = ["a5", "a4"]
MARGIN = 16 * MM  # the booklet's top and bottom page margins: the running head and page number sit in them
FILLED = 0.70  # a page running on into the next holds at least this much of its text height
DPI = 30


@pytest.fixture(scope="module")
def booklets(games: dict[str, Game]) -> dict[tuple[str, str], bytes]:
    made = {}
    for slug in SLUGS:
        diagrams = booklet.Diagrams(games[slug], PrintSettings())
        for size in SIZES:
            made[slug, size] = booklet.build(games[slug], size, diagrams)
    return made


def _filled(page: pdfium.PdfPage) -> float:
    """How far down the text area the page's lowest ink reaches, as a share of the text area's height."""
    _, height = page.get_size()
    scale = DPI / 72
    pixels = np.asarray(page.render(scale=scale, grayscale=True).to_pil().convert("L"))
    top, bottom = int(MARGIN * scale), int((height - MARGIN) * scale)
    inked = np.where((pixels[top:bottom] < 200).any(axis=1))[0]
    return float(inked.max() + 1) / (bottom - top) if len(inked) else 0.0


@pytest.mark.parametrize("slug", SLUGS)
def test_no_page_is_left_part_empty_before_the_text_runs_on(booklets: dict[tuple[str, str], bytes], slug: str) -> None:
    """Every page between the contents and the quick reference (which starts a page of its own, after the
    credits) is filled to FILLED of its height: a picture that does not fit the rest of a page no longer
    leaves it half blank."""
    for size in SIZES:
        pdf = pdfium.PdfDocument(booklets[slug, size])
        pages = [pdf[i] for i in range(len(pdf))]
        texts = [" ".join(p.get_textpage().get_text_range().split()) for p in pages]
        quick = next(i for i, text in enumerate(texts) if i > 1 and text.startswith("Quick reference"))
        thin = [(i + 1, round(_filled(pages[i]), 2)) for i in range(2, quick - 1) if _filled(pages[i]) < FILLED]
        assert not thin, f"{slug} {size}: pages filled under {FILLED:.0%} (page, share): {thin}"


@pytest.mark.parametrize("slug", SLUGS)
def test_every_picture_fits_the_page_it_prints_on(booklets: dict[tuple[str, str], bytes], slug: str) -> None:
    """No picture takes more than half the text height (so the text around it has room) or the text width."""
    for size in SIZES:
        pdf = pdfium.PdfDocument(booklets[slug, size])
        tallest = booklet.tallest_mm(size) * MM
        for number in range(len(pdf)):
            page = pdf[number]
            width, _ = page.get_size()
            for picture in page.get_objects(filter=[pdfium.raw.FPDF_PAGEOBJ_IMAGE], max_depth=3):
                left, bottom, right, top = picture.get_bounds()
                assert top - bottom <= tallest + 0.5, (slug, size, number + 1, round((top - bottom) / MM, 1))
                assert right - left <= width - 28 * MM + 0.5, (slug, size, number + 1, round((right - left) / MM, 1))


def test_a_board_pictured_in_the_rules_prints_at_most_board_tallest(games: dict[str, Game]) -> None:
    """A board in the rules shows its layout, not its print: the picture's own size (its pixels at the resolution
    the file gives) is held to BOARD_TALLEST, under the half page other pictures may take."""
    board = booklet.Diagrams(games["soldier-battler"], PrintSettings())("battlefield")
    assert board is not None
    height_px = int.from_bytes(board[20:24], "big")
    at = board.find(b"pHYs")
    per_mm = int.from_bytes(board[at + 4 : at + 8], "big") / 1000
    assert height_px / per_mm <= booklet.BOARD_TALLEST / MM + 0.1


def test_the_blocks_of_a_body_are_the_body() -> None:
    """Cutting the rules' body into top-level blocks loses and adds nothing but each block's number."""
    body = (
        '<h1 id="a">A</h1>\n<p>x<br>y</p>\n<p><img class="diagram" src="s" alt="t"></p>\n'
        "<ul>\n<li><p>z</p></li>\n</ul>\n"
    )
    found = floats.blocks(floats.figures(body))
    assert [b.tag for b in found] == ["h1", "p", "figure", "ul"]
    assert "<figcaption>T</figcaption>" in found[2].html
    joined = "".join(b.html for b in found)
    for number in range(4):
        joined = joined.replace(f" data-block={number}", "", 1)
    assert joined == floats.figures(body)


def test_a_list_split_for_a_picture_numbers_on() -> None:
    """A numbered list cut in two for a picture keeps its numbers: the second part starts where the first
    stopped (WeasyPrint reads the list-item counter, not the start attribute), and no item is lost."""
    listed = floats.Block(
        5, "ol", '<ol data-block=5 start="3">\n<li>a</li>\n<li>b<ul>\n<li>x</li>\n</ul>\n</li>\n<li>c</li>\n</ol>\n'
    )
    head, tail = floats._split_list(listed, 2, 9)
    assert head.html == '<ol data-block=5 start="3">\n<li>a</li>\n<li>b<ul>\n<li>x</li>\n</ul>\n</li>\n</ol>\n'
    assert tail.html == '<ol data-block=9 start="5" style="counter-reset: list-item 4"><li>c</li>\n</ol>\n'


@pytest.mark.parametrize("slug", SLUGS)
def test_no_line_is_one_lone_letter(booklets: dict[tuple[str, str], bytes], slug: str) -> None:
    """WeasyPrint once set "A" alone on a line above the rest of its sentence (breaking at the space before an
    emphasis): read back, no line of a booklet is a single letter."""
    import re

    for size in SIZES:
        pdf = pdfium.PdfDocument(booklets[slug, size])
        for number in range(len(pdf)):
            lines = pdf[number].get_textpage().get_text_range().splitlines()
            lone = [line for line in lines if re.fullmatch(r"\s*[•◦]?\s*[A-Za-z]\s*", line)]
            assert not lone, (slug, size, number + 1, lone)


@pytest.mark.parametrize(("slug", "name"), [("time-line", "era-track")])
def test_a_track_pictured_in_the_rules_prints_its_words_at_6_pt_or_more(
    booklets: dict[tuple[str, str], bytes], games: dict[str, Game], slug: str, name: str
) -> None:
    """Read back from each booklet: a track's picture prints the words of its spaces at 6 pt or more (Time Line's
    era track was pictured whole at 1:6.3, its labels at 1.5-2 pt); one too long for that at a picture's size is
    shown in part, and its caption gives the scale."""
    import re

    from printkit.docs import rulesbook
    from printkit.draw import board, raster
    from printkit.draw.layout import SMALLEST_TEXT

    game = games[slug]
    comp = next(c for c in game.info.components if c.kind == "board" and c.board)
    smallest = raster.smallest_text(raster.board_pdf(game, comp), board.spaces_box(comp))  # its spaces' words
    assert smallest is not None
    width, height = board.board_size(comp)
    diagrams = booklet.Diagrams(game, PrintSettings())
    png = diagrams(name)
    assert png is not None
    html, _ = rulesbook.to_html(f"![{name}](diagram:{name})", diagrams, captions=diagrams.captions)
    caption = re.search(r"<figcaption>The board&#x27;s left part, at 1:([0-9.]+)", html)
    pixels = (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big"))
    per_mm = int.from_bytes(png[png.find(b"pHYs") + 4 :][:4], "big") / 1000
    for size in SIZES:
        pictured = [
            picture
            for page in pdfium.PdfDocument(booklets[slug, size])
            for picture in page.get_objects(filter=[pdfium.raw.FPDF_PAGEOBJ_IMAGE], max_depth=3)
            if tuple(picture.get_px_size()) == pixels
        ]
        assert pictured, (slug, size)
        for picture in pictured:
            left, bottom, right, top = picture.get_bounds()
            # printed at the size its resolution gives, not squashed by the page
            assert abs((right - left) / MM - pixels[0] / per_mm) < 0.5, (slug, size)
            scale = 1 / float(caption.group(1)) if caption else (right - left) / width
            assert smallest * scale >= SMALLEST_TEXT - 0.05, (slug, size, smallest, scale)
            if caption is None:
                assert abs((top - bottom) / height - scale) < 0.01  # shown whole


def _near(pixels: np.ndarray, colour: str, within: int = 24) -> float:
    """The share of pixels within `within` of colour (#rrggbb) in each channel."""
    rgb = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])
    return float((np.abs(pixels.astype(int) - rgb) <= within).all(axis=2).mean())


@pytest.mark.parametrize("slug", SLUGS)
def test_the_cover_pictures_the_game(booklets: dict[tuple[str, str], bytes], games: dict[str, Game], slug: str) -> None:
    """Read back from each booklet, its first page shows the game as a published rulebook's cover does: a picture
    most of the text's width across in which its first deck's back shows in that deck's colour (the cover's fan
    leads with it), and who plays and for how long (the cover was once the title and credit alone)."""
    game = games[slug]
    back = game.decks[0].deck.back.colour
    for size in SIZES:
        page = pdfium.PdfDocument(booklets[slug, size])[0]
        width, _ = page.get_size()
        pictures = [p.get_bounds() for p in page.get_objects(filter=[pdfium.raw.FPDF_PAGEOBJ_IMAGE], max_depth=3)]
        widest = max((right - left for left, _, right, _ in pictures), default=0.0)
        assert widest >= 0.75 * (width - 28 * MM), (slug, size, "no picture of the game on the cover")
        pixels = np.asarray(page.render(scale=DPI / 72).to_pil().convert("RGB"))
        assert _near(pixels, back) >= 0.01, (slug, size, f"the cover shows no {back} back")
        text = " ".join(page.get_textpage().get_text_range().split())
        assert f"{game.info.players} players" in text.lower(), (slug, size, text)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_covers_credit_ends_on_two_words_at_least(booklets: dict[tuple[str, str], bytes], slug: str) -> None:
    """The credit at the cover's foot never breaks with one word alone on its last line (Time Line's A5 cover
    ended "... for personal / use.")."""
    for size in SIZES:
        lines = pdfium.PdfDocument(booklets[slug, size])[0].get_textpage().get_text_range().splitlines()
        last = lines[-1].split()
        assert len(last) >= 2, (slug, size, lines[-2:])
