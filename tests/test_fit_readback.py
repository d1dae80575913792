"""Every glyph of every printed PDF read back and found inside its region: card faces and backs, player aids,
counters and tokens in their layouts' text regions; board tiles, labels and maps in their places; the cover
and the calibration pages inside the printable area, no text over other text. Text that cannot fit stops the
build naming the part and the field."""

from __future__ import annotations

import itertools
import re
import shutil
import typing
from pathlib import Path
from typing import Any

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from slots import to_piece

from printkit import build
from printkit.cli import main
from printkit.core.units import MM
from printkit.data.game import Game
from printkit.data.loader import load_game
from printkit.data.settings import PAPERS, PrintSettings
from printkit.draw import textfit
from printkit.draw.layout import Layout
from printkit.sheets import boards, bundle, calibration, cardsheets, counters

ROOT = Path(__file__).resolve().parent.parent
SLACK = 1.0  # points: a glyph's ink may reach this far past its box (descenders, anti-aliased outlines)
Box = tuple[float, float, float, float]


def _glyphs(pdf: bytes) -> dict[int, list[tuple[str, Box]]]:
    """Per page (1-based), each visible character and its box on the page."""
    doc = pdfium.PdfDocument(pdf)
    out: dict[int, list[tuple[str, Box]]] = {}
    for number, page in enumerate(doc, 1):
        text = page.get_textpage()
        found = []
        for i in range(text.count_chars()):
            char = text.get_text_range(i, 1)
            if char.strip():
                found.append((char, tuple(text.get_charbox(i))))
        out[number] = found
    return out


def _inside(box: Box, region: Box, slack: float = SLACK) -> bool:
    return (
        box[0] >= region[0] - slack
        and box[1] >= region[1] - slack
        and box[2] <= region[2] + slack
        and box[3] <= region[3] + slack
    )


def _text_regions(layout: Layout, size: tuple[float, float]) -> list[Box]:
    """Where a layout prints text on a piece of this size, in the piece's coordinates."""
    return [
        (b.x, size[1] - b.y - b.h, b.x + b.w, size[1] - b.y)
        for b in layout.boxes(size)
        if b.spec.type in ("text", "badge")
    ]


def _check_pieces(pdf: bytes, manifest: Any, designs: dict[tuple[str, str], tuple[Layout, tuple[float, float]]]) -> int:
    """Each glyph lies in its slot's trim, inside a text region of the layout drawn there; how many were found."""
    seen = 0
    for number, glyphs in _glyphs(pdf).items():
        slots = [s for s in manifest.slots if s["page"] == number]
        for char, box in glyphs:
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            slot = next((s for s in slots if s["x"] <= cx <= s["x"] + s["w"] and s["y"] <= cy <= s["y"] + s["h"]), None)
            assert slot is not None, (number, char, box)  # no text outside every piece
            layout, size = designs[(slot["id"], slot["side"])]
            corners = [to_piece(slot, size, x, y) for x in (box[0], box[2]) for y in (box[1], box[3])]
            local = (
                min(p[0] for p in corners),
                min(p[1] for p in corners),
                max(p[0] for p in corners),
                max(p[1] for p in corners),
            )
            assert _inside(local, (0.0, 0.0, *size)), (slot["id"], slot["side"], char)
            regions = _text_regions(layout, size)
            assert any(_inside(local, r) for r in regions), (slot["id"], slot["side"], layout.name, char, local)
            seen += 1
    return seen


def _designs(pieces: list[Any]) -> dict[tuple[str, str], tuple[Layout, tuple[float, float]]]:
    out = {}
    for piece in pieces:
        out[(piece.id, "face")] = (piece.face.layout, piece.size)
        if piece.back is not None:
            out[(piece.id, "back")] = (piece.back.layout, piece.size)
    return out


@pytest.mark.parametrize("paper", list(PAPERS))
def test_every_glyph_of_every_card_back_and_aid_lies_in_its_layouts_text_region(
    games: dict[str, Game], paper: str
) -> None:
    for game in games.values():
        pdf, manifest = cardsheets.build(game, PrintSettings(), paper)
        # counters that fit below the last cards print on the card sheet
        aboard = counters.counter_pieces(game) if cardsheets.counters_aboard(game, PrintSettings(), paper) else []
        seen = _check_pieces(pdf, manifest, _designs(cardsheets.card_pieces(game, PrintSettings().card_size) + aboard))
        assert seen > 100, game.slug


@pytest.mark.parametrize("paper", list(PAPERS))
def test_every_glyph_of_every_counter_and_token_lies_in_its_layouts_text_region(
    games: dict[str, Game], paper: str
) -> None:
    found = 0
    for game in games.values():
        built = counters.build(game, PrintSettings(), paper)
        if built is None:
            continue
        pdf, manifest = built
        found += _check_pieces(pdf, manifest, _designs(counters.counter_pieces(game)))
    assert found > 500


def _apart(glyphs: list[tuple[str, Box]], what: str) -> None:
    """No text over other text; a letter may touch the next one of its word (an f's hook over an o)."""
    for (i, (a, box_a)), (j, (b, box_b)) in itertools.combinations(enumerate(glyphs), 2):
        if j == i + 1:
            continue
        overlap_x = min(box_a[2], box_b[2]) - max(box_a[0], box_b[0])
        overlap_y = min(box_a[3], box_b[3]) - max(box_a[1], box_b[1])
        assert overlap_x < 0.5 or overlap_y < 0.5, (what, a, b)


@pytest.mark.parametrize("paper", list(PAPERS))
def test_every_text_of_the_board_pages_lies_in_its_tiles_label_or_its_map(games: dict[str, Game], paper: str) -> None:
    for game in games.values():
        built = boards.build(game, paper)
        if built is None:
            continue
        pdf, manifest = built
        placed: dict[int, list[tuple[str, Box]]] = {}
        for part in manifest.parts:
            for p in part["pages"]:
                x0, y0 = p["page_x"], p["page_y"]
                box = (x0, y0, x0 + p["w"], y0 + p["h"])
                placed.setdefault(p["page"], []).append(("map" if p.get("map") else "tile", box))
                if not p.get("map"):  # its label in the strip above it, as wide as the tile
                    placed[p["page"]].append(("label", (x0, y0 + p["h"], x0 + p["w"], y0 + p["h"] + boards.LABEL)))
        doc = pdfium.PdfDocument(pdf)
        for number, page in enumerate(doc, 1):
            # the page's own text (labels and maps); the board's, inside each tile's form, is tested whole
            strings = [tuple(o.get_bounds()) for o in page.get_objects(max_depth=1) if o.type == raw.FPDF_PAGEOBJ_TEXT]
            assert strings, (game.slug, number)
            for box in strings:
                hit = [kind for kind, r in placed[number] if kind != "tile" and _inside(box, r)]
                assert hit, (game.slug, number, box)
            _apart([("", b) for b in strings], f"{game.slug} boards page {number}")


@pytest.fixture(scope="module")
def covers(games: dict[str, Game]) -> dict[tuple[str, str], bytes]:
    """Each bundled game's print-and-play bundle on each paper (its sheets, no rules), by slug and paper: made
    once for the tests of its cover."""
    made = {}
    for paper in PAPERS:
        for game in games.values():
            files = build.paper_parts(game, PrintSettings(), paper, parts=frozenset({"bundle"}))
            made[game.slug, paper] = typing.cast(bytes, files[f"print-and-play-{paper}.pdf"])
    return made


@pytest.mark.parametrize("paper", list(PAPERS))
def test_every_glyph_of_the_cover_and_the_calibration_pages_lies_inside_the_page(
    covers: dict[tuple[str, str], bytes], paper: str
) -> None:
    pw, ph = PAPERS[paper]
    pdfs = {"calibration": calibration.build(paper, "long")}
    pdfs |= {slug: pdf for (slug, on), pdf in covers.items() if on == paper}
    for name, pdf in pdfs.items():
        pages = _glyphs(pdf)
        for number in (1, 2) if name == "calibration" else (1,):  # the cover: the bundle's first page
            glyphs = pages[number]
            assert glyphs, (name, number)
            margin = bundle.FOOT - 5 * MM if name != "calibration" else 10 * MM
            for char, box in glyphs:
                assert _inside(box, (margin, margin, pw - margin, ph - margin), 0.0), (name, number, char, box)
            _apart(glyphs, f"{name} page {number}")


@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_bundle_s_cover_pictures_the_game_inside_the_margins(
    covers: dict[tuple[str, str], bytes], games: dict[str, Game], paper: str
) -> None:
    """The bundle's first page shows the game as the booklet's cover does: one picture of its cards fanned out,
    between the text's margins and far inside the printer's, sharp as printed, under no text, its first deck's
    back in that deck's colour; and who plays, for how long, and the byline (the page was once a table alone)."""
    pw, ph = PAPERS[paper]
    for game in games.values():
        page = pdfium.PdfDocument(covers[game.slug, paper])[0]
        pictures = list(page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE], max_depth=3))
        assert len(pictures) == 1, (game.slug, paper, "no picture of the game on the cover")
        box = pictures[0].get_bounds()
        assert _inside(box, (bundle.LEFT, bundle.FOOT, pw - bundle.LEFT, ph - bundle.FOOT), 0.01), (game.slug, box)
        assert PrintSettings().printer_margin < bundle.LEFT
        assert box[3] - box[1] >= bundle.FAN_LEAST - 0.01 and box[2] - box[0] >= 0.5 * (pw - 2 * bundle.LEFT)
        image = pictures[0].get_bitmap(render=False).to_pil().convert("RGB")
        assert image.width / ((box[2] - box[0]) / 72) >= bundle.FAN_PPI * 0.98, (game.slug, image.size)
        back = game.decks[0].deck.back.colour
        pixels = np.asarray(image)
        rgb = np.array([int(back[i : i + 2], 16) for i in (1, 3, 5)])
        assert (np.abs(pixels.astype(int) - rgb) <= 24).all(axis=2).mean() >= 0.01, (game.slug, f"no {back} back")
        for char, glyph in _glyphs(covers[game.slug, paper])[1]:
            apart = glyph[2] <= box[0] or glyph[0] >= box[2] or glyph[3] <= box[1] or glyph[1] >= box[3]
            assert apart, (game.slug, paper, char, "text over the picture")
        text = " ".join(page.get_textpage().get_text_range().split())
        assert f"{game.info.players} players" in text and (game.info.byline or "") in text, (game.slug, text)


def _copy(tmp_path: Path, slug: str) -> Path:
    folder = tmp_path / slug
    shutil.copytree(ROOT / "cards" / slug, folder)
    return folder


def _one_line_error(capsys: pytest.CaptureFixture[str], folder: Path) -> str:
    assert main(["validate", str(folder)]) == 2
    err = [line for line in capsys.readouterr().err.strip().splitlines() if not line.startswith(("note:", "warning:"))]
    assert err and all(re.match(r"^\S+:\d+:\d+: ", line) for line in err), err  # each problem a placed line
    return "\n".join(err)


def test_a_title_no_cover_can_hold_stops_validate_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _copy(tmp_path, "soldier-battler")
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text()
    game_yaml.write_text(re.sub(r"^title: .*$", 'title: "' + "Soldier Battler " * 12 + '"', text, flags=re.M))
    err = _one_line_error(capsys, folder)
    assert re.search(r"game\.yaml:2:\d+: title: on the cover does not fit its \d+ mm on one line even at 12 pt", err)


def test_a_board_name_or_section_title_that_cannot_fit_stops_validate_naming_the_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _copy(tmp_path, "time-line-battle")
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text()
    game_yaml.write_text(text.replace("name: Timeline track\n", "name: " + "Timeline track of the days " * 6 + "\n"))
    err = _one_line_error(capsys, folder)
    # the name is printed on the board and on each of its tiles: whichever is checked first names it
    assert re.search(r"game\.yaml:\d+:\d+: board timeline-track: its (name|tile label) does not fit", err), err
    game_yaml.write_text(text.replace("title: Timeline,", "title: " + "Timeline of the battle " * 5 + ","))
    err = _one_line_error(capsys, folder)
    assert re.search(r"game\.yaml:\d+:\d+: board timeline-track: section 'Timeline of the battle .*: its title", err)


def test_a_credit_no_cover_can_hold_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _copy(tmp_path, "soldier-battler")
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text()
    game_yaml.write_text(re.sub(r"^credit: .*$", 'credit: "' + "A long credit line " * 60 + '"', text, flags=re.M))
    err = _one_line_error(capsys, folder)
    assert re.search(r"game\.yaml:\d+:\d+: credit: on the cover does not fit", err), err
    game = load_game(folder)
    with pytest.raises(textfit.TextDoesNotFit, match="credit: on the cover does not fit"):
        bundle.check(game, "a4")
