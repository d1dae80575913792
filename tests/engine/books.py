"""What the rules-language tests share: a book against its engine, a mangled line, engine-test, the guide's books."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from engine import agents, runner
from engine.api import GameDef
from printkit.cli import main

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guides" / "rules-language.md"


def guide_example(heading: str) -> str:
    """The first YAML example under the rules-language guide's section of that heading: a book the tests play."""
    section = GUIDE.read_text().split(f"## {heading}", 1)[1]
    return section.split("```yaml\n", 1)[1].split("```", 1)[0]


def same_games(hand: GameDef, written: GameDef, names: Sequence[str], seeds: range, lead: bool = False) -> None:
    """The hand-written engine and the book play every seed's game alike: their whole records are equal."""
    for seed in seeds:
        a = runner.play(hand, [agents.make(n) for n in names], seed, lead=lead).to_json()
        b = runner.play(written, [agents.make(n) for n in names], seed, lead=lead).to_json()
        assert a == b, f"seed {seed}: {[k for k in a if a[k] != b[k]]} differ"


def mangled(lines: list[str], rng: random.Random, at: Sequence[int], words: Sequence[str]) -> list[str]:
    """The lines with one of those at mangled: a character dropped, a word swapped for one of words, or the line cut."""
    out = list(lines)
    i = rng.choice(at)
    parts = out[i].split(" ")
    k = rng.randrange(len(parts))
    how = rng.randrange(3)
    parts[k] = parts[k][1:] if how == 0 else rng.choice(words) if how == 1 else ""
    out[i] = " ".join(parts) if how < 2 else ""
    return out


def engine_test_of_the_book(
    folder: Path, engine: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The game in folder played from its play.yaml (its engine: line made play) passes `printkit engine-test`."""
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace(f"engine: {engine}", "engine: play", 1))
    monkeypatch.chdir(folder.parent)
    capsys.readouterr()
    assert main(["engine-test", str(folder), "--seeds", "30"]) == 0
    assert f"ok  {folder.name}: the play engine keeps the game API in 30 random games" in capsys.readouterr().out
