"""The user's project: the folder printkit works in, its settings file, and where its games, layouts and outputs live.

The project is the nearest folder, from the current one upward, that holds a printkit.toml or
a pyproject.toml with a [tool.printkit] table; without either, the current folder. Its games
are its cards/*/ folders, its layouts/ extend or override the built-in ones, its [fonts] are
named by every game's layouts, and what printkit makes goes to its output/.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printkit.core import files
from printkit.core.errors import PlacedError, Problem, display_path

CONFIG = "printkit.toml"
PYPROJECT = "pyproject.toml"
# fonts: those every game of the project may name; engines: trusted, the game folders whose own engines may run
SECTIONS = ("print", "fonts", "engines")
MAX_SETTINGS = 1_000_000  # bytes of printkit.toml or pyproject.toml  # what a project's settings table may hold
_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")


class ProjectError(PlacedError):
    """A project settings file that does not read."""


@dataclass(frozen=True)
class Project:
    """A folder of the user's, with its settings table (empty when it has none)."""

    root: Path
    config: Path | None = None  # printkit.toml, or the pyproject.toml holding [tool.printkit]
    table: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    @property
    def cards(self) -> Path:
        return self.root / "cards"

    @property
    def layouts(self) -> Path:
        return self.root / "layouts"

    @property
    def output(self) -> Path:
        return self.root / "output"

    @property
    def schema(self) -> Path:
        """Where `printkit schema` keeps the project's copy of the JSON Schemas, for editors."""
        return self.root / "schema"

    def section(self, name: str) -> dict[str, Any]:
        """One table of the project's settings, such as print, checked to be a table."""
        value = self.table.get(name, {})
        if not isinstance(value, dict):
            raise ProjectError(f"{self.where(name)}: expected a table [{self._prefix()}{name}]")
        return value

    def where(self, *keys: str) -> str:
        """file:line:column of a setting, for error messages; the file alone when the key is not found."""
        if self.config is None:
            return "project settings"
        shown = display_path(self.config)
        text = _text(self.config)
        key = keys[-1]
        section = f"[{self._prefix()}{'.'.join(keys[:-1])}]" if len(keys) > 1 else None
        lines = text.splitlines()
        start = 0
        if section is not None:
            start = next((i + 1 for i, line in enumerate(lines) if line.strip() == section), 0)
        # a key at the start of a line (`bleed = ...`, `print.bleed = ...`), else inside an inline table
        patterns = (re.compile(rf"^\s*(?:[\w.]*\.)?{re.escape(key)}\s*="), re.compile(rf"\b{re.escape(key)}\s*="))
        for pattern in patterns:
            for number in range(start, len(lines)):
                match = pattern.search(lines[number])
                if match:
                    column = match.start() + len(match.group(0)) - len(match.group(0).lstrip())
                    return f"{shown}:{number + 1}:{column + 1}"
        return f"{shown}:1:1"

    def _prefix(self) -> str:
        return "tool.printkit." if self.config is not None and self.config.name == PYPROJECT else ""


def _text(path: Path) -> str:
    return files.read(path, MAX_SETTINGS, None, "settings").decode("utf-8")


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(_text(path))
    except UnicodeDecodeError as exc:
        raise ProjectError(f"{display_path(path)}:1:1: expected UTF-8 text: {exc.reason}") from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        at = _POSITION.search(message)
        line, column = (int(at.group(1)), int(at.group(2))) if at else (1, 1)
        reason = _POSITION.sub("", message).strip()
        raise ProjectError(str(Problem(display_path(path), line, column, f"expected TOML: {reason}"))) from None


def _checked(project: Project) -> Project:
    unknown = sorted(set(project.table) - set(SECTIONS))
    if unknown:
        raise ProjectError(
            f"{project.where(unknown[0])}: unknown project setting {unknown[0]!r} "
            f"(expected a table: {', '.join(f'[{project._prefix()}{s}]' for s in SECTIONS)})"
        )
    return project


def at(folder: Path) -> Project | None:
    """The project whose settings file sits in folder, if one does."""
    config = folder / CONFIG
    if config.exists() or config.is_symlink():  # read, or refused, but never passed over
        return _checked(Project(folder, config, _read(config)))
    pyproject = folder / PYPROJECT
    # another tool's pyproject.toml, even a broken one, is none of printkit's business
    if pyproject.is_file() and b"printkit" in files.read(pyproject, MAX_SETTINGS, None, "settings"):
        tool = _read(pyproject).get("tool", {})
        if isinstance(tool, dict) and "printkit" in tool:
            table = tool["printkit"]
            if not isinstance(table, dict):
                raise ProjectError(f"{display_path(pyproject)}:1:1: expected [tool.printkit] to be a table")
            return _checked(Project(folder, pyproject, table))
    return None


def find(start: Path | None = None) -> Project:
    """The project around start (the current folder by default)."""
    here = (start or Path.cwd()).resolve()
    for folder in [here, *here.parents]:
        found = at(folder)
        if found is not None:
            return found
    return Project(here)
