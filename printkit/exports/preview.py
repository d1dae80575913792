"""`printkit preview`: a contact sheet PNG per deck, every card small, for a look without printing."""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image

from printkit.core import atomic
from printkit.data.game import Game
from printkit.data.settings import PrintSettings
from printkit.draw import raster
from printkit.sheets.designs import card_faces

DPI = 60
COLUMNS = 10
GAP = 8


def export(game: Game, folder: Path, settings: PrintSettings) -> list[Path]:
    """One contact sheet per deck: its cards in deck order, then its back."""
    faces = card_faces(game, settings.card_size)
    with atomic.landing(folder) as batch:  # every deck's sheet, or none when the disk refuses one
        for deck in game.decks:
            mine = [f for f in faces if f.deck == deck.deck.id]  # the cards in deck order, then the back
            images = raster.pictures(game, mine, 0.0, DPI)
            w, h = images[0].size
            cols = min(COLUMNS, len(images))
            rows = math.ceil(len(images) / cols)
            sheet = Image.new("RGB", (cols * (w + GAP) + GAP, rows * (h + GAP) + GAP), "#d9d9d9")
            for i, image in enumerate(images):
                sheet.paste(image, (GAP + (i % cols) * (w + GAP), GAP + (i // cols) * (h + GAP)))
            batch.write(folder / f"{deck.deck.id}.png", raster.png(sheet, dpi=DPI))
    return batch.landed
