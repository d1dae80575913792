"""The documentation site: it builds in strict mode (a broken link, a missing page or a picture printkit cannot
draw fails it), and its reference pages are written from printkit's own JSON Schemas."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def hooks():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import hooks as module
    finally:
        sys.path.remove(str(ROOT / "docs"))
    return module


def test_the_docs_build_in_strict_mode(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(tmp_path)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "images" / "first-game" / "first-card.png").read_bytes().startswith(b"\x89PNG")
    commands = (tmp_path / "reference" / "commands" / "index.html").read_text(encoding="utf-8")
    assert "printkit build" in commands and "--duplex" in commands


@pytest.mark.parametrize("name", ["game", "cards", "layout", "play"])
def test_every_top_level_field_of_each_schema_is_in_its_reference(hooks, name: str) -> None:  # type: ignore[no-untyped-def]
    schema = json.loads((ROOT / "printkit" / "schema" / f"{name}.schema.json").read_text(encoding="utf-8"))
    text = hooks.schema_markdown(name)
    for field in schema.get("properties", {}):
        assert f"| `{field}`" in text, field
    for title, node in schema.get("$defs", {}).items():
        assert f"### {title}" in text
        for field in node.get("properties", {}):
            assert f"| `{field}`" in text, (title, field)
