"""Cards as rows of a spreadsheet (CSV or XLSX): read safely, each cell placed, nested fields from dotted columns.

A game may keep cards in a spreadsheet that every build reads, and `printkit import` turns one
into YAML. Either way a row is one card, a column one field (`stats.power`, `effects.0.kind`),
every cell is text to the model's own reading (7 is a number where a number is wanted, a name
where a name is), and a problem is placed at its cell: `cards.csv:14:3` or `cards.xlsx:Sheet1!C14`.
"""

from __future__ import annotations

import csv
import difflib
import io
import itertools
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printkit.core import files
from printkit.core.errors import DataError, Problem, display_path, shown
from printkit.data.yamlsource import Mark, SourceMap, column_letters

KINDS = (".csv", ".xlsx")
MAX_BYTES = 20_000_000  # a spreadsheet file
MAX_UNPACKED = 100_000_000  # an XLSX's parts, unzipped: more is a zip bomb, refused before opening
MAX_ROWS = 10_000  # cards: far past any deck; checked, and imported as YAML, in seconds
MAX_COLUMNS = 500
MAX_CELL = 100_000  # characters in one cell: far past any card text
# control characters a cell may not hold: every C0 but tab and line breaks, DEL and C1 (a NUL is never text)
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


class NoSheet(DataError):
    """A workbook without the sheet asked for: placed where the sheet was named, when that is known."""


@dataclass
class Table:
    """A sheet's header and rows of cell text, and where each row and cell stands in the file."""

    file: Path
    sheet: str | None  # XLSX only: the sheet the rows come from
    header: list[str]
    rows: list[list[str]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)  # each row's number in the file, 1 for the header

    def records(self) -> list[dict[str, Any]]:
        """Each row as nested data: dotted columns become mappings and lists, empty cells are left out."""
        return [unflatten({k: v for k, v in zip(self.header, row, strict=False) if k and v != ""}) for row in self.rows]

    def without(self, columns: set[int]) -> Table:
        """The same rows with some columns (numbered from 1) left unread: their header emptied."""
        header = ["" if i in columns else name for i, name in enumerate(self.header, start=1)]
        return Table(self.file, self.sheet, header, self.rows, self.lines)

    def source_map(self, prefix: str = "cards") -> SourceMap:
        """Places of every row and cell, as a YAML file's source map holds its values: errors name cells."""
        smap = SourceMap(self.file, sheet=self.sheet)
        for index, (row, line) in enumerate(zip(self.rows, self.lines, strict=True)):
            smap.values[(prefix, index)] = Mark(line, 1)
            for column, name in enumerate(self.header, start=1):
                if name and column <= len(row):
                    path = (prefix, index, *(int(p) if p.isdigit() else p for p in name.split(".")))
                    smap.values[path] = Mark(line, column)
                    smap.keys[path] = Mark(line, column)
        return smap


def read(path: Path, within: Sequence[Path] | None = None, sheet: str | None = None) -> Table:
    """The rows of a CSV (UTF-8) or XLSX file; anything wrong with it is a DataError placed in it."""
    if path.suffix.lower() not in KINDS:
        raise files.refused(path, f"expected a spreadsheet (csv or xlsx), found {path.suffix or path.name!r}")
    raw = files.read(path, MAX_BYTES, within, "spreadsheet")
    table = _xlsx(path, raw, sheet) if path.suffix.lower() == ".xlsx" else _csv(path, raw)
    if not table.header or not any(table.header):
        raise files.refused(path, "no header row: expected the first row to name the columns (id, kind, name, ...)")
    problems = _header_problems(table)
    for row, line in zip(table.rows, table.lines, strict=True):
        problems += _cell_problems(table, row, line) + _shape_problems(table, row, line)
        if len(problems) > 100:  # a sheet of bad cells says so in the first hundred
            break
    if problems:
        raise DataError(problems)
    return table


def header_problem(table: Table, column: int, message: str) -> Problem:
    """A problem with a column as a whole, placed at its name in the header row."""
    return _problem(table, 1, column, message)


def _problem(table: Table, line: int, column: int, message: str) -> Problem:
    """A problem at a cell: file, line and column, and for XLSX the cell's own name (Deck!C14)."""
    cell = f"{table.sheet}!{column_letters(column)}{line}" if table.sheet is not None else ""
    return Problem(display_path(table.file), line, column, message, cell)


def _header_problems(table: Table) -> list[Problem]:
    """Column names that cannot make one card's fields: repeated, empty parts, a field both a value and
    a mapping (stats and stats.power), a list both indexed and named (effects.0 and effects.x)."""
    problems = []
    seen: dict[tuple[str, ...], int] = {}
    for column, name in enumerate(table.header, start=1):
        if not name:
            continue
        parts = tuple(name.split("."))
        if any(not part for part in parts):
            problems.append(_problem(table, 1, column, f"column {name!r}: expected names joined by single dots"))
            continue
        index = next((p for p in parts if p.isdigit() and int(p) >= MAX_COLUMNS), None)
        if index is not None:
            problems.append(_problem(table, 1, column, f"column {name!r}: list index {index} is past {MAX_COLUMNS}"))
            continue
        if parts in seen:
            problems.append(_problem(table, 1, column, f"column {name!r} again (first in column {seen[parts]})"))
            continue
        for other in seen:
            clash = _clash(parts, other)
            if clash:
                problems.append(_problem(table, 1, column, f"column {name!r} and column {'.'.join(other)!r}: {clash}"))
                break
        seen[parts] = column
    return problems


def _clash(one: tuple[str, ...], other: tuple[str, ...]) -> str:
    """Why two dotted column names cannot both hold: one inside the other, or a list index beside a name."""
    shorter, longer = sorted((one, other), key=len)
    if longer[: len(shorter)] == shorter:
        return f"{'.'.join(shorter)} cannot be both a value and hold {'.'.join(longer)}"
    for depth in range(min(len(one), len(other))):
        if one[:depth] != other[:depth]:
            break
        a, b = one[depth], other[depth]
        if a != b and a.isdigit() != b.isdigit():
            holder = ".".join(one[:depth]) or "the row"
            return f"{holder} cannot be both a list (by number) and a mapping (by name)"
    return ""


def _cell_problems(table: Table, row: list[str], line: int) -> list[Problem]:
    problems = []
    for column, cell in enumerate(row, start=1):
        if len(cell) > MAX_CELL:
            problems.append(_problem(table, line, column, f"{len(cell):,} characters: expected at most {MAX_CELL:,}"))
        bad = _CONTROL.search(cell)
        if bad:
            code = f"U+{ord(bad.group()):04X}"
            problems.append(_problem(table, line, column, f"control character {code}: expected printable text"))
    return problems


def _shape_problems(table: Table, row: list[str], line: int) -> list[Problem]:
    """A value under no column name, which no field would take, and (CSV) a row of fewer cells than the
    header, whose later values would land in the wrong fields: either would lose data without a word."""
    problems = []
    for column, cell in enumerate(row, start=1):
        if cell.strip() and (column > len(table.header) or not table.header[column - 1]):
            message = f"{shown(cell, 40)} under no column name: expected a name for column {column} in row 1"
            problems.append(_problem(table, line, column, message))
            break  # one a row: a row with its values shifted would say it once for every cell
    if table.sheet is None and len(row) < len(table.header):
        message = f"{len(row)} cells, the header {len(table.header)}: expected a cell for each column (empty ones too)"
        problems.append(_problem(table, line, len(row) + 1, message))
    return problems


# A cell a spreadsheet would run as a formula starts with one of these (the OWASP rule for CSV injection)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _quoted(text: str) -> bool:
    """Whether text, after a leading apostrophe, is one printkit wrote there: before a formula start or another."""
    return text.startswith("'") and (text[1:].startswith(FORMULA_STARTS) or text[1:2] == "'")


def neutralised(text: str) -> str:
    """A cell as a CSV export writes it: an apostrophe before anything a spreadsheet would run, so it shows
    as text (and before an apostrophe printkit would otherwise take back off, so the round trip holds)."""
    return "'" + text if text.startswith(FORMULA_STARTS) or _quoted(text) else text


def restored(text: str) -> str:
    """A cell as read back: the apostrophe neutralised() put there taken off, any other text as it is."""
    return text[1:] if _quoted(text) else text


def _csv(path: Path, raw: bytes) -> Table:
    shown = display_path(path)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise DataError([Problem(shown, line, 1, "expected UTF-8 text")]) from None
    reader = csv.reader(io.StringIO(text, newline=""))
    table = Table(path, None, [])
    start = 1  # the line a row starts on: a quoted cell may run over several
    try:
        for row in reader:
            if not table.header and start == 1:
                table.header = [h.strip() for h in row]
                if len(table.header) > MAX_COLUMNS:
                    raise DataError([Problem(shown, 1, 1, f"{len(row)} columns: expected at most {MAX_COLUMNS}")])
            elif any(cell.strip() for cell in row):  # blank rows are spacing, not cards
                row = [restored(cell) for cell in row]
                if len(table.rows) == MAX_ROWS:
                    message = f"more than {MAX_ROWS:,} rows: expected that many cards at most"
                    raise DataError([Problem(shown, start, 1, message)])
                table.rows.append(row)
                table.lines.append(start)
            start = reader.line_num + 1
    except csv.Error as exc:
        raise DataError([Problem(shown, reader.line_num, 1, f"not CSV a reader reads: {exc}")]) from None
    return table


def _xlsx(path: Path, raw: bytes, sheet: str | None) -> Table:
    shown = display_path(path)
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            # the sizes the zip declares bound what reading it can unpack: zipfile stops at them
            unpacked = sum(item.file_size for item in archive.infolist())
    except zipfile.BadZipFile:
        raise DataError([Problem(shown, 1, 1, "not an XLSX file (it is not a zip of sheets)")]) from None
    if unpacked > MAX_UNPACKED:
        raise DataError([Problem(shown, 1, 1, f"unpacks to {unpacked / 1e6:.0f} MB: expected at most 100 MB")])
    try:
        return _xlsx_rows(path, raw, sheet)
    except DataError:
        raise
    except Exception as exc:  # openpyxl's errors for a damaged or hostile file come from several libraries
        raise DataError([Problem(shown, 1, 1, f"not an XLSX file printkit reads: {_why(exc)}")]) from None


def _why(exc: BaseException) -> str:
    """What stopped openpyxl, looked for along the chain of errors it wraps its causes in."""
    seen: BaseException | None = exc
    while seen is not None:
        if type(seen).__name__ in ("DTDForbidden", "EntitiesForbidden", "ExternalReferenceForbidden"):
            return "it declares XML entities or a DTD, which a spreadsheet program never writes"
        seen = seen.__cause__ or seen.__context__
    return "the file is damaged or not a workbook"


def _sized_by_its_rows() -> None:
    """openpyxl's read-only sheets take their size from a <dimension> element. Where a sheet has none, openpyxl
    parses all of it to find one, every sheet of the workbook as it opens (a 400,000-row sheet was read whole twice
    before its first row was counted); where a program left a stale one, openpyxl cuts off the rows and columns past
    it without a word, and their cards with them. Its own sheet class, used in place of openpyxl's (once, for the
    process), takes no size from the file: every row is read, each as long as its last cell."""
    from openpyxl.reader import excel
    from openpyxl.worksheet._read_only import ReadOnlyWorksheet

    if getattr(excel.ReadOnlyWorksheet, "sized_by_its_rows", False):
        return

    class Sheet(ReadOnlyWorksheet):
        sized_by_its_rows = True

        def _get_size(self) -> None:
            return

    excel.ReadOnlyWorksheet = Sheet


def _xlsx_rows(path: Path, raw: bytes, sheet: str | None) -> Table:
    import openpyxl  # only a game with an XLSX needs it; with defusedxml installed it refuses XML entities
    from openpyxl.utils.cell import column_index_from_string, coordinate_from_string

    shown = display_path(path)
    _sized_by_its_rows()
    values = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    try:
        names = values.sheetnames
        if sheet is not None and sheet not in names:
            close = difflib.get_close_matches(sheet, names, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise NoSheet([Problem(shown, 1, 1, f"no sheet {sheet!r} ({hint}sheets: {', '.join(names)})")])
        chosen = sheet or names[0]
        table = Table(path, chosen, [])
        for line, row in enumerate(values[chosen].iter_rows(values_only=True), start=1):
            if len(row) > MAX_COLUMNS:
                raise DataError([Problem(shown, line, 1, f"{len(row)} columns: expected at most {MAX_COLUMNS}")])
            cells = [_text(value) for value in row]
            if line == 1:
                table.header = [c.strip() for c in cells]
            elif any(c.strip() for c in cells):
                if len(table.rows) == MAX_ROWS:
                    message = f"more than {MAX_ROWS:,} rows: expected that many cards at most"
                    raise DataError([Problem(shown, line, 1, message, f"{chosen}!A{line}")])
                table.rows.append(cells)
                table.lines.append(line)
        # merged cells and formulas, looked for once the rows are counted: merged cells are listed after the rows,
        # and a sheet's formulas are read (a second reading of it) only where its XML has one
        part = getattr(values[chosen], "_worksheet_path", None)
        merged = _found(_MERGE, raw, part)
        if merged:
            first = merged.split(":")[0]
            letters, at = coordinate_from_string(first)
            message = f"merged cells {merged}: expected one value in each cell; unmerge them"
            raise DataError([Problem(shown, at, column_index_from_string(letters), message, f"{chosen}!{first}")])
        problems = _unsaved_formulas(raw, chosen, shown) if part is None or _found(_FORMULA, raw, part) else []
        if problems:
            raise DataError(problems)
        if not any(table.header):
            others = [name for name in names if name != chosen]
            also = f"; the workbook's other sheets: {', '.join(others)}" if others else ""
            message = f"sheet {chosen!r} is empty: expected its first row to name the columns (id, kind, name, ...)"
            raise DataError([Problem(shown, 1, 1, message + also, f"{chosen}!A1")])
        return table
    finally:
        values.close()


def _unsaved_formulas(raw: bytes, chosen: str, shown: str) -> list[Problem]:
    """Each formula cell without a saved value (a file a program wrote, never opened in a spreadsheet): it reads
    as empty, so the card would lose it. The sheet read again for its values and for its formulas, side by side."""
    import openpyxl

    values = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    formulas = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=False)
    problems = []
    try:
        rows = values[chosen].iter_rows(values_only=True)
        written = formulas[chosen].iter_rows(values_only=True)
        for line, (row, source) in enumerate(zip(rows, written, strict=False), start=1):
            for column, (value, typed) in enumerate(zip(row, source, strict=False), start=1):
                if value is None and isinstance(typed, str) and typed.startswith("="):
                    place = f"{chosen}!{column_letters(column)}{line}"
                    message = (
                        "a formula with no saved value: open and save the file in a spreadsheet program so its "
                        "values are stored"
                    )
                    problems.append(Problem(shown, line, column, message, place))
    finally:
        values.close()
        formulas.close()
    return problems


_MERGE = re.compile(rb'<(?:\w+:)?mergeCell\s+ref="([A-Z]{1,3}[0-9]{1,7}(?::[A-Z]{1,3}[0-9]{1,7})?)"')
_FORMULA = re.compile(rb"<((?:\w+:)?f)[\s>/]")  # a cell's formula element, <f> or <x:f ...>


def _found(pattern: re.Pattern[bytes], raw: bytes, part: str | None) -> str | None:
    """The first group of pattern's first match in a sheet's XML: the first merged range (openpyxl's read-only
    sheets do not say; a merged cell reads as empty, so a card would lose the values it seems to have), or the
    first formula."""
    if not part:  # the sheet's part is openpyxl's private knowledge: without it, no check
        return None
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        try:
            stream = archive.open(part.lstrip("/"))
        except KeyError:
            return None
        with stream:  # a megabyte at a time, each with the last one's end: a sheet unpacks to up to 100 MB
            tail = b""
            while chunk := stream.read(1 << 20):
                found = pattern.search(tail + chunk)
                if found:
                    return found.group(1).decode()
                tail = chunk[-200:]
    return None


def _text(value: Any) -> str:
    """A cell as text: a whole number written without its .0, nothing as the empty text."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def unflatten(row: dict[str, Any]) -> dict[str, Any]:
    """Dotted column names as nested data: stats.power -> {stats: {power: ...}}, effects.0.kind -> a list."""
    root: dict[str, Any] = {}
    for key, value in row.items():
        parts = key.split(".")
        here: Any = root
        for part, after in itertools.pairwise(parts):
            container: Any = [] if after.isdigit() else {}
            if isinstance(here, list):
                index = int(part) if part.isdigit() else -1
                if index < 0:
                    break
                while len(here) <= index:
                    here.append(None)
                here[index] = here[index] if here[index] is not None else container
                here = here[index]
            elif isinstance(here, dict):
                here = here.setdefault(part, container)
            else:
                break
        last = parts[-1]
        if isinstance(here, list) and last.isdigit():
            while len(here) <= int(last):
                here.append(None)
            here[int(last)] = value
        elif isinstance(here, dict):
            here[last] = value
    return root
