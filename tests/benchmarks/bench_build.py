"""Benchmark: the whole `printkit build` of every bundled game (cards, counters, boards, bundles, both papers).

Run: python tests/benchmarks/bench_build.py
Goal from the boards issue: at most 5 s for the whole process on a 2-core machine.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time


def main() -> None:
    times = []
    with tempfile.TemporaryDirectory() as out:
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "printkit", "build", "--out", out], check=True, capture_output=True)
            times.append(time.perf_counter() - start)
    print(
        f"printkit build, all bundled games, A4 and Letter: best {min(times):.2f} s, "
        f"runs {', '.join(f'{t:.2f}' for t in times)} s"
    )


if __name__ == "__main__":
    main()
