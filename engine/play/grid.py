"""A grid zone's built-ins: its cells' steps and reaches, worked out once, and the functions rules read a grid by.

A grid of rows x columns holds one card a cell, with its owner and its marks (hit points, say) beside it in the
position. What a designer should not write by hand is here: the empty cells a card steps to (orthogonally, kept off
another seat's home row where the rules say so), the enemies it reaches (the nearest in its column whatever the row,
the one across on the enemy's home row, or any anywhere), and progress(): whether any attack or deployment can still
happen, however the cards step, searched over the arrangements steps reach as the Soldier Battler engine does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.play.expr import Compiled, ExprError, RuleError

# arrangements progress() looks through before it calls a game live (the Soldier Battler engine's bound): a dead
# 3x3 grid has a few hundred, a live one shows an attack in a step or two; past it the answer is yes, so a game is
# never ended on a search cut short
PROGRESS_SEARCH_LIMIT = 20_000
EMPTY = -1

GRID_FUNCTIONS = (
    "steps", "targets", "open_columns", "home", "cell", "row", "column", "units", "total", "progress",
)  # fmt: skip
_ARGS = {
    "steps": ("grid", "number"),
    "targets": ("grid", "number"),
    "open_columns": ("grid", "number"),
    "home": ("grid", "number"),
    "cell": ("grid", "number", "number"),
    "row": ("grid", "number"),
    "column": ("grid", "number"),
    "units": ("grid", "number"),
    "total": ("marks", "number"),
    "progress": ("grid",),
}


@dataclass
class Layout:
    """A grid's geometry for the rules that read it: each seat's home row, each cell's steps and reaches."""

    rows: int
    cols: int
    homes: tuple[int, ...]  # by seat: its home row
    steps: tuple[tuple[tuple[int, ...], ...], ...]  # by seat, by cell: the cells one step away it may enter
    reach: tuple[dict[str, tuple[tuple[tuple[int, ...], ...], ...]], ...]  # by seat, by reach, by cell: groups
    card_reach: tuple[str, ...]  # by card: its reach


def layout(rows: int, cols: int, homes: Sequence[int], enter_enemy_home: bool, card_reach: Sequence[str]) -> Layout:
    """The steps (down, up, right, left: the engine's order) and reaches of every cell, for every seat."""
    players = len(homes)
    steps = []
    reach = []
    for seat in range(players):
        barred = set() if enter_enemy_home else {homes[o] for o in range(players) if o != seat} - {homes[seat]}
        enemy_home = homes[(seat + 1) % players]
        by_cell = []
        groups: dict[str, list[tuple[tuple[int, ...], ...]]] = {w: [] for w in set(card_reach)}
        for i in range(rows * cols):
            row, col = divmod(i, cols)
            out = []
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nr, nc = row + dr, col + dc
                if 0 <= nr < rows and 0 <= nc < cols and nr not in barred:
                    out.append(nr * cols + nc)
            by_cell.append(tuple(out))
            for word in groups:
                groups[word].append(_reach(word, rows, cols, i, enemy_home))
        steps.append(tuple(by_cell))
        reach.append({w: tuple(g) for w, g in groups.items()})
    return Layout(rows, cols, tuple(homes), tuple(steps), tuple(reach), tuple(card_reach))


def _reach(word: str, rows: int, cols: int, i: int, enemy_home: int) -> tuple[tuple[int, ...], ...]:
    """Groups of cells, nearest first: a card attacks the enemies of the first group that holds any."""
    row, col = divmod(i, cols)
    if word == "anywhere":
        return (tuple(j for j in range(rows * cols) if j != i),)
    if word == "opposite_row_only":
        j = enemy_home * cols + col
        return ((j,),) if j != i else ()
    groups = []  # nearest_in_column: the nearest rows first, whatever the side
    for distance in range(1, rows):
        near = sorted({row - distance, row + distance} & set(range(rows)))
        if near:
            groups.append(tuple(k * cols + col for k in near))
    return tuple(groups)


def targets(lay: Layout, cards: Sequence[int], owner: Sequence[int], i: int) -> list[int]:
    """The enemy cells the card on cell i reaches: the first group of its reach that holds an enemy."""
    seat = owner[i]
    for group in lay.reach[seat][lay.card_reach[cards[i]]][i]:
        hits = []  # (a loop, not a comprehension: that is a call of its own)
        for j in group:
            if owner[j] != EMPTY and owner[j] != seat:
                hits.append(j)
        if hits:
            return hits
    return []


def progress(lay: Layout, cards: list[int], owner: list[int], reserves: Sequence[int]) -> bool:
    """Whether an attack or a deployment can still happen, now or after any steps of any seat's cards.

    Between attacks and deployments cards only step to empty cells, so the search walks every arrangement steps
    reach, a step by any card of any seat at any time (more than turns in order allow: a superset, so "none
    reaches" is sound), and asks of each whether a card reaches an enemy or a seat with cards in reserve has an
    empty cell on its home row. Past PROGRESS_SEARCH_LIMIT arrangements it answers yes.
    """
    cols = lay.cols
    homes = [range(lay.homes[seat] * cols, lay.homes[seat] * cols + cols) for seat in reserves]
    start = tuple(zip(owner, cards, strict=True))
    seen = {start}
    todo = [start]
    # loops, not comprehensions or any() over a generator: in Python 3.11 each of those is a call of its own, and a
    # stalemate's search walks many arrangements
    while todo:
        board = todo.pop()
        here_owner, here_cards = zip(*board, strict=True)  # (a grid has cells: board is never empty)
        for home in homes:
            for j in home:
                if here_owner[j] == EMPTY:
                    return True
        moves = []
        for i, seat in enumerate(here_owner):
            if seat == EMPTY:
                continue
            if targets(lay, here_cards, here_owner, i):
                return True
            for j in lay.steps[seat][i]:
                if here_owner[j] == EMPTY:
                    moves.append((i, j))
        for i, j in moves:
            after = list(board)
            after[i], after[j] = (EMPTY, EMPTY), board[i]
            arrangement = tuple(after)
            if arrangement not in seen:
                if len(seen) >= PROGRESS_SEARCH_LIMIT:
                    return True
                seen.add(arrangement)
                todo.append(arrangement)
    return False


def grid_function(fname: str, args: list[Compiled], column: int) -> Compiled:
    """A grid built-in compiled: its arguments checked for what they are, its value read off the position."""
    wanted = _ARGS[fname]
    if len(args) != len(wanted):
        said = ", ".join("a grid" if w == "grid" else "a grid's mark" if w == "marks" else "a number" for w in wanted)
        raise ExprError(f"{fname}() takes {said}; given {len(args)} value{'s' if len(args) != 1 else ''}", column)
    for arg, want in zip(args, wanted, strict=True):
        if want == "grid" and arg.kind != "grid":
            raise ExprError(f"{fname}(): expected a grid zone first, such as field, found a {arg.kind}", column)
        if want == "marks" and arg.kind != "marks":
            raise ExprError(f"{fname}(): expected a grid's mark first, such as field.hp, found a {arg.kind}", column)
        if want == "number" and arg.kind in ("zone", "slots", "grid", "marks", "text", "bool", "table", "row"):
            raise ExprError(f"{fname}(): expected a number, found a {arg.kind}", column)
    if fname == "total":
        zone, mark = args[0].meta
        fz, fs = args[0].fn, args[1].fn

        def total(s: Any, e: dict[str, Any]) -> int:
            marks = s.marks[fz(s, e)]
            seat = fs(s, e)
            return sum(v for o, v in zip(marks[0], marks[mark], strict=True) if o == seat)

        return Compiled(total, "number")
    zone = args[0].meta
    if zone.layout is None:  # its grid did not read, and said so at its place: nothing more to say here
        kind = "bool" if fname == "progress" else "number"
        kind = "places" if fname in ("steps", "targets", "open_columns") else kind
        return Compiled(_unread, kind, meta=1)
    lay: Layout = zone.layout
    fz = args[0].fn
    fa = args[1].fn if len(args) > 1 else None
    cells = zone.cells

    def place(s: Any, e: dict[str, Any]) -> int:
        i = fa(s, e)  # type: ignore[misc]  # every function but progress() takes a number after the grid
        if type(i) is not int or not 0 <= i < cells:
            raise RuleError(f"column {column}: {fname}(): {zone.name} has no cell {i!r}")
        return i

    at = zone.base  # a grid is the whole game's: where it lies among the zones is fixed
    meta = args[1].meta if len(args) > 1 else None
    name = meta[1] if type(meta) is tuple and meta[0] == "bound" else None  # a bound cell, read without a call
    cell_of = args[-1].fn  # steps() and targets(): the cell, their last argument
    if fname == "steps":
        by_seat = lay.steps

        def steps(s: Any, e: dict[str, Any]) -> list[int]:
            i = cell_of(s, e) if name is None else e.get(name)
            if type(i) is not int or not 0 <= i < cells:  # place()'s check, written in: asked at every legal list
                raise RuleError(f"column {column}: {fname}(): {zone.name} has no cell {i!r}")
            owner = s.marks[at][0]
            seat = owner[i]
            if seat == EMPTY:
                return []
            # a loop, not a comprehension: in Python 3.11 that is a call of its own, for two or three cells
            open_cells = []
            for j in by_seat[seat][i]:
                if owner[j] == EMPTY:
                    open_cells.append(j)
            return open_cells

        return Compiled(steps, "places", meta=cells)
    if fname == "targets":

        def reached(s: Any, e: dict[str, Any]) -> list[int]:
            i = cell_of(s, e) if name is None else e.get(name)
            if type(i) is not int or not 0 <= i < cells:
                raise RuleError(f"column {column}: {fname}(): {zone.name} has no cell {i!r}")
            owner = s.marks[at][0]
            return [] if owner[i] == EMPTY else targets(lay, s.zones[at], owner, i)

        return Compiled(reached, "places", meta=cells)
    if fname == "open_columns":
        cols = lay.cols

        def open_columns(s: Any, e: dict[str, Any]) -> list[int]:
            row = fa(s, e)  # type: ignore[misc]
            if type(row) is not int or not 0 <= row < lay.rows:
                raise RuleError(f"column {column}: open_columns(): {zone.name} has no row {row!r}")
            cards = s.zones[fz(s, e)]
            first, columns = row * cols, []  # (a loop, not a comprehension: that is a call of its own)
            for c in range(cols):
                if cards[first + c] < 0:
                    columns.append(c)
            return columns

        return Compiled(open_columns, "places", meta=lay.cols)
    if fname == "home":

        def home(s: Any, e: dict[str, Any]) -> int:
            seat = fa(s, e)  # type: ignore[misc]
            if type(seat) is not int or not 0 <= seat < len(lay.homes):
                raise RuleError(f"column {column}: home(): expected a seat, found {seat!r}")
            return lay.homes[seat]

        return Compiled(home, "number")
    if fname == "cell":
        fc = args[2].fn

        def cell(s: Any, e: dict[str, Any]) -> int:
            row, col = fa(s, e), fc(s, e)  # type: ignore[misc]
            if type(row) is not int or type(col) is not int or not (0 <= row < lay.rows and 0 <= col < lay.cols):
                raise RuleError(f"column {column}: cell(): {zone.name} has no row {row!r}, column {col!r}")
            return row * lay.cols + col

        return Compiled(cell, "number")
    if fname in ("row", "column"):
        cols, index = lay.cols, fname == "row"
        return Compiled(lambda s, e: divmod(place(s, e), cols)[0 if index else 1], "number")
    if fname == "units":

        def units(s: Any, e: dict[str, Any]) -> int:
            return int(s.marks[at][0].count(fa(s, e)))  # type: ignore[misc]

        return Compiled(units, "number")
    reserve = zone.reserve  # progress

    def can_progress(s: Any, e: dict[str, Any]) -> bool:
        at = fz(s, e)
        seats = range(len(lay.homes))
        reserves = [seat for seat in seats if reserve is not None and reserve.fn(s, {"me": seat}) > 0]
        return progress(lay, s.zones[at], s.marks[at][0], reserves)

    return Compiled(can_progress, "bool")


def _unread(s: Any, e: dict[str, Any]) -> Any:
    raise RuleError("the grid's rules did not read")
