"""Everything printed for one game on one paper: card sheets, counters, boards and the bundle of them all."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from . import atomic, boards, bundle, cardsheets, counters
from .cardsheets import SheetOptions
from .game import Game
from .pieces import Manifest
from .summary import plural

SIDES = {
    "long": "double-sided, flip on the long edge",
    "short": "double-sided, flip on the short edge",
    "none": "single-sided (backs on their own pages)",
}


def write(game: Game, options: SheetOptions, folder: Path) -> list[Path]:
    """Build every part in memory first, then write each file whole; return the paths written."""
    files: dict[str, bytes | str] = {}
    parts: list[bundle.Part] = []
    cards_pdf, cards_manifest = cardsheets.build(game, options)
    cards_name = cardsheets.output_name(options)
    files[cards_name] = cards_pdf
    files[cards_name.replace(".pdf", ".json")] = cards_manifest.json()
    sides = "fold over each page, then cut" if options.foldover else SIDES[options.duplex]
    parts.append(bundle.Part("Cards", cards_pdf, _made(cards_manifest, "card"), sides))
    selection = bool(options.decks or options.cards or options.copies != 1)
    if not selection:  # a run of chosen cards is only cards
        boards_built = boards.build(game, options.paper)
        if boards_built:
            boards_pdf, boards_manifest = boards_built
            files[f"boards-{options.paper}.pdf"] = boards_pdf
            files[f"boards-{options.paper}.json"] = boards_manifest.json()
            made = ", ".join(f"{p['copies']} {p['name']}" for p in boards_manifest.parts)
            parts.append(bundle.Part("Boards", boards_pdf, made, "single-sided"))
        # counters never fold over: they print single- or double-sided whatever the cards do
        counters_built = counters.build(game, replace(options.run(), foldover=False))
        if counters_built:
            pdf, manifest = counters_built
            files[f"counters-{options.paper}.pdf"] = pdf
            files[f"counters-{options.paper}.json"] = manifest.json()
            double = any(s["side"] == "back" for s in manifest.slots)
            parts.append(
                bundle.Part(
                    "Counters and tokens",
                    pdf,
                    _made(manifest, "piece"),
                    SIDES[options.duplex] if double else "single-sided",
                )
            )
        if not options.foldover:
            files[f"print-and-play-{options.paper}.pdf"] = bundle.build(game, options.paper, parts)
    written = []
    for name, data in files.items():
        path = folder / name
        if isinstance(data, bytes):
            atomic.write_bytes(path, data)
        else:
            atomic.write_text(path, data)
        written.append(path)
    return written


def _made(manifest: Manifest, noun: str) -> str:
    count = sum(1 for s in manifest.slots if s["side"] == "face")
    return f"{count} {plural(noun, count)}"
