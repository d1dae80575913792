"""Benchmark: `printkit validate` of a game set in a CFF (PostScript-outline) OpenType font, against the same game
set in that font's TrueType form.

Run: python tests/benchmarks/bench_fonts.py [--rounds N] [--font PATH]
Goal (#33): within 1.2x after the first run, which converts the font once and keeps it in the cache. The first
run's time is printed too; the rounds are interleaved so a busy machine slows both games alike.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL = 1.2
DEFAULT = "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf"  # Debian's fonts-urw-base35


def _printkit(args: list[str], where: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "printkit", *args], cwd=where, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def _game(project: Path, name: str, font: Path, env: dict[str, str]) -> None:
    _printkit(["new", name, "-q"], project, env)
    folder = project / "cards" / name.lower()
    (folder / "fonts").mkdir()
    shutil.copy(font, folder / "fonts" / font.name)
    game = folder / "game.yaml"
    game.write_text(game.read_text() + f"fonts:\n  body: {{file: fonts/{font.name}}}\n")
    (project / "layouts" / "plain.yaml").write_text(
        "extends: plain\nregions:\n  text: {font: body}\n  name: {font: body}\n"
    )


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--rounds", type=int, default=7)
    options.add_argument("--font", type=Path, default=Path(DEFAULT))
    args = options.parse_args()
    otf = args.font.read_bytes()
    if otf[:4] != b"OTTO":
        print(f"{args.font}: not an OpenType font of CFF outlines")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        env = {**os.environ, "PRINTKIT_CACHE": str(home / "cache")}
        project = home / "project"
        subprocess.run([sys.executable, "-m", "printkit", "init", "-q", str(project)], check=True, env=env)
        _game(project, "Cff", args.font, env)
        first = _printkit(["validate", "cff"], project, env)
        (kept,) = (home / "cache" / "fonts").glob(f"{hashlib.sha256(otf).hexdigest()}-*.ttf")
        ttf = home / (args.font.stem + ".ttf")
        ttf.write_bytes(kept.read_bytes()[32:])  # the same outlines, as TrueType: what the cache holds
        _game(project, "Ttf", ttf, env)
        best = {"cff": first, "ttf": _printkit(["validate", "ttf"], project, env)}
        for _ in range(args.rounds):
            for name in best:
                best[name] = min(best[name], _printkit(["validate", name], project, env))
    ratio = best["cff"] / best["ttf"]
    print(f"{args.font.name}: validate's first run {first:.2f} s (the conversion, then kept)")
    print(f"best of {args.rounds} interleaved rounds: CFF {best['cff']:.2f} s, TrueType {best['ttf']:.2f} s")
    verdict = "met" if ratio <= GOAL else "MISSED"
    print(f"CFF / TrueType after the first run: {ratio:.2f}x (goal: within {GOAL}x): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
