"""The stage packages import one way, downward: core < data < draw < sheets < docs, exports, incremental < build, cli.

The engine stands beside draw: it reads the data (and core), and nothing but the documents and
the command line reads it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# stage -> rank: a module may import its own stage and any stage of a lower rank, not a peer of its rank
RANKS = {
    "printkit.core": 0,
    "printkit.data": 1,
    "printkit.draw": 2,
    "engine": 2,
    "printkit.sheets": 3,
    "printkit.docs": 4,
    "printkit.exports": 4,
    "printkit.incremental": 4,
    "printkit.build": 5,
    "printkit.watch": 5,
    "printkit.cli": 6,
    "printkit.__main__": 7,
}
MODULES = sorted(p for folder in ("printkit", "engine") for p in (ROOT / folder).rglob("*.py"))


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _stage(module: str) -> str | None:
    """The stage a module belongs to: the longest stage name it starts with."""
    found = [s for s in RANKS if module == s or module.startswith(s + ".")]
    return max(found, key=len) if found else None


def _imports(path: Path) -> list[str]:
    """Every printkit or engine module path imports, relative imports made absolute."""
    package = _name(path) if path.name == "__init__.py" else _name(path).rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parent = parts[: len(parts) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            # `from printkit.data import loader` imports printkit.data.loader; a name's prefix names its stage
            out += [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return [m for m in out if m.split(".")[0] in ("printkit", "engine")]


@pytest.mark.parametrize("path", MODULES, ids=[_name(p) for p in MODULES])
def test_a_module_imports_only_its_own_stage_and_those_below(path: Path) -> None:
    here = _stage(_name(path))
    if here is None:  # printkit/__init__.py: the package itself
        assert _imports(path) == []
        return
    for target in _imports(path):
        there = _stage(target)
        if there is None or there == here:
            continue
        assert RANKS[there] < RANKS[here], f"{_name(path)} ({here}) imports {target} ({there})"


def test_every_module_is_in_a_stage_and_every_stage_says_its_job() -> None:
    for path in MODULES:
        assert (path.name == "__init__.py" and path.parent == ROOT / "printkit") or _stage(_name(path)), path
        tree = ast.parse(path.read_text(encoding="utf-8"))
        doc = ast.get_docstring(tree)
        assert doc and doc.strip(), f"{path} needs a docstring saying its job"
    for stage in ("core", "data", "draw", "sheets", "docs", "exports"):
        doc = ast.get_docstring(ast.parse((ROOT / "printkit" / stage / "__init__.py").read_text()))
        assert doc and "\n" not in doc.strip(), f"printkit/{stage}/ needs a one-line docstring"


def test_the_engine_reads_only_the_data() -> None:
    for path in (p for p in MODULES if _stage(_name(p)) == "engine"):
        for target in _imports(path):
            stage = _stage(target)
            assert stage in ("engine", "printkit.data", "printkit.core"), f"{_name(path)} imports {target}"
