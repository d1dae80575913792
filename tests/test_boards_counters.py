"""Boards tile back to their full size, counters match the data and flip onto their fronts, the bundle holds it all."""

from __future__ import annotations

import io
import itertools
import json
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from pypdf import PdfReader

from printkit.cli import main
from printkit.core import units
from printkit.data.game import Game
from printkit.data.settings import PAPERS, PrintSettings
from printkit.draw import board
from printkit.sheets import boards, counters

MM = units.MM
ROOT = Path(__file__).resolve().parent.parent
EDGE = 5 * MM  # printable area: at least this far from the paper edge


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tiles_reassemble_to_the_board(games: dict[str, Game], paper: str) -> None:
    for game in games.values():
        built = boards.build(game, paper)
        if built is None:
            continue
        _, manifest = built
        for part in manifest.parts:
            tiles = [p for p in part["pages"] if not p.get("map") and p["copy"] == 1]
            assert len(tiles) == part["tiles_across"] * part["tiles_down"]
            cols = {t["col"]: t for t in tiles if t["row"] == 1}
            rows = {t["row"]: t for t in tiles if t["col"] == 1}
            width = sum(t["w"] for t in cols.values()) - boards.OVERLAP * (len(cols) - 1)
            height = sum(t["h"] for t in rows.values()) - boards.OVERLAP * (len(rows) - 1)
            assert width == pytest.approx(part["width"], abs=0.01), part["id"]
            assert height == pytest.approx(part["height"], abs=0.01), part["id"]
            for t in tiles:  # neighbours overlap by exactly the overlap, and every point is covered
                if t["col"] > 1:
                    left = next(u for u in tiles if u["row"] == t["row"] and u["col"] == t["col"] - 1)
                    assert left["board_x"] + left["w"] - t["board_x"] == pytest.approx(boards.OVERLAP, abs=0.01)


def test_each_board_copy_has_its_own_pages(games: dict[str, Game]) -> None:
    built = boards.build(games["torah-timeline"], "a4")
    assert built is not None
    mat = built[1].parts[0]
    assert mat["copies"] == 2
    assert Counter(p["copy"] for p in mat["pages"] if not p.get("map")) == {1: 2, 2: 2}  # two tiles each
    assert sum(1 for p in mat["pages"] if p.get("map")) == 1  # and one map for both: they go together alike


def test_board_spaces_come_from_the_data(games: dict[str, Game]) -> None:
    tl = games["time-line"]
    comp = next(c for c in tl.info.components if c.id == "board")
    assert comp.board is not None
    labels = board.space_labels(tl, comp.board.sections[0])
    assert labels[8] == "9\nWWI\nForce 12" and "Atlanteans" in labels[0]
    sb = games["soldier-battler"]
    field = next(c for c in sb.info.components if c.id == "battlefield")
    assert field.board is not None
    assert board.space_labels(sb, field.board.sections[0])[8].startswith("Row 1 · Red deployment")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_everything_prints_inside_the_printable_area(games: dict[str, Game], paper: str) -> None:
    for game in games.values():
        for built in (boards.build(game, paper), counters.build(game, PrintSettings(bleed=0.0), paper)):
            if built is None:
                continue
            doc = pdfium.PdfDocument(built[0])
            for i in range(len(doc)):
                page = doc[i]
                w, h = page.get_size()
                for obj in page.get_objects(max_depth=1):
                    if obj.type == raw.FPDF_PAGEOBJ_FORM:
                        continue  # a placed board is clipped to its tile, checked through the manifest
                    x0, y0, x1, y1 = obj.get_bounds()
                    assert x0 >= EDGE - 0.5 * MM and y0 >= EDGE - 0.5 * MM, (game.slug, i)
                    assert x1 <= w - EDGE + 0.5 * MM and y1 <= h - EDGE + 0.5 * MM, (game.slug, i)
        built_boards = boards.build(game, paper)
        if built_boards:
            for part in built_boards[1].parts:
                for p in part["pages"]:
                    if not p.get("map"):
                        assert p["page_x"] >= EDGE and p["page_y"] >= EDGE


def test_counter_counts_equal_the_data(games: dict[str, Game]) -> None:
    for game in games.values():
        expected = {c.id: game.printed_count(c) for c in game.info.components if c.kind in counters.KINDS}
        built = counters.build(game, PrintSettings(), "a4")
        if not expected:
            assert built is None
            continue
        assert built is not None
        faces = Counter(s["id"] for s in built[1].slots if s["side"] == "face")
        assert faces == {k: v for k, v in expected.items() if v}
    assert (
        sum(
            Counter(
                s["id"]
                for s in counters.build(games["time-line"], PrintSettings(), "a4")[1].slots  # type: ignore[index]
                if s["side"] == "face"
            ).values()
        )
        == 250
    )


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_counter_backs_align_when_flipped(games: dict[str, Game], duplex: str) -> None:
    built = counters.build(games["time-line"], PrintSettings(duplex=duplex), "a4")
    assert built is not None
    manifest = built[1]
    pw, ph = PAPERS["a4"]
    faces = {(s["id"], s["copy"]): s for s in manifest.slots if s["side"] == "face"}
    backs = [s for s in manifest.slots if s["side"] == "back"]
    assert len(backs) == 100  # the eight unit types have a reverse; markers and period troops do not
    for back in backs:
        face = faces[(back["id"], back["copy"])]
        landed = (
            (pw - back["x"] - back["w"], back["y"]) if duplex == "long" else (back["x"], ph - back["y"] - back["h"])
        )
        assert landed == pytest.approx((face["x"], face["y"]), abs=0.01)
        assert back["page"] == face["page"] + 1


def test_counter_sizes_follow_the_data(games: dict[str, Game]) -> None:
    built = counters.build(games["time-line-battle"], PrintSettings(), "a4")
    assert built is not None
    sizes = {s["id"]: round(s["w"] / units.INCH, 3) for s in built[1].slots}
    assert sizes["damage-1"] == 0.5 and sizes["damage-5"] == 0.625 and sizes["damage-10"] == 0.75


@pytest.mark.slow
def test_build_writes_every_part_and_a_bundle(tmp_path: Path) -> None:
    assert main(["build", "time-line-battle", "--out", str(tmp_path), "--paper", "letter"]) == 0
    folder = tmp_path / "time-line-battle"
    for name in ("cards", "boards", "counters"):
        assert (folder / f"{name}-letter.pdf").is_file() and (folder / f"{name}-letter.json").is_file()
    bundle = PdfReader(folder / "print-and-play-letter.pdf")
    parts = [PdfReader(folder / f"{n}-letter.pdf") for n in ("cards", "boards", "counters")]
    rules = PdfReader(folder / "rules-a4.pdf")  # the A4 booklet, scaled onto Letter
    counts = [len(p.pages) for p in parts] + [len(rules.pages)]
    blanks = len(bundle.pages) - 1 - sum(counts)
    assert 1 <= blanks <= 1 + len(counts)  # the cover's back, and one before a part that would start on a back
    assert not bundle.pages[1].extract_text().strip() and "/Contents" not in bundle.pages[1]
    cover = bundle.pages[0].extract_text()
    assert "Cards" in cover and "Boards" in cover and "Counters and tokens" in cover
    assert "3-" in cover and "double-sided, flip on the long edge" in cover
    assert [o.title for o in bundle.outline] == ["How to print", "Cards", "Boards", "Counters and tokens", "Rules"]
    # printed double-sided as a whole, every part starts on the front of a sheet (an odd page)
    starts = [bundle.get_destination_page_number(o) + 1 for o in bundle.outline]
    assert starts[0] == 1 and all(page % 2 == 1 for page in starts), starts
    for start, count in zip(starts[1:], counts, strict=True):
        assert f"{start}-{start + count - 1}" in cover or (count == 1 and str(start) in cover)
    assert {tuple(sorted((round(float(p.mediabox.width)), round(float(p.mediabox.height))))) for p in bundle.pages} == {
        (612, 792)
    }  # Letter throughout, portrait or landscape
    manifest = json.loads((folder / "boards-letter.json").read_text())
    assert {p["id"] for p in manifest["parts"]} == {"day-track", "vp-track", "timeline-track", "day-track-shared"}


@pytest.mark.parametrize(
    ("only", "expected"),
    [
        ("cards", {"cards-a4.pdf", "cards-a4.json"}),
        # its 57 tokens, round, each with its own cut lines so that its disc bleeds all round, take a sheet of
        # their own (Torah Timeline's markers, which ride on its card sheet, are the case where they do not)
        ("counters,boards", {"counters-a4.pdf", "counters-a4.json", "boards-a4.pdf", "boards-a4.json"}),
        ("rules", {"rules-a5.pdf", "rules-a4.pdf"}),
        ("bundle", {"print-and-play-a4.pdf"}),
        ("reference", set()),
    ],
)
def test_only_writes_the_parts_asked_for(tmp_path: Path, only: str, expected: set[str]) -> None:
    args = ["build", "time-line-battle", "--paper", "a4", "--only", only, "--no-check", "--out", str(tmp_path)]
    assert main(args) == 0
    written = {p.name for p in (tmp_path / "time-line-battle").iterdir()} - {"components.json"}
    assert written == expected
    assert (tmp_path / "reference" / "time-line-battle").is_dir() == (only == "reference")
    assert (tmp_path / "duplex-calibration-a4.pdf").is_file() == ("cards" in only)


def test_counters_on_the_cards_last_page_get_no_sheet_of_their_own(tmp_path: Path) -> None:
    """Torah Timeline's markers ride on its card sheets: no counter sheet is written, an old one is removed, the
    cards' manifest lists them and the bundle's cover says where they are; Soldier Battler's 40 tokens do not
    fit, and keep their sheet."""
    folder = tmp_path / "torah-timeline"
    folder.mkdir()
    for name in ("counters-a4.pdf", "counters-a4.json", "counters-letter.pdf"):
        (folder / name).write_text("from an earlier build")
    args = ["build", "torah-timeline", "soldier-battler", "--no-check", "--out", str(tmp_path)]
    assert main([*args, "--only", "cards,counters,bundle"]) == 0
    names = {p.name for p in folder.iterdir()}
    assert not {n for n in names if n.startswith("counters-")}, names
    for paper in PAPERS:
        manifest = json.loads((folder / f"cards-{paper}.json").read_text())
        markers = [s for s in manifest["slots"] if s["id"].endswith("-marker")]
        pages = {s["page"] for s in manifest["slots"]}
        assert len(markers) == 4 and {s["page"] for s in markers} == {max(pages) - 1}  # then the cards' backs
        cover = PdfReader(folder / f"print-and-play-{paper}.pdf").pages[0].extract_text()
        assert "Cards and counters" in cover and "41 cards, 4 pieces" in cover and "Counters and tokens" not in cover
        soldiers = tmp_path / "soldier-battler"
        assert (soldiers / f"counters-{paper}.pdf").is_file() and (soldiers / f"counters-{paper}.json").is_file()
        assert "Counters and tokens" in PdfReader(soldiers / f"print-and-play-{paper}.pdf").pages[0].extract_text()
    # the counters alone: the card sheet that holds them
    shutil.rmtree(folder)
    assert main([*args[:2], *args[3:], "--only", "counters", "--paper", "a4"]) == 0
    assert {p.name for p in folder.iterdir()} == {"components.json", "cards-a4.pdf", "cards-a4.json"}
    # cards chosen by deck are cards only; the markers the card sheet they replace carried go back on a sheet
    # of their own, not lost until the next whole build (before, the output held them nowhere)
    assert main([*args[:2], *args[3:], "--only", "cards", "--paper", "a4", "--decks", "deck"]) == 0
    manifest = json.loads((folder / "cards-a4.json").read_text())
    assert not [s for s in manifest["slots"] if s["id"].endswith("-marker")]
    own = json.loads((folder / "counters-a4.json").read_text())
    assert sorted(s["id"] for s in own["slots"] if s["side"] == "face") == ["action-marker"] * 2 + ["token-marker"] * 2
    # the next build of every card takes them back aboard (the sheets alone: the booklet and site read no marker)
    assert main([*args[:2], *args[3:], "--only", "cards,counters", "--paper", "a4"]) == 0
    assert not (folder / "counters-a4.pdf").exists() and not (folder / "counters-a4.json").exists()


def test_the_bundle_alone_is_the_same_bundle(tmp_path: Path) -> None:
    for run, extra in (("all", []), ("bundle", ["--only", "bundle"])):
        args = ["build", "soldier-battler", "--paper", "a4", "--no-check", "--out", str(tmp_path / run), *extra]
        assert main(args) == 0
    bundle = "soldier-battler/print-and-play-a4.pdf"
    assert (tmp_path / "all" / bundle).read_bytes() == (tmp_path / "bundle" / bundle).read_bytes()


def test_bundle_bytes_are_reproducible(tmp_path: Path) -> None:
    for run in ("one", "two"):
        assert main(["build", "soldier-battler", "--paper", "a4", "--out", str(tmp_path / run)]) == 0
    one = (tmp_path / "one" / "soldier-battler" / "print-and-play-a4.pdf").read_bytes()
    assert one == (tmp_path / "two" / "soldier-battler" / "print-and-play-a4.pdf").read_bytes()
    assert len(PdfReader(io.BytesIO(one)).pages) > 3


def _glyph_boxes(pdf: bytes) -> tuple[tuple[float, float], list[tuple[str, tuple[float, float, float, float]]]]:
    page = pdfium.PdfDocument(pdf)[0]
    text = page.get_textpage()
    boxes = []
    for i in range(text.count_chars()):
        char = text.get_text_range(i, 1)
        if char.strip():
            boxes.append((char, text.get_charbox(i)))
    return page.get_size(), boxes


def test_every_glyph_of_every_board_lies_on_the_board_and_over_no_other(games: dict[str, Game]) -> None:
    from printkit.draw.raster import board_pdf

    checked = 0
    for game in games.values():
        for comp in game.components():
            if comp.board is None:
                continue
            (width, height), glyphs = _glyph_boxes(board_pdf(game, comp))
            for char, (x0, y0, x1, y1) in glyphs:  # inside the board, clear of its rounded border
                assert x0 >= 1 * MM and y0 >= 1 * MM and x1 <= width - 1 * MM and y1 <= height - 1 * MM, (
                    game.slug,
                    comp.id,
                    char,
                )
            for (a, box_a), (b, box_b) in itertools.combinations(glyphs, 2):  # no text drawn over other text
                overlap_x = min(box_a[2], box_b[2]) - max(box_a[0], box_b[0])
                overlap_y = min(box_a[3], box_b[3]) - max(box_a[1], box_b[1])
                assert overlap_x < 0.5 or overlap_y < 0.5, (game.slug, comp.id, a, b)
            checked += 1
    assert checked >= 8


def test_a_credit_no_board_can_hold_stops_validate_naming_the_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "soldier-battler"
    shutil.copytree(ROOT / "cards" / "soldier-battler", folder)
    game_yaml = folder / "game.yaml"
    lines = game_yaml.read_text().splitlines()
    lines = [f'credit: "{"Unbreakable" * 40}"' if line.startswith("credit:") else line for line in lines]
    game_yaml.write_text("\n".join(lines) + "\n")
    assert main(["validate", str(folder)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    board = [line for line in err if "the board's name, the game's title and its credit do not fit" in line]
    assert len(board) == 1 and re.match(r".*game\.yaml:\d+:\d+: battlefield: ", board[0]), err  # the card backs too


def _words(pdf: bytes) -> list[str]:
    doc = pdfium.PdfDocument(pdf)
    return " ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc))).split()


def test_boards_count_as_players_do(games: dict[str, Game]) -> None:
    """Soldier Battler's rows from 1, and a track numbered in every space, read back from the printed boards."""
    built = boards.build(games["soldier-battler"], "a4")
    assert built is not None
    text = " ".join(_words(built[0]))
    assert all(f"Row {n}" in text for n in (1, 2, 3)) and not re.search(r"\brow 0\b", text, re.I)
    vp = boards.build(games["time-line-battle"], "a4")
    assert vp is not None
    track = next(c for c in games["time-line-battle"].info.components if c.id == "vp-track")
    assert track.board is not None
    section = track.board.sections[0]
    first, last = section.numbers or (0, 0)
    assert last - first + 1 == section.cols * section.rows  # no space left without its number
    words = set(_words(vp[0]))
    assert {str(n) for n in range(first, last + 1)} <= words


def test_a_numbered_track_with_spaces_past_its_numbers_is_a_data_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = tmp_path / "time-line-battle"
    shutil.copytree(ROOT / "cards" / "time-line-battle", game)
    yaml = game / "game.yaml"
    yaml.write_text(yaml.read_text().replace("numbers: [0, 59]", "numbers: [0, 50]"))
    assert main(["validate", str(game)]) == 2
    err = capsys.readouterr().err
    line = next(i for i, text in enumerate(yaml.read_text().splitlines(), 1) if "numbers: [0, 50]" in text)
    assert f"game.yaml:{line}:" in err and "leave 9 of the 60 spaces blank" in err


def _marks_in_tiles(pdf: bytes, manifest: Any) -> tuple[int, list[str]]:
    """The marks printed over each tile's art (paths drawn on the page, over its board form), read back from the
    PDF: how many, and those lying anywhere the assembled board shows, not in a strip a neighbour covers.

    Each tile goes over the one to its left and the one above, so a tile's right strip (when it has a neighbour
    to the right) and its bottom strip (one below) are hidden; the rest of it shows."""
    doc = pdfium.PdfDocument(pdf)
    overlap = manifest.overlap
    count, shown = 0, []
    for part in manifest.parts:
        for tile in (p for p in part["pages"] if "row" in p):
            x0, y0 = tile["page_x"], tile["page_y"]
            x1, y1 = x0 + tile["w"], y0 + tile["h"]
            right = tile["col"] < part["tiles_across"]
            below = tile["row"] < part["tiles_down"]
            for obj in doc[tile["page"] - 1].get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=1):
                a, b, c, d = obj.get_bounds()
                if not (a >= x0 - 0.5 and c <= x1 + 0.5 and b >= y0 - 0.5 and d <= y1 + 0.5):
                    continue  # not over this tile
                count += 1
                hidden = (right and a >= x1 - overlap - 0.01) or (below and d <= y0 + overlap + 0.01)
                if not hidden:
                    shown.append(f"{part['id']} tile {tile['row']},{tile['col']}: {a / MM:.1f}-{c / MM:.1f} mm")
    return count, shown


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_alignment_marks_lie_where_the_assembled_board_hides_them(games: dict[str, Game], paper: str) -> None:
    """Every guide printed over a tiled board's art lies in an overlap strip the neighbouring tile covers, at that
    tile's edge: none stays visible on the assembled board (the circled crosses did, on the covering strips)."""
    marked = 0
    for game in games.values():
        built = boards.build(game, paper)
        if built is None:
            continue
        count, shown = _marks_in_tiles(*built)
        marked += count
        assert shown == [], f"{game.slug} boards-{paper}: marks the assembled board shows: {shown[:4]}"
    assert marked > 10


def test_unit_counters_say_what_they_are_and_what_their_figures_mean(games: dict[str, Game]) -> None:
    """Read back from the counter sheet: every unit's name and labelled figures on its face, its own code behind."""
    game = games["time-line"]
    built = counters.build(game, PrintSettings(), "a4")
    assert built is not None
    text = " ".join(_words(built[0]))
    units = [c for c in game.info.components if c.unit]
    codes = [c.unit.code for c in units if c.unit]
    assert len(set(codes)) == len(codes) == 8
    for comp in units:
        assert comp.unit is not None
        assert comp.name in text and f"FORCE {comp.unit.force} MOVE {comp.unit.move}" in text, comp.id
        assert re.search(rf"\b{comp.unit.code}\b", text), comp.id


def test_two_unit_types_with_one_code_is_a_data_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "time-line"
    shutil.copytree(ROOT / "cards" / "time-line", game)
    yaml = game / "game.yaml"
    yaml.write_text(yaml.read_text().replace("code: WS}", "code: WZ}"))
    assert main(["validate", str(game)]) == 2
    assert "unit code 'WZ' is Wizard's already" in capsys.readouterr().err
