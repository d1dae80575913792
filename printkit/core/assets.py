"""printkit's own files: the built-in layouts, templates and bundled games, wherever printkit is installed.

A wheel carries the repository's top-level cards/, layouts/, templates/ and docs' pages inside the package, as
printkit/assets/<name>/ (pyproject.toml maps them there at build time). An editable install
runs from a source checkout, where the same folders sit beside the package instead.
"""

from __future__ import annotations

import functools
from importlib.resources import files
from pathlib import Path

from printkit.core.errors import PrintkitError

FOLDERS = ("cards", "layouts", "templates", "docs")


class AssetsMissing(PrintkitError):
    """The installation lacks one of printkit's own folders."""

    topic = "install"


@functools.cache
def folder(name: str) -> Path:
    """The folder of printkit's own files called name: cards (the bundled games), layouts, templates or docs (the
    guide's pages)."""
    if name not in FOLDERS:
        raise ValueError(f"no asset folder {name!r}")
    packaged = files("printkit") / "assets" / name
    if isinstance(packaged, Path) and packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / name
    if checkout.is_dir():
        return checkout
    raise AssetsMissing(f"printkit's own {name}/ folder is missing from this installation; reinstall printkit")


def schema_folder() -> Path:
    """The JSON Schemas of the YAML files, generated from the model and shipped in the package."""
    return Path(__file__).resolve().parents[1] / "schema"
