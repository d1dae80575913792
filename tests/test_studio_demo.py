"""The studio's whole path at once: a 54-card game whose cards come from an XLSX sheet, each with its own
picture, printed in the game's own font with an icon of its own, reaches the sheets, PNG, TTS and a print-shop
pack, every one showing the art. Everything it uses is made here: pictures by Pillow, the icon as SVG text,
the font a copy of one the system provides."""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path

import demogame
import pypdfium2 as pdfium
import pytest
from demogame import CARDS, COLOURS, GREEN
from PIL import Image

from printkit.cli import main

MM = 72 / 25.4


def _close(pixel: tuple[int, ...], colour: tuple[int, int, int], slack: int = 14) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(pixel, colour, strict=False))


def _art_centre(image: Image.Image, bleed_px: float, dpi: float) -> tuple[int, ...]:
    """The pixel at the middle of plain.yaml's art region (6, 16, 51.5 x 28 mm) of a card image."""
    x = bleed_px + (6 + 25.75) / 25.4 * dpi
    y = bleed_px + (16 + 14) / 25.4 * dpi
    return tuple(image.convert("RGB").getpixel((round(x), round(y))))


def _greens(image: Image.Image) -> int:
    rgb = image.convert("RGB")
    return sum(1 for x in range(rgb.width) for y in range(rgb.height) if _close(rgb.getpixel((x, y)), GREEN, 10))


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo project, built and exported once for every test here."""
    studio = tmp_path_factory.mktemp("studio")
    here = Path.cwd()
    try:
        os.chdir(studio)
        assert main(["init", "-q"]) == 0
        assert main(["new", "Demo Game", "-q"]) == 0
        demogame.write(studio / "cards" / demogame.SLUG)
        assert main(["validate", "-q"]) == 0
        assert main(["build", "--only", "cards", "--paper", "a4", "--no-check", "-q"]) == 0
        assert main(["export", "png", "demo-game", "--dpi", "100", "-q"]) == 0
        assert main(["export", "tts", "demo-game", "-q"]) == 0
        assert main(["export", "printshop", "demo-game", "--service", "mpc", "-q"]) == 0
    finally:
        os.chdir(here)
    return studio / "output" / "demo-game"


def test_the_sheets_show_every_card_its_art_font_and_icon(demo: Path) -> None:
    pdf = (demo / "cards-a4.pdf").read_bytes()
    assert b"DejaVuSerif-Bold" in pdf  # the game's own font file, embedded
    faces = [s for s in json.loads((demo / "cards-a4.json").read_text())["slots"] if s["side"] == "face"]
    assert sorted(s["id"] for s in faces) == [f"c{i:02}" for i in range(CARDS)]
    page = pdfium.PdfDocument(pdf)[0].render(scale=100 / 72).to_pil().convert("RGB")
    assert _greens(page) > 100  # the rune, on each of the page's cards
    for slot in faces[:9]:  # the first page
        top = page.height - (slot["y"] + slot["h"]) * 100 / 72
        x = (slot["x"] + (6 + 25.75) * MM) * 100 / 72
        y = top + (16 + 14) * MM * 100 / 72
        assert _close(page.getpixel((round(x), round(y))), COLOURS[int(slot["id"][1:]) % 3]), slot["id"]


def test_every_png_shows_its_cards_art(demo: Path) -> None:
    images = sorted((demo / "png" / "main").glob("0*.png"))  # the faces; back.png beside them
    assert len(images) == CARDS
    bleed = 3 / 25.4 * 100
    for i, path in enumerate(images):
        assert _close(_art_centre(Image.open(path), bleed, 100), COLOURS[i % 3]), path.name
    assert _greens(Image.open(images[0])) > 20


def test_the_tts_deck_and_the_print_shop_pack_show_the_art(demo: Path) -> None:
    deck = json.loads((demo / "tts" / "main.json").read_text())["ObjectStates"][0]
    assert len(deck["DeckIDs"]) == CARDS
    custom = next(iter(deck["CustomDeck"].values()))
    sheet = Image.open(demo / "tts" / "main-sheet-1.png")
    cell_w, cell_h = sheet.width / custom["NumWidth"], sheet.height / custom["NumHeight"]
    dpi = cell_w / (63.5 / 25.4)
    for i in range(3):  # the first row's first cards, one of each colour
        cell = sheet.crop((round(i * cell_w), 0, round((i + 1) * cell_w), round(cell_h)))
        assert _close(_art_centre(cell, 0, dpi), COLOURS[i]), i

    with zipfile.ZipFile(demo / "printshop" / "mpc.zip") as archive:
        fronts = sorted(n for n in archive.namelist() if n.startswith("front/"))
        assert len(fronts) == CARDS
        for i, name in enumerate(fronts[:3]):
            shop = Image.open(io.BytesIO(archive.read(name)))
            assert _close(_art_centre(shop, 36, 300), COLOURS[i]), name
