"""Benchmark: card images at 300 DPI, one 70-card Tabletop Simulator sheet, and an XLSX round trip.

Run: python tests/benchmarks/bench_exports.py
Goals from the exports issues: at least 50 cards/s per core at 300 DPI; a 70-card TTS sheet in
at most 3 s and 400 MB (whole process); XLSX export and import of Time Line's 74 cards in at
most 2 s (whole processes).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from printkit.data.loader import bundled_games, load_game
from printkit.data.settings import PrintSettings
from printkit.exports import images
from printkit.sheets.designs import card_faces

SHEET = """
import resource, sys
from pathlib import Path
from printkit.data.loader import load_game
from printkit.data.settings import PrintSettings
from printkit.exports import tts
tts.export(load_game(Path(sys.argv[1])), Path(sys.argv[2]), PrintSettings())
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def plain_deck(folder: Path, cards: int, title: str) -> None:
    """A game of one deck of plain cards, each of its own words: as many card pictures as cards."""
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(
        f"title: {title}\ncredit: A benchmark deck.\ndecks:\n"
        f"  - {{id: main, name: Main, back: {{title: {title}, colour: '#335577'}}, include: {{kind: plain}}}}\n"
    )
    (folder / "cards.yaml").write_text(
        "cards:\n"
        + "".join(
            f"  - {{id: c{i}, kind: plain, name: Card {i}, text: 'Card {i} does {i % 7} things.'}}\n"
            for i in range(cards)
        )
    )


def main() -> None:
    games = [load_game(folder) for folder in bundled_games()]
    with tempfile.TemporaryDirectory() as tmp:
        count, start = 0, time.perf_counter()
        for game in games:  # card faces and backs only, one process: the per-core rate
            faces = card_faces(game, PrintSettings().card_size)
            count += len(faces)
            images._render(game, faces, 300, 3 * 72 / 25.4, Path(tmp) / "one" / game.slug)
        seconds = time.perf_counter() - start
        print(
            f"PNG at 300 DPI with bleed, one core: {count} card faces and backs in {seconds:.1f} s: "
            f"{count / seconds:.0f} cards/s"
        )
        start = time.perf_counter()
        for game in games:
            images.export(game, Path(tmp) / "all" / game.slug, PrintSettings(dpi=300), workers=2)
        print(
            f"printkit export png for all five games (cards, backs, counters, boards), 2 workers: "
            f"{time.perf_counter() - start:.1f} s"
        )
        folder = Path(tmp) / "deck70"
        plain_deck(folder, 70, "Seventy")
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", SHEET, str(folder), str(Path(tmp) / "tts")],
            check=True,
            capture_output=True,
            text=True,
        )
        print(
            f"TTS, one 70-card sheet: {time.perf_counter() - start:.2f} s whole process, "
            f"peak {int(done.stdout.split()[-1]) / 1024:.0f} MB ({os.cpu_count()} cores)"
        )
        project = Path(tmp) / "project"
        subprocess.run([sys.executable, "-m", "printkit", "init", "-q", str(project)], check=True)
        shutil.copytree(Path(__file__).resolve().parents[2] / "cards" / "time-line", project / "cards" / "tl")
        start = time.perf_counter()
        for command in (["export", "xlsx", "tl", "--out", "out"], ["import", "xlsx", "out/tl/tl.xlsx", "--into", "tl"]):
            subprocess.run([sys.executable, "-m", "printkit", *command, "-q"], cwd=project, check=True)
        print(f"XLSX export and import of Time Line's 74 cards: {time.perf_counter() - start:.2f} s, two processes")


if __name__ == "__main__":
    main()
