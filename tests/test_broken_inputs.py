"""Every folder under tests/broken/ is a game with one kind of mistake and the exact lines it must report."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from printkit.cli import main

CASES = sorted(p for p in (Path(__file__).parent / "broken").iterdir() if p.is_dir())


def _prepare(case: Path, tmp: Path) -> None:
    shutil.copytree(case / "game", tmp / "game")
    spec = case / "case.yaml"
    if spec.is_file():  # files too big to commit are grown here
        pad = yaml.safe_load(spec.read_text())["pad"]
        target = tmp / pad["file"]
        text = target.read_bytes()
        target.write_bytes(text + b"#" * (pad["bytes"] - len(text)))


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= 25


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_broken_input_is_reported_exactly(
    case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _prepare(case, tmp_path)
    monkeypatch.chdir(tmp_path)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))

    assert main(["validate", "game"]) == 2
    out, err = capsys.readouterr()
    expected = (case / "expected.txt").read_text(encoding="utf-8").splitlines()
    assert out == ""
    assert err.splitlines() == expected
    for line in expected:
        if line.startswith("note: "):  # a game that stops early says where, in a line of its own
            continue
        file, row, column, message = line.split(":", 3)
        assert file.startswith("game/") and row.isdigit() and column.isdigit() and message.strip()

    # build stops before writing anything
    assert main(["build", "game", "--out", str(tmp_path / "out")]) == 2
    assert "Traceback" not in capsys.readouterr().err
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
