"""A problem met while drawing a card's field is reported where that field's value is written.

Text too long for its box, a character its font lacks and art printed under 300 dpi name the
value's line and column (a block-style card's text on a later line than its id), or its
spreadsheet cell, as an unknown inline icon does: not the card's first line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from printkit.cli import main

LONG = " ".join(["rambling"] * 150)  # too long for the box, short of the 2,000 a text may hold
CARDS = f"""\
cards:
  - id: short
    kind: plain
    name: Short
    text: Fine.
  - id: long
    kind: plain
    name: Long
    stats: {{power: 2}}
    art: art/small.png
    text: >-
      {LONG}
  - id: lacking
    kind: plain
    text: Fine.
    name: "Dice \U0001f3b2"
"""
SHEET = f"id,kind,name,stats.power,art,text\nshort,plain,Short,1,,Fine.\nlong,plain,Long,2,art/small.png,{LONG}\n"
SHEET += "lacking,plain,Dice \U0001f3b2,3,,Fine.\n"


@pytest.fixture
def studio(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "."]) == 0
    assert main(["new", "Placed"]) == 0
    game = tmp_path / "cards" / "placed"
    (game / "art").mkdir()
    Image.new("RGB", (20, 20), (200, 0, 0)).save(game / "art" / "small.png")  # 20 px over 51.5 mm: 10 dpi
    capsys.readouterr()
    return tmp_path


def _problems(capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    return err.splitlines()


def _line(lines: list[str], words: str) -> str:
    found = [line for line in lines if words in line]
    assert len(found) == 1, lines
    return found[0]


def test_a_block_style_cards_problems_are_at_the_lines_of_their_values(
    studio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (studio / "cards" / "placed" / "cards.yaml").write_text(CARDS)
    lines = _problems(capsys)
    # the card starts at line 6 (- id: long); its text's value at line 11, its art at line 10, after "art: "
    assert _line(lines, "field text does not fit").startswith("cards/placed/cards.yaml:11:11: card long: ")
    assert _line(lines, "dpi in region").startswith("warning: cards/placed/cards.yaml:10:10: card long: small.png")
    assert _line(lines, "has no glyph").startswith("cards/placed/cards.yaml:16:11: card lacking: field name: ")


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_a_spreadsheet_cards_problems_are_at_their_cells(
    studio: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    game = studio / "cards" / "placed"
    (game / "cards.yaml").unlink()
    if kind == "csv":
        (game / "beasts.csv").write_text(SHEET)
    else:
        import openpyxl

        book = openpyxl.Workbook()
        sheet = book.active
        assert sheet is not None
        sheet.title = "Deck"
        for row in SHEET.splitlines():
            sheet.append(row.split(","))
        book.save(game / "beasts.xlsx")
    config = game / "game.yaml"
    config.write_text(config.read_text().replace("players: 2", f"players: 2\ncard_sheets: [{{file: beasts.{kind}}}]"))
    lines = _problems(capsys)
    # row 3 is the long card: its art in column 5 (E), its text in column 6 (F); the glyph in row 4's name (C)
    at = {"csv": ("3:6", "3:5", "4:3"), "xlsx": ("Deck!F3", "Deck!E3", "Deck!C4")}[kind]
    shown = f"cards/placed/beasts.{kind}"
    assert _line(lines, "field text does not fit").startswith(f"{shown}:{at[0]}: card long: ")
    assert _line(lines, "dpi in region").startswith(f"warning: {shown}:{at[1]}: card long: small.png")
    assert _line(lines, "has no glyph").startswith(f"{shown}:{at[2]}: card lacking: field name: ")


def test_a_deck_backs_art_is_placed_at_its_art(studio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = studio / "cards" / "placed" / "game.yaml"
    back = 'back:\n      title: Main deck\n      colour: "#34495e"\n      icon: star\n      art: art/small.png'
    text = config.read_text().replace('back: {title: Main deck, colour: "#34495e", icon: star}', back)
    config.write_text(text)
    assert main(["validate"]) == 0
    at = next(n for n, line in enumerate(text.splitlines(), 1) if "art: art/small.png" in line)
    assert f"warning: cards/placed/game.yaml:{at}:12: card main back: small.png prints at" in capsys.readouterr().err
