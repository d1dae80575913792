"""Benchmark: a designer's loop, whole process. Cold: `printkit build --only cards` of a 54-card game with
a picture on every card. Warm: under `build --watch`, the time from saving a one-card edit of a 100-card
deck with pictures to the rebuild's line.

Run: python tests/benchmarks/bench_studio.py
Goals from the studio issue: cold <= 1.5 s; warm <= 1 s. Also `export png` of the 54 cards cold, with every
picture kept from the run before (drawcache), and after a one-card edit, whose files must equal a cold export's.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image


def _game(folder: Path, cards: int) -> Path:
    subprocess.run([sys.executable, "-m", "printkit", "init", "-q", str(folder)], check=True)
    subprocess.run([sys.executable, "-m", "printkit", "new", "Bench", "-q"], cwd=folder, check=True)
    game = folder / "cards" / "bench"
    (game / "art").mkdir()
    lines = ["cards:"]
    for i in range(cards):
        Image.new("RGB", (900, 500), (40 + i * 2 % 200, 90, 160)).save(game / "art" / f"c{i}.png")
        lines.append(
            f"  - {{id: c{i}, kind: plain, name: Card {i}, text: 'Card {i} does {i % 7} things.', art: art/c{i}.png}}"
        )
    (game / "cards.yaml").write_text("\n".join(lines) + "\n")
    return game


def cold() -> list[float]:
    times = []
    for _ in range(3):
        with tempfile.TemporaryDirectory() as tmp:
            _game(Path(tmp), 54)
            start = time.perf_counter()
            command = ["build", "--only", "cards", "--no-check", "--paper", "a4", "-q"]
            subprocess.run([sys.executable, "-m", "printkit", *command], cwd=tmp, check=True)
            times.append(time.perf_counter() - start)
    return times


def warm() -> list[float]:
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        game = _game(Path(tmp), 100)
        log = Path(tmp) / "watch.log"
        command = ["build", "--watch", "--only", "cards", "--no-check", "--paper", "a4", "--port", "0"]
        with log.open("w") as sink:
            watcher = subprocess.Popen([sys.executable, "-m", "printkit", *command], cwd=tmp, stdout=sink, stderr=sink)
        try:
            while "watching" not in log.read_text():
                time.sleep(0.02)
            cards = game / "cards.yaml"
            for n in range(5):
                seen = log.read_text().count("rebuilt")
                cards.write_text(cards.read_text().replace(f"Card {n} does", f"Card {n} now does", 1))
                start = time.perf_counter()
                while log.read_text().count("rebuilt") == seen:
                    time.sleep(0.005)
                times.append(time.perf_counter() - start)
        finally:
            watcher.terminate()
            watcher.wait()
        print("watch log's rebuild lines:", *re.findall(r"rebuilt.*", log.read_text()), sep="\n  ")
    return times


def _pictures(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.png"))}


def export_png() -> tuple[float, float, float, bool]:
    """`export png` of 54 cards with art at 300 dpi: with no kept pictures, again with all kept, and after a
    one-card edit (one drawn, the rest kept); whether that run wrote what a cold export of the edit writes."""
    with tempfile.TemporaryDirectory() as tmp:
        game = _game(Path(tmp), 54)
        command = [sys.executable, "-m", "printkit", "export", "png", "bench", "--dpi", "300", "-q"]
        times = []
        for step in ("cold", "warm", "edited"):
            if step == "edited":
                cards = game / "cards.yaml"
                cards.write_text(cards.read_text().replace("Card 7 does", "Card 7 now does", 1))
            start = time.perf_counter()
            subprocess.run(command, cwd=tmp, check=True)
            times.append(time.perf_counter() - start)
        warm = _pictures(Path(tmp) / "output" / "bench" / "png")
        subprocess.run([*command, "--out", "cold"], cwd=tmp, check=True)
        same = _pictures(Path(tmp) / "cold" / "bench" / "png") == warm
    return times[0], times[1], times[2], same


def main() -> None:
    times = cold()
    runs = ", ".join(f"{t:.2f}" for t in times)
    print(f"cold build, 54 cards with art, cards only, A4: best {min(times):.2f} s (runs {runs})")
    cold_png, warm_png, edited_png, same = export_png()
    print(
        f"export png, 54 cards with art, 300 dpi: cold {cold_png:.2f} s, all pictures kept {warm_png:.2f} s, "
        f"one card edited {edited_png:.2f} s; the edited run's files {'equal' if same else 'DIFFER FROM'} a cold run's"
    )
    times = warm()
    print(
        f"watch, one card of 100 edited, save to rebuilt line: best {min(times):.2f} s, "
        f"worst {max(times):.2f} s (runs {', '.join(f'{t:.2f}' for t in times)})"
    )


if __name__ == "__main__":
    main()
