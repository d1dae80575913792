"""Benchmark: the five rules booklets, whole process, one size at a time.

Run: python tests/benchmarks/bench_booklets.py
Goal from the booklet issue: the five booklets together in at most 4 s whole process.
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


def main() -> None:
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
