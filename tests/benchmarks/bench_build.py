"""Benchmark: the whole `printkit build` of every bundled game, and its printed parts alone.

Run: python tests/benchmarks/bench_build.py
Goal from the boards issue: cards, boards, counters and bundles of all five games in at most
5 s whole process on a 2-core machine. The full build now also makes the rules booklets and
the reference site, so the printed parts are timed on their own too, in one process.
Then the paper each game takes: pages of cards, counters and boards per paper, at the games' own
print settings (issue 18 asked for fewer; the figures before its packing are in its commit).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time

PARTS = """
from printkit import build
from printkit.core import project
from printkit.data import settings
from printkit.data.loader import bundled_games, load_game
for folder in bundled_games():
    game = load_game(folder)
    chosen = settings.resolve(game, project.find())
    for paper in chosen.papers:
        build.paper_parts(game, chosen, paper, parts=frozenset({"cards", "counters", "boards", "bundle"}))
"""

PAGES = """
import io
from pypdf import PdfReader
from printkit import build
from printkit.core import project
from printkit.data import settings
from printkit.data.loader import bundled_games, load_game
totals = {}
for folder in bundled_games():
    game = load_game(folder)
    chosen = settings.resolve(game, project.find())
    for paper in chosen.papers:
        files = build.paper_parts(game, chosen, paper, parts=frozenset({"cards", "counters", "boards"}))
        pages = {name.split("-")[0]: len(PdfReader(io.BytesIO(data)).pages)
                 for name, data in files.items() if name.endswith(".pdf") and data is not None}
        total = sum(pages.values())
        totals[paper] = totals.get(paper, 0) + total
        parts = "  ".join(f"{part} {pages.get(part, 0):2d}" for part in ("cards", "counters", "boards"))
        print(f"  {game.slug:17} {paper:6}  {parts}  total {total:3d}")
print("  all five games: " + ", ".join(f"{paper} {total} pages" for paper, total in totals.items()))
"""


def best(command: list[str]) -> tuple[float, list[float]]:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return min(times), times


def main() -> None:
    with tempfile.TemporaryDirectory() as out:
        full, runs = best([sys.executable, "-m", "printkit", "build", "--out", out])
    print(
        f"printkit build, all five games, A4 and Letter, everything (booklets and site too): best {full:.2f} s "
        f"(runs {', '.join(f'{t:.2f}' for t in runs)})"
    )
    parts, runs = best([sys.executable, "-c", PARTS])
    print(
        f"cards, boards, counters and bundles of all five games, both papers, one process: best {parts:.2f} s "
        f"(runs {', '.join(f'{t:.2f}' for t in runs)})"
    )
    pages = subprocess.run([sys.executable, "-c", PAGES], check=True, capture_output=True, text=True).stdout
    print("pages printed per game (cards, counters, boards; each side of a sheet a page):\n" + pages, end="")


if __name__ == "__main__":
    main()
