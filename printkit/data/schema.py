"""The JSON Schemas of a game's YAML files, for editors to validate and complete while the designer types.

game.yaml's schema comes from the model. A card file's comes from the game's own declarations: each
kind of card it declares and each field's type, values and bounds (and, for a field only its engine
reads, the engine's form of it), so an editor completes `cost:` and flags `rarity: legendery`. The
generic cards.schema.json describes printkit's plain kind and lets a declared kind's fields through.

printkit ships the bundled games' schemas in its package. A project keeps its own copy in schema/
(`printkit schema` writes it, a file for each of its games), so the line at the top of each YAML
file can point there by a relative path that still works when the folder is shared. A source
checkout of printkit is a project whose copy is the package's own.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from printkit.core import assets, atomic
from printkit.core.errors import DataError
from printkit.core.project import Project
from printkit.data import playfile
from printkit.data.cards import MAX_COPIES, MAX_TEXT, Kinds
from printkit.data.cardtypes import BUILT_IN, MAX_ITEMS, CardType, FieldSpec
from printkit.data.layoutfile import LayoutFile
from printkit.data.model import ICON_NAMES, GameFile

# a layout's schema completes its regions' kinds and settings: names a text binds ({cost}) are the game's
SCHEMAS: dict[str, type[BaseModel]] = {"game.schema.json": GameFile, "layout.schema.json": LayoutFile}
CARDS = "cards.schema.json"  # any game's card files: printkit's plain kind, and a declared kind's fields let through
PLAY = "play.schema.json"  # a game's rules in the rules language (printkit/data/playfile.py describes them)
MODELINE = "# yaml-language-server: $schema="
_ID = {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_-]*$", "maxLength": 64}


def _head(name: str) -> dict[str, Any]:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"https://printkit.invalid/schema/{name}"}


def generate(model: type[BaseModel], name: str) -> dict[str, Any]:
    return {**_head(name), **model.model_json_schema()}


def game_schema_name(slug: str) -> str:
    """The file of one game's card schema: cards-<slug>.schema.json."""
    return f"cards-{slug}.schema.json"


def _value(spec: FieldSpec, kind: str, kinds: Kinds, icons: list[str]) -> dict[str, Any]:
    """The schema of one value of a field (kind: the field's type, or a list's item type)."""
    if kind in ("text", "rich"):
        return {"type": "string", "minLength": 1, "maxLength": spec.max_length or MAX_TEXT}
    if kind in ("integer", "number"):
        out: dict[str, Any] = {"type": kind}
        if spec.type != "list":  # a list's min and max count its items
            out |= {k: v for k, v in (("minimum", spec.min), ("maximum", spec.max)) if v is not None}
        return out
    if kind == "yesno":
        return {"type": "boolean"}
    if kind == "choice":
        if spec.tables:
            return {"enum": sorted({row for t in spec.tables for row in kinds.tables.get(t, {})})}
        return {"enum": list(spec.choices())}
    if kind == "icon":
        return {"enum": icons}
    if kind == "stats":
        return {"type": "object", "propertyNames": _ID, "additionalProperties": {"type": "integer"}}
    return {"type": "string", "maxLength": 500}  # art: a picture's path in the game's folder


def _field(key: str, spec: FieldSpec, kinds: Kinds, icons: list[str], form: dict[str, Any] | None) -> dict[str, Any]:
    if spec.type == "engine":  # the engine's own form of it, or anything when its engine is unknown here
        out: dict[str, Any] = dict((form or {}).get("properties", {}).get(key, {}))
    elif spec.type == "list":
        out = {"type": "array", "items": _value(spec, spec.item_type, kinds, icons), "maxItems": MAX_ITEMS}
        out |= {k: int(v) for k, v in (("minItems", spec.min), ("maxItems", spec.max)) if v is not None}
    else:
        out = _value(spec, spec.type, kinds, icons)
    out["title"] = spec.label(key)
    if spec.description:
        out["description"] = spec.description
    return out


def _built_in(declared: CardType) -> dict[str, Any]:
    """What every card has, whatever its kind."""
    text = {"type": "string", "minLength": 1, "maxLength": MAX_TEXT}
    return {
        "id": {**_ID, "title": "Id", "description": "The card's own name in the data, unique in the game."},
        "name": {**text, "title": "Name", "description": "The card's title, as it prints."},
        "copies": {"type": "integer", "minimum": 0, "maximum": MAX_COPIES, "title": "Copies"},
        "flavour": {**text, "title": "Flavour"},
        "art": {"type": "string", "maxLength": 500, "title": "Art", "description": "A picture in the game's folder."},
        "art_credit": {**text, "title": "Art credit"},
        "shared": {"type": "boolean", "title": "Shared", "description": "In more than one deck on purpose."},
        "reconstructed": {
            "type": "array",
            "items": {"enum": ["name", "copies", *declared.fields]},
            "uniqueItems": True,
            "title": "Reconstructed",
            "description": "The fields whose values the edition chose where its source gives none.",
        },
    }


def card_schema(kinds: Kinds, icons: list[str], forms: dict[str, dict[str, Any]], name: str) -> dict[str, Any]:
    """The schema of a card file of a game with these kinds: each card one of them, with its fields."""
    defs: dict[str, Any] = {}
    kinds_of: list[dict[str, Any]] = []
    for kind, declared in kinds.types.items():
        form = forms.get(kind)
        defs |= (form or {}).get("$defs", {})
        properties = _built_in(declared) | {
            key: _field(key, spec, kinds, icons, form) for key, spec in declared.fields.items()
        }
        properties["kind"] = {"const": kind, "title": "Kind", "description": declared.one(kind)}
        required = ["id", "name", *(k for k, s in declared.fields.items() if s.required)]
        if len(kinds.types) > 1:
            required.insert(1, "kind")
        kinds_of.append(
            {
                "type": "object",
                "title": declared.one(kind),
                "properties": properties,
                "required": required,
                "additionalProperties": False,
            }
        )
    card = kinds_of[0] if len(kinds_of) == 1 else {"oneOf": kinds_of}
    out = {
        **_head(name),
        "title": "Cards",
        "type": "object",
        "properties": {"cards": {"type": "array", "minItems": 1, "items": card}},
        "required": ["cards"],
        "additionalProperties": False,
    }
    return out | ({"$defs": defs} if defs else {})


def _generic() -> dict[str, Any]:
    """Any game's card file: the plain kind's fields checked, another kind's let through (its game's own schema
    names them)."""
    plain = card_schema(Kinds.of({}, {}), sorted(ICON_NAMES), {}, CARDS)
    typed = plain["properties"]["cards"]["items"]
    other = {
        "type": "object",
        "properties": {**{k: {} for k in BUILT_IN}, "kind": {"type": "string", "not": {"const": "plain"}}},
        "required": ["id", "kind", "name"],
    }
    plain["properties"]["cards"]["items"] = {"anyOf": [typed, other]}
    return plain


def render(name: str) -> str:
    """The exact text of one of printkit's own schema files (not a game's: see game_render)."""
    if name == PLAY:
        data = playfile.document(name)
    else:
        data = _generic() if name == CARDS else generate(SCHEMAS[name], name)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def game_render(folder: Path, project: Project) -> str | None:
    """The exact text of one game's card schema; None when its game.yaml does not load (no kinds to describe)."""
    from printkit.data import loader  # the loader reads schemas' names from here

    try:
        _, kinds, engine = loader.declarations(folder, project)
    except DataError:
        return None
    forms = {k: m.model_json_schema() for k, m in (engine.forms if engine else {}).items()}
    own, _ = loader.own_icons(folder, project)
    icons = sorted(ICON_NAMES | set(own))
    name = game_schema_name(folder.name)
    return json.dumps(card_schema(kinds, icons, forms, name), indent=2, ensure_ascii=False) + "\n"


def folder(project: Project) -> Path:
    """Where the project's schemas live: printkit's own when printkit's source sits in the project, else schema/."""
    shipped = assets.schema_folder()
    return shipped if shipped.resolve().is_relative_to(project.root.resolve()) else project.schema


def _expected(project: Project) -> dict[str, str]:
    """Every schema file the project should have, by name, with its text."""
    from printkit.data import loader

    out = {name: render(name) for name in (*SCHEMAS, CARDS, PLAY)}
    for game in loader.own_games(project):
        text = game_render(game, project)
        if text is not None:
            out[game_schema_name(game.name)] = text
    return out


def stale(project: Project) -> list[Path]:
    """The project's schema files that are missing or differ from what its model and games declare."""
    where = folder(project)
    return [
        where / name
        for name, text in _expected(project).items()
        if not (where / name).is_file() or (where / name).read_text(encoding="utf-8") != text
    ]


def write(project: Project) -> list[Path]:
    """Bring the project's schema files up to date; the files written."""
    where = folder(project)
    written = []
    for name, text in _expected(project).items():
        path = where / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            atomic.write_text(path, text)
            written.append(path)
    return written


def modeline(name: str, yaml_file: Path, project: Project) -> str:
    """The comment that points yaml-language-server at a schema, by a path relative to the YAML file."""
    target = (folder(project) / name).resolve()
    ref = Path(os.path.relpath(target, yaml_file.parent.resolve())).as_posix()
    return f"{MODELINE}{ref}\n"


def card_modeline(yaml_file: Path, project: Project) -> str:
    """A card file's comment: its game's own schema, which names the game's kinds and their fields."""
    return modeline(game_schema_name(yaml_file.parent.name), yaml_file, project)
