"""Exports: exact pixel sizes, pictures equal to the print, Tabletop Simulator sheets and JSON, print-shop packs,
spreadsheet round trips, contact sheets."""

from __future__ import annotations

import csv
import errno
import io
import json
import re
import shutil
import zipfile
from pathlib import Path

import diskfaults
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader

from printkit.cli import main
from printkit.core import project, units
from printkit.core.errors import DataError
from printkit.data.game import Game
from printkit.data.loader import load_game
from printkit.data.settings import POKER, PrintSettings
from printkit.exports import images, preview, printshop, spreadsheet, tts
from printkit.sheets import cardsheets

ROOT = Path(__file__).resolve().parent.parent
MM = units.MM


def test_png_sizes_with_and_without_bleed(tmp_path: Path, games: dict[str, Game]) -> None:
    game = games["soldier-battler"]
    written = images.export(game, tmp_path / "bleed", PrintSettings(dpi=300, bleed=3 * MM), workers=1)
    assert _size(tmp_path / "bleed" / "red-army" / "001-swordsman.png") == (
        round(69.5 / 25.4 * 300),
        round(94.9 / 25.4 * 300),
        "RGB",
    )
    images.export(game, tmp_path / "trim", PrintSettings(dpi=300, bleed=0.0), workers=2)
    assert _size(tmp_path / "trim" / "red-army" / "001-swordsman.png") == (750, 1050, "RGB")
    assert _size(tmp_path / "trim" / "blue-army" / "back.png") == (750, 1050, "RGB")
    names = sorted(p.relative_to(tmp_path / "bleed").as_posix() for p in written)
    assert names[:2] == ["blue-army/001-swordsman.png", "blue-army/002-axeman.png"]
    assert "counters/damage-token.png" in names and "boards/battlefield.png" in names


def _size(path: Path) -> tuple[int, int, str]:
    with Image.open(path) as image:
        return image.width, image.height, image.mode


def _load(path: Path | io.BytesIO) -> Image.Image:
    with Image.open(path) as image:
        image.load()
        return image.copy()


def test_a_png_matches_the_printed_sheet(tmp_path: Path, games: dict[str, Game]) -> None:
    """The card image and the card on the print sheet come from one drawing: they look the same."""
    game = games["battle-line"]
    dpi = 100
    images.export(game, tmp_path, PrintSettings(dpi=dpi, bleed=0.0), workers=1)
    png = _load(tmp_path / "troops" / "005-R5.png")
    pdf, manifest = cardsheets.build(game, PrintSettings(), "a4", cardsheets.Selection(decks=("troops",)))
    slot = next(s for s in manifest.slots if s["id"] == "R5" and s["side"] == "face")
    page = pdfium.PdfDocument(pdf)[slot["page"] - 1].render(scale=dpi / 72).to_pil().convert("RGB")
    scale = dpi / 72
    top = page.height - (slot["y"] + slot["h"]) * scale
    crop = page.crop(
        (round(slot["x"] * scale), round(top), round(slot["x"] * scale) + png.width, round(top) + png.height)
    )
    diff = ImageStat.Stat(ImageChops.difference(crop, png).convert("L")).mean[0]
    assert diff < 6, diff  # a sub-pixel shift at the edges, nothing more
    other = _load(tmp_path / "troops" / "006-R6.png")
    assert ImageStat.Stat(ImageChops.difference(crop, other).convert("L")).mean[0] > diff + 1


def _plain_game(tmp_path: Path, cards: int) -> Game:
    assert main(["new", "Big Deck", "--dir", str(tmp_path)]) == 0
    folder = tmp_path / "big-deck"
    lines = ["cards:"] + [
        f"  - {{id: c{i}, kind: plain, name: Card {i}, text: Card number {i}., copies: {1 + i % 2}}}"
        for i in range(cards)
    ]
    (folder / "cards.yaml").write_text("\n".join(lines) + "\n")
    return load_game(folder)


def test_tts_sheets_and_json(tmp_path: Path, games: dict[str, Game]) -> None:
    game = games["time-line"]
    tts.export(game, tmp_path, PrintSettings())
    saved = json.loads((tmp_path / "atlantean.json").read_text())
    deck = saved["ObjectStates"][0]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "Atlantean deck"
    custom = deck["CustomDeck"]["1"]
    assert custom["NumWidth"] == 10 and custom["NumHeight"] == 4 and custom["BackIsHidden"] is True
    assert custom["UniqueBack"] is False and custom["FaceURL"].startswith("file:///")
    assert len(deck["DeckIDs"]) == 39 and deck["DeckIDs"][:3] == [100, 101, 102]
    first = deck["ContainedObjects"][0]
    assert (first["Nickname"], first["CardID"], first["Description"]) == (
        "Astral Travel",
        100,
        "Move +3 or Escape roll +2\nSide: Atlanteans\nUsed by: Wizard",  # what it does, then each field it has
    )
    noted = json.loads(first["GMNotes"])  # the card's data, for a table's scripts
    assert noted["users"] == ["wizard"] and noted["effects"][0] == {"kind": "move", "amount": 3}
    sheet = _load(tmp_path / "atlantean-sheet-1.png")
    assert sheet.mode == "RGB" and sheet.width <= 4096 and sheet.height <= 4096
    w, h = sheet.width // 10, sheet.height // 4
    # slot 6 (row 0, column 6) holds the seventh card, Vorpal Sword: compare it with that card alone
    alone = tts._render(
        game, [f for f in tts.card_faces(game, POKER.size) if f.label == "vorpal-sword"], w / (63.5 / 25.4), (w, h)
    )
    slot = sheet.crop((6 * w, 0, 7 * w, h))
    same = ImageStat.Stat(ImageChops.difference(slot, alone[0]).convert("L")).mean[0]
    neighbour = ImageStat.Stat(ImageChops.difference(sheet.crop((7 * w, 0, 8 * w, h)), alone[0]).convert("L")).mean[0]
    assert same < 0.5 and neighbour > 1  # Celestial Sword next door differs only in its words


def test_tts_splits_big_decks_and_honours_the_hidden_slot(tmp_path: Path) -> None:
    game = _plain_game(tmp_path, 150)
    tts.export(game, tmp_path / "a", PrintSettings(), base_url="https://example.org/decks")
    deck = json.loads((tmp_path / "a" / "main.json").read_text())["ObjectStates"][0]
    assert sorted(deck["CustomDeck"]) == ["1", "2", "3"]
    ids = sorted(set(deck["DeckIDs"]))
    assert ids[:2] == [100, 101] and 169 in ids and 200 in ids and 309 in ids and 170 not in ids
    assert len(deck["DeckIDs"]) == sum(1 + i % 2 for i in range(150))
    assert deck["CustomDeck"]["2"]["FaceURL"] == "https://example.org/decks/main-sheet-2.png"
    # the last sheet's 10 cards get a grid (and a picture) of their own size, not another 10 x 7
    grids = [(deck["CustomDeck"][k]["NumWidth"], deck["CustomDeck"][k]["NumHeight"]) for k in ("1", "2", "3")]
    assert grids == [(10, 7), (10, 7), (10, 2)]
    with (
        Image.open(tmp_path / "a" / "main-sheet-1.png") as full,
        Image.open(tmp_path / "a" / "main-sheet-3.png") as last,
    ):
        assert last.size == (full.width, full.height * 2 // 7)
    tts.export(game, tmp_path / "b", PrintSettings(), hidden_in_last_slot=True)
    deck = json.loads((tmp_path / "b" / "main.json").read_text())["ObjectStates"][0]
    assert sorted(deck["CustomDeck"]) == ["1", "2", "3"] and deck["CustomDeck"]["1"]["BackIsHidden"] is False
    ids = sorted(set(deck["DeckIDs"]))
    assert 168 in ids and 169 not in ids  # slot 69, the last, holds the back


def test_a_tts_export_holds_no_more_card_pictures_than_a_sheet_whatever_the_deck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counted, not timed: the card pictures alive whenever a sheet is encoded, for a deck of three sheets. Kept
    all at once, memory grew with the deck (5,309 MB at 5,400 cards); drawn a few at a time, pasted and freed,
    it holds one sheet and a few cards."""
    import weakref

    from printkit.draw import raster

    game = _plain_game(tmp_path, 150)
    drawn: list[weakref.ref[Image.Image]] = []
    alive: list[int] = []
    real_render, real_png = tts._render, raster.png

    def render(*args: object) -> list[Image.Image]:
        pictures = real_render(*args)  # type: ignore[arg-type]
        drawn.extend(weakref.ref(picture) for picture in pictures)
        return pictures

    def png(*args: object) -> bytes:
        alive.append(sum(ref() is not None for ref in drawn))
        return real_png(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(tts, "_render", render)
    monkeypatch.setattr(raster, "png", png)
    tts.export(game, tmp_path / "tts", PrintSettings())
    per_sheet = tts.plan(150, POKER.size, False).per_sheet
    assert len(drawn) == 151 and len(alive) == 4  # every card and the back drawn; the back and three sheets
    assert max(alive) < per_sheet // 2, alive


def _contents(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    ("fault", "where", "reason"),
    [(errno.ENOSPC, "write", "the disk is full"), (errno.EROFS, "open", "it is on a read-only disk")],
)
@pytest.mark.parametrize("export", ["png", "tts", "printshop", "preview"])
def test_an_export_the_disk_refuses_names_the_file_and_leaves_the_last_export_whole(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    export: str,
    fault: int,
    where: str,
    reason: str,
) -> None:
    """A file of an export refused, as a full or read-only disk refuses it (root writes anywhere, so the system
    calls are made to fail), the third when there are three (a preview of one deck has one): one line naming
    that file, never its temporary name, and the files of the export before, every one as it was."""
    _plain_game(tmp_path, 12)
    monkeypatch.chdir(tmp_path)
    command = ["export", export, "big-deck", "--out", "out"]
    command += ["--dpi", "40"] if export == "png" else []
    command = ["preview", "big-deck", "--out", "out"] if export == "preview" else command
    assert main(command) == 0
    folder = tmp_path / "out" / "big-deck" / export
    before = _contents(folder)
    cards = tmp_path / "big-deck" / "cards.yaml"
    cards.write_text(cards.read_text().replace("Card number", "Card no."))  # every picture changes
    refused = {"png": 3, "tts": 3, "printshop": 2, "preview": 1}[export]
    diskfaults.refuse(monkeypatch, fault, where, refused, inside=folder)
    assert main(command) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f": {reason}; nothing of this run was written" in err, err
    named = re.match(r"printkit: cannot write (.+?): ", err)
    assert named and ".part" not in named[1] and (tmp_path / named[1]).resolve().is_relative_to(folder), err
    assert _contents(folder) == before  # no file of the new export, no temporary file


def _tts_schema() -> dict[str, object]:
    return json.loads((ROOT / "tests" / "schemas" / "tts-saved-object.schema.json").read_text())


def test_tts_saved_objects_match_the_save_structure_for_every_game(tmp_path: Path, games: dict[str, Game]) -> None:
    import jsonschema

    validator = jsonschema.Draft202012Validator(_tts_schema())
    for slug, game in games.items():
        written = tts.export(game, tmp_path / slug, PrintSettings())
        keys: list[str] = []
        guids: list[str] = []
        for path in (p for p in written if p.suffix == ".json"):
            saved = json.loads(path.read_text())
            errors = [e.message for e in validator.iter_errors(saved)]
            assert not errors, (path.name, errors[:3])
            state = saved["ObjectStates"][0]
            keys += list(state["CustomDeck"])
            cards = state.get("ContainedObjects", [state])
            guids += [state["GUID"], *(c["GUID"] for c in cards)]
            for card in cards:  # each card's id names a sheet of its own deck, and a slot the sheet has
                key, slot = divmod(card["CardID"], 100)
                sheet = state["CustomDeck"][str(key)]
                assert card["CustomDeck"] == {str(key): sheet} and slot < sheet["NumWidth"] * sheet["NumHeight"]
        assert len(keys) == len(set(keys)), slug  # two decks on one table never share a key
        assert len(set(guids)) == len(guids), slug
    first = {p.name: p.read_bytes() for p in (tmp_path / "time-line").iterdir()}
    again = tts.export(games["time-line"], tmp_path / "time-line", PrintSettings())
    assert {p.name: p.read_bytes() for p in again} == first  # the same bytes, GUIDs included


def test_a_deck_of_one_card_is_a_card_and_copy_to_fills_saved_objects(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _plain_game(tmp_path, 1)  # one card, one copy
    (tmp_path / "big-deck" / "cards.yaml").write_text(
        "cards:\n  - {id: lone, kind: plain, name: Lone Card, text: Only one.}\n"
    )
    game = load_game(tmp_path / "big-deck")
    state = json.loads(tts.export(game, tmp_path / "one", PrintSettings())[-1].read_text())["ObjectStates"][0]
    assert state["Name"] == "CardCustom" and state["Hands"] is True and state["Nickname"] == "Lone Card"
    saved_objects = tmp_path / "Saved Objects"
    saved_objects.mkdir()
    monkeypatch.chdir(tmp_path)
    command = ["export", "tts", str(tmp_path / "big-deck"), "--copy-to", str(saved_objects), "--out", "out"]
    assert main(command) == 0
    assert sorted(p.name for p in saved_objects.iterdir()) == ["Big Deck - Main deck.json", "Big Deck - Main deck.png"]
    thumb = _load(saved_objects / "Big Deck - Main deck.png")
    assert max(thumb.size) == 256
    assert main([*command[:3], "--copy-to", str(tmp_path / "nowhere")]) == 2
    assert "--copy-to: " in capsys.readouterr().err
    assert main(["export", "png", str(tmp_path / "big-deck"), "--copy-to", str(saved_objects)]) == 2
    assert "--copy-to: only export tts takes it" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("service", "size"), [("mpc", (822, 1122)), ("drivethrucards", (825, 1125)), ("gamecrafter", (825, 1125))]
)
def test_printshop_pixels_names_and_pdf_boxes(
    tmp_path: Path, games: dict[str, Game], service: str, size: tuple[int, int]
) -> None:
    game = games["time-line-battle"]
    (archive, *pdfs), warnings = printshop.export(game, tmp_path, PrintSettings(), service)
    form = printshop.shops(game)[service].pdf  # what layouts/printshops.yaml says the shop takes
    assert len(pdfs) == (len(game.decks) + 1 if form.per == "deck" else 1)  # the player aid is a deck of its own
    pdf = pdfs[0]
    assert warnings == []
    with zipfile.ZipFile(archive) as z:
        names = z.namelist()
    assert "order.csv" in names and len(names) == 2 * 23 + 2 + 1  # each deck's cards and back, the aid and its back
    with zipfile.ZipFile(archive) as z:
        for name in names[:3] + names[22:24]:
            assert _load(io.BytesIO(z.read(name))).size == size
        order = list(csv.DictReader(io.StringIO(z.read("order.csv").decode())))
    assert order[0]["card"] == "guard" and order[22]["side"] == "back"
    # a deck's one back is printed once for every card of it, copies counted
    fronts = [row for row in order if row["side"] == "front" and row["deck"] == order[22]["deck"]]
    assert int(order[22]["copies"]) == sum(int(row["copies"]) for row in fronts) > 1
    page = PdfReader(pdf).pages[0]
    bleed = [float(v) for v in page.bleedbox]
    trim = [float(v) for v in page.trimbox]
    assert (bleed[2] / 72 * 300, bleed[3] / 72 * 300) == pytest.approx(size)
    assert ((trim[2] - trim[0]) / MM, (trim[3] - trim[1]) / MM) == pytest.approx((63.5, 88.9), abs=0.05)
    aid_pages = 2 * (2 if form.copies == "each" else 1)  # the aid, one a player, front and back
    assert sum(len(PdfReader(p).pages) for p in pdfs) == 2 * 44 + aid_pages  # every card once here: no copies


def _same(one: Image.Image, other: Image.Image) -> float:
    """The mean difference of two pictures of one size, 0 to 255."""
    return float(ImageStat.Stat(ImageChops.difference(one, other).convert("L")).mean[0])


def test_the_player_aids_go_in_every_export(tmp_path: Path, games: dict[str, Game]) -> None:
    """Time Line Battle's "The Day's phases", one per player, were on the sheets and in no export: now a PNG equal
    to the card on the sheet, a Tabletop Simulator deck of its two copies with a blank back (the sheet prints it
    one-sided), and a print shop's pack's card of its own, its back blank, ordered twice."""
    game = games["time-line-battle"]
    dpi = 100
    images.export(game, tmp_path / "png", PrintSettings(dpi=dpi, bleed=0.0), workers=1)
    png = _load(tmp_path / "png" / "aids" / "reference-card.png")
    pdf, manifest = cardsheets.build(game, PrintSettings(cuts="shared"), "a4")  # upright there, as the game asks
    slot = next(s for s in manifest.slots if s["id"] == "reference-card" and s["side"] == "face")
    page = pdfium.PdfDocument(pdf)[slot["page"] - 1].render(scale=dpi / 72).to_pil().convert("RGB")
    left, top = round(slot["x"] * dpi / 72), round(page.height - (slot["y"] + slot["h"]) * dpi / 72)
    on_sheet = page.crop((left, top, left + png.width, top + png.height))
    assert _same(on_sheet, png) < 14  # its small type, a fraction of a pixel off
    blank = Image.new("RGB", png.size, "white")
    assert _same(blank, png) > 20  # the aid's own drawing, not an empty card

    tts.export(game, tmp_path / "tts", PrintSettings())
    deck = json.loads((tmp_path / "tts" / "aid-reference-card.json").read_text())["ObjectStates"][0]
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "The Day's phases"
    assert [c["Nickname"] for c in deck["ContainedObjects"]] == ["The Day's phases"] * 2
    sheet = _load(tmp_path / "tts" / "aid-reference-card-sheet-1.png")
    grid = next(iter(deck["CustomDeck"].values()))
    first = sheet.crop((0, 0, sheet.width // grid["NumWidth"], sheet.height // grid["NumHeight"]))
    assert _same(first.resize(png.size), png) < 12  # the same card, at Tabletop Simulator's size
    back = _load(tmp_path / "tts" / "aid-reference-card-back.png")
    assert ImageStat.Stat(back.convert("L")).extrema[0][0] >= 250  # blank paper

    (archive, proof), _ = printshop.export(game, tmp_path / "mpc", PrintSettings(), "mpc")
    with zipfile.ZipFile(archive) as z:
        order = list(csv.DictReader(io.StringIO(z.read("order.csv").decode())))
        aid = [row for row in order if row["deck"] == "aid-reference-card"]
        assert [(r["card"], r["name"], r["side"], r["copies"]) for r in aid] == [
            ("reference-card", "The Day's phases", "front", "2"),
            ("reference-card back", "", "back", "2"),
        ]
        front = _load(io.BytesIO(z.read(aid[0]["file"])))
        cut = round(printshop.shops(game)["mpc"].cut)  # the shop's bleed, in its pixels
        trimmed = front.crop((cut, cut, front.width - cut, front.height - cut))
        assert _same(trimmed.resize(png.size), png) < 12
    text = " ".join(page.extract_text() for page in PdfReader(proof).pages)
    assert "phases" in text.lower()


def test_drivethrucards_gets_a_pdf_a_deck_each_copy_back_then_front(tmp_path: Path) -> None:
    game = _plain_game(tmp_path, 3)  # copies 1, 2 and 1
    (_, *pdfs), _ = printshop.export(game, tmp_path / "shop", PrintSettings(), "drivethrucards")
    assert [p.name for p in pdfs] == ["drivethrucards-main.pdf"]
    pages = [" ".join(page.extract_text().split()) for page in PdfReader(pdfs[0]).pages]
    assert len(pages) == 2 * 4  # a page pair for each of the four copies
    back_title = game.decks[0].deck.back.title
    assert all(back_title in pages[i] for i in range(0, 8, 2))  # each copy's back first
    assert [next(f"Card {n}" for n in range(3) if f"Card {n}" in pages[i]) for i in range(1, 8, 2)] == [
        "Card 0",
        "Card 1",
        "Card 1",
        "Card 2",
    ]


def test_safe_zone_check_warns(games: dict[str, Game]) -> None:
    game = games["battle-line"]
    faces = printshop.card_faces(game, POKER.size)
    shop = printshop.shops(game)["gamecrafter"]
    assert printshop.safe_zone_warnings(faces, shop) == []
    tight = printshop.Shop(
        name="tight", dpi=300, templates={"poker": [825, 1125]}, cut=37.5, safe=120, files="{index}.png"
    )
    warnings = printshop.safe_zone_warnings(faces, tight)
    assert any(w.region == "corner-top" and "R1" in w.cards for w in warnings)


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
@pytest.mark.parametrize("slug", ["battle-line", "soldier-battler", "time-line", "time-line-battle", "torah-timeline"])
def test_a_spreadsheet_round_trip_gives_the_same_cards(
    tmp_path: Path, games: dict[str, Game], slug: str, kind: str
) -> None:
    copy = tmp_path / slug
    shutil.copytree(ROOT / "cards" / slug, copy)
    if kind == "csv":
        sheet = spreadsheet.export_csv(games[slug], tmp_path / f"{slug}.csv")
        rows = list(csv.DictReader(io.StringIO(sheet.read_text(encoding="utf-8-sig"), newline="")))
        assert len(rows) == len(games[slug].cards)
    else:
        sheet = spreadsheet.export_xlsx(games[slug], tmp_path / f"{slug}.xlsx")
    spreadsheet.import_rows(sheet, copy, project.find(tmp_path))
    again = load_game(copy)
    assert again.cards == games[slug].cards
    assert [d.entries for d in again.decks] == [d.entries for d in games[slug].decks]


def test_csv_cells_a_spreadsheet_would_run_are_neutralised_and_every_text_survives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    texts = [
        '=HYPERLINK("https://example.org","click")',
        "@SUM(A1:A9)",
        "+1 attack",
        "-2 armour",
        "'Tis the season",
        "'=already quoted",
        "''two apostrophes",
        "\rstarts with a carriage return",
        "a line\rbreak and\r\nanother",
        "tab\tinside",
        "שלום, עולם",
        "dragon 🐉 fire",
    ]
    game = _plain_game(tmp_path, len(texts))
    cards = tmp_path / "big-deck" / "cards.yaml"
    lines = ["cards:"] + [
        f"  - {{id: c{i}, kind: plain, name: Card {i}, text: {json.dumps(t, ensure_ascii=False)}}}"
        for i, t in enumerate(texts)
    ]
    cards.write_text("\n".join(lines) + "\n")
    game = load_game(tmp_path / "big-deck")
    sheet = spreadsheet.export_csv(game, tmp_path / "cards.csv")
    raw = sheet.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # the byte-order mark Excel needs to read UTF-8
    written = {row["id"]: row["text"] for row in csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline=""))}
    for cell in written.values():
        assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell  # nothing a spreadsheet would run
    assert written["c4"] == "'Tis the season"  # an apostrophe printkit did not add is left alone
    cards.write_text("cards:\n  - {id: other, kind: plain, name: Other}\n")
    spreadsheet.import_rows(sheet, tmp_path / "big-deck", project.find(tmp_path))
    again = load_game(tmp_path / "big-deck")
    assert [c.values["text"] for c in again.cards] == texts
    assert not spreadsheet.export_csv(game, tmp_path / "plain.csv", bom=False).read_bytes().startswith(b"\xef")


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
@pytest.mark.parametrize("slug", ["battle-line", "soldier-battler", "time-line", "time-line-battle", "torah-timeline"])
def test_a_round_trip_with_one_card_changed_changes_that_card_alone(
    tmp_path: Path, games: dict[str, Game], slug: str, kind: str
) -> None:
    copy = tmp_path / slug
    shutil.copytree(ROOT / "cards" / slug, copy)
    before = {p.name: p.read_bytes() for p in copy.glob("*.yaml")}
    sheet = spreadsheet.export_csv(games[slug], tmp_path / "cards.csv")
    rows = list(csv.reader(io.StringIO(sheet.read_text("utf-8-sig"), newline="")))
    assert spreadsheet.import_rows(sheet, copy, project.find(tmp_path)) == []  # nothing changed: nothing written
    name = rows[0].index("name")
    file, old_name = rows[3][rows[0].index("file")], rows[3][name]
    rows[3][name] = old_name + " Renamed"
    if kind == "csv":
        with sheet.open("w", newline="", encoding="utf-8-sig") as handle:
            csv.writer(handle).writerows(rows)
    else:
        import openpyxl

        sheet = tmp_path / "cards.xlsx"
        book = openpyxl.Workbook()
        for row in rows:
            book.active.append(row)  # type: ignore[union-attr]
        book.save(sheet)
    assert spreadsheet.import_rows(sheet, copy, project.find(tmp_path)) == [copy / file]
    after = {p.name: p.read_bytes() for p in copy.glob("*.yaml")}
    assert {n for n in after if after[n] != before[n]} == {file}  # every other file byte for byte
    old_lines, new_lines = before[file].decode().splitlines(), after[file].decode().splitlines()
    changed = [(a, b) for a, b in zip(old_lines, new_lines, strict=True) if a != b]
    assert len(old_lines) == len(new_lines) and len(changed) == 1  # one line: the card's own
    assert old_name in changed[0][0] and f"{old_name} Renamed" in changed[0][1]
    assert load_game(copy).card(rows[3][rows[0].index("id")]).name == f"{old_name} Renamed"


def test_an_xlsx_export_holds_text_never_formulas(tmp_path: Path) -> None:
    import openpyxl

    game = _plain_game(tmp_path, 2)
    cards = tmp_path / "big-deck" / "cards.yaml"
    cards.write_text(cards.read_text().replace("text: Card number 0.", 'text: \'=HYPERLINK("x","y")\''))
    game = load_game(tmp_path / "big-deck")
    path = spreadsheet.export_xlsx(game, tmp_path / "cards.xlsx")
    book = openpyxl.load_workbook(path)
    sheet = book["Cards"]
    header = [c.value for c in sheet[1]]
    cell = sheet.cell(2, header.index("text") + 1)
    assert cell.value == '=HYPERLINK("x","y")' and cell.data_type == "s"  # text, not a formula
    assert spreadsheet.export_xlsx(game, tmp_path / "again.xlsx").read_bytes() == path.read_bytes()


def test_xlsx_import(tmp_path: Path, games: dict[str, Game]) -> None:
    import openpyxl

    copy = tmp_path / "soldier-battler"
    shutil.copytree(ROOT / "cards" / "soldier-battler", copy)
    rows = list(
        csv.reader(
            io.StringIO(spreadsheet.export_csv(games["soldier-battler"], tmp_path / "s.csv").read_text("utf-8-sig"))
        )
    )
    rows[1][rows[0].index("hp")] = "90"
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)  # type: ignore[union-attr]
    book.save(tmp_path / "s.xlsx")
    assert main(["import", "xlsx", str(tmp_path / "s.xlsx"), "--into", str(copy)]) == 0
    assert load_game(copy).card("swordsman").values["hp"] == 90


def test_bad_rows_name_row_and_column_and_write_nothing(
    tmp_path: Path, games: dict[str, Game], capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "time-line-battle"
    shutil.copytree(ROOT / "cards" / "time-line-battle", copy)
    before = (copy / "characters.yaml").read_text()
    path = spreadsheet.export_csv(games["time-line-battle"], tmp_path / "t.csv")
    rows = list(csv.reader(io.StringIO(path.read_text("utf-8-sig"), newline="")))
    rows[3][rows[0].index("health")] = "ten"
    rows[5][rows[0].index("kind")] = "wizard"
    with path.open("w", newline="") as handle:
        csv.writer(handle).writerows(rows)
    with pytest.raises(DataError) as caught:
        spreadsheet.import_rows(path, copy, project.find(tmp_path))
    lines = caught.value.lines()
    health, kind = rows[0].index("health") + 1, rows[0].index("kind") + 1
    assert len(lines) == 2
    assert f"t.csv:4:{health}: cards[2].health: expected an integer, found 'ten'" in lines[0]
    assert f"t.csv:6:{kind}: cards[4].kind: unknown kind 'wizard'" in lines[1]
    assert (copy / "characters.yaml").read_text() == before
    assert main(["import", "csv", str(path), "--into", str(copy)]) == 2
    assert f"t.csv:4:{health}: cards[2].health" in capsys.readouterr().err


def test_preview_contact_sheets(tmp_path: Path, games: dict[str, Game]) -> None:
    written = preview.export(games["battle-line"], tmp_path, PrintSettings())
    assert [p.name for p in written] == ["troops.png", "tactics.png"]
    sheet = _load(written[0])
    assert sheet.width > 1000 and sheet.height > sheet.width / 2  # 61 cards: seven rows of ten


def _dpi(source: Path | bytes) -> tuple[float, int]:
    """The resolution a PNG says it has, and its width in pixels."""
    with Image.open(io.BytesIO(source) if isinstance(source, bytes) else source) as image:
        return float(image.info["dpi"][0]), image.width


def test_every_exported_png_says_its_resolution(tmp_path: Path, games: dict[str, Game]) -> None:
    """Without a pHYs chunk tools take a PNG for 72 dpi, and a print shop's upload checks read it."""
    game = games["battle-line"]
    written = images.export(game, tmp_path / "png", PrintSettings(dpi=150), workers=1)
    assert all(round(_dpi(p)[0]) == 150 for p in written[:5] + written[-2:])
    printshop.export(game, tmp_path / "shop", PrintSettings(), "mpc")
    with zipfile.ZipFile(tmp_path / "shop" / "mpc.zip") as archive:
        first = next(n for n in archive.namelist() if n.endswith(".png"))
        assert round(_dpi(archive.read(first))[0]) == 300
    sheet = next(p for p in tts.export(game, tmp_path / "tts", PrintSettings()) if "sheet" in p.name)
    dpi, width = _dpi(sheet)
    cols = json.loads((tmp_path / "tts" / "troops.json").read_text())["ObjectStates"][0]["CustomDeck"]["1"]["NumWidth"]
    assert abs(dpi - width / cols / (63.5 / 25.4)) < 1  # the pixels of one card over its inches


def test_a_card_file_is_edited_in_place_keeping_comments_and_styles() -> None:
    import yaml

    from printkit.exports import cardedit

    text = (
        "# my cards\n"
        "cards:\n"
        "  # the first two\n"
        "  - {id: a, kind: plain, name: A}  # short\n"
        "  - id: b\n"
        "    kind: plain\n"
        "    # the name the box prints\n"
        "    name: B\n"
        "    text: gone soon\n"
        "    stats: {power: 2}\n"
        "  # gone soon\n"
        "  - {id: c, kind: plain, name: C}\n"
        "\n"
        "  - {name: D, id: d, text: old, kind: plain, copies: 1}\n"
    )
    now = {
        "a": {"id": "a", "kind": "plain", "name": "A"},
        "b": {"id": "b", "kind": "plain", "name": "B", "text": "gone soon", "stats": {"power": 2}},
        "c": {"id": "c", "kind": "plain", "name": "C"},
        "d": {"id": "d", "kind": "plain", "name": "D", "text": "old"},  # copies: 1 is the default
    }
    cards = [
        {"id": "a", "kind": "plain", "name": "A"},
        {"id": "b", "kind": "plain", "name": "Bee", "stats": {"power": 3}, "art": "b.png"},
        {"id": "d", "kind": "plain", "name": "D", "text": "new"},
        {"id": "e", "kind": "plain", "name": "E: new"},
    ]
    out = cardedit.edited(text, cards, now.get)
    assert out is not None
    read = {c["id"]: {k: v for k, v in c.items() if k != "copies"} for c in yaml.safe_load(out)["cards"]}
    assert read == {c["id"]: c for c in cards}
    assert out.startswith("# my cards\ncards:\n  # the first two\n  - {id: a, kind: plain, name: A}  # short\n")
    # in a changed card only the changed fields are written again, in their places, comments kept
    block = "  - id: b\n    kind: plain\n    # the name the box prints\n    name: Bee\n"
    block += "    stats: {power: 3}\n    art: b.png\n"
    assert block in out
    assert "{id: c" not in out
    assert "  - {name: D, id: d, text: new, kind: plain, copies: 1}\n" in out  # its order and its default kept
    assert out.endswith("  - {id: e, kind: plain, name: 'E: new'}\n")  # new, in the last card's style
    assert cardedit.edited(text, list(reversed(cards)), now.get) is None  # a new order: afresh


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("ex.org/decks", "expected an http or https address"),
        ("javascript:alert(1)", "expected an http or https address"),
        ("https://ex.org/my decks", "write a space as %20"),
        ("https://ex.org/decks?user=1", "give the folder's address alone"),
    ],
)
def test_a_base_url_tabletop_simulator_could_not_fetch_from_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str, expected: str
) -> None:
    assert main(["export", "tts", "battle-line", "--out", str(tmp_path), "--base-url", given]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err and "--base-url" in err
    assert not any(tmp_path.iterdir())  # nothing written
