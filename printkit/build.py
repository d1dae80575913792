"""`printkit build`: every output of each game made in memory, then written whole, so a failed build writes nothing.

For each game and paper: card sheets, counters, boards and the print-and-play bundle of them
all; the rules booklets; the game's pages of the rules reference. Then the reference's front
page and a duplex calibration page per paper.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import time
from collections.abc import Callable, Iterable
from concurrent.futures import as_completed
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from printkit import incremental
from printkit.core import atomic, cache
from printkit.core import workers as processes
from printkit.core.choices import PARTS
from printkit.core.errors import PlacedError, PrintkitError, Problem, UsageError
from printkit.data import advice, summary
from printkit.data.game import Game
from printkit.data.loader import EXAMPLES_FILE
from printkit.data.model import BOARD_KINDS
from printkit.data.settings import PAPER_NAMES, PAPERS, PrintSettings
from printkit.data.summary import plural
from printkit.draw import drawcache, ink
from printkit.sheets import calibration, cardsheets, counters, geometry
from printkit.sheets import pieces as pieces_
from printkit.sheets.cardsheets import EVERYTHING, Selection
from printkit.sheets.pieces import Design, Manifest, Piece

if TYPE_CHECKING:
    from printkit.docs.booklet import Diagrams
    from printkit.draw.layout import Layout

REFERENCE = "reference"  # the site's folder in the output folder
KEPT_PROOFS = 500  # proofs kept in the cache, the most recently used: a watch keeps one for each save
PROOF_BATCH = 200  # designs the proof draws on one scratch page: 5,400 on one held 90 MB of operators

SIDES = {
    "long": "double-sided, flip on the long edge",
    "short": "double-sided, flip on the short edge",
    "none": "single-sided (backs on their own pages)",
}

# path -> contents, for writing once everything is made; None: a file no longer made, removed then
Files = dict[Path, bytes | str | None]


@dataclass(frozen=True)
class Plan:
    """Everything `printkit build` was asked to make for one game."""

    game: Game
    settings: PrintSettings
    selection: Selection = EVERYTHING
    parts: frozenset[str] = frozenset(PARTS)
    saddle: bool = False  # also the booklets 2-up, to fold and staple


def build_all(plans: list[Plan], out: Path, workers: int = 2) -> list[Path]:
    """Make every game's outputs, then write them all; the paths written."""
    made = make_all(plans, out, workers)
    written = write(made.files, out)
    incremental.remember(out, made.records)
    return written


@dataclass
class Build:
    """Every game's outputs made in memory, with each game's record of its parts (see Made) and the parts kept."""

    files: Files
    records: dict[str, incremental.Record]
    kept: dict[str, list[str]]


def make_all(
    plans: list[Plan],
    out: Path,
    workers: int = 2,
    done: Callable[[Game, float], None] | None = None,
    step: Callable[[int, int, str], None] | None = None,
    early: Early | None = None,
) -> Build:
    """Every file of every game, in memory (games shared among worker processes); nothing written yet.

    done(game, seconds) is told as each game is made, in the order they finish; the files come
    back in the order of the plans, however the work was shared. step(made, total, what) counts
    the games' parts (see steps): each part as it is made when the games are made here, a game's
    parts at once when a worker process made it. early: see make_game; the games are made here then.
    """
    made: dict[int, Made] = {}
    started = time.perf_counter()
    total, count = sum(steps(plan) for plan in plans), 0

    def one_more(what: str) -> None:
        nonlocal count
        count += 1
        if step:
            step(count, total, what)

    if len(plans) < 2 or workers < 2 or early is not None:
        for index, plan in enumerate(plans):
            made[index] = make_game(plan, out, one_more, early)
            if done:
                done(plan.game, time.perf_counter() - started)
    else:
        with processes.executor(workers) as pool:
            futures = {pool.submit(make_game, plan, out): index for index, plan in enumerate(plans)}
            for future in as_completed(futures):
                plan = plans[futures[future]]
                made[futures[future]] = future.result()
                for _ in range(steps(plan)):
                    one_more(f"{plan.game.slug}: made")
                if done:
                    done(plan.game, time.perf_counter() - started)
    files: Files = {path: data for index in sorted(made) for path, data in made[index].files.items()}
    if any(REFERENCE in plan.parts for plan in plans):
        from printkit.docs import refsite

        site = out / REFERENCE
        fresh = {p.game.slug: _about(files, site / p.game.slug / refsite.ABOUT) for p in plans if REFERENCE in p.parts}
        files[site / "index.html"] = refsite.index_page(site, fresh)
        files |= {site / name: text for name, text in refsite.site_assets().items()}
    if any("cards" in plan.parts for plan in plans):
        files |= calibration_pages(plans, out)
    records = {plan.game.slug: made[index].record for index, plan in enumerate(plans)}
    return Build(files, records, {plan.game.slug: made[index].kept for index, plan in enumerate(plans)})


def _about(files: Files, path: Path) -> str:
    """A game's entry for the site's front page: made now, or (its pages kept) as the last build wrote it."""
    return str(files[path]) if path in files else path.read_text(encoding="utf-8")


def calibration_pages(plans: list[Plan], out: Path) -> Files:
    """One duplex calibration page per paper the build prints on, for the edge its cards turn over."""
    pages: Files = {}
    for plan in plans:
        duplex = plan.settings.duplex if plan.settings.duplex != "none" else "long"
        for paper in plan.settings.papers:
            target = out / f"duplex-calibration-{paper}.pdf"
            if target not in pages:
                pages[target] = calibration.build(
                    paper, duplex, plan.settings.printer_margin, plan.settings.margin_tolerance
                )
    return pages


def write(files: Files, out: Path | None = None) -> list[Path]:
    """Every file whole, or none changed when the disk refuses one, all inside out; the paths written (a file that
    already holds what it would be written with is left as it is, and not among them).

    The files land as one (atomic.Landing): staged first, then renamed together with Ctrl-C and kill held
    back, so no interruption leaves one game's outputs from two builds. As they land, each game's reference
    folder written loses the pictures and pages this build did not make (a card renamed or removed, a size no
    longer drawn), so the site a player copies holds only what its pages show, and a file the build no longer
    makes (files[path] is None) is removed, so no old one is printed with the new.
    """
    made = [path for path, data in files.items() if data is not None]
    with atomic.landing(out, confined=out is not None) as batch:
        for path, data in files.items():
            if data is not None and not _unchanged(path, data):
                batch.write(path, data)
        for path in [p for p, data in files.items() if data is None] + _left_out_of_reference(made):
            batch.remove(path)
    return batch.landed


def _unchanged(path: Path, data: bytes | str) -> bool:
    """Whether path already holds data: such a file is not written again, so its time says when it last changed."""
    wanted = data if isinstance(data, bytes) else data.encode("utf-8")
    try:
        return (
            path.is_file()
            and not path.is_symlink()
            and path.stat().st_size == len(wanted)
            and path.read_bytes() == wanted
        )
    except OSError:
        return False


SITE_SUFFIXES = frozenset({".html", ".json", ".png", ".webp", ".jpg", ".svg", ".css", ".js"})


def _left_out_of_reference(written: list[Path]) -> list[Path]:
    """In every game folder of the reference site being written, the site's kinds of file it leaves out."""
    kept = set(written)
    folders = {path.parent for path in written if path.name == "index.html" and path.parent.parent.name == REFERENCE}
    return [
        found
        for folder in sorted(folders)
        for found in sorted(folder.rglob("*"))
        if found.suffix in SITE_SUFFIXES and found not in kept and found.is_file() and not found.is_symlink()
    ]


def steps(plan: Plan) -> int:
    """How many times make_game says it has made a part of plan: its booklets, each paper's sheets, its site."""
    return 1 + len(plan.settings.papers) + (REFERENCE in plan.parts)


@dataclass
class Made:
    """A game's outputs made in memory, with the record of what each part was made from (written once they land)
    and the parts left as an earlier build made them."""

    files: Files
    record: incremental.Record
    kept: list[str]


Early = Callable[[str, Files, incremental.Record], None]  # lands a game's sheets before its booklets and pages are made


def make_game(plan: Plan, out: Path, step: Callable[[str], None] | None = None, early: Early | None = None) -> Made:
    """Every output of one game, in memory: summary, sheets, booklets, bundles, reference pages; each part whose
    inputs and files are as an earlier build into out left them is not made again (see printkit.incremental).

    step(what) is told as each of its parts is made (steps(plan) times in all), for a progress bar. early, when
    given, is handed the sheets as soon as they are made, to land them before the slower parts; the files made
    then are not in what comes back.
    """
    said = step or (lambda what: None)
    game, settings, folder = plan.game, plan.settings, out / plan.game.slug
    # a run of chosen cards replaces whole files with part of them: such a build trusts no record and leaves none
    record = incremental.load(out, game.slug) if plan.selection.everything else {}
    made: incremental.Record = {}
    kept: list[str] = []
    common = (incremental.code(), repr(settings), repr(plan.selection), sorted(plan.parts), plan.saddle)
    every_file = incremental.game_files(game, out)
    sheets_in = {paper: incremental.digest("sheets", paper, common, every_file) for paper in settings.papers}

    def part(name: str, inputs: str, where: Path, make: Callable[[], dict[str, bytes | str | None]]) -> Files:
        """The part's files, made; none when an earlier build's still stand for the same inputs."""
        if plan.selection.everything and incremental.fresh(record, name, inputs):
            kept.append(name)
            return {}
        result: Files = {where / file: data for file, data in make().items()}
        if plan.selection.everything:
            made[name] = incremental.entry(inputs, result)
        return result

    files: Files = {folder / "components.json": summary.summary_json(game, settings)}
    on_sheets = plan.parts & {"cards", "counters", "boards"}
    for paper in settings.papers:
        if on_sheets:
            sheets = partial(paper_parts, game, settings, paper, plan.selection, frozenset(on_sheets))
            files |= part(f"sheets-{paper}", sheets_in[paper], folder, sheets)
        said(f"{game.slug}: {PAPER_NAMES[paper]} sheets")
    if early is not None:
        early(game.slug, files, made)
        files, made = {}, {}
    # the booklet's machinery (Markdown, Jinja, WeasyPrint, pdfium) loads only for the parts that
    # need it, so a cards-only build starts quickly
    has_rules = bool(plan.parts & {"rules", "bundle"})  # the bundle ends with the booklet
    if has_rules:
        from printkit.docs.rulesbook import RULES_FILE

        has_rules = (game.folder / RULES_FILE).is_file()  # a new game may not have its rules yet
    diagrams = None
    if has_rules or REFERENCE in plan.parts:
        from printkit.docs.booklet import Diagrams

        diagrams = Diagrams(game, settings)
    rules: dict[str, bytes] = {}
    booklet_in: str | None = None
    on_disk: Path | None = None  # the A4 booklet an earlier build made from the same inputs
    if has_rules and diagrams is not None:
        booklet_in = _booklet_inputs(plan, out, diagrams, common)
        if "rules" in plan.parts and plan.selection.everything and incremental.fresh(record, "booklets", booklet_in):
            kept.append("booklets")  # its A4 booklet, as the bundles end with it, is the file on disk
            on_disk = folder / "rules-a4.pdf"
        else:
            rules, booklet_files = _booklets(plan, folder, diagrams)
            files |= booklet_files
            if plan.selection.everything:
                made["booklets"] = incremental.entry(booklet_in, booklet_files)
    said(f"{game.slug}: rules booklets" if has_rules else f"{game.slug}: summary")

    def bundled(paper: str) -> dict[str, bytes | str | None]:
        nonlocal rules
        if on_disk is not None and not rules:  # read, and scaled to Letter, only for a bundle made again
            rules = _bundled(plan, on_disk.read_bytes())
        return paper_parts(game, settings, paper, plan.selection, frozenset({"bundle"}), rules.get(paper))

    if "bundle" in plan.parts:
        for paper in settings.papers:
            bundle_in = incremental.digest("bundle", paper, sheets_in[paper], booklet_in)
            files |= part(f"bundle-{paper}", bundle_in, folder, partial(bundled, paper))
    if REFERENCE in plan.parts and diagrams is not None:
        from printkit.docs import refbalance, refsite

        site = out / REFERENCE / game.slug
        shown = diagrams
        # the game's balance report, when `printkit balance` wrote one here
        report = drawcache.content(folder / refbalance.RESULTS)

        def pages() -> dict[str, bytes | str | None]:
            return dict(refsite.game_pages(game, settings, shown, refbalance.read(folder)))

        files |= part(REFERENCE, incremental.digest(REFERENCE, common, every_file, report), site, pages)
    if REFERENCE in plan.parts:
        said(f"{game.slug}: reference pages")
    return Made(files, made, kept)


def _booklet_inputs(plan: Plan, out: Path, diagrams: Diagrams, common: tuple[object, ...]) -> str:
    """What the booklets are made from: the HTML of each size (their text, tables and pictures, every word of the
    data they show), the files they may fetch besides the data the HTML holds, the settings and the code."""
    from printkit.docs import booklet

    sizes = ["a5", "a4"] + (list(booklet.SADDLE) if plan.saddle else [])
    pages = [booklet.html(plan.game, size, diagrams) for size in dict.fromkeys(sizes)]
    return incremental.digest("booklets", common, pages, incremental.game_files(plan.game, out, data=False))


def _booklets(plan: Plan, folder: Path, diagrams: Diagrams) -> tuple[dict[str, bytes], Files]:
    """The rules booklet for each paper's bundle, and the booklet files when the rules were asked for."""
    from printkit.docs import booklet

    game, files = plan.game, Files()
    booklets = {size: booklet.build(game, size, diagrams) for size in ("a5", "a4")}
    if "rules" in plan.parts:
        if plan.saddle:
            for size, sheet_paper in booklet.SADDLE.items():
                pages = booklets.get(size) or booklet.build(game, size, diagrams)  # half-letter: made here only
                files[folder / f"rules-{size}-saddle.pdf"] = booklet.saddle(pages, PAPERS[sheet_paper][::-1])
        for size, data in booklets.items():
            files[folder / f"rules-{size}.pdf"] = data
    return _bundled(plan, booklets["a4"]), files


def _bundled(plan: Plan, a4: bytes) -> dict[str, bytes]:
    """Each paper's bundle ends with the A4 booklet, scaled to the page on another paper (Letter)."""
    from printkit.docs import booklet

    return {paper: a4 if paper == "a4" else booklet.fit(a4, PAPERS[paper]) for paper in plan.settings.papers}


def paper_parts(
    game: Game,
    settings: PrintSettings,
    paper: str,
    selection: Selection = EVERYTHING,
    parts: frozenset[str] = frozenset(PARTS),
    rules: bytes | None = None,
) -> dict[str, bytes | str | None]:
    """The chosen parts on one paper, by file name: sheets and their manifests, and the bundle; None for a
    file this paper's outputs no longer hold (a counter sheet, once the card sheet prints the counters).

    rules: the rules booklet on this paper, added at the end of the bundle. The bundle is built
    from the cards, boards and counters whether or not their own files were chosen.
    """
    files: dict[str, bytes | str | None] = {}
    contents: list[tuple[str, bytes, str, str]] = []  # the bundle's parts: title, PDF, what it makes, how to print
    whole = "bundle" in parts
    # counters that fit in the room the cards leave on their last page print there, and no counter sheet is made
    sheets = parts & {"cards", "counters", "bundle"}
    aboard = cardsheets.counters_aboard(game, settings, paper, selection) if sheets else 0
    if "cards" in parts or whole or (aboard and "counters" in parts):
        cards_pdf, cards_manifest = cardsheets.build(game, settings, paper, selection)
        if "cards" in parts or (aboard and "counters" in parts):  # --only counters: the sheet that holds them
            cards_name = cardsheets.output_name(settings, paper)
            files[cards_name] = cards_pdf
            files[cards_name.replace(".pdf", ".json")] = cards_manifest.json()
            if aboard:  # a counter sheet of an earlier build would print them twice
                files[f"counters-{paper}.pdf"] = files[f"counters-{paper}.json"] = None
        sides = "fold over each page, then cut" if settings.foldover else SIDES[settings.duplex]
        cards = sum(1 for s in cards_manifest.slots if s["side"] == "face") - aboard
        made = f"{cards} {plural('card', cards)}" + (f", {aboard} {plural('piece', aboard)}" if aboard else "")
        contents.append(("Cards and counters" if aboard else "Cards", cards_pdf, made, sides))
    if not selection.everything:  # a run of chosen cards makes cards, and counters only on a sheet of their own
        # the whole card sheet such a run replaces may have carried the counters, and a whole build removed their
        # own sheet: they go back on one, or the output would hold them nowhere until the next whole build
        riding = "cards" in parts and cardsheets.counters_aboard(game, settings, paper) > 0
        counters_built = counters.build(game, settings, paper) if "counters" in parts or riding else None
        if counters_built:
            pdf, manifest = counters_built
            files[f"counters-{paper}.pdf"] = pdf
            files[f"counters-{paper}.json"] = manifest.json()
        return files
    boards_built = None
    if "boards" in parts or whole:
        from printkit.sheets import boards  # with the board drawing: loaded for the builds that make boards

        boards_built = boards.build(game, paper, settings.ink_margin, ink.press(settings))
    if boards_built:
        boards_pdf, boards_manifest = boards_built
        if "boards" in parts:
            files[f"boards-{paper}.pdf"] = boards_pdf
            files[f"boards-{paper}.json"] = boards_manifest.json()
        made = ", ".join(f"{p['copies']} {p['name']}" for p in boards_manifest.parts)
        contents.append(("Boards", boards_pdf, made, "single-sided"))
    wanted = ("counters" in parts or whole) and not aboard
    counters_built = counters.build(game, settings, paper) if wanted else None
    if counters_built:
        pdf, manifest = counters_built
        if "counters" in parts:
            files[f"counters-{paper}.pdf"] = pdf
            files[f"counters-{paper}.json"] = manifest.json()
        double = any(s["side"] == "back" for s in manifest.slots)
        contents.append(
            ("Counters and tokens", pdf, _made(manifest, "piece"), SIDES[settings.duplex] if double else "single-sided")
        )
    if rules is not None:
        contents.append(("Rules", rules, "the rules booklet", "single- or double-sided"))
    if whole and not settings.foldover:
        from printkit.sheets import bundle

        parts_in_order = [bundle.Part(*part) for part in contents]
        files[f"print-and-play-{paper}.pdf"] = bundle.build(game, paper, parts_in_order, settings.card_size)
    return files


def _made(manifest: Manifest, noun: str) -> str:
    count = sum(1 for s in manifest.slots if s["side"] == "face")
    return f"{count} {plural(noun, count)}"


@dataclass(frozen=True)
class Proof:
    """What drawing a game once found: problems that would stop a build, and notices of what could print better."""

    problems: list[str]
    notices: list[str]


class _Watched(dict[str, object]):
    """A card's fields that remember which of them a layout read: a field set but never read prints nowhere."""

    def __init__(self, fields: dict[str, object]) -> None:
        super().__init__(fields)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> object:
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return super().__contains__(key)

    def get(self, key: str, default: object = None) -> object:
        self.read.add(key)
        return super().get(key, default)


def _low_contrast(designs: Iterable[tuple[Design, tuple[float, float]]]) -> list[str]:
    """A warning per layout region whose text stands out too little, at the region's colour in its layout file:
    the worst pair of colours, and how many pairs and cards fall short (cards of their own colours can give many
    pairs, and one line for each would drown the rest)."""
    from printkit.draw import legibility

    found: dict[tuple[str, str], tuple[Layout, list[legibility.Finding], list[str]]] = {}
    # cards that read alike have the same findings: worked out once (a game's 10,000 cards share a few readings)
    known: dict[tuple[object, ...], list[legibility.Finding]] = {}
    for design, size in designs:
        key = (id(design.layout), size, legibility.reading(design.layout, design.fields, size))
        if key not in known:
            known[key] = legibility.findings(design.layout, design.fields, size)
        for finding in known[key]:
            entry = found.setdefault((design.layout.name, finding.region), (design.layout, [], []))
            entry[1].append(finding)
            if design.label not in entry[2]:
                entry[2].append(design.label)
    lines = []
    for (name, region), (layout, findings, labels) in found.items():
        worst = min(findings, key=lambda f: f.ratio)
        pairs = len({(f.text, f.background) for f in findings})
        shown = ", ".join(labels[:3]) + (f" and {len(labels) - 3} more" if len(labels) > 3 else "")
        others = f"; {pairs} pairs of colours fall short, this the worst" if pairs > 1 else ""
        at = layout.place(region, "colour") or layout.place(region)
        lines.append(
            f"{at + ': ' if at else ''}layout {name}, region {region}: text {worst.text} on {worst.background} has a "
            f"contrast of {worst.ratio:.2f}:1, under the {worst.needed:g}:1 text of its size needs (cards {shown}"
            f"{others}); colour: auto picks ink or paper"
        )
    return lines


def proof(game: Game, settings: PrintSettings, loaded: bool = True, cards_only: bool = False) -> Proof:
    """_proof's findings, kept in the cache when they found no problem: the same inputs (every file the game
    reads, the settings, printkit's code and fonts) proof the same, so a build after a validate, or a watch's
    rebuild of a game whose files did not change, shows the kept notices without drawing every design again."""
    key = incremental.digest(
        "proof", incremental.code(), incremental.game_files(game, None), repr(settings), loaded, cards_only
    )
    kept = cache.folder("proofs") / f"{key}.json"
    with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
        notices = json.loads(kept.read_text(encoding="utf-8"))["notices"]
        if isinstance(notices, list) and all(isinstance(n, str) for n in notices):
            with contextlib.suppress(OSError):
                os.utime(kept)  # used now: the last to be let go
            return Proof([], notices)
    found = _proof(game, settings, loaded, cards_only)
    if not found.problems:  # problems are found again, so that each run says them
        with contextlib.suppress(OSError):  # a full or read-only cache costs the proof next time, nothing more
            atomic.write_text(kept, json.dumps({"notices": found.notices}))
            cache.keep_newest(kept.parent, KEPT_PROOFS)
    return found


def _proof(game: Game, settings: PrintSettings, loaded: bool = True, cards_only: bool = False) -> Proof:
    """Every design, board and the rules text of a game drawn once on a scratch page, nothing written:
    each problem a build would meet, as a line. Validate runs it after loading the data; build, first.

    loaded: the game loaded without problems. Validate proofs a game that loaded in part too (without its faulty
    cards), so that one run says everything; its worked examples, played on the whole game, then wait.
    cards_only: draw the cards' designs alone: its game.yaml has problems, and what else it describes (counters,
    boards, the rules' numbers) may not hold together well enough to draw.
    """
    from reportlab.pdfgen.canvas import Canvas

    from printkit.docs import rulesbook
    from printkit.draw import fonts
    from printkit.draw.board import draw_board
    from printkit.draw.cardrender import CardPainter, Target
    from printkit.sheets import boards

    problems: list[str] = []
    notices: list[str] = []

    def attempt(draw: Callable[[], object]) -> bool:
        """Run one drawing, its problems kept (each once); whether it ran to its end."""
        try:
            draw()
        except PrintkitError as exc:
            problems.extend(line for line in exc.lines() if line not in problems)
            return False
        return True

    scratch = Canvas(io.BytesIO(), initialFontName=fonts.use("sans"))
    designs: dict[str, tuple[Design, tuple[float, float]]] = {}
    laid: dict[str, list[Piece]] = {}  # the cards and counters as printed, made once for the designs and the joins

    def collect() -> None:
        refused: list[Problem] = []  # a face layout that does not load: every other card is drawn all the same
        cards = laid["cards"] = cardsheets.card_pieces(game, settings.card_size, refused=refused)
        problems.extend(line for line in (str(p) for p in refused) if line not in problems)
        laid["counters"] = [] if cards_only else counters.counter_pieces(game)
        pieces = cards + laid["counters"]
        for piece in pieces:
            for design in (piece.face, piece.back):
                if design is not None:
                    designs.setdefault(design.key, (design, piece.size))
        # where each size is set: the card size in the print settings, a counter's in its component
        own = game.info.print.card_size  # the game's own size: its place is where to fix it
        card_size_at = game.places.get(("print", "card_size")) if own and own == settings.card.name else None
        sizes: dict[tuple[tuple[float, float], bool], str | None] = {}  # (size, folded over) -> where it is set
        # a card at the settings' size: None when the project or command line set it. The cards come first in
        # pieces: their count tells them apart, where `piece in cards` compared every pair of printed copies
        for index, piece in enumerate(pieces):
            card = index < len(cards)
            at = card_size_at if card and piece.size == settings.card_size else piece.face.place
            at = at if at or piece.size == settings.card_size else game.place("game", "")
            sizes.setdefault((piece.size, settings.foldover and card), at)  # counters never fold over
        for paper in settings.papers:  # each size of piece has room on each paper
            for (size, folded), at in sizes.items():
                try:
                    page = PAPERS[paper][::-1] if folded else PAPERS[paper]
                    area = pieces_.printable(page, settings, folded)
                    geometry.grid(page, size, settings.bleed, area=area, cuts=settings.cuts)
                except geometry.PageTooSmall as exc:
                    if at is None:  # a size from the project or the command line
                        raise UsageError(f"{game.slug}: {exc} on {paper.upper()} paper") from None
                    raise PlacedError(f"{at}: {exc} on {paper.upper()} paper") from None

    attempt(collect)

    def joins_() -> None:  # neighbours of different colours on shared cut lines: a miscut shows the other
        from printkit.sheets import joins

        notices.extend(joins.warnings(game, settings, laid["cards"], laid["counters"]))

    if (
        not problems and not cards_only and settings.cuts == "auto"
    ):  # cuts: shared said on purpose is a choice made, not warned of
        attempt(joins_)
    proved_icons: set[str] = set()  # each icon is drawn once: a second drawing of it can fail in no new way
    shown: dict[str, set[str]] = {}  # card id -> the fields its face layouts read
    face_layouts: dict[str, list[str]] = {}  # card id -> the names of the layouts its faces are drawn by
    stopped: set[str] = set()  # the cards a drawing of which stopped short: too little read to judge
    for drawn, (design, size) in enumerate(designs.values()):
        if drawn and not drawn % PROOF_BATCH:  # a page keeps every operator drawn on it: a new one, now and then
            scratch = Canvas(io.BytesIO(), initialFontName=fonts.use("sans"))
        painter = CardPainter(scratch, size, settings.bleed, proof=True, proved_icons=proved_icons)
        target = Target.of(game, design.label, design.layout, design.place)
        fields = _Watched(design.fields)
        whole = attempt(partial(painter.paint, design.layout, fields, target))
        if design.key.startswith("face-"):
            shown.setdefault(design.label, set()).update(fields.read)
            face_layouts.setdefault(design.label, []).append(design.layout.name)
        problems += [p for p in painter.problems if p not in problems]
        if not whole or painter.problems:  # a problem met before (the same line, kept once) counts too
            stopped.add(design.label)
        notices += [n for n in painter.notices if n not in notices]
    notices += advice.deck_overlaps(game) + advice.orphans(game) + advice.unworded_rules(game)
    for design, _ in designs.values():  # text a layout asks to print under the smallest printkit prints
        notices += [n for n in design.layout.notices if n not in notices]
    notices += _low_contrast(designs.values())
    for card in game.cards:
        if card.id in stopped or card.id not in shown:  # no face drawn here, or one that stopped short
            continue
        seen = shown[card.id]
        layout = " and ".join(dict.fromkeys(face_layouts.get(card.id, [card.kind])))
        for name in advice.unprinted(card, game.kinds.types[card.kind], seen):
            if name == "reconstructed":
                unmarked = [f for f in card.reconstructed if f in seen and f"{f}_reconstructed" not in seen]
                notices.append(
                    f"{game.place('card', card.id)}: card {card.id}: {', '.join(unmarked)} is reconstructed and "
                    f"printed, but its layout {layout} never marks it so (add a region with "
                    f"when: {unmarked[0]}_reconstructed)"
                )
                continue
            notices.append(
                f"{game.place('card', card.id)}: card {card.id}: field {name} is set, but its layout "
                f"{layout} never shows it (add a region with {{{name}}}, or drop the field)"
            )
    if cards_only:
        return Proof(problems, notices)
    for comp in game.info.components:
        if comp.kind in BOARD_KINDS and comp.board is not None:
            # its tiles counted and its map fitted on every paper first: a board refused for them is not drawn
            fits = [attempt(partial(boards.check, game, paper, settings.ink_margin, comp)) for paper in settings.papers]
            if all(fits):
                attempt(partial(draw_board, scratch, game, comp))
    from printkit.sheets import bundle

    for paper in settings.papers:  # the text a build draws outside the layouts: tiles, maps, the cover
        attempt(partial(boards.check, game, paper, settings.ink_margin))
        attempt(partial(bundle.check, game, paper))
    played = (game.folder / EXAMPLES_FILE).exists()  # its examples replay moves of its cards, every one of them
    if (game.folder / rulesbook.RULES_FILE).exists() and (loaded or not played):
        # filled in: every error the rules text can hold is met there (its HTML is made by the booklet, and raises
        # none of printkit's errors; for 10,000 cards its tables took a tenth of a proof)
        attempt(lambda: rulesbook.render_markdown(game))
    return Proof(problems, notices)
