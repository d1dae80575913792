"""The studio's 54-card demo game, made from nothing: cards in an XLSX sheet, a picture each, its own font and icon.

Shared by the studio test, which builds and exports it, and the fuzzer, which breaks it. Everything is
made here: pictures by Pillow, the icon as SVG text, the font a copy of one the system provides, the
game folder's other files by `printkit new`.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

from printkit.draw import fonts

NAME = "Demo Game"
SLUG = "demo-game"
CARDS = 54
COLOURS = [(200, 30, 160), (30, 160, 200), (230, 140, 20)]  # the pictures' colours, card by card in turn
GREEN = (0, 200, 83)  # the icon's
RUNE = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
    '<rect width="10" height="10" fill="#00c853"/></svg>'
)
# the game's own layout: the built-in plain one, its name printed in the game's font
LAYOUT = "extends: plain\nregions:\n  name: {font: title}\n"
HEADER = ["id", "kind", "name", "text", "art", "stats.power"]


def sheet_rows() -> list[list[object]]:
    """The Deck sheet: a header, then one row per card."""
    return [HEADER] + [
        [f"c{i:02}", "plain", f"Card {i}", "Cast {rune} now.", f"art/c{i:02}.png", i % 6] for i in range(CARDS)
    ]


def workbook(rows: list[list[object]]) -> bytes:
    """rows as the XLSX file's one sheet, named Deck."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Deck"
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def write(game: Path, picture: tuple[int, int] = (700, 400)) -> None:
    """Turn the folder `printkit new` made into the demo game: its cards.yaml gives way to the sheet."""
    (game / "cards.yaml").unlink()
    for sub in ("art", "icons", "fonts", "layouts"):
        (game / sub).mkdir()
    (game / "icons" / "rune.svg").write_text(RUNE)
    shutil.copy(fonts.font_file("serif-bold"), game / "fonts" / "title.ttf")
    (game / "layouts" / "plain.yaml").write_text(LAYOUT)
    for i in range(CARDS):
        Image.new("RGB", picture, COLOURS[i % 3]).save(game / "art" / f"c{i:02}.png")
    (game / "cards.xlsx").write_bytes(workbook(sheet_rows()))
    game_yaml = game / "game.yaml"
    game_yaml.write_text(
        game_yaml.read_text().replace(
            "players: 2",
            "players: 2\ncard_sheets: [{file: cards.xlsx, sheet: Deck}]\nfonts:\n  title: {file: fonts/title.ttf}\n",
        )
    )


def files(picture: tuple[int, int] = (70, 40)) -> dict[str, bytes]:
    """The demo game's folder as relative path -> bytes (small pictures: the fuzzer reads them thousands of times)."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "printkit", "init", "-q", tmp], check=True)
        subprocess.run([sys.executable, "-m", "printkit", "new", NAME, "-q"], cwd=tmp, check=True)
        game = Path(tmp) / "cards" / SLUG
        write(game, picture)
        return {p.relative_to(game).as_posix(): p.read_bytes() for p in sorted(game.rglob("*")) if p.is_file()}
