"""`printkit export csv|xlsx` and `printkit import csv|xlsx`: one row per card, nested fields as dotted columns.

A round trip gives back the same cards: the `file` column says which YAML file each card
lives in, and import edits those files in place, card by card: an unchanged card keeps its text and
the comments around it, and a file whose cards are all unchanged is not written at all.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from printkit.core import atomic
from printkit.core.errors import DataError, Problem, display_path
from printkit.core.project import Project
from printkit.data import advice, table
from printkit.data import cards as card_data
from printkit.data.cards import Card
from printkit.data.game import GAME_FILE, Game
from printkit.data.loader import declarations, load_game, unknown_columns
from printkit.data.model import CardSheet
from printkit.data.schema import MODELINE, card_modeline
from printkit.data.yamlsource import Mark, SourceMap, format_path, load, parse
from printkit.exports import cardedit

FIRST = ["file", "id", "kind", "name", "copies"]


def _flatten(value: Any, prefix: str, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(item, f"{prefix}.{key}" if prefix else key, out)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _flatten(item, f"{prefix}.{i}", out)
    elif value is not None:
        out[prefix] = value


def rows(game: Game, files: dict[str, str]) -> tuple[list[str], list[dict[str, Any]]]:
    """Column names (stable: fixed ones first, then in order of first use) and one row per card."""
    columns: list[str] = list(FIRST)
    out = []
    for card in game.cards:
        row: dict[str, Any] = {"file": files[card.id]}
        _flatten(card.written() | {"copies": card.copies}, "", row)
        for key in row:
            if key not in columns:
                columns.append(key)
        out.append(row)
    return columns, out


def card_files(game: Game) -> dict[str, str]:
    """Which file each card is written in: a YAML card file, or a spreadsheet the game reads."""
    where: dict[str, str] = {}
    for path in sorted(game.folder.glob("*.yaml")):
        if path.name == GAME_FILE:
            continue
        data, _ = load(path, game.reads_from)
        for card in data.get("cards") or [] if isinstance(data, dict) else []:
            if isinstance(card, dict) and "id" in card:
                where[str(card["id"])] = path.name
    sheets = {game.folder / sheet.file: sheet.file for sheet in game.info.card_sheets}
    for card in game.cards:
        source = game.sources.get(card.id)
        where.setdefault(card.id, sheets.get(source.smap.file, "") if source is not None else "")
    return where


def export_csv(game: Game, target: Path, bom: bool = True) -> Path:
    """The game's cards as CSV: UTF-8 with a byte-order mark (so Excel reads Hebrew as Hebrew) unless bom is
    False, rows ended CRLF as RFC 4180 has them (so a cell holding a carriage return is quoted, not split),
    and no cell a spreadsheet would run as a formula."""
    columns, data = rows(game, card_files(game))
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=columns, lineterminator="\r\n")
    writer.writeheader()
    for row in data:
        writer.writerow({k: table.neutralised(_cell(v)) for k, v in row.items()})
    with atomic.landing(target.parent) as batch:  # a refused write names the file, not its temporary name
        batch.write(target, text.getvalue().encode("utf-8-sig" if bom else "utf-8"))
    return target


def export_xlsx(game: Game, target: Path) -> Path:
    """The game's cards as an XLSX workbook, one sheet named Cards: every cell written as text, so nothing in
    it is a formula a spreadsheet would run, and the same rows a CSV export has (import reads either)."""
    import openpyxl
    from openpyxl.cell.cell import TYPE_STRING

    columns, data = rows(game, card_files(game))
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Cards"
    sheet.append(columns)
    for row in data:
        sheet.append([None] * len(columns))
        line = sheet.max_row
        for column, name in enumerate(columns, start=1):
            if name in row:
                cell = sheet.cell(line, column)
                cell.value = _cell(row[name])
                cell.data_type = TYPE_STRING  # openpyxl would take a text starting with = for a formula
    sheet.freeze_panes = "A2"
    book.properties.creator = "printkit"
    # a workbook records when it was made: fixed, so the same cards give the same bytes
    book.properties.created = book.properties.modified = _EPOCH
    buffer = io.BytesIO()
    book.save(buffer)
    with atomic.landing(target.parent) as batch:
        batch.write(target, _fixed_zip_times(buffer.getvalue()))
    return target


_EPOCH = datetime.datetime(2000, 1, 1)


_MODIFIED = re.compile(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)")


def _fixed_zip_times(data: bytes) -> bytes:
    """The zip again with every time in it fixed: openpyxl stamps each member, and the workbook's modified
    date, with the time of saving."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as copy:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "docProps/core.xml":
                content = _MODIFIED.sub(rb"\g<1>2000-01-01T00:00:00Z\g<2>", content)
            copy.writestr(zipfile.ZipInfo(item.filename, (1980, 1, 1, 0, 0, 0)), content)
    return out.getvalue()


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def import_rows(
    path: Path, game_folder: Path, project: Project, allow_orphans: bool = False, sheet: str | None = None
) -> list[Path]:
    """Check every row, then rewrite the game's card files from them; all bad rows reported together."""
    rows = table.read(path, sheet=sheet)
    if not rows.rows:
        raise DataError(
            [Problem(display_path(path), 2, 1, "no rows to import: expected a row per card under the header")]
        )
    missing = [c for c in ("id", "kind", "name") if c not in rows.header]
    if missing:
        raise DataError([Problem(display_path(path), 1, 1, f"missing column {', '.join(missing)}")])
    _, kinds, _ = declarations(game_folder, project)
    unknown = unknown_columns(rows, kinds, also=("file",))
    problems: list[Problem] = list(unknown.values())
    rows = rows.without(set(unknown))
    records = rows.records()
    smap = rows.source_map()
    before = _cards_now(game_folder, project)
    sheets = {sheet.file for sheet in before.sheets}
    targets = []
    for index, record in enumerate(records):
        file = str(record.pop("file", None) or "cards.yaml")
        if file in sheets:  # a card the game reads from its own spreadsheet: that sheet is where it is kept
            targets.append(file)
            continue
        if file == GAME_FILE or not file.endswith(".yaml") or "/" in file or "\\" in file:
            message = f"expected a YAML card file name such as cards.yaml, found {file!r}"
            problems.append(smap.problem(("cards", index, "file"), message))
        targets.append(file)
    first_row: dict[str, int] = {}
    for index, record in enumerate(records):  # found here, a duplicate is named at its cell, not in a draft file
        ident = str(record.get("id", ""))
        if ident in first_row:
            line = rows.lines[first_row[ident]]
            problems.append(smap.problem(("cards", index, "id"), f"duplicate card id {ident!r} (first in row {line})"))
        first_row.setdefault(ident, index)
    read: list[Card] = []
    for index, record in enumerate(records):  # lax: a cell is text, read as its field's type asks
        card, found = card_data.read(record, kinds, smap, ("cards", index), lax=True)
        problems += found
        if card is not None:
            read.append(card)
    if problems:
        raise DataError(problems)
    files: dict[str, list[dict[str, Any]]] = {}
    for index, (card, file) in enumerate(zip(read, targets, strict=True)):
        if file in sheets:  # kept in the game's sheet: an import writes no spreadsheet, so it must be unchanged
            kept = before.cards.get(card.id)
            if kept is None or kept.written() != card.written():
                problems.append(
                    smap.problem(
                        ("cards", index, "id"),
                        f"card {card.id!r} is kept in {file}, which the game reads on every build: change it there "
                        "(an import writes YAML card files only)",
                    )
                )
            continue
        files.setdefault(file, []).append(card.written())
    if problems:
        raise DataError(problems)

    def now(card_id: str) -> dict[str, Any] | None:
        card = before.cards.get(card_id)
        return None if card is None else card.written()

    texts = {}
    for name, rows_of_file in files.items():
        target = game_folder / name
        old = target.read_text(encoding="utf-8") if name in before.files else None
        text = cardedit.edited(old, rows_of_file, now) if old is not None else None
        if text is None:  # a new file, or one that cannot be edited in place: written afresh
            body = yaml.safe_dump(
                {"cards": rows_of_file}, sort_keys=False, allow_unicode=True, default_flow_style=None, width=120
            )
            text = _modeline(target, project) + body
        if text != old:  # a file whose cards are all as they were is left as it is, to the byte
            texts[name] = text
    rows_of = {str(record.get("id", "")): index for index, record in reversed(list(enumerate(records)))}
    try:
        _check_whole_game(game_folder, texts, project, allow_orphans, smap, rows_of)
    except DataError as exc:  # found in the files the rows would make: named at the rows' cells instead
        raise DataError([_at_cell(p, game_folder, texts, smap, rows_of) for p in exc.problems]) from None
    written = []
    for name, text in texts.items():
        atomic.write_text(game_folder / name, text)
        written.append(game_folder / name)
    return written


@dataclass(frozen=True)
class _Now:
    """The game's cards as they are before an import, and the card files it reads them from."""

    cards: dict[str, Card]
    files: frozenset[str]
    sheets: tuple[CardSheet, ...] = ()


def _cards_now(game_folder: Path, project: Project) -> _Now:
    """What the game holds now, when it loads; an import into a broken game writes each file afresh."""
    try:
        game = load_game(game_folder, project)
    except DataError:
        return _Now({}, frozenset())
    names = {p.name for p in game_folder.glob("*.yaml") if p.name != GAME_FILE and p.is_file()}
    return _Now({card.id: card for card in game.cards}, frozenset(names), tuple(game.info.card_sheets))


def _modeline(target: Path, project: Project) -> str:
    """The file's own schema line, kept as it is; a new file gets the project's."""
    if target.is_file():
        with target.open(encoding="utf-8", errors="replace") as handle:
            first = handle.readline()
        if first.startswith(MODELINE):
            return first if first.endswith("\n") else first + "\n"
    return card_modeline(target, project)


def _check_whole_game(
    game_folder: Path,
    texts: dict[str, str],
    project: Project,
    allow_orphans: bool,
    smap: SourceMap,
    rows_of: dict[str, int],
) -> None:
    """Load the game as it would be after the import, the new texts in place of its files: a bad result writes
    nothing. Nothing is copied, so nothing of a stranger's folder is read but its own game files. A card no
    deck takes would never print: an error at its row, where a row is easily one kind off, unless allowed."""
    game = load_game(game_folder, project, texts)
    lost = advice.untaken(game)
    if lost and not allow_orphans:
        kinds = {card.id: card.kind for card in game.cards}
        message = (
            "no deck of {game} takes card {card!r} ({kind}), so it would never print: fix its kind or a "
            "deck's include, or import with --allow-orphans; nothing was written"
        )

        def placed(card: str) -> Problem:
            text = message.format(game=game.slug, card=card, kind=kinds[card])
            if card in rows_of:
                return smap.problem(("cards", rows_of[card], "kind"), text)
            return Problem(display_path(game_folder / GAME_FILE), 1, 1, text)  # a card the sheet does not hold

        raise DataError([placed(card) for card in lost])


def _at_cell(
    problem: Problem, game_folder: Path, texts: dict[str, str], smap: SourceMap, rows_of: dict[str, int]
) -> Problem:
    """A problem found in a card file the import would write, placed at the row and cell its value came from;
    a problem elsewhere (game.yaml, a file the import leaves alone) as it is."""
    name = next((n for n in texts if display_path(game_folder / n) == problem.file), None)
    if name is None:
        return problem
    data, written = parse(texts[name].encode("utf-8"), game_folder / name)
    at = Mark(problem.line, problem.column)
    found = [path for table in (written.values, written.keys) for path, mark in table.items() if mark == at]
    path = max(found, key=len, default=None)
    if path is None or len(path) < 2 or path[0] != "cards" or not isinstance(path[1], int):
        return problem
    card_id = str(data["cards"][path[1]].get("id", ""))
    if card_id not in rows_of:
        return problem
    where = format_path(path)
    message = problem.message[len(where) + 2 :] if problem.message.startswith(where + ": ") else problem.message
    return smap.problem(("cards", rows_of[card_id], *path[2:]), message)
