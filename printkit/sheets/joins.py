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
    lines = []
    unfolded = replace(settings, foldover=False)  # counters never fold over
    apart, unfolded_apart = (replace(chosen, cuts="separate") for chosen in (settings, unfolded))
    for paper in settings.papers:
        parts: list[tuple[str, list[list[Band]], int]] = []  # each sheet's name, its pages, and its pages apart
        riding = pieces.tuck(PAPERS[paper], settings, cards, counters)
        if riding is not None:
            kept = pieces.tuck(PAPERS[paper], apart, cards, counters)
            if kept is None:  # apart, the counters no longer fit below the cards: they take a sheet of their own
                kept = _card_sheet(paper, apart, cards) + _counter_sheet(paper, unfolded_apart, counters)
            parts.append(("cards and counters", riding, len(kept)))
        else:
            parts.append(("cards", _card_sheet(paper, settings, cards), len(_card_sheet(paper, apart, cards))))
            if counters:
                apart_pages = len(_counter_sheet(paper, unfolded_apart, counters))
                parts.append(("counters", _counter_sheet(paper, unfolded, counters), apart_pages))
        lines += [_warning(game, name, paper, laid, pages) for name, laid, pages in parts if joined(laid)]
    return lines


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
