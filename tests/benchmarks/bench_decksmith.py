"""Benchmark: a 54-card deck's print sheets by printkit against decksmith, whole processes, interleaved.

Run: python tests/benchmarks/bench_decksmith.py [--decksmith PATH] [--rounds N]
decksmith is a peer card tool (pip install decksmith, best in a virtual environment of its own; --decksmith names
its command). Each tool starts from the same 54 cards, a title and two lines of text each, and ends with a PDF of
sheets: for decksmith `decksmith build` (a PNG a card) then `decksmith export` (the PNGs onto A4 pages), from the
project `decksmith init` writes; for printkit `printkit build --only cards --paper a4 --no-check` of a game with
the same cards (bleed, crop marks and backs too). The rounds alternate the tools, so a busy machine slows both
alike; the best round of each is its time. Goal (#33): printkit at most 0.10 of decksmith's wall time.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CARDS = 54
GOAL = 0.10


def _texts(i: int) -> tuple[str, str, str]:
    return f"Card number {i}", f"Card {i}: draw {i % 5 + 1} cards, then attack for {i % 9 + 1}.", f"Power {i % 10}"


def _decksmith_project(command: str, folder: Path) -> None:
    folder.mkdir()
    subprocess.run([command, "init"], cwd=folder, check=True, capture_output=True)
    rows = ["title;first-paragraph;second-paragraph", *(";".join(_texts(i)) for i in range(CARDS))]
    (folder / "deck.csv").write_text("\n".join(rows) + "\n")


def _printkit_game(folder: Path) -> None:
    folder.mkdir()
    (folder / "game.yaml").write_text(
        "title: Benchmark\ncredit: The deck decksmith builds, for comparison.\n"
        'decks:\n  - {id: main, name: Main, back: {title: Benchmark, colour: "#34495e"}, include: {kind: plain}}\n'
    )
    lines = ["cards:"]
    for i in range(CARDS):
        name, first, second = _texts(i)
        lines.append(f'  - {{id: c{i}, kind: plain, name: "{name}", text: "{first} {second}"}}')
    (folder / "cards.yaml").write_text("\n".join(lines) + "\n")


def _seconds(argv: list[str], where: Path) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=where, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--decksmith", default="decksmith", help="the decksmith command (default: on the PATH)")
    options.add_argument("--rounds", type=int, default=3)
    args = options.parse_args()
    command = shutil.which(args.decksmith)
    if command is None:
        print(f"no {args.decksmith!r} command: pip install decksmith (in a venv of its own), then --decksmith PATH")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _decksmith_project(command, root / "decksmith")
        _printkit_game(root / "deck")
        theirs: list[float] = []
        ours: list[float] = []
        for round_ in range(args.rounds):
            shutil.rmtree(root / "decksmith" / "output", ignore_errors=True)
            theirs.append(
                _seconds([command, "build"], root / "decksmith")
                + _seconds([command, "export", "output", "--output", f"sheets-{round_}.pdf"], root / "decksmith")
            )
            argv = [sys.executable, "-m", "printkit", "build", "deck", "--only", "cards", "--paper", "a4"]
            ours.append(_seconds([*argv, "--no-check", "-q", "--out", f"out-{round_}"], root))
        made = sorted((root / "decksmith" / "output").glob("*.png"))
        assert len(made) == CARDS, f"decksmith drew {len(made)} cards"
        assert (root / "out-0" / "deck" / "cards-a4.pdf").is_file()
    best_theirs, best_ours = min(theirs), min(ours)
    ratio = best_ours / best_theirs
    print(f"{CARDS} cards to A4 sheets, whole processes, best of {args.rounds} interleaved rounds:")
    print(f"  decksmith build + export: {best_theirs:.2f} s ({', '.join(f'{t:.2f}' for t in theirs)})")
    print(f"  printkit build --only cards: {best_ours:.2f} s ({', '.join(f'{t:.2f}' for t in ours)})")
    verdict = "met" if ratio <= GOAL else "MISSED"
    print(f"  printkit at {ratio:.3f} of decksmith's time (goal at most {GOAL}): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
