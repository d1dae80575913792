"""A spreadsheet as the cards' source: read on every build, each cell typed by the model, problems named by cell."""

from __future__ import annotations

import io
from pathlib import Path

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
            "{file: cards.xlsx}",
            [HEADER, ["a", "plain", "A", 1], ["a", "plain", "Again", 2]],
            "cards.xlsx:Deck!A3: cards[1].id: duplicate card id 'a'",
        ),
    ],
    ids=["bad-cell", "formula-without-value", "missing-sheet", "duplicate-id"],
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


def test_a_file_that_is_no_spreadsheet_is_one_line(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _uses(studio, "{file: cards.xlsx}")
    (studio / "cards.xlsx").write_bytes(b"PK but not really a zip")
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cards.xlsx:1:1: not an XLSX file" in err
