"""The JSON Schemas of a game's YAML files, generated from the model, for editors to validate while typing.

printkit ships them in its package. A project keeps its own copy in schema/ (`printkit schema`
writes it), so the line at the top of each YAML file can point there by a relative path that
still works when the folder is shared. A source checkout of printkit is a project whose copy
is the package's own.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from printkit.core import assets, atomic
from printkit.core.project import Project
from printkit.data.model import CardFile, GameFile

SCHEMAS: dict[str, type[BaseModel]] = {
    "game.schema.json": GameFile,
    "cards.schema.json": CardFile,
}
MODELINE = "# yaml-language-server: $schema="


def generate(model: type[BaseModel], name: str) -> dict[str, Any]:
    schema = model.model_json_schema()
    head = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://printkit.invalid/schema/{name}",
    }
    return {**head, **schema}


def render(name: str) -> str:
    """The exact text of one schema file."""
    return json.dumps(generate(SCHEMAS[name], name), indent=2, ensure_ascii=False) + "\n"


def folder(project: Project) -> Path:
    """Where the project's schemas live: printkit's own when printkit's source sits in the project, else schema/."""
    shipped = assets.schema_folder()
    return shipped if shipped.resolve().is_relative_to(project.root.resolve()) else project.schema


def stale(project: Project) -> list[Path]:
    """The project's schema files that are missing or differ from the model."""
    where = folder(project)
    return [
        where / name
        for name in SCHEMAS
        if not (where / name).is_file() or (where / name).read_text(encoding="utf-8") != render(name)
    ]


def write(project: Project) -> list[Path]:
    """Bring the project's schema files up to date; the files written."""
    written = stale(project)
    for path in written:
        atomic.write_text(path, render(path.name))
    return written


def modeline(name: str, yaml_file: Path, project: Project) -> str:
    """The comment that points yaml-language-server at a schema, by a path relative to the YAML file."""
    target = (folder(project) / name).resolve()
    ref = Path(os.path.relpath(target, yaml_file.parent.resolve())).as_posix()
    return f"{MODELINE}{ref}\n"
