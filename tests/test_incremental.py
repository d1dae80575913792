"""Incremental builds: a build after an edit makes again only the parts the edit touches, leaves the other files
untouched, and ends with the very bytes a cold build of the same input writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from printkit.cli import main


def _state(out: Path) -> dict[str, tuple[bytes, int]]:
    """Each output file's bytes and modification time, by its path in out."""
    return {
        str(p.relative_to(out)): (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(out.rglob("*")) if p.is_file()
    }


def _bytes(out: Path) -> dict[str, bytes]:
    return {name: data for name, (data, _) in _state(out).items()}


def _rewritten(before: dict[str, tuple[bytes, int]], after: dict[str, tuple[bytes, int]]) -> set[str]:
    return {name for name in after if before.get(name) != after[name]}


def _cold(tmp_path: Path, name: str) -> dict[str, bytes]:
    """A build of the project as it is now into a new folder, which no earlier build wrote."""
    assert main(["build", "--no-check", "-q", "--out", str(tmp_path / name)]) == 0
    return _bytes(tmp_path / name)


def test_an_edit_remakes_only_what_reads_it_and_ends_as_a_cold_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0
    assert main(["new", "Kept", "-q"]) == 0
    out = tmp_path / "output"
    assert main(["build", "--no-check", "-q"]) == 0
    first = _state(out)

    assert main(["build", "--no-check", "-q"]) == 0  # nothing changed: nothing written
    assert _state(out) == first

    rules = tmp_path / "cards" / "kept" / "rules.md"
    rules.write_text(rules.read_text().replace("Say what the players", "Tell what the players"))
    assert main(["build", "--no-check", "-q"]) == 0
    after_rules = _state(out)
    rewritten = _rewritten(first, after_rules)
    assert {"kept/rules-a4.pdf", "kept/rules-a5.pdf", "kept/print-and-play-a4.pdf"} <= rewritten
    assert not {name for name in rewritten if name.startswith("kept/cards-") or name.startswith("kept/boards-")}
    assert _bytes(out) == _cold(tmp_path, "cold-rules")

    cards = tmp_path / "cards" / "kept" / "cards.yaml"
    cards.write_text(cards.read_text().replace("Write what this card does.", "Draw two cards.", 1))
    assert main(["build", "--no-check", "-q"]) == 0
    rewritten = _rewritten(after_rules, _state(out))
    assert {"kept/cards-a4.pdf", "kept/cards-letter.pdf", "kept/print-and-play-a4.pdf"} <= rewritten
    assert "reference/kept/cards.html" in rewritten  # the site shows the card's text
    assert "duplex-calibration-a4.pdf" not in rewritten  # made again, the same bytes: not written
    assert _bytes(out) == _cold(tmp_path, "cold-cards")


def test_an_output_changed_by_hand_is_made_again_whatever_the_record_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "-q"]) == 0
    assert main(["new", "Mended", "-q"]) == 0
    out = tmp_path / "output"
    assert main(["build", "--no-check", "-q", "--only", "cards,rules"]) == 0
    whole = _bytes(out)
    (out / "mended" / "cards-a4.pdf").write_bytes(b"not the sheet")
    (out / "mended" / "rules-a5.pdf").unlink()
    assert main(["build", "--no-check", "-q", "--only", "cards,rules"]) == 0
    assert _bytes(out) == whole
