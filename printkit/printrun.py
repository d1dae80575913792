"""Everything printed for one game on one paper: card sheets, counters, boards and the bundle of them all."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from . import atomic, boards, cardsheets, counters, sheet, summary
from .cardsheets import SheetOptions
from .game import Game
from .options import PrintOptions
from .pieces import Manifest
from .summary import plural

if TYPE_CHECKING:
    from .booklet import Diagrams

# what `printkit build --only` can choose; the bundle is made of the first four
PARTS = ("cards", "counters", "boards", "rules", "bundle", "reference")

SIDES = {
    "long": "double-sided, flip on the long edge",
    "short": "double-sided, flip on the short edge",
    "none": "single-sided (backs on their own pages)",
}


@dataclass(frozen=True)
class Plan:
    """Everything `printkit build` was asked to make for one game."""

    game: Game
    settings: PrintOptions
    papers: tuple[str, ...]
    offset: tuple[float, float] = (0.0, 0.0)
    foldover: bool = False
    decks: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    copies: int = 1
    saddle: bool = False
    parts: frozenset[str] = frozenset(PARTS)


def build_all(plans: list[Plan], out: Path, workers: int = 2) -> list[Path]:
    """Every game's outputs, games shared among worker processes; the files are the same either way."""
    if len(plans) < 2 or workers < 2:
        return [p for plan in plans for p in build_game(plan, out)]
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
        return [p for paths in pool.map(build_game, plans, [out] * len(plans)) for p in paths]


def build_game(plan: Plan, out: Path) -> list[Path]:
    """Every output of one game: summary, booklets, sheets, counters, boards, bundles, reference site."""
    game, folder = plan.game, out / plan.game.slug
    atomic.write_text(folder / "components.json", summary.summary_json(game, plan.settings))
    written = [folder / "components.json"]
    # the booklet's machinery (Markdown, Jinja, WeasyPrint, pdfium) loads only for the parts that
    # need it, so a cards-only build starts quickly
    has_rules = bool(plan.parts & {"rules", "bundle"})  # the bundle ends with the booklet
    if has_rules:
        from .rulesbook import RULES_FILE

        has_rules = (game.folder / RULES_FILE).is_file()  # a new game may not have its rules yet
    diagrams = None
    rules: dict[str, bytes] = {}
    if has_rules or "reference" in plan.parts:
        from .booklet import Diagrams

        diagrams = Diagrams(game)
    if has_rules and diagrams is not None:
        rules, booklet_files = _booklets(plan, folder, diagrams)
        written += booklet_files
    for paper in plan.papers:
        options = SheetOptions(
            paper=paper,
            card_size=plan.settings.card_size_pt,
            bleed=plan.settings.bleed_pt,
            duplex=plan.settings.duplex,
            offset=plan.offset,
            foldover=plan.foldover,
            decks=plan.decks,
            cards=plan.cards,
            copies=plan.copies,
        )
        written += write(game, options, folder, rules=rules.get(paper), parts=plan.parts)
    if "reference" in plan.parts and diagrams is not None:
        from . import refsite

        written += refsite.write_game(game, out / "reference" / game.slug, diagrams)
    return written


def _booklets(plan: Plan, folder: Path, diagrams: Diagrams) -> tuple[dict[str, bytes], list[Path]]:
    """The rules booklet for each paper's bundle, and the booklet files when the rules were asked for."""
    from . import booklet

    game, written = plan.game, []
    booklets = {size: booklet.build(game, size, diagrams) for size in ("a5", "a4")}
    if "rules" in plan.parts:
        if plan.saddle:
            for size, sheet_paper in booklet.SADDLE.items():
                target = folder / f"rules-{size}-saddle.pdf"
                pages = booklets.get(size) or booklet.build(game, size, diagrams)  # half-letter: made here only
                atomic.write_bytes(target, booklet.saddle(pages, sheet.PAPERS[sheet_paper][::-1]))
                written.append(target)
        for size, data in booklets.items():
            atomic.write_bytes(folder / f"rules-{size}.pdf", data)
            written.append(folder / f"rules-{size}.pdf")
    # the Letter bundle takes the A4 booklet scaled to the page, rather than a third layout
    return {"a4": booklets["a4"], "letter": booklet.fit(booklets["a4"], sheet.PAPERS["letter"])}, written


def write(
    game: Game,
    options: SheetOptions,
    folder: Path,
    rules: bytes | None = None,
    parts: frozenset[str] = frozenset(PARTS),
) -> list[Path]:
    """Build the chosen parts in memory first, then write each file whole; return the paths written.

    rules: the rules booklet on this paper, added at the end of the bundle. The bundle is built
    from the cards, boards and counters whether or not their own files were chosen.
    """
    files: dict[str, bytes | str] = {}
    contents: list[tuple[str, bytes, str, str]] = []  # the bundle's parts: title, PDF, what it makes, how to print
    whole = "bundle" in parts
    if "cards" in parts or whole:
        cards_pdf, cards_manifest = cardsheets.build(game, options)
        if "cards" in parts:
            cards_name = cardsheets.output_name(options)
            files[cards_name] = cards_pdf
            files[cards_name.replace(".pdf", ".json")] = cards_manifest.json()
        sides = "fold over each page, then cut" if options.foldover else SIDES[options.duplex]
        contents.append(("Cards", cards_pdf, _made(cards_manifest, "card"), sides))
    if options.decks or options.cards or options.copies != 1:  # a run of chosen cards is only cards
        return _write_files(folder, files)
    boards_built = boards.build(game, options.paper) if "boards" in parts or whole else None
    if boards_built:
        boards_pdf, boards_manifest = boards_built
        if "boards" in parts:
            files[f"boards-{options.paper}.pdf"] = boards_pdf
            files[f"boards-{options.paper}.json"] = boards_manifest.json()
        made = ", ".join(f"{p['copies']} {p['name']}" for p in boards_manifest.parts)
        contents.append(("Boards", boards_pdf, made, "single-sided"))
    # counters never fold over: they print single- or double-sided whatever the cards do
    counters_built = (
        counters.build(game, replace(options.run(), foldover=False)) if "counters" in parts or whole else None
    )
    if counters_built:
        pdf, manifest = counters_built
        if "counters" in parts:
            files[f"counters-{options.paper}.pdf"] = pdf
            files[f"counters-{options.paper}.json"] = manifest.json()
        double = any(s["side"] == "back" for s in manifest.slots)
        contents.append(
            ("Counters and tokens", pdf, _made(manifest, "piece"), SIDES[options.duplex] if double else "single-sided")
        )
    if rules is not None:
        contents.append(("Rules", rules, "the rules booklet", "single- or double-sided"))
    if whole and not options.foldover:
        from . import bundle  # pypdf, which joins the parts, loads only for a bundle

        parts_in_order = [bundle.Part(*part) for part in contents]
        files[f"print-and-play-{options.paper}.pdf"] = bundle.build(game, options.paper, parts_in_order)
    return _write_files(folder, files)


def _write_files(folder: Path, files: dict[str, bytes | str]) -> list[Path]:
    """Each file whole (a temporary file renamed), in order; the paths written."""
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
