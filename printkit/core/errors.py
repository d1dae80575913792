"""Every exception printkit raises on purpose, and the one-line problem report.

PrintkitError         anything the user can cause; printed as one line per problem, no traceback
  UsageError          bad command-line use (exit 2)
    PlacedError       a bad setting at a known place in a file, reported as file:line:column (exit 2)
  DataError           bad game data: one or more Problems, each file:line:column (exit 2)
  Failures            problems a pass over a game found while drawing it, each already a line (exit 2)
  CheckFailed         a check ran and found an error-level finding (exit 1)
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path

MAX_MESSAGE = 300  # characters of one problem's message: the data it quotes is cut, never the place
MAX_REPORTED = 100  # problems printed in one run; the rest are counted
# characters that would start a new line, move the cursor or turn text around on a terminal
# a message that starts file:line:column, or file:Sheet!C14 for a spreadsheet's cell (a sheet's name holds no colon)
PLACED = re.compile(r"[^:\s][^:]*:(?:[1-9]\d*:[1-9]\d*|[^:!]+![A-Z]+[1-9]\d*): ")
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")


def safe(text: str) -> str:
    """text with control, line-breaking and direction characters written as escapes: it stays one honest line."""
    return _UNSAFE.sub(lambda m: m.group(0).encode("unicode_escape").decode("ascii"), text)


def shown(value: object, limit: int = 60) -> str:
    """A key or value as a message quotes it: its repr, escaped by safe(), cut to limit characters."""
    try:
        text = repr(value)
    except ValueError:  # Python will not write out an integer of more than 4,300 digits
        text = "a number of more than 4,300 digits"
    text = safe(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def place_of(file: str, line: int, column: int, cell: str = "") -> str:
    """How a problem names its place, from parts already made safe: "file:line:column", or "file:Sheet1!C14" for a
    spreadsheet's cell."""
    return f"{file}:{cell or f'{line}:{column}'}"


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong in one place of one file."""

    file: str
    line: int
    column: int
    message: str
    cell: str = ""  # a spreadsheet's own name for the place, "Sheet1!C14", shown instead of line and column

    @property
    def place(self) -> str:
        return place_of(safe(self.file), self.line, self.column, safe(self.cell))

    def __str__(self) -> str:
        message = safe(self.message)
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 1] + "…"
        return f"{self.place}: {message}"


def display_path(path: Path | str) -> str:
    """A path as the user would type it: relative to the working folder when inside it."""
    # asked for each place of a file (70,000 for a 10,000-row sheet's cells), each a walk of the path: kept
    return _display_path(os.fspath(path), os.getcwd())


@functools.lru_cache(maxsize=1024)
def _display_path(path: str, cwd: str) -> str:
    p = Path(path)
    try:
        # abspath, not resolve: the path as the user knows it, and a loop of links cannot stop the report
        rel = os.path.relpath(os.path.join(cwd, p), cwd)
    except ValueError:  # another drive on Windows
        return str(p)
    return str(p) if rel.startswith("..") else rel


class PrintkitError(Exception):
    """An error the user can cause and fix; reported without a traceback."""

    exit_code = 2
    topic = ""  # the guide's page that explains this kind of problem (`printkit help TOPIC`); "" for its file's

    def __init__(self, *args: object, topic: str = "") -> None:
        super().__init__(*args)
        if topic:
            self.topic = topic

    def lines(self) -> list[str]:
        return [f"printkit: {safe(str(self))}"]


class UsageError(PrintkitError):
    """The command line asks for something that cannot be done."""


class PlacedError(UsageError):
    """A setting that does not read, at a place in a file: reported like a data problem, file:line:column first."""

    def lines(self) -> list[str]:
        return [safe(str(self))]


def _capped(lines: list[str]) -> list[str]:
    """The first MAX_REPORTED lines, and one saying how many more there are: a flood stays readable."""
    rest = len(lines) - MAX_REPORTED
    if rest <= 0:
        return lines
    more = "1 more problem" if rest == 1 else f"{rest} more problems"
    return [*lines[:MAX_REPORTED], f"printkit: and {more} like these; fix the ones above first"]


class DataError(PrintkitError):
    """Game data that does not load; carries every problem found, sorted by place."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(set(problems))
        super().__init__("\n".join(str(p) for p in self.problems))

    def lines(self) -> list[str]:
        return _capped([str(p) for p in self.problems])


class Failures(PrintkitError):
    """Several problems, each already one line, found by one pass over a game (exit 2)."""

    def __init__(self, lines: list[str]) -> None:
        self.found = lines
        super().__init__("\n".join(lines))

    def lines(self) -> list[str]:
        return _capped([safe(line) for line in self.found])


class CheckFailed(PrintkitError):
    """A check found an error-level finding."""

    exit_code = 1
