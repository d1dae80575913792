"""Benchmark: the five rules booklets, whole process, one size at a time; and their page counts.

Run: python tests/benchmarks/bench_booklets.py
Goal from the booklet issue: the five booklets together in at most 4 s whole process.
The page counts are printed per game and page size (A5 and half-letter fold into saddle-stitched
sheets, so their counts are padded to a multiple of 4 on paper: that count is shown too).
"""

from __future__ import annotations

import subprocess
import sys
import time

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
