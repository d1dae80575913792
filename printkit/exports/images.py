"""`printkit export png`: one PNG per card face and back, player aid, counter and board, drawn as printed.

The pictures are drawn and encoded on worker processes; this process stages each file as it comes back and
lands them all together, so a disk that refuses one leaves the last export as it was.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

from printkit.core import atomic
from printkit.core import workers as processes
from printkit.core.errors import UsageError
from printkit.data.game import Game
from printkit.data.model import BOARD_KINDS
from printkit.data.settings import PrintSettings
from printkit.draw import raster
from printkit.sheets.designs import Face, aid_faces, card_faces, counter_faces

MAX_PIXELS = 60e6  # per image: 280 mm square at 700 dpi; more is a typo, not a card
PNG_LEVEL = 1  # zlib level 1: nearly the size of level 6 here, in a fraction of the time


def _render(game: Game, faces: list[Face], dpi: float, bleed: float, folder: Path) -> list[tuple[Path, bytes]]:
    """Each face's file and its PNG, for the exporting process to write."""
    pictures = raster.pictures(game, faces, bleed, dpi)
    return [
        (folder / f"{face.name}.png", raster.png(image, PNG_LEVEL, dpi))
        for face, image in zip(faces, pictures, strict=True)
    ]


def _job(args: tuple[Game, list[Face], float, float, Path]) -> list[tuple[Path, bytes]]:
    return _render(*args)


def export(
    game: Game,
    folder: Path,
    settings: PrintSettings,
    workers: int = 2,
    progress: Callable[[int, int], None] | None = None,
) -> list[Path]:
    """Cards and backs at the settings' card size, player aids (one-sided: no back) and counters, at the settings'
    DPI and bleed (none when it is 0), then boards.

    progress(done, total) is told as the pictures are written.
    """
    dpi, bleed = settings.dpi, settings.bleed
    faces = card_faces(game, settings.card_size) + aid_faces(game, settings.card_size) + counter_faces(game)
    width, height = ((side + 2 * bleed) / 72 * dpi for side in settings.card_size)
    if width * height > MAX_PIXELS:
        raise UsageError(
            f"{game.slug}: a {settings.card} card at {dpi} dpi is {width * height / 1e6:.0f} million pixels "
            f"(at most {MAX_PIXELS / 1e6:.0f}): choose a lower --dpi"
        )
    boards = [c for c in game.info.components if c.kind in BOARD_KINDS and c.board is not None]
    total = len(faces) + len(boards)
    # small batches, so the work stays shared to the end and progress moves in steps a user can see
    size = max(1, min(16, len(faces) // (workers * 4)))
    jobs = [(game, faces[i : i + size], dpi, bleed, folder) for i in range(0, len(faces), size)]
    done = 0
    with atomic.landing(folder) as batch, contextlib.ExitStack() as stack:
        run = stack.enter_context(processes.executor(workers)).map if workers > 1 and len(jobs) > 1 else map
        for files in run(_job, jobs):
            for path, data in files:
                batch.write(path, data)
            done += len(files)
            if progress:
                progress(done, total)
        for comp in boards:
            image = raster.render_pdf(raster.board_pdf(game, comp), dpi)
            batch.write(folder / "boards" / f"{comp.id}.png", raster.png(image, PNG_LEVEL, dpi))
            done += 1
            if progress:
                progress(done, total)
    return sorted(batch.landed)
