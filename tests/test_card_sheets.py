"""A spreadsheet as the cards' source: read on every build, each cell typed by the model, problems named by cell."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from printkit.cli import main


@pytest.fixture
def studio(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0
    assert main(["new", "Sheet Game", "-q"]) == 0
    game = tmp_path / "cards" / "sheet-game"
    (game / "cards.yaml").unlink()  # every card comes from the spreadsheet
    return game


def _uses(game: Path, entry: str) -> None:
    game_yaml = game / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("players: 2", f"players: 2\ncard_sheets: [{entry}]"))


def _text(pdf: Path) -> str:
    reader = PdfReader(io.BytesIO(pdf.read_bytes()))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


def test_a_csv_is_read_on_every_build_each_cell_as_the_model_reads_it(
    studio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _uses(studio, "{file: cards.csv}")
    (studio / "cards.csv").write_text(
        "id,kind,name,text,stats.power,copies\n"
        "novel,plain,1984,yes,3,2\n"  # a name of digits and a text of yes stay text; power and copies are numbers
        "tome,plain,Tome,Read it.,5,\n"
    )
    assert main(["validate"]) == 0
    assert "3 cards (main 3)" in capsys.readouterr().out
    assert main(["build", "--only", "cards", "--paper", "a4", "--no-check"]) == 0
    text = _text(Path("output/sheet-game/cards-a4.pdf"))
    assert "1984" in text and "Power 3" in text and "Tome" in text
    (studio / "cards.csv").write_text((studio / "cards.csv").read_text().replace("Tome", "Grimoire"))
    assert main(["build", "--only", "cards", "--paper", "a4", "--no-check"]) == 0
    assert "Grimoire" in _text(Path("output/sheet-game/cards-a4.pdf"))  # no import: the next build reads it


def _xlsx(path: Path, rows: list[list[object]], title: str = "Deck") -> None:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = title
    for row in rows:
        sheet.append(row)
    book.save(path)


HEADER = ["id", "kind", "name", "stats.power"]


@pytest.mark.parametrize(
    ("entry", "rows", "expected"),
    [
        (
            "{file: cards.xlsx, sheet: Deck}",
            [HEADER, ["a", "plain", "A", 1], ["b", "plain", "B", "x"]],
            "cards/sheet-game/cards.xlsx:Deck!D3: cards[1].stats.power: expected an integer, found 'x'",
        ),
        (
            "{file: cards.xlsx}",
            [HEADER, ["a", "plain", "A", "=2+3"]],
            "cards/sheet-game/cards.xlsx:Deck!D2: a formula with no saved value",
        ),
        ("{file: cards.xlsx, sheet: Nope}", [HEADER, ["a", "plain", "A", 1]], "no sheet 'Nope' (sheets: Deck)"),
        (
            "{file: cards.xlsx, sheet: Dekc}",
            [HEADER, ["a", "plain", "A", 1]],
            # at the game.yaml entry that names the sheet, with the likely one
            "game.yaml:5:41: sheet: cards/sheet-game/cards.xlsx: no sheet 'Dekc' (did you mean 'Deck'?",
        ),
        (
            "{file: cards.xlsx}",
            [HEADER, ["a", "plain", "A", 1], ["a", "plain", "Again", 2]],
            "cards.xlsx:Deck!A3: cards[1].id: duplicate card id 'a'",
        ),
    ],
    ids=["bad-cell", "formula-without-value", "missing-sheet", "misspelt-sheet", "duplicate-id"],
)
def test_xlsx_problems_name_their_cell(
    studio: Path, capsys: pytest.CaptureFixture[str], entry: str, rows: list[list[object]], expected: str
) -> None:
    _uses(studio, entry)
    _xlsx(studio / "cards.xlsx", rows)
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert expected in err, err
    assert main(["build", "--no-check"]) == 2
    assert not Path("output").exists()


def test_a_stale_size_in_a_workbook_loses_no_row_and_no_column(
    studio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A sheet's <dimension> is what the program that wrote it claimed: one left stale (a tool edited the file and
    did not update it) cut openpyxl's rows and columns at it, and the cards and values past it were lost unsaid."""
    import re
    import zipfile

    _uses(studio, "{file: cards.xlsx}")
    book = studio / "cards.xlsx"
    _xlsx(book, [HEADER, ["a", "plain", "A", 1], ["b", "plain", "B", 2], ["c", "plain", "C", "x"]])
    parts = {}
    with zipfile.ZipFile(book) as zipped:
        for name in zipped.namelist():
            parts[name] = zipped.read(name)
    sheet = "xl/worksheets/sheet1.xml"
    parts[sheet], found = re.subn(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:C3"', parts[sheet])
    assert found == 1
    with zipfile.ZipFile(book, "w") as zipped:
        for name, data in parts.items():
            zipped.writestr(name, data)
    assert main(["validate"]) == 2  # the fourth column of the fourth row, past the claimed A1:C3, is read
    assert "cards.xlsx:Deck!D4: cards[2].stats.power: expected an integer, found 'x'" in capsys.readouterr().err
    _xlsx(book, [HEADER, ["a", "plain", "A", 1], ["b", "plain", "B", 2], ["c", "plain", "C", 3]])
    assert main(["validate"]) == 0
    assert "3 cards (main 3)" in capsys.readouterr().out


def test_a_file_that_is_no_spreadsheet_is_one_line(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _uses(studio, "{file: cards.xlsx}")
    (studio / "cards.xlsx").write_bytes(b"PK but not really a zip")
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.xlsx:1:1: not an XLSX file" in err


HOSTILE_HEADER = "id,kind,name,text\n"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (HOSTILE_HEADER + "a,plain,A,bad\x00text\n", "cards.csv:2:4: control character U+0000: expected printable"),
        (HOSTILE_HEADER + 'a,plain,A,"two\nlines"\nb,plain,B\x07,x\n', "cards.csv:4:3: control character U+0007"),
        ("id,kind,name,stats,stats.power\na,plain,A,3,4\n", "cards.csv:1:5: column 'stats.power' and column 'stats'"),
        ("id,kind,name,effects.0.kind,effects.x.kind\n", "effects cannot be both a list (by number) and a mapping"),
        ("id,kind,name,effects.99999999.kind\na,plain,A,x\n", "list index 99999999 is past 500"),
        ("id,kind,name,name\na,plain,A,B\n", "cards.csv:1:4: column 'name' again (first in column 3)"),
        ("id,kind,name,stats..power\na,plain,A,1\n", "column 'stats..power': expected names joined by single dots"),
        (HOSTILE_HEADER + "a,plain,A," + "w" * 140_000 + "\n", "cards.csv:2:1: not CSV a reader reads: field larger"),
        (HOSTILE_HEADER + "".join(f"c{i},plain,C\n" for i in range(1_000_000)), "cards.csv:10002:1: more than 10,000"),
    ],
    ids=[
        "nul",
        "bell-after-a-two-line-cell",
        "value-and-mapping",
        "index-and-name",
        "huge-index",
        "twice",
        "empty-part",
        "giant-field",
        "a-million-rows",
    ],
)
def test_a_hostile_csv_is_refused_at_its_cell(
    studio: Path, capsys: pytest.CaptureFixture[str], content: str, expected: str
) -> None:
    _uses(studio, "{file: cards.csv}")
    (studio / "cards.csv").write_text(content, newline="")
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err, err


def test_an_xlsx_with_xml_entities_is_refused_in_one_line(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A billion-laughs sheet: ten levels of entities, each ten of the one below."""
    import zipfile

    _uses(studio, "{file: cards.xlsx}")
    _xlsx(studio / "plain.xlsx", [["id", "kind", "name"], ["a", "plain", "Azz"]])
    entities = '<!ENTITY e0 "lol">' + "".join(f'<!ENTITY e{i} "{f"&e{i - 1};" * 10}">' for i in range(1, 10))
    with zipfile.ZipFile(studio / "plain.xlsx") as plain, zipfile.ZipFile(studio / "cards.xlsx", "w") as bomb:
        for item in plain.infolist():
            data = plain.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                body = data.split(b"?>", 1)[1] if data.startswith(b"<?xml") else data
                data = f"<!DOCTYPE worksheet [{entities}]>".encode() + body.replace(b"Azz", b"&e9;")
            bomb.writestr(item, data)
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.xlsx:1:1: not an XLSX file printkit reads: it declares XML entities" in err


def _book(path: Path, rows: list[list[object]], merge: str | None = None, empty: bool = False) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Deck"
    for row in [] if empty else rows:
        sheet.append(row)
    if merge:
        sheet.merge_cells(merge)
    book.save(path)


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda p: _book(p, [], empty=True), "cards.xlsx:Deck!A1: sheet 'Deck' is empty: expected its first row"),
        (lambda p: _book(p, [["id", "kind", "name"]]), "cards.xlsx:2:1: no rows to import"),
        (lambda p: _book(p, [["kind", "name"], ["plain", "A"]]), "cards.xlsx:1:1: missing column id"),
        (lambda p: _book(p, [HEADER, ["a", "plain", "A", 1], ["a", "plain", "B", 2]]), "Deck!A3: cards[1].id: dupl"),
        (lambda p: _book(p, [HEADER, ["a", "plain", "A", "=1+1"]]), "Deck!D2: a formula with no saved value"),
        (lambda p: _book(p, [HEADER, ["a", "plain", "A", 1]], merge="B2:C2"), "Deck!B2: merged cells B2:C2: expected"),
        (lambda p: _book(p, [HEADER, ["a", "plain", "A", 1, None, "stray"]]), "Deck!F2: 'stray' under no column name"),
        (lambda p: _book(p, [[*HEADER, "art"], ["a", "plain", "A", 1, "art/none.png"]]), "Deck!E2: cards[0].art: art/"),
        (lambda p: p.write_bytes(b"PK\x03\x04" + b"\x00" * 100), "cards.xlsx:1:1: not an XLSX file"),
        (lambda p: p.write_bytes(b"\x00" * 21_000_000), "cards.xlsx:1:1: file is over 20 MB"),
    ],
    ids=[
        "empty-sheet",
        "header-only",
        "no-id-column",
        "duplicate-ids",
        "formula-no-value",
        "merged",
        "value-under-no-column",
        "found-by-the-game-at-its-cell",
        "not-a-zip",
        "too-big",
    ],
)
def test_a_bad_workbook_to_import_is_one_line_and_writes_nothing(
    studio: Path, capsys: pytest.CaptureFixture[str], make: Any, expected: str
) -> None:
    (studio / "cards.yaml").write_text("cards:\n  - {id: keep, kind: plain, name: Keep}\n")
    before = (studio / "cards.yaml").read_bytes()
    make(studio.parent.parent / "cards.xlsx")
    assert main(["import", "xlsx", "cards.xlsx", "--into", "sheet-game"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err, err
    assert (studio / "cards.yaml").read_bytes() == before


def test_the_sheet_to_import_may_be_named(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An empty first sheet names the others; --sheet takes the cards from one of them."""
    import openpyxl

    (studio / "cards.yaml").write_text("cards:\n  - {id: keep, kind: plain, name: Keep}\n")
    book = openpyxl.Workbook()
    assert book.active is not None
    book.active.title = "Notes"
    cards = book.create_sheet("Cards")
    for row in (["id", "kind", "name"], ["keep", "plain", "Kept"]):
        cards.append(row)
    book.save(studio.parent.parent / "cards.xlsx")
    assert main(["import", "xlsx", "cards.xlsx", "--into", "sheet-game"]) == 2
    err = capsys.readouterr().err
    assert "cards.xlsx:Notes!A1: sheet 'Notes' is empty" in err and "the workbook's other sheets: Cards" in err
    assert main(["import", "xlsx", "cards.xlsx", "--into", "sheet-game", "--sheet", "Cards"]) == 0
    assert "name: Kept" in (studio / "cards.yaml").read_text()
    assert main(["import", "xlsx", "cards.xlsx", "--into", "sheet-game", "--sheet", "Cards"]) == 0
    assert "nothing to write" in capsys.readouterr().out


def test_a_zip_bomb_workbook_is_refused_before_it_is_unpacked(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import zipfile

    (studio / "cards.yaml").write_text("cards:\n  - {id: keep, kind: plain, name: Keep}\n")
    bomb = studio.parent.parent / "cards.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"<" + b" " * 150_000_000 + b">")  # 150 MB of spaces, packed
    assert bomb.stat().st_size < 1_000_000
    assert main(["import", "xlsx", "cards.xlsx", "--into", "sheet-game"]) == 2
    assert "unpacks to 150 MB: expected at most 100 MB" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ("a,plain,A,one,two\n", "cards.csv:2:5: 'two' under no column name: expected a name for column 5 in row 1"),
        ("a,plain\n", "cards.csv:2:3: 2 cells, the header 4: expected a cell for each column"),
        ("a,plain,A,art/none.png\n", "cards.csv:2:4: cards[0].art: art/none.png: cannot read"),
        ("a,plain,A,\nb,toy,B,\n", "cards.csv:3:2: cards[1].kind: unknown kind 'toy'"),
    ],
    ids=["row-wider-than-the-header", "row-shorter-than-the-header", "found-by-the-game", "bad-kind"],
)
def test_a_bad_csv_row_is_named_at_its_cell_and_writes_nothing(
    studio: Path, capsys: pytest.CaptureFixture[str], rows: str, expected: str
) -> None:
    (studio / "cards.yaml").write_text("cards:\n  - {id: keep, kind: plain, name: Keep}\n")
    before = (studio / "cards.yaml").read_bytes()
    (studio.parent.parent / "cards.csv").write_text("id,kind,name,art\n" + rows)
    assert main(["import", "csv", "cards.csv", "--into", "sheet-game"]) == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1, err
    assert (studio / "cards.yaml").read_bytes() == before


def test_a_csv_in_another_encoding_is_named_at_its_line(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (studio / "cards.yaml").write_text("cards:\n  - {id: keep, kind: plain, name: Keep}\n")
    (studio.parent.parent / "cards.csv").write_bytes("id,kind,name\na,plain,Ärger\n".encode("latin-1"))
    assert main(["import", "csv", "cards.csv", "--into", "sheet-game"]) == 2
    assert "cards.csv:2:1: expected UTF-8 text" in capsys.readouterr().err


def test_a_sheet_named_twice_is_one_line_at_its_entry(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _uses(studio, "{file: cards.csv}, {file: cards.csv}")  # a stranger's list of the same sheet a thousand times
    (studio / "cards.csv").write_text("id,kind,name,text\nnovel,plain,Novel,Read it.\n")
    assert main(["validate"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "cards/sheet-game/game.yaml:5:34: card_sheets[1]: cards.csv is named twice in card_sheets: name it once"
        " [printkit help spreadsheets]"
    ]


def test_the_sheets_together_are_held_to_the_row_limit(
    studio: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from printkit.data import table

    monkeypatch.setattr(table, "MAX_ROWS", 3)
    _uses(studio, "{file: one.csv}, {file: two.csv}, {file: three.csv}")
    for name in ("one", "two", "three"):
        (studio / f"{name}.csv").write_text(f"id,kind,name,text\n{name}a,plain,A,a\n{name}b,plain,B,b\n")
    assert main(["validate"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("cards/sheet-game/game.yaml:5:32: ")
    assert "card_sheets[1]: more than 3 cards in the game's sheets together" in err[0]
