"""`printkit export csv` and `printkit import csv|xlsx`: one row per card, nested fields flattened to dotted columns.

A round trip gives back the same cards: the `file` column says which YAML file each card
lives in, and import rewrites those files (comments in them are not kept).
"""

from __future__ import annotations

import csv
import io
import itertools
import shutil
import tempfile
from pathlib import Path
from typing import Any

import yaml
from pydantic import TypeAdapter, ValidationError

from printkit.core import atomic, files
from printkit.core.errors import DataError, Problem, UsageError, display_path
from printkit.core.project import Project
from printkit.data.game import GAME_FILE, Game
from printkit.data.loader import load_game
from printkit.data.model import Card
from printkit.data.schema import MODELINE, modeline
from printkit.data.validation import _found
from printkit.data.yamlsource import load

FIRST = ["file", "id", "kind", "name", "copies"]
MAX_SPREADSHEET = 20_000_000  # bytes: thousands of cards; a bigger file is a mistake or a trap
_CARD = TypeAdapter(Card)


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
        _flatten(
            card.model_dump(exclude_defaults=True, mode="json") | {"kind": card.kind, "copies": card.copies}, "", row
        )
        for key in row:
            if key not in columns:
                columns.append(key)
        out.append(row)
    return columns, out


def card_files(game: Game) -> dict[str, str]:
    """Which YAML file each card is written in."""
    where: dict[str, str] = {}
    for path in sorted(game.folder.glob("*.yaml")):
        if path.name == GAME_FILE:
            continue
        data, _ = load(path, game.reads_from)
        for card in data.get("cards") or [] if isinstance(data, dict) else []:
            if isinstance(card, dict) and "id" in card:
                where[str(card["id"])] = path.name
    return where


def export_csv(game: Game, target: Path) -> Path:
    columns, data = rows(game, card_files(game))
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for row in data:
        writer.writerow({k: _cell(v) for k, v in row.items()})
    atomic.write_text(target, text.getvalue())
    return target


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _scalar(text: str) -> Any:
    """A cell's text as YAML would read it: 7 is a number, true a truth value, the rest text."""
    if text.strip() == "":
        return None
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    return value if isinstance(value, (int, float, bool)) and not isinstance(value, str) else text


def _unflatten(row: dict[str, Any]) -> dict[str, Any]:
    root: dict[str, Any] = {}
    for key, value in row.items():
        if value is None:
            continue
        parts = key.split(".")
        here: Any = root
        for part, nxt in itertools.pairwise(parts):
            container: Any = [] if nxt.isdigit() else {}
            if isinstance(here, list):
                index = int(part)
                while len(here) <= index:
                    here.append(None)
                here[index] = here[index] if here[index] is not None else container
                here = here[index]
            else:
                here = here.setdefault(part, container)
        last = parts[-1]
        if isinstance(here, list):
            while len(here) <= int(last):
                here.append(None)
            here[int(last)] = value
        else:
            here[last] = value
    return root


def read_rows(path: Path) -> list[dict[str, str]]:
    """The rows of a CSV (UTF-8) or XLSX file as text cells keyed by column name."""
    raw = files.read(path, MAX_SPREADSHEET, None, "spreadsheet")
    if path.suffix.lower() == ".xlsx":
        import openpyxl

        book = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
        try:
            sheet = book.active
            assert sheet is not None
            values = [["" if v is None else str(v) for v in r] for r in sheet.iter_rows(values_only=True)]
        finally:
            book.close()
        header, body = values[0], values[1:]
        return [dict(zip(header, r, strict=False)) for r in body]
    try:
        return list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    except UnicodeDecodeError as exc:
        raise DataError([Problem(display_path(path), 1, 1, f"expected UTF-8 text: {exc.reason}")]) from None


def import_rows(path: Path, game_folder: Path, project: Project) -> list[Path]:
    """Check every row, then rewrite the game's card files from them; all bad rows reported together."""
    table = read_rows(path)
    if not table:
        raise UsageError(f"{display_path(path)}: no rows to import")
    missing = [c for c in ("id", "kind", "name") if c not in table[0]]
    if missing:
        raise DataError([Problem(display_path(path), 1, 1, f"missing column {', '.join(missing)}")])
    shown = display_path(path)
    columns = list(table[0])
    problems: list[Problem] = []
    files: dict[str, list[dict[str, Any]]] = {}
    for number, raw in enumerate(table, start=2):  # row 1 is the header
        cells = {k: _scalar(v or "") for k, v in raw.items() if k}
        file = str(cells.pop("file", None) or "cards.yaml")
        if file == GAME_FILE or not file.endswith(".yaml") or "/" in file or "\\" in file:
            problems.append(
                Problem(
                    shown,
                    number,
                    columns.index("file") + 1,
                    f"row {number}, column file: expected a card file name such as cards.yaml, found {file!r}",
                )
            )
            continue
        data = _unflatten(cells)
        try:
            card = _CARD.validate_python(data)
        except ValidationError as exc:
            for err in exc.errors():
                parts = [str(p) for p in err["loc"]]
                if parts and parts[0] in _KINDS:  # the union member pydantic names first
                    parts = parts[1:]
                column = ".".join(parts)
                col_index = columns.index(column) + 1 if column in columns else 1
                problems.append(
                    Problem(
                        shown,
                        number,
                        col_index,
                        f"row {number}, column {column or 'kind'}: "
                        f"{err['msg'].lower()} (found {_found(err.get('input'))})",
                    )
                )
            continue
        files.setdefault(file, []).append(card.model_dump(exclude_defaults=True, mode="json") | {"kind": card.kind})
    if problems:
        raise DataError(problems)
    texts = {
        name: yaml.safe_dump(
            {"cards": [_ordered(c) for c in cards]},
            sort_keys=False,
            allow_unicode=True,
            default_flow_style=None,
            width=120,
        )
        for name, cards in files.items()
    }
    _check_whole_game(game_folder, texts)
    written = []
    for name, body in texts.items():
        target = game_folder / name
        atomic.write_text(target, _modeline(target, project) + body)
        written.append(target)
    return written


def _modeline(target: Path, project: Project) -> str:
    """The file's own schema line, kept as it is; a new file gets the project's."""
    if target.is_file():
        with target.open(encoding="utf-8", errors="replace") as handle:
            first = handle.readline()
        if first.startswith(MODELINE):
            return first if first.endswith("\n") else first + "\n"
    return modeline("cards.schema.json", target, project)


def _check_whole_game(game_folder: Path, texts: dict[str, str]) -> None:
    """Load the game as it would be after the import, in a scratch copy: a bad result writes nothing."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / game_folder.name
        shutil.copytree(game_folder, copy, ignore=shutil.ignore_patterns("*.md", "layouts"))
        for name, body in texts.items():
            (copy / name).write_text(body, encoding="utf-8")
        load_game(copy)


_KINDS = {"character", "soldier", "sage", "tanach", "troop", "tactics", "timeline", "plain"}


def _ordered(card: dict[str, Any]) -> dict[str, Any]:
    """id, kind and name first, as the hand-written files have them."""
    head = {k: card[k] for k in ("id", "kind", "name") if k in card}
    return head | {k: v for k, v in card.items() if k not in head}
