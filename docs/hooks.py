"""MkDocs hooks: the reference pages and the pictures are made from printkit itself at every build.

- A page holding `<!-- printkit:commands -->` gets every command's help, as printkit's argument parser prints it.
- A page holding `<!-- printkit:schema NAME -->` gets a table of every field of printkit/schema/NAME.schema.json
  (printkit/core/schemadoc.py writes them, as it does for `printkit help`).
- The pictures the pages show (images/...) are drawn by printkit from a starter game and a bundled one, into a
  temporary folder, and added to the site: no picture is kept in the repository.

tests/test_docs.py calls commands_markdown() and schema_markdown() to check what the pages will say.
"""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from printkit.cli.manual import MARK
from printkit.core.schemadoc import schema_markdown

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
