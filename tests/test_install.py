"""printkit as a user installs it: an sdist, a wheel built from it, a fresh virtual environment outside the checkout.

From an empty folder the installed command runs every command the README shows (its quick start),
and in another every command the docs show, the tutorial's first; then it validates, builds,
exports and plays the bundled Battle Line, with nothing read from or written to the checkout.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a wheel built and installed, then every command shown run: CI's second run
ROOT = Path(__file__).resolve().parent.parent
ASSETS = (
    "layouts/troop.yaml",
    "layouts/printshops.yaml",
    "templates/booklet.html.j2",
    "cards/battle-line/rules.md",
    "docs/guides/spreadsheets.md",  # the guide's pages, for printkit help
)


def _run(command: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


def shown_commands(page: Path) -> list[str]:
    """Every printkit command (and the mkdir that readies a place for one) of a page's sh blocks, in order."""
    text = page.read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.S)
    return [
        line.strip().split("  #")[0].strip()
        for block in blocks
        for line in block.splitlines()
        if line.strip().startswith(("printkit ", "mkdir "))
    ]


def readme_commands() -> list[str]:
    """The README's commands: its quick start."""
    return shown_commands(ROOT / "README.md")


def docs_pages() -> list[Path]:
    """The documentation's pages in the order of mkdocs.yml's nav: the tutorial first, then the guides."""
    import yaml

    def walk(node: object) -> list[str]:
        if isinstance(node, str):
            return [node]
        if isinstance(node, list):
            return [page for item in node for page in walk(item)]
        if isinstance(node, dict):
            return [page for value in node.values() for page in walk(value)]
        return []

    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
    return [ROOT / "docs" / page for page in walk(nav)]


def docs_commands() -> list[str]:
    """Every command the docs show, page by page in the nav's order."""
    return [command for page in docs_pages() for command in shown_commands(page)]


def _run_all(commands: list[str], folder: Path, env: dict[str, str]) -> None:
    for command in commands:
        done = subprocess.run(
            ["sh", "-c", command], cwd=folder, env={**env, "HOME": str(folder)}, capture_output=True, text=True
        )
        assert done.returncode == 0, f"{command} exited {done.returncode}: {done.stderr}"
        assert "Traceback" not in done.stderr, command


def _pins(text: str) -> dict[str, str]:
    """A constraints file's versions by canonical name."""
    from packaging.utils import canonicalize_name

    rows = [line.split("==") for line in text.splitlines() if line and not line.startswith("#")]
    assert all(len(row) == 2 for row in rows), text
    return {canonicalize_name(name): version for name, version in rows}


def test_constraints_pin_every_dependency_in_its_range_as_the_readme_command_writes_them(tmp_path: Path) -> None:
    """constraints.txt holds a version of every requirement pyproject.toml names, extras included, inside its
    range; the command the README names writes, from this environment, each package of printkit's tree at its
    installed version and nothing outside it; CI installs with the file."""
    import tomllib
    from importlib import metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [Requirement(text) for text in project["dependencies"]]
    wanted += [Requirement(text) for extra in project["optional-dependencies"].values() for text in extra]
    pinned = _pins((ROOT / "constraints.txt").read_text(encoding="utf-8"))
    for requirement in wanted:
        version = pinned.get(canonicalize_name(requirement.name))
        assert version and requirement.specifier.contains(version, prereleases=True), (str(requirement), version)

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert ".venv/bin/python tests/constraints.py" in readme and "-c constraints.txt" in readme
    assert "pip install -e '.[test]' -c constraints.txt" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    written = tmp_path / "constraints.txt"
    command = [sys.executable, str(ROOT / "tests" / "constraints.py"), "--out", str(written)]
    subprocess.run(command, check=True, capture_output=True, timeout=120)
    fresh = _pins(written.read_text(encoding="utf-8"))
    assert {canonicalize_name(r.name) for r in wanted} <= set(fresh)
    assert all(metadata.version(name) == version for name, version in fresh.items())
    assert "pip" not in fresh and "printkit-studio" not in fresh  # the installer and the project itself are no pins
    check = subprocess.run([*command, "--check"], capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stderr
    written.write_text(written.read_text(encoding="utf-8").replace("==", "==0", 1))
    assert subprocess.run([*command, "--check"], capture_output=True, timeout=120).returncode == 1


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A fresh virtual environment with printkit (and its tune extra) installed from a wheel built from its sdist."""
    dist = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(ROOT)], ROOT, dict(os.environ))
    (sdist,) = dist.glob("*.tar.gz")
    (wheel,) = dist.glob("*.whl")
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    assert all(any(n.endswith(asset) for n in names) for asset in ASSETS), "the sdist lacks printkit's own files"
    names = zipfile.ZipFile(wheel).namelist()
    assert all(f"printkit/assets/{asset}" in names for asset in ASSETS), "the wheel lacks printkit's own files"
    assert "printkit/schema/game.schema.json" in names
    venv = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], venv, dict(os.environ))
    python = venv / "bin" / "python"
    _run(
        # with the tune extra, as the README installs it before its tune example
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-compile", f"{wheel}[tune]"],
        venv,
        {**os.environ},
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    where = _run([str(python), "-c", "import printkit, engine; print(printkit.__file__, engine.__file__)"], venv, env)
    assert str(ROOT) not in where and str(venv) in where
    return venv, env


def test_every_readme_command_works_in_a_fresh_shell(installed: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    _, env = installed
    commands = readme_commands()
    assert commands[:2] == ["printkit init", 'printkit new "My First Game"']  # the quick start, from an empty folder
    _run_all(commands, tmp_path, env)
    made = tmp_path / "output"
    assert (made / "my-first-game" / "print-and-play-a4.pdf").is_file()
    assert (made / "reference" / "index.html").is_file()


def test_every_docs_command_works_in_a_fresh_shell(installed: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    """The tutorial's commands from an empty folder, then every guide's and reference page's, in the nav's order."""
    _, env = installed
    assert [page.name for page in docs_pages()[:3]] == ["index.md", "install.md", "first-game.md"]
    commands = docs_commands()
    assert commands[:2] == ["printkit init", 'printkit new "My First Game"']
    assert len(commands) >= 40
    _run_all(commands, tmp_path, env)
    made = tmp_path / "output"
    assert (made / "my-first-game" / "cards-a4.pdf").is_file()
    assert (made / "skirmish" / "preview" / "units.png").is_file()
    assert (made / "reference" / "index.html").is_file()
    assert (made / "battle-line" / "balance" / "results.json").is_file()


def test_the_bundled_battle_line_validates_builds_exports_and_plays(
    installed: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    _, env = installed
    out = _run(["printkit", "validate", "battle-line"], tmp_path, env)
    assert out.startswith("ok  battle-line (bundled): Battle Line")
    _run(["printkit", "build", "battle-line", "--paper", "a4"], tmp_path, env)
    made = tmp_path / "output" / "battle-line"
    for name in ("cards-a4.pdf", "boards-a4.pdf", "print-and-play-a4.pdf", "rules-a5.pdf", "rules-a4.pdf"):
        assert (made / name).read_bytes().startswith(b"%PDF"), name
    assert 'href="battle-line/index.html"' in (tmp_path / "output" / "reference" / "index.html").read_text()
    _run(["printkit", "export", "png", "battle-line", "--dpi", "60"], tmp_path, env)
    assert len(list((made / "png" / "troops").glob("*.png"))) == 61  # 60 Troops and the back
    out = _run(["printkit", "simulate", "battle-line", "--games", "8", "--seed", "3"], tmp_path, env)
    assert re.search(r"seat 1 wins \d", out)
    assert (made / "balance" / "report.pdf").read_bytes().startswith(b"%PDF")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["output"]  # everything went to the folder's output/
    page = _run(["printkit", "help", "spreadsheets"], tmp_path, env)  # the guide travels with the wheel
    assert page.startswith("# Cards from a spreadsheet\n") and "(printkit help " in page
