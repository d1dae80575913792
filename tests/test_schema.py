"""The committed JSON Schemas equal the generated ones, and every YAML file points an editor at its schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from printkit.core import assets, project
from printkit.data import schema

ROOT = Path(__file__).resolve().parent.parent
# a game's examples.yaml (the booklet's scripts of play) has no schema: its loader checks it, step by step against
# the engine's legal actions, which no schema can express
YAML_FILES = sorted(p for p in (ROOT / "cards").glob("*/*.yaml") if p.name != "examples.yaml")
SCHEMAS = assets.schema_folder()


@pytest.mark.parametrize("name", sorted([*schema.SCHEMAS, schema.CARDS]))
def test_committed_schema_is_current(name: str) -> None:
    assert (SCHEMAS / name).read_text(encoding="utf-8") == schema.render(name), (
        "run `printkit schema` and commit the result"
    )


def test_each_bundled_game_s_card_schema_is_current() -> None:
    assert schema.stale(project.find(ROOT)) == [], "run `printkit schema` and commit the result"
    assert len(list(SCHEMAS.glob("cards-*.schema.json"))) == 5


@pytest.mark.parametrize("path", YAML_FILES, ids=[f"{p.parent.name}/{p.name}" for p in YAML_FILES])
def test_yaml_file_names_its_schema_and_meets_it(path: Path) -> None:
    name = "game.schema.json" if path.name == "game.yaml" else schema.game_schema_name(path.parent.name)
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == schema.modeline(name, path, project.find(ROOT)).rstrip("\n")
    ref = first.split("$schema=", 1)[1]
    assert (path.parent / ref).resolve() == (SCHEMAS / name).resolve()
    document = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    jsonschema.validate(yaml.safe_load(path.read_text(encoding="utf-8")), document)


def test_schema_rejects_what_the_loader_rejects() -> None:
    document = json.loads((SCHEMAS / "cards.schema.json").read_text(encoding="utf-8"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"cards": [{"id": "a", "kind": "plain", "name": "A", "helth": 3}]}, document)
    battle_line = json.loads((SCHEMAS / schema.game_schema_name("battle-line")).read_text(encoding="utf-8"))
    jsonschema.validate(
        {"cards": [{"id": "a", "kind": "troop", "name": "A", "colour": "red", "value": 1}]}, battle_line
    )
    for wrong in ({"value": 0}, {"colour": "rad"}, {"valeu": 1}):
        card = {"id": "a", "kind": "troop", "name": "A", "colour": "red", "value": 1} | wrong
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"cards": [card]}, battle_line)
