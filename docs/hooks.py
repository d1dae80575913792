"""MkDocs hooks: the reference pages and the pictures are made from printkit itself at every build.

- A page holding `<!-- printkit:commands -->` gets every command's help, as printkit's argument parser prints it.
- A page holding `<!-- printkit:schema NAME -->` gets a table of every field of printkit/schema/NAME.schema.json.
- The pictures the pages show (images/...) are drawn by printkit from a starter game and a bundled one, into a
  temporary folder, and added to the site: no picture is kept in the repository.

tests/test_docs.py calls commands_markdown() and schema_markdown() to check what the pages will say.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "printkit" / "schema"
MARK = re.compile(r"<!-- printkit:(commands|schema (\w+)) -->")

# the pictures: the name in the site, then the file printkit writes under the scratch project's output/
PICTURES = {
    "images/first-game/first-card.png": "my-first-game/png/main/001-first-card.png",
    "images/first-game/back.png": "my-first-game/png/main/back.png",
    "images/first-game/marker.png": "my-first-game/png/counters/score-marker.png",
    "images/skirmish/units.png": "skirmish/preview/units.png",
    "images/skirmish/spells.png": "skirmish/preview/spells.png",
    "images/skirmish/scout.png": "skirmish/png/units/001-scout.png",
    "images/battle-line/troops.png": "battle-line/preview/troops.png",
}
# what printkit runs to draw them, in a new project
RUNS = (
    ["init", "-q"],
    ["new", "My First Game", "-q"],
    ["new", "Skirmish", "--starter", "types", "-q"],
    ["export", "png", "my-first-game", "--dpi", "100", "-q"],
    ["export", "png", "skirmish", "--dpi", "100", "-q"],
    ["preview", "skirmish", "-q"],
    ["preview", "battle-line", "-q"],
)


def commands_markdown() -> str:
    """`printkit` alone and every command's --help, each in a text block, as the parser prints them."""
    from printkit.cli import main
    from printkit.cli.parser import parser

    def printed(argv: list[str]) -> str:
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            main(argv)
        return out.getvalue()

    names = [name for name in _subcommands(parser()) if name]
    parts = ["## printkit", "`printkit` alone lists the commands:", _block(printed([]))]
    for name in names:
        parts += [f"## printkit {name}", _block(printed([name, "--help"]))]
    return "\n\n".join(parts)


def _subcommands(root: Any) -> list[str]:
    import argparse

    for action in root._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(dict.fromkeys(action.choices))
    return []


def _block(text: str) -> str:
    return "```text\n" + text.rstrip("\n") + "\n```"


def schema_markdown(name: str) -> str:
    """Every field of a JSON Schema as tables: one for the file's top level, one for each definition it uses."""
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    defs: dict[str, Any] = schema.get("$defs", {})
    parts = [_table(schema, defs)]
    for title in sorted(defs):
        described = defs[title].get("description", "")
        parts += [f"### {title}", described, _table(defs[title], defs)]
    return "\n\n".join(part for part in parts if part)


def _table(node: dict[str, Any], defs: dict[str, Any]) -> str:
    rows = list(_rows(node, "", defs, 0))
    if not rows:
        return ""
    head = "| field | type | allowed | default | what it is |\n| --- | --- | --- | --- | --- |"
    return head + "\n" + "\n".join(rows)


def _rows(node: dict[str, Any], prefix: str, defs: dict[str, Any], depth: int) -> Any:
    required = set(node.get("required", []))
    for key, value in node.get("properties", {}).items():
        path = f"{prefix}{key}"
        yield _row(path, value, defs, key in required)
        if depth < 4:
            yield from _nested(value, path, defs, depth)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict) and depth < 4:
        path = f"{prefix}<name>"
        yield _row(path, extra, defs)
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


def _row(path: str, value: dict[str, Any], defs: dict[str, Any], required: bool = False) -> str:
    allowed = _allowed(value)
    default = value.get("default")
    shown = "" if default is None or default in ([], {}) else f"`{json.dumps(default)}`"
    text = value.get("description", "")
    need = " (required)" if required else ""
    return f"| `{path}`{need} | {_kind(value, defs)} | {allowed} | {shown} | {_cell(text)} |"


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


def draw_pictures(into: Path) -> dict[str, Path]:
    """Run printkit in a new project under into; the pictures the pages show, by their name in the site."""
    for args in RUNS:
        subprocess.run([sys.executable, "-m", "printkit", *args], cwd=into, check=True, timeout=600)
    found = {name: into / "output" / made for name, made in PICTURES.items()}
    missing = [str(path) for path in found.values() if not path.is_file()]
    if missing:
        raise RuntimeError(f"printkit did not draw {', '.join(missing)}")
    return found


_scratch: tempfile.TemporaryDirectory[str] | None = None
_drawn: dict[str, Path] = {}


def on_files(files: Any, config: Any) -> Any:
    """Add the pictures, drawn once a process (mkdocs serve rebuilds without drawing them again)."""
    from mkdocs.structure.files import File

    global _scratch
    if not _drawn:
        _scratch = tempfile.TemporaryDirectory(prefix="printkit-docs-")
        _drawn.update(draw_pictures(Path(_scratch.name)))
    for name, path in _drawn.items():
        files.append(File.generated(config, name, abs_src_path=str(path)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Put the generated reference where a page marks it."""

    def made(match: re.Match[str]) -> str:
        return commands_markdown() if match[1] == "commands" else schema_markdown(match[2])

    return MARK.sub(made, markdown)
