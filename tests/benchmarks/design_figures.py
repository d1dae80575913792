"""Figures: pages of each bundled game's card, counter and board sheets as PNGs, to compare designs by eye.

Run: python tests/benchmarks/design_figures.py LABEL [--from BUILD]
Writes output/figures/LABEL/<game>-<part>-<page>.png (output/ is git-ignored): the first face page
and the first back page of the cards, the first counter page and the first two board tiles, on A4,
at 110 dpi. Without --from it builds the games first (cards, counters and boards, no check by
play) into a temporary folder; with --from it reads a build already made, such as one of an
older checkout, for the "before" pictures.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("battle-line", "soldier-battler", "time-line", "time-line-battle", "torah-timeline")
PAGES = {"cards": (1, 2), "counters": (1,), "boards": (1, 2)}  # page numbers, from 1; boards: tiles, maps passed
DPI = 110


def render(build: Path, out: Path) -> list[Path]:
    written = []
    out.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        for part, pages in PAGES.items():
            pdf = build / game / f"{part}-a4.pdf"
            if not pdf.is_file():
                continue
            doc = pdfium.PdfDocument(pdf)
            if part == "boards":  # the tiles show the board's design; its assembly maps only boxes
                tiles = [
                    p["page"] for b in json.loads(pdf.with_suffix(".json").read_text())["parts"] for p in b["pages"]
                ]
                maps = {
                    p["page"]
                    for b in json.loads(pdf.with_suffix(".json").read_text())["parts"]
                    for p in b["pages"]
                    if p.get("map")
                }
                pages = tuple(p for p in tiles if p not in maps)[:2]
            for number in pages:
                if number > len(doc):
                    continue
                image = doc[number - 1].render(scale=DPI / 72).to_pil()
                path = out / f"{game}-{part}-{number}.png"
                image.save(path)
                written.append(path)
            doc.close()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("label", help="the folder under output/figures/ to write, such as before or after")
    parser.add_argument("--from", dest="build", type=Path, help="a build folder to read instead of building")
    args = parser.parse_args()
    out = ROOT / "output" / "figures" / args.label
    if args.build:
        written = render(args.build, out)
    else:
        with tempfile.TemporaryDirectory() as folder:
            command = [sys.executable, "-m", "printkit", "build", *GAMES, "--only", "cards,counters,boards"]
            subprocess.run([*command, "--no-check", "--paper", "a4", "--out", folder, "-q"], check=True, cwd=ROOT)
            written = render(Path(folder), out)
    for path in written:
        print(path.relative_to(ROOT))
    print(f"{len(written)} pages at {DPI} dpi in {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
