"""Benchmark: the studio demo game's 54-card sheets in CMYK against RGB, whole process, runs interleaved.

Run: python tests/benchmarks/bench_cmyk.py [ROUNDS]
Goal from the exports issue: the CMYK cards PDF of 54 cards in at most twice the RGB time.
Each run is `printkit build <demo> --only cards --paper a4 --no-check` in a new process, with a
cache folder of its own, so both pay for starting Python, loading the game and decoding the
pictures; CMYK also builds its conversion tables and converts each picture.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import demogame


def _build(game: Path, out: Path, colour: str, cache: Path) -> float:
    command = [sys.executable, "-m", "printkit", "build", str(game), "--only", "cards", "--paper", "a4"]
    command += ["--no-check", "-q", "--out", str(out), "--colour", colour]
    start = time.perf_counter()
    subprocess.run(command, check=True, env={**os.environ, "PRINTKIT_CACHE": str(cache)})
    return time.perf_counter() - start


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / demogame.SLUG
        for name, data in demogame.files(picture=(700, 400)).items():  # the studio test's picture size
            (game / name).parent.mkdir(parents=True, exist_ok=True)
            (game / name).write_bytes(data)
        times: dict[str, list[float]] = {"rgb": [], "cmyk": []}
        for n in range(rounds):
            for colour in ("rgb", "cmyk") if n % 2 == 0 else ("cmyk", "rgb"):
                out, cache = Path(tmp) / f"out-{colour}-{n}", Path(tmp) / f"cache-{colour}-{n}"
                times[colour].append(_build(game, out, colour, cache))
        sizes = {c: (Path(tmp) / f"out-{c}-0" / demogame.SLUG / "cards-a4.pdf").stat().st_size for c in times}
        rgb, cmyk = (statistics.median(times[c]) for c in ("rgb", "cmyk"))
        for colour in times:
            shown = ", ".join(f"{t:.2f}" for t in times[colour])
            print(f"{colour}: {shown} s (median {statistics.median(times[colour]):.2f} s), {sizes[colour]:,} bytes")
        print(
            f"54-card sheets, whole process, {rounds} rounds interleaved on {os.cpu_count()} cores: "
            f"CMYK {cmyk / rgb:.2f}x the RGB time (goal: at most 2x)"
        )


if __name__ == "__main__":
    main()
