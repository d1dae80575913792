"""Card sheets read back from the PDF: trim sizes, duplex alignment, crop marks, fonts, text, RTL, golden bytes."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from extractors import read_by_every_tool
from pypdf import PdfReader
from pypdf.generic import ContentStream, DictionaryObject, IndirectObject
from slots import to_piece

from printkit.cli import main
from printkit.core import units
from printkit.data.game import Game
from printkit.data.loader import load_game
from printkit.data.settings import PAPERS, PrintSettings, card_size
from printkit.draw.cardrender import TextOverflow
from printkit.sheets import cardsheets, geometry
from printkit.sheets.cardsheets import Selection

MM = units.MM
TOLERANCE = 0.1 * MM
GOLDEN = Path(__file__).parent / "golden" / "cards-a4.sha256"


def _build(
    game: Game,
    paper: str = "a4",
    decks: tuple[str, ...] = (),
    cards: tuple[str, ...] = (),
    copies: int = 1,
    **changes: Any,
) -> tuple[bytes, cardsheets.Manifest]:
    return cardsheets.build(game, replace(PrintSettings(), **changes), paper, Selection(decks, cards, copies))


def _placements(pdf_bytes: bytes) -> dict[int, list[tuple[float, float]]]:
    """Per page (1-based): the bottom-left corner, on the page, of each placed card form's trim, in drawing order.

    Read from the content streams: the matrices in force at each form's Do, applied to the form's trim
    (its BBox less the bleed around it), so a piece turned on its side is found where it lies.
    """
    reader = PdfReader(io.BytesIO(pdf_bytes))
    out = {}
    for number, page in enumerate(reader.pages, 1):
        xobjects = page["/Resources"].get("/XObject", {})
        matrix, stack, found = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), [], []
        for operands, operator in ContentStream(page.get_contents(), reader).operations:
            if operator == b"q":
                stack.append(matrix)
            elif operator == b"Q":
                matrix = stack.pop()
            elif operator == b"cm":
                a, b, c, d, e, f = (float(v) for v in operands)
                ma, mb, mc, md, me, mf = matrix
                matrix = (a * ma + b * mc, a * mb + b * md, c * ma + d * mc, c * mb + d * md,
                          e * ma + f * mc + me, e * mb + f * md + mf)  # fmt: skip
            elif operator == b"Do" and operands[0] in xobjects:
                form = xobjects[operands[0]].get_object()
                x0, y0, x1, y1 = (float(v) for v in form["/BBox"])
                w, h = x1 + x0, y1 + y0  # the BBox is the trim grown by the bleed on every side
                a, b, c, d, e, f = matrix
                corners = [(a * u + c * v + e, b * u + d * v + f) for u in (0, w) for v in (0, h)]
                found.append((min(x for x, _ in corners), min(y for _, y in corners)))
        out[number] = found
    return out


def _form_boxes(pdf_bytes: bytes) -> list[list[float]]:
    """The bounding box of every form in the file: a card design's trim plus bleed, in its own coordinates."""
    reader = PdfReader(io.BytesIO(pdf_bytes))
    boxes = []
    for page in reader.pages:
        for xobject in page["/Resources"].get("/XObject", {}).values():
            obj = xobject.get_object()
            if obj.get("/Subtype") == "/Form":
                boxes.append([float(v) for v in obj["/BBox"]])
    return boxes


def _lines(pdf_bytes: bytes, page: int) -> list[tuple[float, float, float, float]]:
    doc = pdfium.PdfDocument(pdf_bytes)
    return [tuple(o.get_bounds()) for o in doc[page - 1].get_objects(max_depth=1) if o.type == raw.FPDF_PAGEOBJ_PATH]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_three_by_three_poker_cards_with_default_bleed(paper: str) -> None:
    grid = geometry.grid(PAPERS[paper], card_size("poker").size, 3 * MM)
    assert (grid.cols, grid.rows) == (3, 3)
    x0, y0, x1, y1 = grid.block()
    assert x0 > 0 and y0 > 0 and x1 < grid.page_w and y1 < grid.page_h


@pytest.mark.parametrize(("paper", "size"), [("a4", (595.276, 841.89)), ("letter", (612.0, 792.0))])
def test_page_size_is_exactly_the_paper(games: dict[str, Game], paper: str, size: tuple[float, float]) -> None:
    pdf, _ = _build(games["soldier-battler"], paper=paper)
    for page in PdfReader(io.BytesIO(pdf)).pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(size, abs=0.01)


@pytest.mark.parametrize("slug", ["battle-line", "time-line-battle", "torah-timeline", "soldier-battler", "time-line"])
def test_trim_boxes_in_the_pdf_match_the_manifest(games: dict[str, Game], slug: str) -> None:
    pdf, manifest = _build(games[slug])
    placed = _placements(pdf)
    by_page = defaultdict(list)
    for slot in manifest.slots:
        by_page[slot["page"]].append(slot)
    assert sorted(by_page) == sorted(placed)
    bleed = manifest.bleed
    cards = {card.id for card in games[slug].cards}
    sizes = {(s["w"], s["h"]) for s in manifest.slots if s["id"] not in cards}  # counters on the last page
    for x0, y0, x1, y1 in _form_boxes(pdf):
        assert (x0, y0) == pytest.approx((-bleed, -bleed), abs=0.01)
        w, h = x1 - x0 - 2 * bleed, y1 - y0 - 2 * bleed
        poker = w == pytest.approx(63.5 * MM, abs=TOLERANCE) and h == pytest.approx(88.9 * MM, abs=TOLERANCE)
        assert poker or any((w, h) == pytest.approx(size, abs=TOLERANCE) for size in sizes), (w, h)
    for page, slots in by_page.items():
        assert len(slots) == len(placed[page])
        for slot, origin in zip(slots, placed[page], strict=True):
            assert origin == pytest.approx((slot["x"], slot["y"]), abs=TOLERANCE)


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_back_lands_on_its_face_when_the_sheet_turns(games: dict[str, Game], duplex: str, paper: str) -> None:
    pdf, manifest = _build(games["time-line"], duplex=duplex, paper=paper)
    pw, ph = PAPERS[paper]
    placed = _placements(pdf)
    faces = {(s["id"], s["copy"]): s for s in manifest.slots if s["side"] == "face"}
    backs = [s for s in manifest.slots if s["side"] == "back"]
    assert len(backs) == len(faces) == 74
    index_on_page: dict[int, int] = defaultdict(int)
    for back in backs:
        face = faces[(back["id"], back["copy"])]
        assert back["page"] == face["page"] + 1
        x, y = placed[back["page"]][index_on_page[back["page"]]]
        index_on_page[back["page"]] += 1
        w, h = back["w"], back["h"]
        # turn the back page over its edge: where does its trim box land on the front?
        landed = (pw - (x + w), y) if duplex == "long" else (x, ph - (y + h))
        assert landed == pytest.approx((face["x"], face["y"]), abs=TOLERANCE)


def test_back_formula_holds_for_asymmetric_margins() -> None:
    area = (30 * MM, 5 * MM, 200 * MM, 260 * MM)  # far more margin on the left than the right
    grid = geometry.grid(PAPERS["a4"], card_size("poker").size, 3 * MM, area=area)
    for index in range(grid.per_page):
        x, y = grid.slot(index)
        bx, by = geometry.back_position(grid, x, y, "long")
        assert (bx, by) == pytest.approx((grid.page_w - x - grid.card_w, y))
        sx, sy = geometry.back_position(grid, x, y, "short")
        assert (sx, sy) == pytest.approx((x, grid.page_h - y - grid.card_h))


def test_offset_shifts_every_back_and_only_backs(games: dict[str, Game]) -> None:
    _, plain = _build(games["soldier-battler"])
    _, shifted = _build(games["soldier-battler"], offset=(1.5 * MM, -0.5 * MM))
    for a, b in zip(plain.slots, shifted.slots, strict=True):
        expected = (1.5 * MM, -0.5 * MM) if a["side"] == "back" else (0.0, 0.0)
        assert (b["x"] - a["x"], b["y"] - a["y"]) == pytest.approx(expected, abs=0.01)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_guide_every_cut_inside_the_printer_margin(games: dict[str, Game], paper: str) -> None:
    pdf, manifest = _build(games["battle-line"], paper=paper, cuts="shared")  # as its print settings ask
    pw, ph = PAPERS[paper]
    margin = PrintSettings().ink_margin
    area = (margin, margin, pw - margin, ph - margin)
    grid = geometry.grid((pw, ph), card_size("poker").size, 3 * MM, area=area, cuts="shared")
    for page in (1, 2):  # a face page and its back page
        slots = [s for s in manifest.slots if s["page"] == page]
        assert len(slots) == grid.per_page
        art = (
            min(s["x"] for s in slots) - manifest.bleed,
            min(s["y"] for s in slots) - manifest.bleed,
            max(s["x"] + s["w"] for s in slots) + manifest.bleed,
            max(s["y"] + s["h"] for s in slots) + manifest.bleed,
        )
        assert art[0] >= margin - 0.01 and art[1] >= margin - 0.01 and art[2] <= pw - margin + 0.01
        assert art[3] <= ph - margin + 0.01
        cut_xs = sorted({round(v, 2) for s in slots for v in (s["x"], s["x"] + s["w"])})
        cut_ys = sorted({round(v, 2) for s in slots for v in (s["y"], s["y"] + s["h"])})
        assert len(cut_xs) == 2 * grid.cols if not grid.shared_cuts else grid.cols + 1
        marks = [m for m in _lines(pdf, page) if (m[2] - m[0]) < 1 or (m[3] - m[1]) < 1]
        trim = tuple(v + d * manifest.bleed for v, d in zip(art, (1, 1, -1, -1), strict=True))
        for m in marks:  # nothing of a mark lies within the trims (it may run over the art's outer bleed, the
            # waste), or nearer the paper's edge than the margin
            assert m[2] <= trim[0] or m[0] >= trim[2] or m[3] <= trim[1] or m[1] >= trim[3]
            assert m[0] >= margin - 0.5 and m[1] >= margin - 0.5 and m[2] <= pw - margin + 0.5
            assert m[3] <= ph - margin + 0.5
        for x in cut_xs:  # every cut line has a guide at both ends (tests/test_crop_marks.py: how long)
            at_x = [m for m in marks if abs((m[0] + m[2]) / 2 - x) < 0.2 and m[3] - m[1] > 1]
            assert any(m[1] >= trim[3] for m in at_x) and any(m[3] <= trim[1] for m in at_x), x
        for y in cut_ys:
            at_y = [m for m in marks if abs((m[1] + m[3]) / 2 - y) < 0.2 and m[2] - m[0] > 1]
            assert any(m[2] <= trim[0] for m in at_y) and any(m[0] >= trim[2] for m in at_y), y


def test_foldover_puts_each_back_mirrored_across_the_fold(games: dict[str, Game]) -> None:
    pdf, manifest = _build(games["battle-line"], foldover=True, decks=("tactics",))
    pw = PAPERS["a4"][1]  # landscape
    faces = [s for s in manifest.slots if s["side"] == "face"]
    backs = [s for s in manifest.slots if s["side"] == "back"]
    assert len(faces) == len(backs) == 10
    for face, back in zip(faces, backs, strict=True):
        assert back["page"] == face["page"]
        assert back["x"] == pytest.approx(pw - face["x"] - face["w"], abs=0.01)
        assert back["x"] > pw / 2 > face["x"] + face["w"]
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 3  # 4 per landscape A4 page


def test_selection_of_decks_cards_and_copies(games: dict[str, Game]) -> None:
    _, manifest = _build(games["battle-line"], decks=("troops",), cards=("R10", "B1"), copies=3)
    faces = [s["id"] for s in manifest.slots if s["side"] == "face"]
    assert faces == ["R10"] * 3 + ["B1"] * 3


def test_each_deck_starts_a_new_page(games: dict[str, Game]) -> None:
    _, manifest = _build(games["soldier-battler"])
    pages = {s["group"]: {x["page"] for x in manifest.slots if x["group"] == s["group"]} for s in manifest.slots}
    assert pages == {"red-army": {1, 2}, "blue-army": {3, 4}}


def _fonts(pdf: bytes) -> list[DictionaryObject]:
    reader = PdfReader(io.BytesIO(pdf))
    found = []
    for number in range(1, int(reader.trailer["/Size"])):
        try:
            obj = reader.get_object(IndirectObject(number, 0, reader))
        except Exception:  # free entries in the cross-reference table
            continue
        if isinstance(obj, DictionaryObject) and obj.get("/Type") == "/Font":
            found.append(obj)
    return found


@pytest.mark.parametrize("slug", ["battle-line", "torah-timeline"])
def test_every_font_is_embedded(games: dict[str, Game], slug: str) -> None:
    pdf, _ = _build(games[slug])
    fonts = _fonts(pdf)
    assert fonts
    for font in fonts:
        descriptor = font["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor, font.get("/BaseFont")
        assert str(font["/BaseFont"]).split("+")[-1].startswith("DejaVu")


def _font_programs(pdf: bytes) -> dict[str, set[str]]:
    """Each embedded font's name (its subset tag and family), and the digests of the font programs under it."""
    reader = PdfReader(io.BytesIO(pdf))
    found: dict[str, set[str]] = defaultdict(set)
    for number in range(1, int(reader.trailer["/Size"])):
        try:
            obj = reader.get_object(IndirectObject(number, 0, reader))
        except Exception:  # free entries in the cross-reference table
            continue
        if isinstance(obj, DictionaryObject) and obj.get("/Type") == "/FontDescriptor":
            program = obj["/FontFile2"].get_object().get_data()
            found[str(obj["/FontName"])].add(hashlib.sha256(program).hexdigest())
    return found


def test_each_font_subset_has_a_name_of_its_own(games: dict[str, Game]) -> None:
    """Subset tags come from the subset's content: one name, one font program, in a sheet and in the bundle."""
    from printkit.build import paper_parts

    game = games["torah-timeline"]  # Hebrew and en dashes: subsets that differ from part to part
    made = paper_parts(game, PrintSettings(), "a4", parts=frozenset({"bundle"}))
    bundle = made["print-and-play-a4.pdf"]
    assert isinstance(bundle, bytes)
    programs = _font_programs(bundle)
    shared = {name: len(digests) for name, digests in programs.items() if len(digests) > 1}
    assert not shared, f"names shared by different fonts: {shared}"
    tags = {name.lstrip("/").split("+")[0] for name in programs}
    assert len(tags) == len(programs) and all(len(t) == 6 and t.isalpha() and t.isupper() for t in tags)
    # the tag is the content's: the same card sheet names its subsets alike on every build
    assert _font_programs(_build(game)[0]) == _font_programs(_build(game)[0])


def _page_text(pdf: bytes) -> str:
    doc = pdfium.PdfDocument(pdf)
    text = "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    return " ".join(text.replace("\u00a0", " ").split())


def test_card_text_is_real_selectable_text(games: dict[str, Game]) -> None:
    for slug in ("time-line-battle", "time-line", "torah-timeline"):
        pdf, _ = _build(games[slug])
        text = _page_text(pdf)
        for card in games[slug].cards:
            assert card.name in text, (slug, card.name)
    text = _page_text(_build(games["time-line-battle"])[0])
    assert "Attack the Rear 2 enemies for 4 each." in text
    assert games["time-line-battle"].info.byline in text  # on every back, with the game's name


def test_backs_carry_the_games_name_and_no_process_notes(games: dict[str, Game]) -> None:
    """Each deck's back, read back from the sheet: the game's name, the deck's title, the byline; not the credit."""
    for slug in ("soldier-battler", "torah-timeline", "battle-line"):
        game = games[slug]
        pdf, manifest = _build(game)
        doc = pdfium.PdfDocument(pdf)
        back_pages = sorted({s["page"] for s in manifest.slots if s["side"] == "back"})
        text = " ".join(" ".join(doc[p - 1].get_textpage().get_text_range().split()) for p in back_pages)
        assert game.printed_title in text and all(d.deck.back.title in text for d in game.decks)
        assert "reconstructed" not in text and game.info.credit not in text, slug
        if game.info.byline:
            assert game.info.byline in text


def test_hebrew_glyphs_come_out_right_to_left(games: dict[str, Game]) -> None:
    pdf, _manifest = _build(games["torah-timeline"], cards=("rebbi-akiva",))
    page = pdfium.PdfDocument(pdf)[0]
    textpage = page.get_textpage()
    chars = []
    for i in range(textpage.count_chars()):
        ch = textpage.get_text_range(i, 1)
        if "\u05d0" <= ch <= "\u05ea":
            left, _, _, _ = textpage.get_charbox(i)
            chars.append((left, ch))
    logical = games["torah-timeline"].card("rebbi-akiva").values["hebrew"].replace(" ", "")
    left_to_right = "".join(ch for _, ch in sorted(chars))
    assert left_to_right == logical[::-1]  # the first letter of the name stands rightmost


def test_hebrew_reads_as_typed_in_every_text_tool(games: dict[str, Game], tmp_path: Path) -> None:
    """pypdf, pdfminer.six, Poppler's pdftotext and pdfium each read every Sage's Hebrew name in logical order."""
    game = games["torah-timeline"]
    pdf, _ = _build(game, decks=("deck",))
    names = [card.values["hebrew"] for card in game.cards if card.values.get("hebrew")]
    assert len(names) == 30
    for tool, words in read_by_every_tool(pdf, tmp_path).items():
        missing = [name for name in names if name not in words]
        assert not missing, f"{tool} does not read {missing[:3]} (reversed: {[n[::-1] in words for n in missing[:3]]})"


def test_same_input_gives_the_same_bytes(games: dict[str, Game]) -> None:
    assert _build(games["battle-line"])[0] == _build(games["battle-line"])[0]


def test_golden_sheets(games: dict[str, Game]) -> None:
    """One golden sheet per game; PRINTKIT_UPDATE_GOLDEN=1 rewrites the hashes after a deliberate change."""
    actual = {slug: hashlib.sha256(_build(game)[0]).hexdigest() for slug, game in sorted(games.items())}
    if os.environ.get("PRINTKIT_UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text("".join(f"{slug} {digest}\n" for slug, digest in actual.items()))
    expected = dict(line.split() for line in GOLDEN.read_text().splitlines())
    assert actual == expected


def _plain_game(tmp_path: Path, text: str) -> Path:
    assert main(["new", "Overflow", "--dir", str(tmp_path)]) == 0
    folder = tmp_path / "overflow"
    cards = (folder / "cards.yaml").read_text().replace("Write what this card does.", json.dumps(text))
    (folder / "cards.yaml").write_text(cards)
    return folder


def test_text_that_cannot_fit_is_a_build_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _plain_game(tmp_path, "far too many words " * 60)
    # placed at the text's value (column 59 of the card's line), not at the card's start (column 5)
    with pytest.raises(TextOverflow, match=r"overflow/cards\.yaml:6:11: card first-card: field text does not fit"):
        cardsheets.build(load_game(folder), PrintSettings(), "a4")
    assert main(["build", str(folder), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "first-card" in err
    assert not (tmp_path / "out" / "overflow" / "cards-a4.pdf").exists()


def test_markup_in_card_text_prints_literally(tmp_path: Path) -> None:
    hostile = "<b>bold</b> & <img src=x> <link href=file:///etc/passwd>"
    folder = _plain_game(tmp_path, hostile)
    pdf, _ = cardsheets.build(load_game(folder), PrintSettings(), "a4")
    assert hostile in _page_text(pdf)


def test_inline_icons_are_vector_shapes_not_text(tmp_path: Path) -> None:
    folder = _plain_game(tmp_path, "Strike {sword} twice")
    pdf, _ = cardsheets.build(load_game(folder), PrintSettings(), "a4", Selection(cards=("first-card",)))
    text = _page_text(pdf)
    assert "Strike" in text and "{sword}" not in text and "sword" not in text


def test_build_writes_both_papers_with_manifests(tmp_path: Path) -> None:
    assert main(["build", "soldier-battler", "--out", str(tmp_path)]) == 0
    for paper in ("a4", "letter"):
        manifest = json.loads((tmp_path / "soldier-battler" / f"cards-{paper}.json").read_text())
        assert len([s for s in manifest["slots"] if s["side"] == "face"]) == 16
        assert (tmp_path / "soldier-battler" / f"cards-{paper}.pdf").read_bytes().startswith(b"%PDF")
    assert (tmp_path / "duplex-calibration-a4.pdf").is_file()


@pytest.mark.parametrize("slots", [0, 3])
def test_a_manifest_reads_back_as_it_was(slots: int) -> None:
    from printkit.sheets.pieces import Manifest

    manifest = Manifest("a4", (595.3, 841.9), 8.5, "long", (0.0, 0.0), False)
    written = []
    for i in range(slots):
        side = "back" if i % 2 else "face"
        manifest.slots.add(
            (f"c{i}", 'Ōdin\'s "spear"', "gods", side), (i + 1, 2 + i, 90 * i), (1.5 * i, 0.1, 63.5, 88.9)
        )
        written.append(
            {"id": f"c{i}", "name": 'Ōdin\'s "spear"', "group": "gods", "copy": i + 1, "page": 2 + i, "side": side}
            | {"x": 1.5 * i, "y": 0.1, "w": 63.5, "h": 88.9, "turn": 90 * i}
        )
    assert list(manifest.slots) == written
    assert [manifest.slots[i] for i in range(-slots, 0)] == written
    with pytest.raises(IndexError):
        manifest.slots[slots]
    assert manifest.slots.last_page == (slots + 1 if slots else 0)
    text = manifest.json()
    fields = {k: v for k, v in vars(manifest).items() if k != "slots"}
    assert json.loads(text) == json.loads(json.dumps({**fields, "slots": written}))
    assert text.count("\n") == 10 + slots + (1 if slots else 0)  # a line per field and per slot


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_a_card_beside_an_empty_slot_bleeds_in_full(games: dict[str, Game], duplex: str) -> None:
    # Soldier Battler's armies are 8 cards each, and each deck starts a page: slot 9 of each face page
    # stays empty, so the eighth card's right edge and the sixth's bottom edge face no neighbour
    pdf, manifest = _build(games["soldier-battler"], duplex=duplex)
    doc = pdfium.PdfDocument(pdf)
    scale = 300 / 72
    bleed = manifest.bleed
    checked = 0
    for side in ("face", "back"):
        slots = [s for s in manifest.slots if s["side"] == side and s["page"] == (1 if side == "face" else 2)]
        assert len(slots) == 8
        image = doc[slots[0]["page"] - 1].render(scale=scale).to_pil().convert("RGB")
        for slot in slots:
            x0, y0, x1, y1 = slot["x"], slot["y"], slot["x"] + slot["w"], slot["y"] + slot["h"]
            # every edge of every card (their backgrounds are coloured): ink out to near the bleed's edge
            for outside in (
                (x1 + bleed - 0.5 * MM, (y0 + y1) / 2),
                (x0 - bleed + 0.5 * MM, (y0 + y1) / 2),
                ((x0 + x1) / 2, y0 - bleed + 0.5 * MM),
                ((x0 + x1) / 2, y1 + bleed - 0.5 * MM),
            ):
                x, y = outside
                ink = image.getpixel((round(x * scale), round(image.height - y * scale)))
                assert isinstance(ink, tuple) and min(ink) < 230, (side, slot["id"], outside)
                checked += 1
    assert checked == 64


def test_a_backs_plate_is_filled_by_its_words(games: dict[str, Game]) -> None:
    """Read back from the sheet: the words on a back's plate sit at its middle, with or without a subtitle
    (Torah Timeline's back once left the subtitle's share of its plate empty)."""
    from printkit.draw.layout import layouts_for

    for slug in ("torah-timeline", "time-line-battle", "battle-line"):
        game = games[slug]
        pdf, manifest = _build(game)
        doc = pdfium.PdfDocument(pdf)
        width, height = card_size("poker").size
        plate = next(b for b in layouts_for(game, {"back"})["back"].boxes((width, height)) if b.name == "plate")
        for deck in game.decks:
            slot = next(s for s in manifest.slots if s["side"] == "back" and s["group"] == deck.deck.id)
            textpage = doc[slot["page"] - 1].get_textpage()
            # the plate in the card's own coordinates (bottom-left origin; the layout measures from the top),
            # and each letter brought there from the page, however the slot is turned
            top = height - plate.y
            bottom = top - plate.h
            inside = []
            for i in range(textpage.count_chars()):
                x0, y0, x1, y1 = textpage.get_charbox(i)
                corners = [to_piece(slot, (width, height), x, y) for x, y in ((x0, y0), (x1, y1))]
                u, v = (sum(c[0] for c in corners) / 2, sum(c[1] for c in corners) / 2)
                if plate.x <= u <= plate.x + plate.w and bottom <= v <= top:
                    inside.append((min(c[1] for c in corners), max(c[1] for c in corners)))
            assert inside, (slug, deck.deck.id)
            words_middle = (min(b[0] for b in inside) + max(b[1] for b in inside)) / 2
            assert abs(words_middle - (top + bottom) / 2) < 1.2 * MM, (slug, deck.deck.id)


def test_a_paragraph_s_last_word_is_not_left_alone_on_its_line(games: dict[str, Game]) -> None:
    """'Attack the Front enemy for / 3.' reads as a stray number: the word before goes down with it, read back from
    Time Line Battle's sheet, whose attack texts fill their line but for the number."""
    doc = pdfium.PdfDocument(_build(games["time-line-battle"])[0])
    lines = [line.strip() for page in doc for line in page.get_textpage().get_text_range().splitlines()]
    assert [line for line in lines if re.fullmatch(r"\d+\.", line)] == []
    ending = [line for line in lines if re.search(r" \d+\.$", line)]  # the same texts, their number kept company
    assert len(ending) >= 10 and all(len(line.split()) >= 2 for line in ending)


def test_a_lone_last_word_takes_one_from_the_line_above_only_where_both_lines_keep_two() -> None:
    from printkit.draw import fonts, textfit

    def lines(text: str, width: float) -> list[str]:
        found = textfit.fit(text, "sans", width, 1e6, 9.0, 9.0, 1.2)
        assert found is not None
        return found.texts

    text = "Attack the Front enemy for 3."
    width = fonts.width("Attack the Front enemy for", "sans", 9.0) + 0.5  # greedy wrapping leaves '3.' alone
    assert lines(text, width) == ["Attack the Front enemy", "for 3."]
    two = "Attack everyone. 3."  # the line above has two words: it keeps them, and the 3. stays alone
    assert lines(two, fonts.width("Attack everyone.", "sans", 9.0) + 0.5) == ["Attack everyone.", "3."]
    long = "supercalifragilistic"  # alone, and too wide to take 'it' beside it: it stays alone
    assert lines(f"Go to it {long}", fonts.width(long, "sans", 9.0) + 0.5) == ["Go to it", long]
    assert lines("One two three four\nfive six seven eight nine", 1e4) == [
        "One two three four",
        "five six seven eight nine",
    ]
