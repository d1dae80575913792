"""Shared cut lines between pieces of different colours: where a cut a little off its line shows the neighbour's."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from printkit.data.game import Game
from printkit.data.settings import PAPER_NAMES, PAPERS, PrintSettings
from printkit.data.summary import plural
from printkit.sheets import geometry, pieces
from printkit.sheets.edges import backs_differ, edge_colour
from printkit.sheets.pieces import Band, Piece

SAMPLES = 4  # pairs named in a warning


def neighbours(grid: geometry.Grid, chunk: list[Piece | None]) -> Iterator[tuple[Piece, Piece]]:
    """Each pair of pieces that share a cut line: a piece and the one to its right, and the one below."""
    if not grid.shared_cuts:
        return
    for index, piece in enumerate(chunk):
        if piece is None:
            continue
        row, col = divmod(index, grid.cols)
        right = chunk[index + 1] if col + 1 < grid.cols and index + 1 < len(chunk) else None
        below = chunk[index + grid.cols] if row + 1 < grid.rows and index + grid.cols < len(chunk) else None
        yield from ((piece, other) for other in (right, below) if other is not None)


def joined(bands: list[list[Band]]) -> list[tuple[Piece, Piece]]:
    """Every pair of neighbours on shared cut lines whose faces, or whose backs, differ in colour."""
    pairs: list[tuple[Piece, Piece]] = []
    for page in bands:
        for grid, chunk in page:
            for one, two in neighbours(grid, chunk):
                faces = one.face.key != two.face.key and edge_colour(one.face) != edge_colour(two.face)
                if faces or backs_differ(one.back, two.back):  # a design's key names it: copies match
                    pairs.append((one, two))
    return pairs


def warnings(game: Game, settings: PrintSettings, cards: list[Piece], counters: list[Piece]) -> list[str]:
    """A warning per part and paper on which shared cut lines join pieces of different colours, naming them.

    The pieces are judged where they print: counters that ride below the cards on the card sheet's last page
    (see pieces.tuck) with the cards, as one sheet, and otherwise on a counter sheet of their own.
    """
    if _alike(cards + counters):  # no two pieces can differ at a cut: no sheet need be laid out to look
        return []
    lines = []
    unfolded = replace(settings, foldover=False)  # counters never fold over
    for paper in settings.papers:
        riding = pieces.tuck(PAPERS[paper], settings, cards, counters)
        if riding is not None:
            sheets = [("cards and counters", riding)]
        else:  # a sheet whose pieces all look alike at their edges is not laid out again to look
            sheets = [] if _alike(cards) else [("cards", _card_sheet(paper, settings, cards))]
            if counters and not _alike(counters):
                sheets.append(("counters", _counter_sheet(paper, unfolded, counters)))
        for name, laid in sheets:
            if joined(laid):  # laid out apart only then: most sheets join none, and 10,000 cards took a second
                lines.append(_warning(game, name, paper, laid, _pages_apart(name, paper, settings, cards, counters)))
    return lines


def _alike(chosen: list[Piece]) -> bool:
    """Whether every face shows one colour past its trim, and every back one too: then no neighbours differ,
    wherever they are laid (a game's 10,000 cards took a second to lay out on each paper to find none)."""
    seen: set[tuple[str, str]] = set()  # the designs asked, by side and key: a design's copies are one
    faces: set[str] = set()
    backs: set[str] = set()
    for piece in chosen:
        for side, design, colours in (("face", piece.face, faces), ("back", piece.back, backs)):
            if design is not None and (side, design.key) not in seen:
                seen.add((side, design.key))
                colours.add(edge_colour(design))
        if len(faces) > 1 or len(backs) > 1:
            return False
    return True


def _pages_apart(part: str, paper: str, settings: PrintSettings, cards: list[Piece], counters: list[Piece]) -> int:
    """The pages a part takes with every piece cut apart: what the warning says separate cuts would cost."""
    apart = replace(settings, cuts="separate")
    unfolded_apart = replace(apart, foldover=False)
    if part == "cards and counters":
        laid = pieces.tuck(PAPERS[paper], apart, cards, counters)
        if laid is None:  # apart, the counters no longer fit below the cards: they take a sheet of their own
            laid = _card_sheet(paper, apart, cards) + _counter_sheet(paper, unfolded_apart, counters)
        return len(laid)
    if part == "cards":
        return len(_card_sheet(paper, apart, cards))
    return len(_counter_sheet(paper, unfolded_apart, counters))


def _card_sheet(paper: str, settings: PrintSettings, cards: list[Piece]) -> list[list[Band]]:
    page = PAPERS[paper][::-1] if settings.foldover else PAPERS[paper]  # fold-over pages lie landscape
    return pieces.plan(page, settings, cards, pieces.printable(page, settings, settings.foldover))


def _counter_sheet(paper: str, settings: PrintSettings, counters: list[Piece]) -> list[list[Band]]:
    page = PAPERS[paper]
    return pieces.plan(page, settings, counters, pieces.printable(page, settings), pack=True)


def _warning(game: Game, part: str, paper: str, laid: list[list[Band]], apart: int) -> str:
    """The warning for one part on one paper: its joined pairs, a few of them named, and what separate cuts cost."""
    pairs = joined(laid)
    distinct = list(dict.fromkeys(f"{a.id}|{b.id}" for a, b in pairs))
    more = f" and {len(distinct) - SAMPLES} more" if len(distinct) > SAMPLES else ""
    named = ", ".join(distinct[:SAMPLES]) + more
    cost = f"{apart} {plural('page', apart)} of faces instead of {len(laid)}"
    first = pairs[0][0]
    return (
        f"{first.face.place or game.place('game', '')}: {part} on {PAPER_NAMES[paper]}: shared cut lines join "
        f"{len(pairs)} {plural('pair', len(pairs))} of pieces of different colours ({named}), so a cut a little "
        f"off its line shows the neighbour's colour; cuts: separate gives each piece its own bleed ({cost})"
    )
