"""The JSON Schemas of a game's YAML files, generated from the model, for editors to validate while typing."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from .model import CardFile, GameFile

SCHEMA_DIR = Path(__file__).parent / "schema"
SCHEMAS: dict[str, type[BaseModel]] = {
    "game.schema.json": GameFile,
    "cards.schema.json": CardFile,
}


def generate(model: type[BaseModel], name: str) -> dict[str, Any]:
    schema = model.model_json_schema()
    head = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://printkit.invalid/schema/{name}",
    }
    return {**head, **schema}


def render(name: str) -> str:
    """The exact text of one schema file as committed."""
    return json.dumps(generate(SCHEMAS[name], name), indent=2, ensure_ascii=False) + "\n"


def modeline(name: str, yaml_file: Path) -> str:
    """The comment that points yaml-language-server at a schema: relative inside the project, else a file URI."""
    target = (SCHEMA_DIR / name).resolve()
    here = yaml_file.parent.resolve()
    project = SCHEMA_DIR.resolve().parent.parent
    if here.is_relative_to(project):
        ref = Path(os.path.relpath(target, here)).as_posix()
    else:
        ref = target.as_uri()
    return f"# yaml-language-server: $schema={ref}\n"
