"""The JSON Schemas of the YAML files written out as fields to read: Markdown tables for the docs site, plain text
for `printkit help`. Both come from printkit/schema/, so neither can drift from what printkit checks."""

from __future__ import annotations

import json
import re
import textwrap
from dataclasses import dataclass
from typing import Any

from printkit.core.assets import schema_folder

_LINK = re.compile(r"\[([^\]]+)\]\(#[^)]*\)")
_DEPTH = 4  # levels of fields written in place inside a field; deeper ones are left to their own definition


@dataclass(frozen=True)
class Field:
    """One field of a file as the reference lists it."""

    path: str  # dotted, with [] for a list's items and <name> for a map's keys
    required: bool
    kind: str  # Markdown: a named definition is a link to its table
    allowed: str
    default: str
    text: str


@dataclass(frozen=True)
class Section:
    """The file's top level (title "") or one of its named definitions, with its fields."""

    title: str
    description: str
    fields: list[Field]


def sections(name: str) -> list[Section]:
    """Every field of printkit/schema/NAME.schema.json: the top level first, then each definition by name."""
    schema = json.loads((schema_folder() / f"{name}.schema.json").read_text(encoding="utf-8"))
    defs: dict[str, Any] = schema.get("$defs", {})
    found = [Section("", "", list(_rows(schema, "", defs, 0)))]
    found += [
        Section(title, defs[title].get("description", ""), list(_rows(defs[title], "", defs, 0)))
        for title in sorted(defs)
    ]
    return found


def schema_markdown(name: str) -> str:
    """Every field of a JSON Schema as tables: one for the file's top level, one for each definition it uses."""
    parts: list[str] = []
    for section in sections(name):
        if section.title:
            parts += [f"### {section.title}", section.description]
        if section.fields:
            head = "| field | type | allowed | default | what it is |\n| --- | --- | --- | --- | --- |"
            parts.append(head + "\n" + "\n".join(_table_row(field) for field in section.fields))
    return "\n\n".join(part for part in parts if part)


def schema_text(name: str, width: int = 100) -> str:
    """The same fields as plain text for a terminal: a field a line, what it is indented below it."""
    parts: list[str] = []
    for section in sections(name):
        lines = [section.title, *textwrap.wrap(section.description, width)] if section.title else []
        for field in section.fields:
            facts = [_LINK.sub(r"\1", field.kind), field.allowed.replace("\\|", "|")]
            facts += [f"default {field.default}"] if field.default else []
            need = " (required)" if field.required else ""
            lines.append(f"  {field.path}{need}: {'; '.join(fact for fact in facts if fact)}")
            lines += textwrap.wrap(field.text, width, initial_indent="      ", subsequent_indent="      ")
        if lines:
            parts.append("\n".join(lines))
    return "\n\n".join(parts)


def _table_row(field: Field) -> str:
    need = " (required)" if field.required else ""
    default = f"`{field.default}`" if field.default else ""
    return f"| `{field.path}`{need} | {field.kind} | {field.allowed} | {default} | {_cell(field.text)} |"


def _rows(node: dict[str, Any], prefix: str, defs: dict[str, Any], depth: int) -> Any:
    required = set(node.get("required", []))
    for key, value in node.get("properties", {}).items():
        path = f"{prefix}{key}"
        yield _field(path, value, defs, key in required)
        if depth < _DEPTH:
            yield from _nested(value, path, defs, depth)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict) and depth < _DEPTH:
        path = f"{prefix}<name>"
        yield _field(path, extra, defs)
        yield from _nested(extra, path, defs, depth)


def _nested(value: dict[str, Any], path: str, defs: dict[str, Any], depth: int) -> Any:
    """The fields inside an object written in place (not a named definition, which has a table of its own)."""
    for option in [value, *value.get("anyOf", []), *value.get("oneOf", [])]:
        if option.get("properties") or isinstance(option.get("additionalProperties"), dict):
            yield from _rows(option, path + ".", defs, depth + 1)
        items = option.get("items")
        if isinstance(items, dict) and "$ref" not in items:
            for item in [items, *items.get("anyOf", [])]:
                if item.get("properties"):
                    yield from _rows(item, path + "[].", defs, depth + 1)


def _field(path: str, value: dict[str, Any], defs: dict[str, Any], required: bool = False) -> Field:
    default = value.get("default")
    shown = "" if default is None or default in ([], {}) else json.dumps(default)
    return Field(path, required, _kind(value, defs), _allowed(value), shown, value.get("description", ""))


def _kind(value: dict[str, Any], defs: dict[str, Any]) -> str:
    if "$ref" in value:
        name = value["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{name.lower()})"
    if "const" in value:
        return f"`{json.dumps(value['const'])}`"
    options = value.get("anyOf") or value.get("oneOf")
    if options:
        kinds = [_kind(option, defs) for option in options if option.get("type") != "null"]
        return " or ".join(dict.fromkeys(kinds))
    kind = value.get("type", "any")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array":
        items = value.get("items", {})
        return f"list of {_kind(items, defs)}" if items else "list"
    if kind == "object" and isinstance(value.get("additionalProperties"), dict):
        return f"map of {_kind(value['additionalProperties'], defs)}"
    if "enum" in value:
        return "choice"
    return str(kind)


def _allowed(value: dict[str, Any]) -> str:
    found: list[str] = []
    for option in [value, *value.get("anyOf", []), *value.get("oneOf", [])]:
        if "enum" in option:
            found.append(", ".join(f"`{v}`" for v in option["enum"] if v is not None))
        for key, word in (("minimum", ">="), ("exclusiveMinimum", ">"), ("maximum", "<="), ("exclusiveMaximum", "<")):
            if key in option:
                found.append(f"{word} {option[key]}")
        for key, word in (("minLength", "at least"), ("maxLength", "at most")):
            if key in option:
                found.append(f"{word} {option[key]} characters")
        for key, word in (("minItems", "at least"), ("maxItems", "at most")):
            if key in option:
                found.append(f"{word} {option[key]} items")
        if "pattern" in option:
            found.append(f"matches `{option['pattern']}`")
    return "; ".join(_cell(text) for text in dict.fromkeys(found))


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
