"""What every command shares: the project and its games, print settings from the options, output and quiet/verbose."""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from printkit.cli import manual
from printkit.core import project
from printkit.core.errors import DataError, UsageError, display_path, safe
from printkit.core.project import Project

if TYPE_CHECKING:
    from printkit.data.game import Game

MAX_WARNINGS = 50  # warning lines a run shows; the rest are counted in one line, so a flood stays readable
_PLACED = re.compile(r"^(.+?):(\d+):(\d+): (.*)$")
_CELL = re.compile(r"^([^:]+):([^:!]+)!([A-Z]+)([1-9]\d*): (.*)$")


class Output:
    """How much a command says: --quiet keeps to errors, --verbose adds every file written, and --json
    replaces all of it with one JSON document on standard output, for editors and CI."""

    quiet: ClassVar[bool] = False
    verbose: ClassVar[bool] = False
    json: ClassVar[bool] = False
    report: ClassVar[dict[str, Any]] = {}
    warned: ClassVar[int] = 0  # warnings of this run, shown or not: past MAX_WARNINGS they are counted only

    @classmethod
    def set(cls, args: argparse.Namespace) -> None:
        cls.json = bool(getattr(args, "json", False))
        cls.quiet = bool(getattr(args, "quiet", False)) or cls.json
        cls.verbose = bool(getattr(args, "verbose", False)) and not cls.quiet
        cls.report = {"command": args.command, "ok": True, "exit_code": 0, "problems": [], "warnings": [], "notes": []}
        cls.warned = 0

    @classmethod
    def unshown(cls) -> str | None:
        """The line that says how many warnings went unshown past MAX_WARNINGS; None when none did."""
        rest = cls.warned - MAX_WARNINGS
        if rest <= 0 or cls.json or cls.quiet:
            return None
        return f"warning: and {rest:,} more like these; `--json` lists every one"


def placed(line: str, topic: str = "") -> dict[str, Any]:
    """A problem line as JSON: file, line, column and message when it is placed, the message alone when not; and
    the `printkit help` that explains it, when a page does."""
    found = _located(line)
    chosen = topic or manual.topic_of(line)
    return found | {"help": f"printkit help {chosen}"} if chosen else found


def _located(line: str) -> dict[str, Any]:
    match = _PLACED.match(line)
    if match:
        file, row, column, message = match.groups()
        return {"file": file, "line": int(row), "column": int(column), "message": message}
    cell = _CELL.match(line)  # a spreadsheet's cell: its row and column too, for an editor to go to
    if cell:
        file, sheet, letters, row, message = cell.groups()
        column = 0
        for letter in letters:
            column = column * 26 + ord(letter) - ord("A") + 1
        return {"file": file, "line": int(row), "column": column, "cell": f"{sheet}!{letters}{row}", "message": message}
    return {"message": line.removeprefix("printkit: ")}


def record(key: str, value: Any) -> None:
    """A result of the command, for --json."""
    Output.report[key] = value


def game_entry(game: Any, ok: bool) -> dict[str, Any]:
    """A game as --json lists it, the same for every command: its slug, title and folder, and whether it passed."""
    return {"game": game.slug, "title": game.title, "folder": display_path(game.folder), "ok": ok}


def say(text: str) -> None:
    """A line of what the command did, on standard output; none with --quiet. Names from a game's data or
    folder may hold terminal controls: every line is escaped."""
    if not Output.quiet:
        print(safe(text))


def detail(text: str) -> None:
    """A line only --verbose shows."""
    if Output.verbose:
        print(safe(text))


def note(text: str) -> None:
    """Something the user may want to know, on standard error; none with --quiet."""
    if Output.json:
        Output.report["notes"].append(text)
    elif not Output.quiet:
        print(f"note: {safe(text)}", file=sys.stderr)


def warn(text: str) -> None:
    """Something that worked but could be better, on standard error; none with --quiet."""
    Output.warned += 1
    if Output.json:  # every one, for an editor to place
        Output.report["warnings"].append(placed(text))
    elif not Output.quiet and Output.warned <= MAX_WARNINGS:
        print(f"warning: {manual.pointed(safe(text))}", file=sys.stderr)


def load(targets: Sequence[str], where: Project) -> list[Game]:
    """The named games (the project's own when none is named), every problem of all of them together."""
    from printkit.data import loader  # here, so commands that load no game start without the model

    games, problems = [], []
    for found in loader.find_all(list(targets), where):
        if found.note:
            note(found.note)
        try:
            games.append(loader.load_game(found.folder, where))
        except DataError as exc:
            problems.extend(exc.problems)
    if problems:
        raise DataError(problems)
    return games


def games(args: argparse.Namespace) -> list[Game]:
    return load(args.games, project.find())


def one_game(target: str) -> Game:
    return load([target], project.find())[0]


def names(text: str | None) -> tuple[str, ...]:
    """A comma-separated option as its items."""
    return tuple(n.strip() for n in text.split(",") if n.strip()) if text else ()


def out_folder(args: argparse.Namespace, where: Project) -> Path:
    """--out, else the project's output/."""
    return Path(args.out) if getattr(args, "out", None) else where.output


def print_settings(args: argparse.Namespace, keys: Sequence[str]) -> dict[str, Any]:
    """The print settings given on the command line, as the settings layer reads them."""
    given = {key: getattr(args, key, None) for key in keys}
    if given.get("foldover") is False:
        given["foldover"] = None  # the flag's absence leaves the setting to the game and project
    return given


def count(option: str, value: int, most: int) -> None:
    """A count option within 1..most, else one line."""
    if not 1 <= value <= most:
        raise UsageError(f"{option}: expected 1 to {most:,}, found {value:,}")


def chosen(option: str, text: str | None, known: Sequence[str]) -> frozenset[str]:
    """The comma-separated choices of an option, every one known (all of them when the option is absent)."""
    if text is None:
        return frozenset(known)
    picked = names(text)
    unknown = [p for p in picked if p not in known]
    if unknown or not picked:
        hint = difflib.get_close_matches(unknown[0], known, n=1, cutoff=0.75) if unknown else []
        extra = f" (did you mean {hint[0]!r}?)" if hint else ""
        raise UsageError(f"{option}: expected some of {', '.join(known)}, found {text!r}{extra}")
    return frozenset(picked)
