"""Benchmark: the five rules booklets, whole process, one size at a time; their page counts; and the
reference site's size.

Run: python tests/benchmarks/bench_booklets.py
Goal from the booklet issue: the five booklets together in at most 4 s whole process.
The page counts are printed per game and page size (A5 and half-letter fold into saddle-stitched
sheets, so their counts are padded to a multiple of 4 on paper: that count is shown too).
Goal from the reference issue: each game's page loads under 300 KB of HTML, CSS and JS, pictures left out.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPT = """
import sys
from printkit.data.loader import bundled_games, load_game
from printkit.data.settings import PrintSettings
from printkit.docs import booklet
for folder in bundled_games():
    game = load_game(folder)
    booklet.build(game, sys.argv[1], booklet.Diagrams(game, PrintSettings()))
"""


PAGES = """
import io, sys
from pypdf import PdfReader
from printkit.data.loader import bundled_games, load_game
from printkit.data.settings import PrintSettings
from printkit.docs import booklet
for folder in bundled_games():
    game = load_game(folder)
    diagrams = booklet.Diagrams(game, PrintSettings())
    counts = [len(PdfReader(io.BytesIO(booklet.build(game, size, diagrams))).pages) for size in booklet.PAGE_SIZES]
    print(folder.name, *counts)
"""


def page_counts() -> None:
    """Each booklet's pages, per game and page size, made as a build makes them."""
    from printkit.docs.booklet import PAGE_SIZES, SADDLE

    out = subprocess.run([sys.executable, "-c", PAGES], check=True, capture_output=True, text=True).stdout
    sizes = list(PAGE_SIZES)
    print(f"{'booklet pages':<18}" + "".join(f"{s:>17}" for s in sizes))
    for line in out.split("\n"):
        if not line.strip():
            continue
        slug, *counts = line.split()
        cells = [
            f"{n} ({-(-int(n) // 4) * 4} folded)" if size in SADDLE else n
            for size, n in zip(sizes, counts, strict=True)
        ]
        print(f"{slug:<18}" + "".join(f"{c:>17}" for c in cells))


CLI = "import sys; from printkit.cli import main; sys.exit(main(sys.argv[1:]))"


def site() -> None:
    """The reference site of the five games built twice (its pictures kept from the first), and its size."""
    from printkit.docs import refsite

    with tempfile.TemporaryDirectory() as folder:
        env = os.environ | {"PRINTKIT_CACHE": str(Path(folder) / "cache")}
        out = Path(folder) / "out"
        for run in ("nothing kept", "pictures kept"):
            start = time.perf_counter()
            command = ["build", "--only", "reference", "--no-check", "--out", str(out), "-q"]
            subprocess.run([sys.executable, "-c", CLI, *command], check=True, env=env)
            print(f"reference site, five games, {run}: {time.perf_counter() - start:.1f} s")
        reference = out / "reference"
        shared = sum((reference / name).stat().st_size for name in refsite.ASSETS)
        front = (reference / "index.html").stat().st_size
        print(f"shared CSS and JS: {shared / 1000:.1f} KB; front page {front / 1000:.1f} KB")
        total = 0
        for game in sorted(p for p in reference.iterdir() if p.is_dir()):
            pages = {name: (game / name).stat().st_size + shared for name in (refsite.RULES_PAGE, refsite.CARDS_PAGE)}
            pictures = sum(p.stat().st_size for p in game.rglob("*.png"))
            count = len(list(game.rglob("*.png")))
            size = sum(p.stat().st_size for p in game.rglob("*") if p.is_file())
            total += size
            print(
                f"  {game.name}: rules page {pages[refsite.RULES_PAGE] / 1000:.0f} KB, cards page "
                f"{pages[refsite.CARDS_PAGE] / 1000:.0f} KB of HTML+CSS+JS (budget 300 KB); "
                f"{count} pictures, {pictures / 1e6:.1f} MB; folder {size / 1e6:.1f} MB"
            )
        print(f"the whole site: {(total + shared) / 1e6:.1f} MB")


def main() -> None:
    page_counts()
    for size in ("a5", "a4"):
        times = []
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", SCRIPT, size], check=True)
            times.append(time.perf_counter() - start)
        print(
            f"five {size.upper()} booklets, one process: best {min(times):.2f} s "
            f"(runs {', '.join(f'{t:.2f}' for t in times)})"
        )


if __name__ == "__main__":
    main()
    site()
