"""Every exception printkit raises on purpose, and the one-line problem report.

PrintkitError         anything the user can cause; printed as one line per problem, no traceback
  UsageError          bad command-line use (exit 2)
    PlacedError       a bad setting at a known place in a file, reported as file:line:column (exit 2)
  DataError           bad game data: one or more Problems, each file:line:column (exit 2)
  CheckFailed         a check ran and found an error-level finding (exit 1)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong in one place of one file."""

    file: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.message}"


def display_path(path: Path | str) -> str:
    """A path as the user would type it: relative to the working folder when inside it."""
    p = Path(path)
    try:
        rel = os.path.relpath(p.resolve(), Path.cwd())
    except ValueError:  # another drive on Windows
        return str(p)
    return str(p) if rel.startswith("..") else rel


class PrintkitError(Exception):
    """An error the user can cause and fix; reported without a traceback."""

    exit_code = 2

    def lines(self) -> list[str]:
        return [f"printkit: {self}"]


class UsageError(PrintkitError):
    """The command line asks for something that cannot be done."""


class PlacedError(UsageError):
    """A setting that does not read, at a place in a file: reported like a data problem, file:line:column first."""

    def lines(self) -> list[str]:
        return [str(self)]


class DataError(PrintkitError):
    """Game data that does not load; carries every problem found, sorted by place."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(set(problems))
        super().__init__("\n".join(str(p) for p in self.problems))

    def lines(self) -> list[str]:
        return [str(p) for p in self.problems]


class CheckFailed(PrintkitError):
    """A check found an error-level finding."""

    exit_code = 1
